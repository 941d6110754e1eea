package dev.parley.models.download;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Safe unpacking of Vosk-style zip archives (one top folder). */
class ZipUnpackerTest {
    @TempDir
    Path dir;

    private Path zip(String... nameAndContent) throws IOException {
        Path z = dir.resolve("archive.zip");
        try (OutputStream os = Files.newOutputStream(z); ZipOutputStream zos = new ZipOutputStream(os)) {
            for (int i = 0; i < nameAndContent.length; i += 2) {
                zos.putNextEntry(new ZipEntry(nameAndContent[i]));
                if (nameAndContent[i + 1] != null) {
                    zos.write(nameAndContent[i + 1].getBytes(StandardCharsets.UTF_8));
                }
                zos.closeEntry();
            }
        }
        return z;
    }

    private List<String> listing(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void unpacksTheTopFolderIntoPlace() throws IOException {
        Path z = zip("model/", null, "model/am/final.mdl", "acoustic", "model/conf/model.conf", "--beam=10");
        Path dest = dir.resolve("asr");

        Path out = new ZipUnpacker().unpack(z, dest, "model");

        assertEquals(dest.resolve("model"), out);
        assertEquals("acoustic", Files.readString(out.resolve("am/final.mdl")));
        assertEquals("--beam=10", Files.readString(out.resolve("conf/model.conf")));
        assertEquals(List.of("", "model", "model/am", "model/am/final.mdl", "model/conf", "model/conf/model.conf"),
                listing(dest), "no temporary folder is left behind");
    }

    @Test
    void dotDotEntryIsRefusedAndNothingIsWrittenOutside() throws IOException {
        Path z = zip("model/ok.txt", "fine", "model/../../evil.txt", "pwned");
        Path dest = dir.resolve("store/asr");

        UnsafeArchiveException e = assertThrows(UnsafeArchiveException.class,
                () -> new ZipUnpacker().unpack(z, dest, "model"));

        assertTrue(e.getMessage().contains("'..'"), e.getMessage());
        try (Stream<Path> all = Files.walk(dir)) {
            assertTrue(all.noneMatch(p -> p.getFileName().toString().equals("evil.txt")), "no evil.txt anywhere");
        }
        assertEquals(List.of(""), listing(dest), "the destination stays empty: no model, no temp folder");
    }

    @Test
    void plainDotDotEntryOutsideTheTopFolderIsRefused() throws IOException {
        Path z = zip("../evil", "pwned");
        assertThrows(UnsafeArchiveException.class, () -> new ZipUnpacker().unpack(z, dir.resolve("asr"), "model"));
        assertFalse(Files.exists(dir.resolve("evil")));
    }

    @Test
    void absolutePathEntryIsRefused() throws IOException {
        Path z = zip("/tmp/parley-evil-" + ProcessHandle.current().pid(), "pwned");
        assertThrows(UnsafeArchiveException.class, () -> new ZipUnpacker().unpack(z, dir.resolve("asr"), "model"));
        assertFalse(Files.exists(Path.of("/tmp/parley-evil-" + ProcessHandle.current().pid())));
    }

    @Test
    void symlinkEscapingTheFolderIsRefused() throws IOException {
        Path z = zip("model/ok.txt", "fine", "model/link", "../../../etc/passwd");
        markAsUnixSymlink(z, "model/link");
        Path dest = dir.resolve("asr");

        UnsafeArchiveException e = assertThrows(UnsafeArchiveException.class,
                () -> new ZipUnpacker().unpack(z, dest, "model"));

        assertTrue(e.getMessage().contains("link"), e.getMessage());
        assertEquals(List.of(""), listing(dest));
    }

    @Test
    void archiveWithoutTheExpectedTopFolderIsRefused() throws IOException {
        Path z = zip("other/file", "x");
        assertThrows(UnsafeArchiveException.class, () -> new ZipUnpacker().unpack(z, dir.resolve("asr"), "model"));
    }

    /** Rewrites the central directory record of {@code name} as "made by Unix, mode lrwxrwxrwx". */
    private static void markAsUnixSymlink(Path zip, String name) throws IOException {
        byte[] bytes = Files.readAllBytes(zip);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        for (int p = 0; p + 46 < bytes.length; p++) {
            if (b.getInt(p) == 0x02014b50 && Short.toUnsignedInt(b.getShort(p + 28)) == wanted.length
                    && java.util.Arrays.equals(bytes, p + 46, p + 46 + wanted.length, wanted, 0, wanted.length)) {
                b.putShort(p + 4, (short) ((3 << 8) | 20));
                b.putInt(p + 38, 0120777 << 16);
                Files.write(zip, bytes);
                return;
            }
        }
        throw new IllegalStateException("no central directory record for " + name);
    }
}
