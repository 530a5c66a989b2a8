package io.keyline.ui;

/** Where a view sends the operator next; the main window implements it. */
public interface Navigator {

    /** Show the attention inbox. */
    void showInbox();

    /** Show a job's heatmap and key table. */
    void showJob(String job);

    /** Show a key's status timeline. */
    void showTimeline(String job, String key);

    /** Open the confirm dialog of a key that waits for confirmation. */
    void confirm(String job, String key);

    /** Open the credential dialog (renew a login; {@code null} for a new credential). */
    void renewCredential(String name);

    /**
     * Open the login window for a credential: log in on the site's page inside Keyline and use the
     * captured cookies. Where there is no browser, the renew dialog.
     */
    default void logIn(String credential) {
        renewCredential(credential);
    }

    /** Open the dry-run plan of a job. */
    void plan(String job);

    /** Open the dry-run plan of exactly these keys of a job (planned at once). */
    void plan(String job, java.util.List<String> keys);

    /**
     * Show what a retry would send through an unsafe step, and send it only if the operator says so (the Retry
     * dialog). By default nothing is shown, so nothing is sent.
     *
     * @param send retries bound to what was shown (key → payload hash); called at most once, on the UI thread
     */
    default void showRetry(String job, java.util.List<io.keyline.core.operations.RetryAndSend.Send> sends,
                           java.util.function.Consumer<java.util.Map<String, String>> send) {
    }

    /** Reload what the console shows (after an action). */
    void refresh();
}
