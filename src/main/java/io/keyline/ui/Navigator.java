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
     * Open the login window for a credential (issue 16): log in on the site's page inside Keyline and use the
     * captured cookies. Where there is no browser, the renew dialog.
     */
    default void logIn(String credential) {
        renewCredential(credential);
    }

    /** Open the dry-run plan of a job. */
    void plan(String job);

    /** Reload what the console shows (after an action). */
    void refresh();
}
