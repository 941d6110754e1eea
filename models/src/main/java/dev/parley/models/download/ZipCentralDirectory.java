package dev.parley.models.download;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads the zip central directory for what {@code java.util.zip} does not expose: which entries are Unix symbolic
 * links (made on Unix, external attributes {@code S_IFLNK}). Layout per the PKWARE APPNOTE: end of central directory
 * record {@code 0x06054b50}, central file headers {@code 0x02014b50}.
 */
final class ZipCentralDirectory {
    private static final int EOCD_SIG = 0x06054b50;
    private static final int CEN_SIG = 0x02014b50;
    private static final int S_IFMT = 0170000;
    private static final int S_IFLNK = 0120000;
    private static final int HOST_UNIX = 3;

    private ZipCentralDirectory() {
    }

    static Set<String> symlinkEntries(Path zip) throws IOException {
        Set<String> links = new HashSet<>();
        try (FileChannel ch = FileChannel.open(zip, StandardOpenOption.READ)) {
            long size = ch.size();
            int tail = (int) Math.min(size, 22 + 65535);
            ByteBuffer end = ByteBuffer.allocate(tail).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(end, size - tail);
            int eocd = -1;
            for (int i = tail - 22; i >= 0; i--) {
                if (end.getInt(i) == EOCD_SIG) {
                    eocd = i;
                    break;
                }
            }
            if (eocd < 0) {
                return links; // not a zip: ZipFile reports that with a clear message
            }
            long cdSize = Integer.toUnsignedLong(end.getInt(eocd + 12));
            long cdOffset = Integer.toUnsignedLong(end.getInt(eocd + 16));
            if (cdOffset == 0xFFFFFFFFL || cdSize == 0xFFFFFFFFL || cdOffset + cdSize > size) {
                return links; // zip64 or damaged: entries are then all extracted as plain files, never as links
            }
            ByteBuffer cd = ByteBuffer.allocate((int) cdSize).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(cd, cdOffset);
            int p = 0;
            while (p + 46 <= cdSize && cd.getInt(p) == CEN_SIG) {
                int madeBy = Short.toUnsignedInt(cd.getShort(p + 4)) >>> 8;
                int nameLen = Short.toUnsignedInt(cd.getShort(p + 28));
                int extraLen = Short.toUnsignedInt(cd.getShort(p + 30));
                int commentLen = Short.toUnsignedInt(cd.getShort(p + 32));
                int external = cd.getInt(p + 38);
                if (p + 46 + nameLen > cdSize) {
                    break;
                }
                byte[] name = new byte[nameLen];
                cd.get(p + 46, name);
                if (madeBy == HOST_UNIX && ((external >>> 16) & S_IFMT) == S_IFLNK) {
                    links.add(new String(name, StandardCharsets.UTF_8));
                }
                p += 46 + nameLen + extraLen + commentLen;
            }
        }
        return links;
    }
}
