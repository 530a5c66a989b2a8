package io.keyline.core;

import io.keyline.core.exec.CredentialMaterial;
import java.time.Instant;

/** Where steps obtain credentials; the encrypted store implements it. */
public interface CredentialProvider {

    /** A provider with no credentials at all. */
    CredentialProvider NONE = name -> Lookup.missing("credential \"" + name + "\" is not set");

    Lookup lookup(String name);

    /** Records that a step used the credential and what the site said ("ok", "rejected", …). */
    default void recordUse(String name, Instant at, String result) {
    }

    /**
     * The answer of a lookup: the material, or the problem that keeps it from being used.
     *
     * @param material the credential, or {@code null}
     * @param problem  why there is none ("not set", "cannot decrypt …"), or {@code null}
     * @param rejected when the site rejected this value and nobody renewed or tested it since: why (it is
     *                 not sent again), else {@code null}
     */
    record Lookup(CredentialMaterial material, String problem, String rejected) {
        public Lookup(CredentialMaterial material, String problem) {
            this(material, problem, null);
        }

        public static Lookup found(CredentialMaterial m) {
            return new Lookup(m, null, null);
        }

        /** A stored value the site rejected: usable only by {@code credentials test}. */
        public static Lookup rejected(CredentialMaterial m, String why) {
            return new Lookup(m, null, why);
        }

        public static Lookup missing(String problem) {
            return new Lookup(null, problem, null);
        }

        public boolean present() {
            return material != null;
        }
    }
}
