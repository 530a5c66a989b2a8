package io.keyline.app;

import io.keyline.cli.KeylineCli;

/**
 * Entry point of {@code keyline.jar}: with a command it is the CLI; without one it opens the
 * console. (Not a JavaFX {@code Application}, so the jar runs from the class path.)
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // before anything can touch H2: its settings are read once per JVM
        io.keyline.core.StartupTrace.mark("main");
        io.keyline.store.h2.H2Lockdown.apply();
        // a lambda, not ConsoleApp::run: linking a method reference loads ConsoleApp and with it JavaFX's scene
        // classes, which a command run from cron never needs
        int code = KeylineCli.executeAsProcess(args, (ws, env) -> ConsoleApp.run(ws, env));
        io.keyline.core.StartupTrace.mark("command done, exiting");
        System.exit(code);
    }
}
