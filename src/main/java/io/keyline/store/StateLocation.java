package io.keyline.store;

import io.keyline.text.Said;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the state lives: a folder with the embedded H2 database (the default), or a
 * PostgreSQL database that several machines share, named by {@code postgresql://HOST[:PORT]/DB[?user=…]}.
 */
public sealed interface StateLocation permits StateLocation.Folder, StateLocation.Postgres {

    /** The local folder: the whole state (H2), or only the run logs (PostgreSQL). */
    Path localDir();

    /** How the state is named in messages (never with a password). */
    String display();

    /** Whether the state is a PostgreSQL database. */
    default boolean shared() {
        return this instanceof Postgres;
    }

    /** An H2 state folder. */
    record Folder(Path dir) implements StateLocation {
        public Folder {
            dir = dir.toAbsolutePath().normalize();
        }

        @Override
        public Path localDir() {
            return dir;
        }

        @Override
        public String display() {
            return dir.toString();
        }
    }

    /**
     * A PostgreSQL database.
     *
     * @param host     host name or address
     * @param port     port (5432 when the URL names none)
     * @param database database name
     * @param user     user (from the URL, {@code PGUSER}, or the OS user)
     * @param password password (from the URL, {@code PGPASSWORD} or the password file), or {@code null}
     * @param settings further connection settings from the URL (sslmode, sslrootcert, connectTimeout)
     * @param logs     the local folder of the run logs ({@code $XDG_STATE_HOME/keyline})
     * @param note     why no password was taken from a password file that exists, or {@code null}
     */
    record Postgres(String host, int port, String database, String user, String password, Map<String, String> settings,
                    Path logs, io.keyline.text.Said note) implements StateLocation {
        public Postgres {
            settings = Map.copyOf(settings);
        }

        @Override
        public Path localDir() {
            return logs;
        }

        @Override
        public String display() {
            String h = host.contains(":") ? "[" + host + "]" : host;
            return "postgresql://" + h + ":" + port + "/" + database + "?user=" + user;
        }

        /** The driver's URL: no user, no password (they go as properties, never into a URL that may be logged). */
        public String jdbcUrl() {
            String h = host.contains(":") ? "[" + host + "]" : host;
            return "jdbc:postgresql://" + h + ":" + port + "/" + database;
        }

        /** Leaves the password out of {@code toString} (records print every component). */
        @Override
        public String toString() {
            return display() + (password == null ? "" : " (password set)");
        }
    }

    /**
     * A {@code --state} value Keyline cannot use: what is wrong, said in the language in use ({@link #getMessage}),
     * in English for logs. The words name the option the value was given to ({@link #option}).
     */
    final class BadValueException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        /** The option the words name ({@code KEYLINE_STATE} stands in for it). */
        private static final String OPTION = "--state";

        private final transient Said said;

        private BadValueException(Said said) {
            super(said.english());
            this.said = said;
        }

        /** What is wrong with the value: {@code words}, with the option's name put before their arguments. */
        static BadValueException of(Said words) {
            List<Object> args = new ArrayList<>(words.args());
            args.add(0, OPTION);
            return new BadValueException(new Said(words.key(), args));
        }

        /** What is wrong, in the language in use. */
        @Override
        public String getMessage() {
            return said == null ? super.getMessage() : said.text();
        }

        /** What is wrong, as words. */
        public Said said() {
            return said == null ? Said.plain(super.getMessage()) : said;
        }

        /** The same failure for a value given to {@code option} (e.g. {@code --to}). */
        public BadValueException option(String option) {
            Said words = said();
            if (words.key() == null || words.args().isEmpty()) {
                return this;
            }
            List<Object> args = new ArrayList<>(words.args());
            args.set(0, option);
            return new BadValueException(new Said(words.key(), args));
        }
    }

    /** The URL settings that are passed on to the driver, besides user and password. */
    Set<String> DRIVER_SETTINGS = Set.of("sslmode", "sslrootcert", "sslcert", "sslkey", "connectTimeout",
            "ApplicationName");

    /**
     * Reads a {@code --state} value (or {@code KEYLINE_STATE}): a {@code postgresql://} (or
     * {@code postgres://}) URL names a PostgreSQL state, anything else is a folder.
     *
     * @param env the process environment: {@code PGUSER}, {@code PGPASSWORD}, {@code PGPASSFILE},
     *            {@code HOME}, {@code XDG_STATE_HOME}
     * @throws BadValueException naming the part of the URL that is wrong
     */
    static StateLocation parse(String value, Map<String, String> env) {
        String v = value.strip();
        String lower = v.toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("jdbc:")) {
            throw BadValueException.of(Said.of("core.store.state.jdbc", redact(v)));
        }
        if (!lower.startsWith("postgresql://") && !lower.startsWith("postgres://")) {
            if (lower.matches("[a-z][a-z0-9+.-]*://.*")) {
                throw BadValueException.of(Said.of("core.store.state.unknownKind", redact(v)));
            }
            return new Folder(Path.of(v));
        }
        return postgres(v, env);
    }

    private static Postgres postgres(String v, Map<String, String> env) {
        String shown = redact(v);
        URI uri;
        try {
            uri = new URI(v);
        } catch (URISyntaxException e) {
            throw BadValueException.of(Said.of("core.store.state.invalidUrl", shown, e.getReason(),
                    Integer.toString(e.getIndex())));
        }
        if (uri.getRawFragment() != null) {
            throw BadValueException.of(Said.of("core.store.state.fragment", shown));
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw BadValueException.of(Said.of("core.store.state.noHost", shown));
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        String path = uri.getPath() == null ? "" : uri.getPath();
        String database = path.startsWith("/") ? path.substring(1) : path;
        if (database.isEmpty() || database.contains("/")) {
            throw BadValueException.of(Said.of("core.store.state.oneDatabase", shown));
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] ui = uri.getRawUserInfo().split(":", 2);
            user = decode(ui[0], shown);
            password = ui.length > 1 ? decode(ui[1], shown) : null;
        }
        Map<String, String> settings = new LinkedHashMap<>();
        if (uri.getRawQuery() != null && !uri.getRawQuery().isEmpty()) {
            for (String pair : uri.getRawQuery().split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq), shown);
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1), shown);
                switch (name) {
                    case "user" -> user = value;
                    case "password" -> password = value;
                    default -> {
                        if (!DRIVER_SETTINGS.contains(name)) {
                            // after a password, an unknown "setting" may be the password's tail (a raw "&" in it)
                            List<String> known = new ArrayList<>(List.of("user", "password"));
                            known.addAll(new java.util.TreeSet<>(DRIVER_SETTINGS));
                            throw BadValueException.of(password != null
                                    ? Said.of("core.store.state.settingAfterPassword", shown, String.join(", ", known))
                                    : Said.of("core.store.state.unknownSetting", shown,
                                    io.keyline.domain.Printable.line(name), String.join(", ", known)));
                        }
                        settings.put(name, value);
                    }
                }
            }
        }
        if (user == null || user.isEmpty()) {
            user = nonBlank(env.get("PGUSER"));
        }
        if (user == null) {
            user = System.getProperty("user.name", "keyline");
        }
        io.keyline.text.Said note = null;
        if (password == null) {
            password = nonBlank(env.get("PGPASSWORD"));
        }
        if (password == null) {
            Path file = passFile(env);
            if (file != null && Files.isRegularFile(file)) {
                try {
                    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
                    if (perms.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
                        note = io.keyline.text.Said.of("core.store.postgres.passFileOpen", file.toString());
                    } else {
                        password = PassFile.lookup(Files.readAllLines(file, StandardCharsets.UTF_8), host, port,
                                database, user);
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    note = io.keyline.text.Said.of("core.store.postgres.passFileUnreadable", file.toString(),
                            String.valueOf(e.getMessage()));
                }
            }
        }
        return new Postgres(host, port, database, user, password, settings, logsDir(env), note);
    }

    /** {@code $XDG_STATE_HOME/keyline}, else {@code ~/.local/state/keyline}: where run logs go on a shared state. */
    static Path logsDir(Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg).resolve("keyline");
        }
        return home(env).resolve(".local").resolve("state").resolve("keyline");
    }

    private static Path passFile(Map<String, String> env) {
        String f = nonBlank(env.get("PGPASSFILE"));
        if (f != null) {
            return Path.of(f);
        }
        return home(env).resolve(".pgpass");
    }

    private static Path home(Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"));
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** Decodes %-escapes; a bad one is named without the text around it (it may be a password). */
    private static String decode(String s, String shown) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw BadValueException.of(Said.of("core.store.state.badEscape", shown));
        }
    }

    /**
     * A state URL as a message may show it, well-formed or not: everything that could be part of a
     * password is {@code ***} - from {@code ://} to the last {@code @} (a user and password, whatever raw
     * {@code /}, {@code ?} or {@code @} they hold), from a {@code password=} to the end (a raw {@code &} or
     * {@code #} would leave its tail behind as another setting), and a {@code #} part. Control characters
     * are escaped.
     */
    static String redact(String url) {
        String out = url;
        int lower = out.toLowerCase(java.util.Locale.ROOT).indexOf("password=");
        if (lower >= 0) {
            out = out.substring(0, lower + "password=".length()) + "***";
        }
        int hash = out.indexOf('#');
        if (hash >= 0) {
            out = out.substring(0, hash) + "#***";
        }
        int scheme = out.indexOf("://");
        int at = out.lastIndexOf('@');
        if (scheme >= 0 && at > scheme) {
            out = out.substring(0, scheme + 3) + "***" + out.substring(at);
        } else if (scheme < 0 && at >= 0) {
            out = "***" + out.substring(at);
        }
        return io.keyline.domain.Printable.line(out);
    }

    /**
     * The {@code ~/.pgpass} format of libpq: {@code hostname:port:database:username:password}, {@code *}
     * matches anything, {@code \:} and {@code \\} are escapes, {@code #} starts a comment line.
     */
    final class PassFile {
        private PassFile() {
        }

        static String lookup(List<String> lines, String host, int port, String database, String user) {
            for (String line : lines) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                List<String> f = fields(line);
                if (f.size() != 5) {
                    continue;
                }
                if (matches(f.get(0), host) && matches(f.get(1), Integer.toString(port)) && matches(f.get(2), database)
                        && matches(f.get(3), user)) {
                    return f.get(4);
                }
            }
            return null;
        }

        private static boolean matches(String pattern, String value) {
            return pattern.equals("*") || pattern.equals(value);
        }

        private static List<String> fields(String line) {
            List<String> out = new ArrayList<>();
            StringBuilder cur = new StringBuilder();
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '\\' && i + 1 < line.length()) {
                    cur.append(line.charAt(++i));
                } else if (c == ':' && out.size() < 4) {
                    out.add(cur.toString());
                    cur.setLength(0);
                } else {
                    cur.append(c);
                }
            }
            out.add(cur.toString());
            return out;
        }
    }
}
