package io.keyline.store.h2;

import org.h2.api.JavaObjectSerializer;

import java.net.InetAddress;

/**
 * What H2 may do inside a Keyline process, fixed before H2 reads its settings.
 *
 * <p>H2 reads these system properties once, when its classes initialise ({@code SysProperties},
 * {@code JdbcUtils}), so they are set by a static initialiser that runs before Keyline touches H2
 * ({@link H2Database}'s, and {@code Main} for good measure) and checked on every open:
 * <ul>
 *   <li>{@code h2.bindAddress}: loopback. The AUTO_SERVER that lets the console and a CLI run share
 *   a state listens on 127.0.0.1 only, never on the machine's other interfaces.</li>
 *   <li>{@code h2.allowedClasses}: only {@link NoJavaObjects} and H2's own TCP server (whose
 *   management database declares {@code STOP_SERVER} as an alias of it). H2 loads no other class by
 *   name: no {@code CREATE ALIAS} / trigger / aggregate class, not even from a database file someone
 *   else prepared.</li>
 *   <li>{@code h2.javaObjectSerializer}: {@link NoJavaObjects}, which refuses: a {@code JAVA_OBJECT}
 *   value is never deserialized in this process.</li>
 * </ul>
 */
public final class H2Lockdown {

    static final String LOOPBACK = InetAddress.getLoopbackAddress().getHostAddress();
    static final String ALLOWED_CLASSES = NoJavaObjects.class.getName() + ",org.h2.server.TcpServer";

    private H2Lockdown() {
    }

    /** Sets the properties (idempotent); must run before any H2 class initialises. */
    public static void apply() {
        System.setProperty("h2.bindAddress", LOOPBACK);
        System.setProperty("h2.allowedClasses", ALLOWED_CLASSES);
        System.setProperty("h2.javaObjectSerializer", NoJavaObjects.class.getName());
    }

    /**
     * Whether H2 runs with these settings in this JVM. False when something initialised H2 before
     * {@link #apply} ran (its settings are then fixed for the life of the JVM).
     */
    static String problem() {
        if (!LOOPBACK.equals(org.h2.engine.SysProperties.BIND_ADDRESS)) {
            return "h2.bindAddress is " + org.h2.engine.SysProperties.BIND_ADDRESS;
        }
        if (!ALLOWED_CLASSES.equals(org.h2.engine.SysProperties.ALLOWED_CLASSES)) {
            return "h2.allowedClasses is " + org.h2.engine.SysProperties.ALLOWED_CLASSES;
        }
        if (!NoJavaObjects.class.getName().equals(org.h2.engine.SysProperties.JAVA_OBJECT_SERIALIZER)) {
            return "h2.javaObjectSerializer is " + org.h2.engine.SysProperties.JAVA_OBJECT_SERIALIZER;
        }
        return null;
    }

    /** Refuses to serialize or deserialize Java objects: Keyline stores none. */
    public static final class NoJavaObjects implements JavaObjectSerializer {
        @Override
        public byte[] serialize(Object obj) {
            throw new UnsupportedOperationException("Keyline stores no Java objects");
        }

        @Override
        public Object deserialize(byte[] bytes) {
            throw new UnsupportedOperationException("Keyline reads no Java objects");
        }
    }
}
