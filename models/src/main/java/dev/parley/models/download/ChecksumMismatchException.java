package dev.parley.models.download;

/** The downloaded bytes do not have the expected SHA-256; the file has been deleted. */
public final class ChecksumMismatchException extends DownloadException {
    private final String expected;
    private final String actual;

    public ChecksumMismatchException(String what, String expected, String actual) {
        super("checksum mismatch for " + what + ": expected SHA-256 " + expected + " but the download has " + actual
                + "; the file was deleted (corrupted download or a changed file on the server)");
        this.expected = expected;
        this.actual = actual;
    }

    public String expected() {
        return expected;
    }

    public String actual() {
        return actual;
    }
}
