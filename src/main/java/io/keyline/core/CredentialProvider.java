package io.keyline.core;

import io.keyline.core.exec.CredentialMaterial;
import io.keyline.text.Said;

import java.time.Instant;

/** Where steps obtain credentials; the encrypted store implements it. */
public interface CredentialProvider {

    /** A provider with no credentials at all. */
    CredentialProvider NONE = name -> Lookup.missing(Said.of("core.credential.noneSet", name));

    Lookup lookup(String name);

    /** Records that a step used the credential and what the site said ("ok", "rejected", …). */
    default void recordUse(String name, Instant at, String result) {
    }

    /**
     * The answer of a lookup: the material, or the problem that keeps it from being used.
     *
     * @param material the credential, or {@code null}
     * @param problem  why there is none ("not set", "cannot decrypt …") as words, or {@code null}
     * @param rejected when the site rejected this value and nobody renewed or tested it since: why (it is
     *                 not sent again), else {@code null}
     */
    record Lookup(CredentialMaterial material, Said problem, Said rejected) {
        /** The words of a value that cannot be decrypted: {@code cannot decrypt credential NAME: why}. */
        public static final String CANNOT_DECRYPT = "core.credential.cannotDecrypt";


        public static Lookup found(CredentialMaterial m) {
            return new Lookup(m, null, null);
        }

        /** A stored value the site rejected: usable only by {@code credentials test}. */
        public static Lookup rejected(CredentialMaterial m, Said why) {
            return new Lookup(m, null, why);
        }

        public static Lookup missing(Said problem) {
            return new Lookup(null, problem, null);
        }

        /** Whether the value is stored but cannot be decrypted (the master key is not the one it was stored with). */
        public boolean undecryptable() {
            return material == null && problem != null && CANNOT_DECRYPT.equals(problem.key());
        }

        public boolean present() {
            return material != null;
        }
    }
}
