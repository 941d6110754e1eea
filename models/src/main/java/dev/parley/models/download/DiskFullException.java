package dev.parley.models.download;

import java.nio.file.Path;

/** Not enough free space to store the download. */
public final class DiskFullException extends DownloadException {
    public DiskFullException(Path dir, long needed, long available) {
        super("not enough disk space in " + dir + ": need " + Bytes.human(needed) + " but only "
                + Bytes.human(available) + " is free");
    }

    public DiskFullException(Path dir, Throwable cause) {
        super("the disk holding " + dir + " is full (" + cause.getMessage() + "); free some space and retry: "
                + "the download resumes where it stopped", cause);
    }
}
