package dev.parley.app.serve;

import java.util.Locale;

/**
 * Prometheus's text exposition format (version 0.0.4): {@code # HELP} and {@code # TYPE} lines, then
 * samples {@code name{label="value"} number}. Each metric family is written once, with all its samples.
 */
final class PrometheusText {
    private final StringBuilder out = new StringBuilder();

    /** Starts a family: {@code type} is counter, gauge or summary. */
    PrometheusText family(String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n"))
                .append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /** A sample; {@code labels} are name/value pairs. */
    PrometheusText sample(String name, double value, String... labels) {
        out.append(name);
        if (labels.length > 0) {
            out.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labels[i]).append("=\"").append(labels[i + 1].replace("\\", "\\\\").replace("\"", "\\\"")
                        .replace("\n", "\\n")).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(format(value)).append('\n');
        return this;
    }

    /** A family with one unlabelled sample. */
    PrometheusText single(String name, String type, String help, double value) {
        return family(name, type, help).sample(name, value);
    }

    private static String format(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.6g", v);
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
