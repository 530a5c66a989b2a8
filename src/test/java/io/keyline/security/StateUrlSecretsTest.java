package io.keyline.security;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A mistyped PostgreSQL URL (a raw {@code /}, {@code ?}, {@code @}, {@code &} or {@code #} in the
 * password, a bad escape, a JDBC URL, another scheme) is refused with a message that names what is
 * wrong and never the password or a piece of it: as {@code --state}, as {@code KEYLINE_STATE} and as
 * {@code migrate-state --to}.
 */
class StateUrlSecretsTest {

    @TempDir
    Path tmp;

    /** A URL and the pieces of its password that must not be shown. */
    record Bad(String url, List<String> secret) {
    }

    static final List<Bad> BAD = List.of(
            new Bad("postgresql://keyline:Se/cr3tPart?Tail9x@127.0.0.1:1/keyline", List.of("Se/cr3t", "cr3tPart", "Tail9x")),
            new Bad("postgresql://keyline:P4ss@Word77@127.0.0.1:1/keyline", List.of("P4ss", "Word77")),
            new Bad("postgresql://keyline:Sl4sh/Only99@127.0.0.1:1/keyline", List.of("Sl4sh", "Only99")),
            new Bad("postgresql://127.0.0.1:1/keyline?user=keyline&password=Amp3rs&nd7Tail", List.of("Amp3rs", "nd7Tail")),
            new Bad("postgresql://127.0.0.1:1/keyline?password=Hash3d#Fr4gment", List.of("Hash3d", "Fr4gment")),
            new Bad("postgresql://keyline:B4d%ZZEsc4pe@127.0.0.1:1/keyline", List.of("B4d", "ZZEsc4pe")),
            new Bad("postgresql://keyline:Sp4ce Inside@127.0.0.1:1/keyline", List.of("Sp4ce", "Inside")),
            new Bad("jdbc:postgresql://127.0.0.1:1/keyline?user=k&password=Jdbc5ecret", List.of("Jdbc5ecret")),
            new Bad("mysql://keyline:My5qlSecret@127.0.0.1:1/keyline", List.of("My5qlSecret")),
            new Bad("postgresql://keyline:N0H0st5ecret@/keyline", List.of("N0H0st5ecret")),
            new Bad("postgresql://keyline:Tw0DbSecret@127.0.0.1:1/a/b", List.of("Tw0DbSecret")));

    @Test
    void noMessageAboutAStateUrlShowsItsPassword() throws Exception {
        Workbench folder = new Workbench(tmp.resolve("folder"));
        folder.job("noop", """
                { "name": "noop", "key": { "type": "manual" },
                  "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ] }
                """, null);
        Result init = folder.cli("run", "noop", "--key", "k1");
        assertThat(init.exit()).as(init.toString()).isZero();
        List<String> leaks = new ArrayList<>();
        for (Bad bad : BAD) {
            List<Result> results = new ArrayList<>();
            Workbench wb = new Workbench(tmp.resolve("w" + results.size() + Math.abs(bad.url().hashCode())));
            wb.stateArg = bad.url();
            results.add(wb.cli("status"));
            Workbench viaEnv = new Workbench(tmp.resolve("e" + Math.abs(bad.url().hashCode())));
            viaEnv.env().put("KEYLINE_STATE", bad.url());
            results.add(viaEnvCli(viaEnv, "status"));
            results.add(folder.cli("migrate-state", "--to", bad.url()));
            for (Result r : results) {
                String shown = r.out() + r.err();
                assertThat(r.exit()).as(bad.url() + " -> " + r).isNotZero();
                assertThat(shown).as(bad.url() + " -> " + r).isNotBlank();
                for (String piece : bad.secret()) {
                    if (shown.contains(piece)) {
                        leaks.add(bad.url() + " shows " + piece + ": " + shown.strip());
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    /** {@code keyline --jobs J ARGS} without {@code --state}: the state comes from KEYLINE_STATE. */
    private static Result viaEnvCli(Workbench wb, String... args) {
        List<String> all = new ArrayList<>(List.of("--jobs", wb.jobs.toString()));
        all.addAll(List.of(args));
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        int exit;
        try (var o = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
             var e = new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)) {
            exit = io.keyline.cli.KeylineCli.execute(all.toArray(String[]::new), new java.io.ByteArrayInputStream(new byte[0]),
                    o, e, wb.env(), wb.options());
        }
        return new Result(exit, out.toString(java.nio.charset.StandardCharsets.UTF_8),
                err.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
