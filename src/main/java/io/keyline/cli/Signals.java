package io.keyline.cli;

import java.lang.reflect.Proxy;

/**
 * SIGTERM and SIGINT for a process that must finish its work before it exits ({@code keyline worker}), or say
 * that it stops (the console).
 *
 * <p>A shutdown hook is too late: the JVM's shutdown also runs the database's own hook, which closes
 * the embedded database while the worker still records the step it let finish. Handling the signal
 * instead lets the worker stop in an orderly way and exit normally. A second signal exits at once
 * (what a step left "started" is the probe's or a person's to decide, as after any crash).
 * {@code sun.misc.Signal} is used by reflection: it is in every JDK (module jdk.unsupported), but
 * naming it in source makes the compiler warn.
 */
public final class Signals {

    private Signals() {
    }

    /**
     * Calls {@code onFirst} on the first SIGTERM or SIGINT (on the signal's thread: it must not block);
     * halts the JVM with 128 + signal on the second.
     *
     * @return whether the handlers are installed (false where the JDK has no {@code sun.misc.Signal})
     */
    static boolean onTerminate(Runnable onFirst) {
        return onTerminate(code -> onFirst.run());
    }

    /**
     * As {@link #onTerminate(Runnable)}, {@code onFirst} given the exit code the signal stands for (143 for SIGTERM,
     * 130 for SIGINT): for a process that exits on the signal, as the JVM would, after a step of its own (the
     * console says it stopped while its database is still open, which a shutdown hook cannot count on).
     */
    public static boolean onTerminate(java.util.function.IntConsumer onFirst) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            java.util.concurrent.atomic.AtomicBoolean seen = new java.util.concurrent.atomic.AtomicBoolean();
            for (String[] s : new String[][] {{"TERM", "143"}, {"INT", "130"}}) {
                Object h = Proxy.newProxyInstance(Signals.class.getClassLoader(), new Class<?>[] {handler},
                        (proxy, method, args) -> {
                            if (!method.getName().equals("handle")) {
                                return method.getName().equals("hashCode") ? System.identityHashCode(proxy)
                                        : method.getName().equals("equals") ? proxy == args[0] : handler.getName();
                            }
                            if (seen.getAndSet(true)) {
                                Runtime.getRuntime().halt(Integer.parseInt(s[1]));
                            }
                            onFirst.accept(Integer.parseInt(s[1]));
                            return null;
                        });
                signal.getMethod("handle", signal, handler).invoke(null,
                        signal.getConstructor(String.class).newInstance(s[0]), h);
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
