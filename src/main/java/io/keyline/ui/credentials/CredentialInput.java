package io.keyline.ui.credentials;

import io.keyline.credentials.Cookie;
import io.keyline.credentials.CredentialFormatException;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.credentials.ParsedCredential;
import io.keyline.text.Text;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the operator pasted or dropped into the Renew dialog, parsed as it changes (pure and fast, on
 * the UI thread): the cookies with their values masked, a masked echo of the input for the box itself
 * ("sessionid=•••••••• (32 characters)"), or the parser's message. Only {@link #textProperty()} holds
 * the secret.
 */
public final class CredentialInput {

    /** Files bigger than this are not a cookie export. */
    static final long MAX_FILE_BYTES = 1 << 20;
    static final String MASK = "***";

    /**
     * One parsed cookie (or the token or header of a bearer/header credential) as the preview shows it.
     *
     * @param name     cookie or header name
     * @param value    always {@value #MASK}
     * @param domain   domain ({@code .example.com} includes subdomains), or "any host"
     * @param path     path
     * @param secure   https only
     * @param httpOnly hidden from scripts
     * @param expires  expiry, or {@code null} for a session cookie (or a token)
     */
    public record CookieRow(String name, String value, String domain, String path, boolean secure, boolean httpOnly,
                            Instant expires) {
    }

    /**
     * What the input reads as, all of it from one parse.
     *
     * @param masked     the masked echo the box shows ("Cookie: sessionid=•••••••• (32 characters)"), or empty
     * @param summary    "2 cookies · fingerprint 1a2b3c4d · earliest expiry …", or empty
     * @param parseError the parser's message (line or index, field, problem), or empty
     * @param dropped    what was left out of a valid input, by cookie name ("Left out 1 cookie a request cannot
     *                   carry: nickname"), or empty
     * @param valid      whether the input is a credential that can be saved
     */
    public record Reading(String masked, String summary, String parseError, String dropped, boolean valid) {
        static final Reading EMPTY = new Reading("", "", "", "", false);
    }

    private final Threads threads;
    private final ObjectProperty<CredentialType> type = new SimpleObjectProperty<>(this, "type", CredentialType.COOKIE);
    private final StringProperty domain = new SimpleStringProperty(this, "domain", "");
    private final StringProperty text = new SimpleStringProperty(this, "text", "");
    private final ObservableList<CookieRow> preview = FXCollections.observableArrayList();
    private final ObservableList<CookieRow> previewView = FXCollections.unmodifiableObservableList(preview);
    private final ReadOnlyObjectWrapper<Reading> reading = new ReadOnlyObjectWrapper<>(this, "reading", Reading.EMPTY);
    private final ReadOnlyStringWrapper loadedFile = new ReadOnlyStringWrapper(this, "loadedFile", "");
    private ParsedCredential parsed;
    private boolean loadingFile;

    CredentialInput(Threads threads) {
        this.threads = threads;
        text.addListener((o, a, b) -> {
            if (!loadingFile) {
                loadedFile.set("");
            }
            reparse();
        });
        type.addListener((o, a, b) -> reparse());
        domain.addListener((o, a, b) -> reparse());
    }

    private void reparse() {
        String t = text.get();
        preview.clear();
        parsed = null;
        String pasted = t == null || t.isEmpty() ? "" : Text.t("ui.credential.pasted", t.length());
        if (t == null || t.isBlank()) {
            reading.set(new Reading(pasted, "", "", "", false));
            return;
        }
        String d = domain.get() == null || domain.get().isBlank() ? null : domain.get().strip();
        try {
            CredentialParser.Parsed read = CredentialParser.parseInput(type.get(), t, d);
            ParsedCredential p = read.credential();
            parsed = p;
            preview.setAll(rows(p));
            reading.set(new Reading(echo(p), summaryOf(p), "", read.dropped().isEmpty() ? ""
                    : Text.t("ui.credential.dropped", read.dropped().size(), String.join(", ", read.dropped())), true));
        } catch (CredentialFormatException e) {
            reading.set(new Reading(pasted, "", e.getMessage(), "", false));
        }
    }

    static List<CookieRow> rows(ParsedCredential p) {
        return switch (p.type()) {
            case COOKIE -> p.cookies().stream().map(CredentialInput::row).toList();
            case BEARER -> List.of(new CookieRow("Authorization", "Bearer " + MASK, Text.t("ui.credential.stepHosts"), "/", false,
                    false, null));
            case HEADER -> List.of(new CookieRow(p.headerName(), MASK, Text.t("ui.credential.stepHosts"), "/", false, false, null));
            case BASIC -> List.of(new CookieRow("Authorization", "Basic " + MASK, Text.t("ui.credential.stepHosts"), "/",
                    false, false, null));
            case OAUTH2 -> List.of(new CookieRow("Authorization", "Bearer " + MASK, Text.t("ui.credential.stepHosts"), "/",
                    false, false, null));
        };
    }

