package io.keyline.credentials;

import io.keyline.text.Said;
import io.keyline.text.SaidException;

/**
 * Thrown when the master key is unusable: a malformed {@code KEYLINE_MASTER_KEY}, or a key file that is
 * malformed or accessible to other users. The message says what is expected and how to fix it, in the language in
 * use when it is shown ({@link #getMessage}), in English for logs ({@link #english}).
 */
public class MasterKeyException extends SaidException {
    private static final long serialVersionUID = 1L;

    /** @param said what is wrong and what is expected, as words; never contains key material */
    public MasterKeyException(Said said) {
        super(said);
    }
}
