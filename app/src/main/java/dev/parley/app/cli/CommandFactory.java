package dev.parley.app.cli;

import java.lang.reflect.Constructor;
import picocli.CommandLine;

/**
 * Creates the command objects for picocli, handing the {@link Terminal} to every command whose
 * constructor takes one; everything else comes from picocli's default factory.
 */
public final class CommandFactory implements CommandLine.IFactory {
    private final Terminal terminal;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    public CommandFactory(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
        for (Constructor<?> c : cls.getDeclaredConstructors()) {
            Class<?>[] params = c.getParameterTypes();
            if (params.length == 1 && params[0] == Terminal.class) {
                c.setAccessible(true);
                return cls.cast(c.newInstance(terminal));
            }
        }
        return fallback.create(cls);
    }
}
