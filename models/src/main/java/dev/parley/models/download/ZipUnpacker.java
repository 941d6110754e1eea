package dev.parley.models.download;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Unpacks a zip archive safely: every entry name is checked before anything is written (no {@code ..} segment, no
 * absolute or drive path, no backslash), symbolic links whose target leaves the folder are refused, the archive is
 * extracted into a temporary folder beside the destination and only its expected top folder is then renamed into
 * place. On any error nothing is left behind.
 */
public final class ZipUnpacker {
    private final long maxUnpackedBytes;

    /** With a bound on the total unpacked size (a defence against zip bombs). */
    public ZipUnpacker(long maxUnpackedBytes) {
        this.maxUnpackedBytes = maxUnpackedBytes;
    }

    /** Bounded at 16 GiB. */
    public ZipUnpacker() {
        this(16L << 30);
    }

    /**
     * Unpacks {@code zip} (whose entries must all lie under {@code topFolder/}) into {@code destParent/topFolder},
     * replacing an older copy, and returns that folder.
     */
    public Path unpack(Path zip, Path destParent, String topFolder) throws DownloadException {
        Path tmp;
        try {
            Files.createDirectories(destParent);
            tmp = Files.createTempDirectory(destParent, ".unpack-");
        } catch (IOException e) {
            throw new IoFailure("cannot create a folder in " + destParent + ": " + e.getMessage(), e);
        }
        try {
            extract(zip, tmp, topFolder);
            Path unpacked = tmp.resolve(topFolder);
            if (!Files.isDirectory(unpacked, LinkOption.NOFOLLOW_LINKS)) {
                throw new UnsafeArchiveException(zip.getFileName() + " has no top folder '" + topFolder + "'");
            }
            Path dest = destParent.resolve(topFolder);
            if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
                deleteTree(dest);
            }
            Files.move(unpacked, dest, StandardCopyOption.ATOMIC_MOVE);
            return dest;
        } catch (IOException e) {
            if (e instanceof DownloadException de) {
                throw de;
            }
            if (LocalFiles.isDiskFull(e)) {
                throw new DiskFullException(destParent, e);
            }
            throw new IoFailure("cannot unpack " + zip.getFileName() + ": " + e.getMessage(), e);
        } finally {
            deleteTreeQuietly(tmp);
        }
    }

    private void extract(Path zip, Path root, String topFolder) throws IOException {
        Set<String> links = ZipCentralDirectory.symlinkEntries(zip);
        List<ZipEntry> linkEntries = new ArrayList<>();
        long total = 0;
        try (ZipFile file = new ZipFile(zip.toFile(), StandardCharsets.UTF_8)) {
            List<ZipEntry> entries = new ArrayList<>();
            for (Enumeration<? extends ZipEntry> en = file.entries(); en.hasMoreElements(); ) {
                ZipEntry entry = en.nextElement();
                checkName(entry.getName(), topFolder, zip);
                entries.add(entry);
            }
            for (ZipEntry entry : entries) {
                Path out = inside(root, entry.getName(), zip);
                if (links.contains(entry.getName())) {
                    linkEntries.add(entry);
                } else if (entry.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    try (InputStream in = file.getInputStream(entry)) {
                        total += copy(in, out, maxUnpackedBytes - total, zip);
                    }
                }
            }
            // links last, so that no entry is ever written through one
            for (ZipEntry entry : linkEntries) {
                String target;
                try (InputStream in = file.getInputStream(entry)) {
                    target = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
                }
                Path link = inside(root, entry.getName(), zip);
                Path resolved = link.getParent().resolve(target).normalize();
                if (target.startsWith("/") || target.startsWith("\\") || !resolved.startsWith(root.resolve(topFolder))) {
                    throw new UnsafeArchiveException(zip.getFileName() + ": link '" + entry.getName() + "' points to '"
                            + target + "', outside the model folder; refusing to unpack");
                }
                Files.createDirectories(link.getParent());
                Files.createSymbolicLink(link, Path.of(target));
            }
        } catch (ZipException e) {
            throw new IoFailure(zip.getFileName() + " is not a valid zip archive: " + e.getMessage(), e);
        }
    }

    private static void checkName(String name, String topFolder, Path zip) throws UnsafeArchiveException {
        String why = null;
        if (name.isEmpty()) {
            why = "an empty name";
        } else if (name.startsWith("/") || name.startsWith("\\") || name.matches("^[A-Za-z]:.*")) {
            why = "an absolute path";
        } else if (name.contains("\\")) {
            why = "a backslash";
        } else if (name.indexOf('\0') >= 0) {
            why = "a NUL character";
        } else {
            for (String segment : name.split("/")) {
                if (segment.equals("..")) {
                    why = "a '..' segment";
                    break;
                }
            }
        }
        if (why == null && !(name.equals(topFolder + "/") || name.startsWith(topFolder + "/"))) {
            why = "a path outside the expected top folder '" + topFolder + "/'";
        }
        if (why != null) {
            throw new UnsafeArchiveException(zip.getFileName() + ": entry '" + name + "' has " + why
                    + "; refusing to unpack");
        }
    }

    private static Path inside(Path root, String name, Path zip) throws UnsafeArchiveException {
        Path out = root.resolve(name).normalize();
        if (!out.startsWith(root) || out.equals(root)) {
            throw new UnsafeArchiveException(zip.getFileName() + ": entry '" + name + "' resolves outside "
                    + "the target folder; refusing to unpack");
        }
        return out;
    }

    private static long copy(InputStream in, Path out, long budget, Path zip) throws IOException {
        long written = 0;
        byte[] buffer = new byte[64 * 1024];
        try (var os = Files.newOutputStream(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                written += n;
                if (written > budget) {
                    throw new UnsafeArchiveException(zip.getFileName() + " unpacks to more than the allowed size");
                }
                os.write(buffer, 0, n);
            }
        }
        return written;
    }

    /** Deletes a folder tree without following links. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(dir);
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void deleteTreeQuietly(Path dir) {
        try {
            deleteTree(dir);
        } catch (IOException ignored) {
            // best effort: a leftover ".unpack-" folder is ignored by the store
        }
    }
}
