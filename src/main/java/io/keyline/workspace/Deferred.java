package io.keyline.workspace;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;

/**
 * A service that is made on first use: the console's window shows while the state opens in the
 * background (H2 and its migrations are not needed for the first frame). A call blocks until the
 * service exists; calls come from background work, never from the JavaFX thread.
 */
final class Deferred {
    private Deferred() {
    }

    static <T> T of(Class<T> type, Supplier<T> make) {
        Object[] made = new Object[1];
        Supplier<Object> target = () -> {
            synchronized (made) {
                if (made[0] == null) {
                    made[0] = make.get();
                }
                return made[0];
            }
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "Deferred " + type.getSimpleName();
                };
            }
            try {
                return m.invoke(target.get(), args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }
}
