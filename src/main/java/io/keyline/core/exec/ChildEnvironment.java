package io.keyline.core.exec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The environment every child process of Keyline starts from (command steps, command probes,
 * command hooks, the helpers it runs): Keyline's own, without Keyline's own secrets. What a child is
 * given on top (its credential, the outputs of earlier steps, the event of a hook) is added by the
 * caller, after this.
 *
 * <p>Left out: the master key ({@code KEYLINE_MASTER_KEY}, and {@code KEYLINE_MASTER_KEY_FILE}: a
 * child has no business with it), the database password ({@code PGPASSWORD}), a {@code KEYLINE_STATE}
 * URL that carries credentials, and what Keyline sets for one child only ({@code KEYLINE_CREDENTIAL},
 * {@code KEYLINE_COOKIE}, {@code KEYLINE_OUTPUT_*}, the hook variables, the process-tree mark): a value
 * inherited from the process that started Keyline would pass for one of them.
 */
public final class ChildEnvironment {

    private static final Set<String> REMOVED = Set.of("KEYLINE_MASTER_KEY", "KEYLINE_MASTER_KEY_FILE", "PGPASSWORD",
            "KEYLINE_CREDENTIAL", "KEYLINE_COOKIE", ProcessTree.MARK_VARIABLE, "KEYLINE_EVENT", "KEYLINE_MESSAGE",
            "KEYLINE_KEY_STATE");
    private static final List<String> REMOVED_PREFIXES = List.of("KEYLINE_OUTPUT_", "KEYLINE_NOTIFY_");

    private ChildEnvironment() {
    }

    /** {@code parent} without Keyline's secrets (see the class comment). */
    public static Map<String, String> of(Map<String, String> parent) {
        Map<String, String> env = new LinkedHashMap<>();
        parent.forEach((name, value) -> {
            if (!removed(name, value)) {
                env.put(name, value);
            }
        });
        return env;
    }

    /** Replaces the environment of {@code pb} with {@link #of} the process's own, plus {@code extra}. */
    public static ProcessBuilder apply(ProcessBuilder pb, Map<String, String> extra) {
        Map<String, String> env = pb.environment();
        env.clear();
        env.putAll(of(System.getenv()));
        env.putAll(extra);
        return pb;
    }

    private static boolean removed(String name, String value) {
        if (REMOVED.contains(name) || REMOVED_PREFIXES.stream().anyMatch(name::startsWith)) {
            return true;
        }
        return name.equals("KEYLINE_STATE") && carriesCredentials(value);
    }

    /**
     * Whether a state value may carry a password: a URL with a user part ({@code @}) or a
     * {@code password} setting, well-formed or not (a folder never does).
     */
    static boolean carriesCredentials(String value) {
        if (value == null || !value.contains("://")) {
            return false;
        }
        return value.contains("@") || value.toLowerCase(Locale.ROOT).contains("password");
    }
}
