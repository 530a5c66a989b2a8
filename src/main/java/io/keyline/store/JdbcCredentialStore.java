package io.keyline.store;

import io.keyline.core.CredentialInfo;
import io.keyline.core.exec.ParsedMaterial;
import io.keyline.core.CredentialStore;
import io.keyline.core.StateUnavailableException;
import io.keyline.credentials.CredentialDecryptException;
import io.keyline.credentials.CredentialType;
import io.keyline.credentials.MasterKeyException;
import io.keyline.credentials.ParsedCredential;
import io.keyline.credentials.SecretBox;
import io.keyline.credentials.SiteCookies;
import io.keyline.text.Said;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.keyline.store.Database.instant;
import static io.keyline.store.Database.setInstant;

/**
 * Credentials in the state database, each value encrypted with AES-GCM under the master key
 * ({@code KEYLINE_MASTER_KEY} or {@code state/secret.key}). The master key is only read when a
 * value is stored or used, so listing needs no key.
 */
public final class JdbcCredentialStore implements CredentialStore {

    private static final java.time.format.DateTimeFormatter REJECTED_AT = java.time.format.DateTimeFormatter
            .ofPattern("yyyy-MM-dd HH:mm:ss").withZone(java.time.ZoneId.systemDefault());

    private final Database db;
    private final Map<String, String> env;
    private final Clock clock;
    private SecretBox box;

    public JdbcCredentialStore(Database db, Map<String, String> env, Clock clock) {
        this.db = db;
        this.env = env;
        this.clock = clock;
    }

    private synchronized SecretBox box() {
        if (box == null) {
            SecretBox b;
            try {
                if (db.dialect() == Dialect.POSTGRESQL) {
                    // never a key of our own on a shared state: every machine must use the same one
                    b = SecretBox.given(env).orElseThrow(() -> new MasterKeyException(Said.of(
                            "core.masterKey.sharedStateNeedsKey", db.where(), SecretBox.MASTER_KEY_VARIABLE,
                            SecretBox.MASTER_KEY_FILE_VARIABLE)));
                    checkStateKey(b);
                } else {
                    b = SecretBox.open(db.stateDir(), env);
                }
            } catch (IOException e) {
                throw new MasterKeyException(Said.of("core.masterKey.cannotRead", db.stateDir().toString(),
                        String.valueOf(e.getMessage())));
            }
            box = b;
        }
        return box;
    }

    /** The state setting that names the master key a shared state's credentials are encrypted with. */
    static final String KEY_SETTING = "master_key_fingerprint";

