package dev.parley.app;

import dev.parley.app.cli.Terminal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;

/**
 * A child JVM for {@link HelpTextTest}: runs {@code --help} on every command and subcommand of the tree and
 * prints, for each, a line {@code == parley CMD | exit CODE | out CHARS | first line of the usage}, then the
 * command's own stderr (indented). Picocli writes its warnings to the JVM's real stderr (fixed when its
 * classes load), so only a fresh JVM shows them: the parent reads this process's stderr.
 */
public final class HelpChild {
    private HelpChild() {
    }

    public static void main(String[] args) {
        PrintStream report = System.out;
        for (List<String> command : commands()) {
            List<String> argv = new ArrayList<>(command);
            argv.add("--help");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Main.run(argv.toArray(String[]::new), new Terminal(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]), false));
            String text = out.toString(StandardCharsets.UTF_8);
            report.println("== parley" + (command.isEmpty() ? "" : " " + String.join(" ", command)) + " | exit " + code
                    + " | out " + text.length() + " | " + text.lines().findFirst().orElse(""));
            err.toString(StandardCharsets.UTF_8).lines().forEach(l -> report.println("    " + l));
        }
        report.flush();
    }

    /** Every command path of the tree, the root first (aliases once). */
    static List<List<String>> commands() {
        Set<List<String>> found = new LinkedHashSet<>();
        walk(Main.commandLine(new Terminal(System.out, System.err, System.in, false)), new ArrayList<>(), found);
        return List.copyOf(found);
    }

    private static void walk(CommandLine cli, List<String> path, Set<List<String>> found) {
        found.add(List.copyOf(path));
        Set<CommandLine> seen = new LinkedHashSet<>(cli.getSubcommands().values());
        for (CommandLine sub : seen) {
            List<String> next = new ArrayList<>(path);
            next.add(sub.getCommandName());
            walk(sub, next, found);
        }
    }
}
