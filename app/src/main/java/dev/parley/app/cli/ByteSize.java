package dev.parley.app.cli;

import java.util.Locale;

/** Sizes as people write them on a command line: {@code 1048576}, {@code 512K}, {@code 512M}, {@code 2G} (binary units). */
final class ByteSize {
    private ByteSize() {
    }

    /**
     * The bytes {@code text} stands for.
     *
     * @throws UsageException when it is not a positive number with an optional K, M or G (B, KiB, MB... accepted)
     */
    static long parse(String option, String text) {
        String s = text.strip().toUpperCase(Locale.ROOT).replace("IB", "").replace("B", "");
        long unit = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> unit = 1L << 10;
                case 'M' -> unit = 1L << 20;
                case 'G' -> unit = 1L << 30;
                default -> unit = 1;
            }
        }
        String digits = unit == 1 ? s : s.substring(0, s.length() - 1).strip();
        try {
            double value = Double.parseDouble(digits);
            if (!(value > 0) || value * unit > Long.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return (long) (value * unit);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " expects a positive size such as 512M or 2G but found '" + text + "'");
        }
    }
}