    /**
     * A shared state remembers the fingerprint of its master key (the first process that uses a key
     * records it); a process with another key is refused before it encrypts or decrypts anything.
     */
    private void checkStateKey(SecretBox b) {
        try (Connection c = db.connection()) {
            String stored = null;
            for (int attempt = 0; attempt < 2 && stored == null; attempt++) {
                try (PreparedStatement ps = c.prepareStatement("SELECT setting_value FROM state_setting WHERE name = ?")) {
                    ps.setString(1, KEY_SETTING);
                    try (ResultSet rs = ps.executeQuery()) {
                        stored = rs.next() ? rs.getString(1) : null;
                    }
                }
                if (stored == null) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO state_setting (name, setting_value, updated_at) VALUES (?, ?, ?)")) {
                        ps.setString(1, KEY_SETTING);
                        ps.setString(2, b.keyFingerprint());
                        ps.setLong(3, clock.millis());
                        ps.executeUpdate();
                        stored = b.keyFingerprint();
                    } catch (SQLException e) {
                        if (!db.dialect().uniqueViolation(e)) {
                            throw e;
                        }
                        // another process recorded its key first: read it
                    }
                }
            }
            if (stored != null && !stored.equals(b.keyFingerprint())) {
                throw new MasterKeyException(Said.of("core.masterKey.notTheStates", b.keyFingerprint(), db.where(),
                        stored, SecretBox.MASTER_KEY_VARIABLE));
            }
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.credential.cannotCheckMasterKey", db.where(),
                    Database.firstLine(e.getMessage())), e);
        }
    }

    /**
     * Opens the master key now (a worker checks it when it starts, not at its first credential): on a
     * shared state it must be given and be the state's.
     *
     * @return its fingerprint
     * @throws MasterKeyException when there is none, or it is not the state's
     */
    @Override
    public String checkMasterKey() {
        return box().keyFingerprint();
    }

    /**
     * Stores (replaces) a credential's value; the previous value stays intact if anything fails.
     *
     * @return the info of the stored credential
     */
    @Override
    public CredentialInfo set(String name, ParsedCredential value, String loginUrl, String user) {
        return set(name, value, loginUrl, null, user);
    }

    @Override
    public CredentialInfo set(String name, ParsedCredential value, String loginUrl, Boolean refreshBySite, String user) {
        SecretBox b = box();
        String blob = sealed(b, name, value);
        Instant now = clock.instant();
        Instant expiry = value.earliestExpiry().orElse(null);
        try (Connection c = db.connection()) {
            Transaction.run(c, tx -> {
                int n;
                // the right-hand sides see the row before the update: a new fingerprint forgets the old
                // value's last use and result ("rejected" belongs to the value that was rejected)
                try (PreparedStatement ps = tx.prepareStatement("UPDATE credential SET cred_type = ?, secret = ?, "
                        + "master_key = ?, fingerprint = ?, cookie_count = ?, earliest_expiry = ?, updated_at = ?, "
                        + "updated_by = ?, "
                        + "last_used_at = CASE WHEN fingerprint = ? THEN last_used_at ELSE NULL END, "
                        + "last_result = CASE WHEN fingerprint = ? THEN last_result ELSE NULL END, "
                        + loginUrlUpdate(loginUrl) + ", renewed_fingerprint = ?, refreshed_at = NULL, "
                        + "refresh_by_site = COALESCE(?, refresh_by_site), version = version + 1 WHERE name = ?")) {
                    bind(ps, value, blob, b, expiry, now, user);
                    ps.setString(9, value.fingerprint());
                    ps.setString(10, value.fingerprint());
                    int i = 11;
                    if (loginUrl != null && !loginUrl.isEmpty()) {
                        ps.setString(i++, loginUrl);
                    }
                    ps.setString(i++, value.fingerprint());
                    ps.setObject(i++, refreshBySite, Types.BOOLEAN);
                    ps.setString(i, name);
                    n = ps.executeUpdate();
                }
                if (n == 0) {
                    try (PreparedStatement ps = tx.prepareStatement("INSERT INTO credential (cred_type, secret, "
                            + "master_key, fingerprint, cookie_count, earliest_expiry, updated_at, updated_by, "
                            + "login_url, name, version, renewed_fingerprint, refresh_by_site) "
                            + "VALUES (?,?,?,?,?,?,?,?,?,?,1,?,?)")) {
                        bind(ps, value, blob, b, expiry, now, user);
                        ps.setString(9, loginUrl == null || loginUrl.isEmpty() ? null : loginUrl);
                        ps.setString(10, name);
                        ps.setString(11, value.fingerprint());
                        ps.setBoolean(12, refreshBySite == null || refreshBySite);
                        ps.executeUpdate();
                    }
                }
                return null;
            });
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.credential.cannotStore", name,
                    Database.firstLine(e.getMessage())), e);
        }
        return info(name).orElseThrow();
    }

    /** The SET part for the login URL: keep it ({@code null}), remove it ({@code ""}) or set it (one parameter). */
    private static String loginUrlUpdate(String loginUrl) {
        return loginUrl == null ? "login_url = login_url" : loginUrl.isEmpty() ? "login_url = NULL" : "login_url = ?";
    }

    @Override
    public Optional<CredentialInfo> settings(String name, String loginUrl, Boolean refreshBySite, String user) {
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("UPDATE credential SET " + loginUrlUpdate(loginUrl)
                     + ", refresh_by_site = COALESCE(?, refresh_by_site), version = version + 1 WHERE name = ?")) {
            int i = 1;
            if (loginUrl != null && !loginUrl.isEmpty()) {
                ps.setString(i++, loginUrl);
            }
            ps.setObject(i++, refreshBySite, Types.BOOLEAN);
            ps.setString(i, name);
            if (ps.executeUpdate() == 0) {
                return Optional.empty();
            }
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.credential.cannotChange", name,
                    Database.firstLine(e.getMessage())), e);
        }
        return info(name);
    }

    @Override
    public boolean refreshBySite(String name) {
        Row row = row(name);
        return row == null || row.refreshBySite();
    }

    /** How many times a refresh is tried again when another process changed the value in between. */
    private static final int REFRESH_TRIES = 5;

    /**
     * Keeps the cookies a site set on an answer to a request that carried the credential (see {@link SiteCookies}):
     * the value is read, changed and written back encrypted, optimistically (the row's version), so that two keys
     * refreshed at once both land. The operator's renewal fingerprint, last use and result stay.
     *
     * @return the new fingerprint and whether the login itself changed, or {@code null} when nothing changed (or
     *         refreshing is off)
     */
    ParsedMaterial.SiteChange refresh(String name, java.net.URI uri, List<String> setCookies, Instant now) {
        for (int attempt = 0; attempt < REFRESH_TRIES; attempt++) {
            Row row = row(name);
            if (row == null || !row.refreshBySite()) {
                return null;
            }
            SecretBox b = box();
            if (!b.keyFingerprint().equals(row.keyFingerprint())) {
                return null;
            }
            ParsedCredential current = opened(b, name, row.type(), row.blob());
            Optional<ParsedCredential> next = SiteCookies.apply(current, uri, setCookies, now);
            if (next.isEmpty() || next.get().fingerprint().equals(current.fingerprint())) {
                return null;
            }
            ParsedCredential value = next.get();
            String newBlob = sealed(b, name, value);
            try (Connection c = db.connection();
                 PreparedStatement ps = c.prepareStatement("UPDATE credential SET secret = ?, fingerprint = ?, "
                         + "cookie_count = ?, earliest_expiry = ?, refreshed_at = ?, "
                         + "renewed_fingerprint = COALESCE(renewed_fingerprint, fingerprint), version = version + 1 "
                         + "WHERE name = ? AND version = ?")) {
                ps.setString(1, newBlob);
                ps.setString(2, value.fingerprint());
                ps.setInt(3, value.cookies().size());
                setInstant(ps, 4, value.earliestExpiry().orElse(null));
                ps.setLong(5, clock.millis());
                ps.setString(6, name);
                ps.setLong(7, row.version());
                if (ps.executeUpdate() == 1) {
                    return new ParsedMaterial.SiteChange(value.fingerprint(), SiteCookies.loginChanged(current, value));
                }
            } catch (SQLException e) {
                throw new StateUnavailableException(Said.of("core.store.credential.cannotStoreRefreshed", name,
                        Database.firstLine(e.getMessage())), e);
            }
        }
        return null;
    }

    /**
     * Stores the refresh token an OAuth 2.0 token endpoint rotated to, encrypted, in place of {@code from}: only while
     * {@code from} is what is stored (a renewal by the operator in between wins), optimistically (the row's version).
     * Losing it would lock the user out, so a failure to store it is the step's failure, before the access token that
     * came with it is used.
     *
     * @return the new fingerprint, or {@code null} when the stored value is no longer {@code from}
     */
    String rotate(String name, ParsedCredential from, io.keyline.credentials.OAuthGrant next) {
        for (int attempt = 0; attempt < REFRESH_TRIES; attempt++) {
            Row row = row(name);
            if (row == null) {
                return null;
            }
            SecretBox b = box();
            if (!b.keyFingerprint().equals(row.keyFingerprint())) {
                return null;
            }
            ParsedCredential current = opened(b, name, row.type(), row.blob());
            if (!current.fingerprint().equals(from.fingerprint())) {
                return null;
            }
            ParsedCredential value = ParsedCredential.ofOAuth(next);
            try (Connection c = db.connection();
                 PreparedStatement ps = c.prepareStatement("UPDATE credential SET secret = ?, fingerprint = ?, "
                         + "refreshed_at = ?, renewed_fingerprint = COALESCE(renewed_fingerprint, fingerprint), "
                         + "version = version + 1 WHERE name = ? AND version = ?")) {
                ps.setString(1, sealed(b, name, value));
                ps.setString(2, value.fingerprint());
                ps.setLong(3, clock.millis());
                ps.setString(4, name);
                ps.setLong(5, row.version());
                if (ps.executeUpdate() == 1) {
                    return value.fingerprint();
                }
            } catch (SQLException e) {
                throw new StateUnavailableException(Said.of("core.store.credential.cannotStoreRefreshed", name,
                        Database.firstLine(e.getMessage())), e);
            }
        }
        return null;
    }

    private static void bind(PreparedStatement ps, ParsedCredential v, String blob, SecretBox b, Instant expiry,
                             Instant now, String user) throws SQLException {
        ps.setString(1, v.type().jsonName());
        ps.setString(2, blob);
        ps.setString(3, b.keyFingerprint());
        ps.setString(4, v.fingerprint());
        ps.setInt(5, v.cookies().size());
        setInstant(ps, 6, expiry);
        ps.setLong(7, now.toEpochMilli());
        ps.setString(8, user);
    }

    /**
     * Keys parked on a credential, per credential: the parked keys are read once through
     * key_state_by_state, whatever the number of credentials (StateIndexTest).
     */
    static final String PARKED_BY_CREDENTIAL = "SELECT credential, COUNT(*) AS parked FROM key_state "
            + "WHERE state = 'NEEDS_CREDENTIAL' AND credential IS NOT NULL GROUP BY credential";

    /** Every stored credential, by name, with the number of keys parked on it. */
    @Override
    public List<CredentialInfo> list() {
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("SELECT c.name, c.cred_type, c.fingerprint, c.cookie_count, "
                     + "c.earliest_expiry, c.updated_at, c.updated_by, c.last_used_at, c.last_result, "
                     + "COALESCE(p.parked, 0), c.login_url FROM credential c LEFT JOIN (" + PARKED_BY_CREDENTIAL
                     + ") p ON p.credential = c.name ORDER BY c.name");
             ResultSet rs = ps.executeQuery()) {
            List<CredentialInfo> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new CredentialInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                        instant(rs, 5), instant(rs, 6), rs.getString(7), instant(rs, 8), rs.getString(9), rs.getInt(10),
                        rs.getString(11)));
            }
            return out;
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.credential.cannotList",
                    Database.firstLine(e.getMessage())), e);
        }
    }

    @Override
    public Optional<CredentialInfo> info(String name) {
        return list().stream().filter(i -> i.name().equals(name)).findFirst();
    }

    /** Keys parked on credentials that are not stored at all, by credential name. */
    @Override
    public Map<String, Integer> parkedOnMissing() {
        Map<String, Integer> out = new HashMap<>();
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("SELECT credential, COUNT(*) FROM key_state WHERE state = "
                     + "'NEEDS_CREDENTIAL' AND credential IS NOT NULL AND credential NOT IN (SELECT name FROM credential) "
                     + "GROUP BY credential");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getInt(2));
            }
            return out;
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.credential.cannotReadParked",
                    Database.firstLine(e.getMessage())), e);
        }
    }

    @Override
    public Lookup lookup(String name) {
        Row row = row(name);
        if (row == null) {
            return Lookup.missing(Said.of("core.credential.notSet", name));
        }
        String keyFingerprint = row.keyFingerprint();
        String loginUrl = row.loginUrl();
        try {
            SecretBox b = box();
            if (!b.keyFingerprint().equals(keyFingerprint)) {
                return Lookup.missing(Said.of("core.credential.cannotDecrypt", name, Said.of(
                        "core.credential.decrypt.wrongKeyOf", keyFingerprint, b.keyFingerprint())));
            }
            ParsedCredential value = opened(b, name, row.type(), row.blob());
            ParsedMaterial m = new ParsedMaterial(name, value, loginUrl, "credential " + name + " ("
                    + value.type().jsonName() + ", fingerprint " + value.fingerprint() + ")",
                    row.refreshBySite() && value.type() == CredentialType.COOKIE ? this::refresh : null, row.renewal(),
                    value.type() == CredentialType.OAUTH2 ? this::rotate : null);
            if ("rejected".equals(row.lastResult())) {
                // the breaker: a value the site rejected is not sent again until renewed or tested OK
                return Lookup.rejected(m, Said.of("core.credential.breaker" + (row.lastUsed() == null ? "" : "At")
                        + (loginUrl == null ? "" : "Login"), name, localTime(row.lastUsed()), loginUrl));
            }
            return Lookup.found(m);
        } catch (CredentialDecryptException e) {
            return Lookup.missing(e.said());
        } catch (MasterKeyException e) {
            return Lookup.missing(e.said());
        }
    }

    /**
     * A credential's row as refreshing and using it read it: the encrypted value ({@code cred_type}, {@code secret},
     * the fingerprint of the master key it is sealed with), its version, and what decides how it is used.
     */
    private record Row(String type, String blob, String keyFingerprint, long version, String loginUrl,
                       String lastResult, Instant lastUsed, boolean refreshBySite, String renewal) {
    }

    /** The row of credential {@code name}, or {@code null} when it is not set. */
    private Row row(String name) {
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("SELECT cred_type, secret, master_key, version, login_url, "
                     + "last_result, last_used_at, refresh_by_site, renewed_fingerprint FROM credential WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return !rs.next() ? null : new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                        rs.getString(5), rs.getString(6), instant(rs, 7), rs.getBoolean(8), rs.getString(9));
            }
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.credential.cannotRead", name,
                    Database.firstLine(e.getMessage())), e);
        }
    }

    @Override
    public void recordUse(String name, Instant at, String result) {
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement(
                     "UPDATE credential SET last_used_at = ?, last_result = ? WHERE name = ?")) {
            ps.setLong(1, at.toEpochMilli());
            ps.setString(2, result);
            ps.setString(3, name);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.credential.cannotRecordUse", name), e);
        }
    }

    /** A value as it is stored: encrypted, bound to the credential's name (associated data), in base64. */
    private static String sealed(SecretBox b, String name, ParsedCredential value) {
        return Base64.getEncoder().encodeToString(b.encrypt(value.canonicalSecret(), aad(name)));
    }

    /** The value of a stored secret: its {@code cred_type} and {@code secret} columns, decrypted. */
    private static ParsedCredential opened(SecretBox b, String name, String type, String blob) {
        String canonical = b.decrypt(Base64.getDecoder().decode(blob), aad(name));
        return ParsedCredential.fromCanonical(CredentialType.fromJsonName(type), canonical);
    }

    private static byte[] aad(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    /** When the site rejected the value, as the tables print times: local, to the second. */
    private static String localTime(java.time.Instant t) {
        return t == null ? "" : REJECTED_AT.format(t);
    }
}
