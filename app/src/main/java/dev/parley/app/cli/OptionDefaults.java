package dev.parley.app.cli;

import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Default values by long option name, so that shared option groups can have per-command defaults. */
public class OptionDefaults implements CommandLine.IDefaultValueProvider {
    private final Map<String, String> byName;

    protected OptionDefaults(Map<String, String> byName) {
        this.byName = Map.copyOf(byName);
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        return arg instanceof OptionSpec option ? byName.get(option.longestName()) : null;
    }

    /** Raw completion: greedy unless asked otherwise. */
    public static final class Generate extends OptionDefaults {
        public Generate() {
            super(Map.of("--temperature", "0", "--top-k", "40", "--top-p", "0.95", "--min-p", "0.05",
                    "--repeat-penalty", "1.0", "--repeat-last-n", "64", "--seed", "-1"));
        }
    }

    /** Chat: llama.cpp's usual sampling. */
    public static final class Chat extends OptionDefaults {
        public Chat() {
            super(Map.of("--temperature", "0.8", "--top-k", "40", "--top-p", "0.95", "--min-p", "0.05",
                    "--repeat-penalty", "1.0", "--repeat-last-n", "64", "--seed", "-1"));
        }
    }
}
