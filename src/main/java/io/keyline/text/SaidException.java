package io.keyline.text;

/**
 * A failure whose message is words: shown in the language in use ({@link #getMessage}), kept in English for logs
 * and machine output ({@link #english}).
 */
public abstract class SaidException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Said said;

    protected SaidException(Said said) {
        super(said.english());
        this.said = said;
    }

    protected SaidException(Said said, Throwable cause) {
        super(said.english(), cause);
        this.said = said;
    }

    /** What is wrong, in the language in use. */
    @Override
    public String getMessage() {
        return said == null ? super.getMessage() : said.text();
    }

    /** What is wrong, as words (its English text when deserialized: a deserialized exception keeps only that). */
    public Said said() {
        return said == null ? Said.plain(super.getMessage()) : said;
    }

    /** What is wrong, in English (logs, machine output). */
    public String english() {
        return super.getMessage();
    }
}
