package dev.parley.app;

/** Parley's entry point: the composition root (placeholder until the command line lands). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("Parley");
    }
}