    /** One cookie as the preview shows it (the login window's preview too): its value masked. */
    public static CookieRow row(Cookie c) {
        String d = c.domain() == null ? Text.t("ui.credential.anyHost") : (c.includeSubdomains() ? "." : "") + c.domain();
        return new CookieRow(c.name(), MASK, d, c.path(), c.secure(), c.httpOnly(), c.expires());
    }

    /** The input as the box shows it while masked: names and shapes, never a value ("a=•••• (12 characters)"). */
    static String echo(ParsedCredential p) {
        return switch (p.type()) {
            case COOKIE -> "Cookie: " + String.join("; ", p.cookies().stream().map(c -> c.name() + "="
                    + dots(c.value().length())).toList());
            case BEARER -> "Authorization: Bearer ••••••••";
            case HEADER -> p.headerName() + ": ••••••••";
            case BASIC -> p.user() + ":••••••••";
            case OAUTH2 -> {
                // the field names as the input writes them; the two secrets masked
                List<String> f = io.keyline.credentials.OAuthGrant.FIELDS;
                yield String.join("\n", f.get(0) + "=" + p.oauth().tokenUrl(), f.get(1) + "=" + p.oauth().clientId(),
                        f.get(2) + "=••••••••", f.get(3) + "=••••••••");
            }
        };
    }

    private static String dots(int n) {
        return "•".repeat(Math.min(8, Math.max(3, n))) + " " + Text.t("ui.credential.characters", n);
    }

    static String summaryOf(ParsedCredential p) {
        StringBuilder sb = new StringBuilder();
        switch (p.type()) {
            case COOKIE -> sb.append(Text.t("ui.credentials.cookies", p.cookies().size()));
            case BEARER -> sb.append(Text.t("ui.credential.type.bearer"));
            case HEADER -> sb.append(Text.t("ui.credential.headerNamed", p.headerName()));
            case BASIC -> sb.append(Text.t("ui.credential.basicFor", p.user()));
            case OAUTH2 -> sb.append(Text.t("ui.credential.oauthFor", p.oauth().clientId(), p.oauth().tokenUrl()));
        }
        sb.append(" · ").append(Text.t("ui.credential.fingerprint", p.fingerprint()));
        p.earliestExpiry().ifPresentOrElse(
                t -> sb.append(" · ").append(Text.t("ui.credential.earliestExpiry", Format.time(t))),
                () -> sb.append(p.type() == CredentialType.COOKIE ? " · " + Text.t("ui.credential.sessionOnly") : ""));
        return sb.toString();
    }

    /** Reads a dropped or opened {@code cookies.txt} or JSON export into the input (in the background). */
    public void loadFile(Path file, Consumer<String> failed) {
        threads.submit(() -> {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new IOException(Text.t("ui.credential.fileTooBig", size / 1024));
            }
            // a bounded read: a device or a pipe says size 0 and never ends
            try (java.io.InputStream in = Files.newInputStream(file)) {
                return CredentialParser.readInput(in, file.getFileName().toString());
            }
        }, t -> {
            loadingFile = true;
            try {
                loadedFile.set(file.getFileName().toString());
                text.set(t);
            } finally {
                loadingFile = false;
            }
        }, e -> failed.accept(Text.t("ui.credential.fileUnreadable", file.getFileName(), e.getMessage() == null
                ? e.getClass().getSimpleName() : e.getMessage())));
    }

    /** Forgets the input (after saving, or when the operator clears it). */
    public void clear() {
        text.set("");
        loadedFile.set("");
    }

    /** The parsed value, or {@code null} when the input is empty or invalid. */
    ParsedCredential parsed() {
        return parsed;
    }

    public ObjectProperty<CredentialType> typeProperty() {
        return type;
    }

    /** Host a {@code Cookie:} header line belongs to; empty = any host the steps send to. */
    public StringProperty domainProperty() {
        return domain;
    }

    /** What the operator pasted (the only property that holds the secret). */
    public StringProperty textProperty() {
        return text;
    }

    /** The parsed cookies (or token/header), values masked. */
    public ObservableList<CookieRow> preview() {
        return previewView;
    }

    /** What the input reads as: its masked echo, summary, parse error, what was left out, whether it is valid. */
    public ReadOnlyObjectProperty<Reading> readingProperty() {
        return reading.getReadOnlyProperty();
    }

    /** Name of the file the input was loaded from, or empty when it was typed or pasted. */
    public ReadOnlyStringProperty loadedFileProperty() {
        return loadedFile.getReadOnlyProperty();
    }
}
