package io.keyline.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --state}: a folder, or {@code postgresql://HOST[:PORT]/DB[?user=…]} with libpq's ways to give a password. */
class StateLocationTest {

    @TempDir
    Path home;

    Map<String, String> env(String... kv) {
        java.util.HashMap<String, String> m = new java.util.HashMap<>();
        m.put("HOME", home.toString());
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void aFolderStaysAFolder() {
        StateLocation l = StateLocation.parse("state", env());
        assertThat(l).isInstanceOf(StateLocation.Folder.class);
        assertThat(l.shared()).isFalse();
        assertThat(l.localDir()).isEqualTo(Path.of("state").toAbsolutePath());
    }

    @Test
    void aUrlNamesHostPortDatabaseAndUser() {
        var p = (StateLocation.Postgres) StateLocation.parse("postgresql://db.example:6543/keyline?user=ops", env());
        assertThat(p.host()).isEqualTo("db.example");
        assertThat(p.port()).isEqualTo(6543);
        assertThat(p.database()).isEqualTo("keyline");
        assertThat(p.user()).isEqualTo("ops");
        assertThat(p.password()).isNull();
        assertThat(p.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/keyline");
        // run logs go to the local XDG state folder
        assertThat(p.localDir()).isEqualTo(home.resolve(".local/state/keyline"));
        assertThat(((StateLocation.Postgres) StateLocation.parse("postgres://h/d", env("XDG_STATE_HOME", "/var/x",
                "PGUSER", "pgu"))).localDir()).isEqualTo(Path.of("/var/x/keyline"));
        var d = (StateLocation.Postgres) StateLocation.parse("postgres://h/d", env("PGUSER", "pgu"));
        assertThat(d.port()).isEqualTo(5432);
        assertThat(d.user()).isEqualTo("pgu");
        var v6 = (StateLocation.Postgres) StateLocation.parse("postgresql://[::1]:5433/d?user=u&sslmode=require", env());
        assertThat(v6.host()).isEqualTo("::1");
        assertThat(v6.settings()).containsEntry("sslmode", "require");
        assertThat(v6.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:5433/d");
    }

    @Test
    void aPasswordNeverShowsInMessages() {
        var p = (StateLocation.Postgres) StateLocation.parse("postgresql://h/d?user=u&password=hunter2", env());
        assertThat(p.password()).isEqualTo("hunter2");
        assertThat(p.display()).doesNotContain("hunter2");
        assertThat(p.toString()).doesNotContain("hunter2");
        var ui = (StateLocation.Postgres) StateLocation.parse("postgresql://u2:p%40ss@h/d", env());
        assertThat(ui.user()).isEqualTo("u2");
        assertThat(ui.password()).isEqualTo("p@ss");
        // after a password, an unknown "setting" may be its tail (a raw "&" in it): not named
        assertThatThrownBy(() -> StateLocation.parse("postgresql://h/d?password=hunter2&colour=blue", env()))
                .hasMessageContaining("unknown setting after password=").hasMessageContaining("%26")
                .hasMessageNotContaining("hunter2").hasMessageNotContaining("colour");
        assertThatThrownBy(() -> StateLocation.parse("postgresql://h/d?colour=blue&password=hunter2", env()))
                .hasMessageContaining("unknown setting \"colour\"").hasMessageNotContaining("hunter2");
    }

    @Test
    void badUrlsAreNamedClearly() {
        assertThatThrownBy(() -> StateLocation.parse("postgresql:///d", env())).hasMessageContaining("names no host");
        assertThatThrownBy(() -> StateLocation.parse("postgresql://h", env())).hasMessageContaining("one database");
        assertThatThrownBy(() -> StateLocation.parse("postgresql://h/a/b", env())).hasMessageContaining("one database");
        assertThatThrownBy(() -> StateLocation.parse("jdbc:postgresql://h/d", env())).hasMessageContaining("not as a JDBC URL");
        assertThatThrownBy(() -> StateLocation.parse("mysql://h/d", env())).hasMessageContaining("unknown kind of state");
    }

    @Test
    void thePasswordComesFromPgpasswordThenThePasswordFile() throws Exception {
        assertThat(((StateLocation.Postgres) StateLocation.parse("postgresql://h/d?user=u", env("PGPASSWORD", "envpw")))
                .password()).isEqualTo("envpw");
        Path pgpass = home.resolve(".pgpass");
        Files.write(pgpass, List.of("# host:port:db:user:password", "other:5432:*:u:nope", "h:5432:d:u:pa\\:ss\\\\1",
                "*:*:*:*:fallback"));
        Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-------"));
        assertThat(((StateLocation.Postgres) StateLocation.parse("postgresql://h/d?user=u", env())).password())
                .isEqualTo("pa:ss\\1");
        assertThat(((StateLocation.Postgres) StateLocation.parse("postgresql://x:1/y?user=z", env())).password())
                .isEqualTo("fallback");
        // the URL's password wins; PGPASSFILE names another file
        assertThat(((StateLocation.Postgres) StateLocation.parse("postgresql://h/d?user=u&password=url", env()))
                .password()).isEqualTo("url");
        Path other = home.resolve("other.pgpass");
        Files.write(other, List.of("*:*:*:*:fromfile"));
        Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rw-------"));
        assertThat(((StateLocation.Postgres) StateLocation.parse("postgresql://h/d?user=u",
                env("PGPASSFILE", other.toString()))).password()).isEqualTo("fromfile");
        // a password file others can read is not used (as libpq does), and the reason is kept for the error
        Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-r--r--"));
        var loose = (StateLocation.Postgres) StateLocation.parse("postgresql://h/d?user=u", env());
        assertThat(loose.password()).isNull();
        assertThat(loose.note().english()).contains("chmod 600");
    }
}
