package io.keyline.credentials;

import io.keyline.text.Said;

/**
 * Thrown when the master key is unusable: a malformed {@code KEYLINE_MASTER_KEY}, or a key file that is
 * malformed or accessible to other users. The message says what is expected and how to fix it, in the language in
 * use when it is shown ({@link #getMessage}), in English for logs ({@link #english}).
 */
public class MasterKeyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Said said;

    /** @param said what is wrong and what is expected, as words; never contains key material */
    public MasterKeyException(Said said) {
        super(said.english());
        this.said = said;
    }

    /** What is wrong, in the language in use. */
    @Override
    public String getMessage() {
        return said == null ? super.getMessage() : said.text();
    }

    /** What is wrong, as words (English when {@code null}: a deserialized exception keeps only its text). */
    public Said said() {
        return said == null ? Said.plain(super.getMessage()) : said;
    }

    /** What is wrong, in English. */
    public String english() {
        return super.getMessage();
    }
}
