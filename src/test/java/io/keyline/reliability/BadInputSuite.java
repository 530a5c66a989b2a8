package io.keyline.reliability;

import io.keyline.acceptance.ChildProcess;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * R3: bad input of every kind through the real command line — broken job files (the corpus of
 * {@code jobfiles/broken}, each next to a good job), bad key arguments, malformed cookie input,
 * bad CLI arguments, and a state folder that is corrupt, locked by a process that will not share
 * it, read-only or out of space. Each case must exit 1 or 64 with a message that names
 * what is wrong (file, line, field or value) and no stack trace, and must leave the state that was
 * there before intact: every case starts from a copy of a populated state (DONE and FAILED keys of
 * a real run, a stored credential), and afterwards {@code status --json}, {@code timeline --json}
 * of every key and {@code credentials list} are compared with the original (and, where the case
 * must not write at all, the bytes of {@code keyline.mv.db}).
 */
@Tag("reliability")
class BadInputSuite {

    static final String GOOD = "good-daily";
    static final List<String[]> KEYS = List.of(new String[] {GOOD, "2026-11-27"}, new String[] {GOOD, "2026-11-28"},
            new String[] {GOOD, "2026-11-29"}, new String[] {"docs", "doc-1"});
    static final Pattern STACK = Pattern.compile("\tat |(?m)^\\s*at [\\w.$]+\\(|Caused by|(?m)^\\s*([a-z_$][\\w$]*\\.)*"
            + "[A-Z][\\w$]*(Exception|Error)\\b|[A-Za-z]Exception:|this is a bug|keyline: unexpected");

    /** Exit 1 or 64 (docs/cli.md fixes the exit codes of run and apply only). */
    static final int EITHER = -1;

    @TempDir
    Path tmp;

    /** What a case printed and how it ended. */
    record Outcome(int exit, String text, List<String> problems) {
        static Outcome of(Result r) {
            return new Outcome(r.exit(), r.out() + r.err(), new ArrayList<>());
        }
    }

    /** What a case does to its workbench before it runs. */
    interface Setup {
        void apply(Workbench wb) throws Exception;
    }

    /** Runs the bad command. */
    interface Action {
        Outcome run(Workbench wb) throws Exception;
    }

    /**
     * One bad input. {@code exit} is the code the command line documents for it; {@code names} are the texts the message
     * must contain; {@code sameBytes}: the state file must not change at all.
     */
    record Case(String group, String name, Setup setup, Action action, Setup undo, int exit, List<String> names,
                boolean sameBytes) {
    }

    private Workbench template;
    private Map<String, String> original;
    private final List<String> mounts = new ArrayList<>();
    private io.keyline.testing.FaultServer hostileServer;
    /** Loopback servers the cases talk to, closed at the end. */
    private final List<AutoCloseable> servers = new ArrayList<>();

    @Test
    void everyBadInputIsRefusedClearlyAndLeavesTheStateIntact() throws Exception {
        long started = System.nanoTime();
        List<String> unclear = new ArrayList<>();
        List<String> damaged = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> log = new ArrayList<>();
        int n = 0;
        LockedCase locked = null;
        try {
            template = populatedTemplate();
            original = snapshot(template);
            locked = new LockedCase(tmp.resolve("locked"));
            locked.start();
            List<Case> cases = new ArrayList<>();
            cases.addAll(jobFileCases());
            cases.addAll(keyCases());
            cases.addAll(cookieCases());
            cases.addAll(cliCases());
            cases.addAll(hostileOutputCases());
            cases.addAll(hostileBodyCases());
            cases.addAll(escapeCases());
            cases.addAll(chatMarkupCases());
            cases.addAll(stateCases(skipped));
            String only = System.getProperty("badinput.only", "");
            for (Case c : cases) {
                if (!only.isEmpty() && !c.group().equals(only)) {
                    continue;
                }
                n++;
                Workbench wb = fresh("case-" + n);
                String id = c.group() + "/" + c.name();
                byte[] before = null;
                Outcome o;
                try {
                    c.setup().apply(wb);
                    before = c.sameBytes() ? readIfExists(wb.state.resolve("keyline.mv.db")) : null;
                    o = c.action().run(wb);
                } finally {
                    c.undo().apply(wb);
                }
                List<String> problems = clarity(o, c.exit(), c.names().stream()
                        .map(x -> x.replace("STATE", wb.state.toString()).replace("JOBS", wb.jobs.toString())).toList());
                log.add("== " + id + "\n" + o.text().strip());
                if (!problems.isEmpty()) {
                    unclear.add(id + ": " + String.join("; ", problems) + "\n    output: " + oneLine(o.text()));
                }
                // a hostile output fails the key it arrives in (a new FAILED key, nothing DONE): the rest is intact
                List<String> changes = changes(wb, before, c.name().startsWith("nearly")
                        || c.group().equals("hostile-output") || c.group().equals("hostile-body")
                        || c.group().equals("escape") || c.group().equals("chat-markup"), c.name().startsWith("nearly"));
                if (!changes.isEmpty()) {
                    damaged.add(id + ": " + String.join("; ", changes));
                }
            }
            // the locked case ran in a child JVM alongside the others
            n++;
            Outcome o = locked.finish();
            log.add("== state/locked\n" + o.text().strip());
            List<String> problems = clarity(o, 1, List.of("locked", locked.wb.state.toString()));
            if (!problems.isEmpty()) {
                unclear.add("state/locked: " + String.join("; ", problems) + "\n    output: " + oneLine(o.text()));
            }
            List<String> changes = changes(locked.wb, locked.before, false, false);
            if (!changes.isEmpty()) {
                damaged.add("state/locked: " + String.join("; ", changes));
            }
        } finally {
            if (locked != null) {
                locked.close();
            }
            if (hostileServer != null) {
                hostileServer.close();
            }
            for (String m : mounts) {
                sh("umount", "-l", m);
            }
            for (AutoCloseable server : servers) {
                server.close();
            }
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        Map<String, Object> fig = new LinkedHashMap<>();
        fig.put("cases", n);
        fig.put("unclear", unclear.size());
        fig.put("damaged", damaged.size());
        fig.put("skipped", skipped.size());
        fig.put("seconds", seconds);
        String details = "unclear:\n" + String.join("\n", unclear) + "\n\ndamaged:\n" + String.join("\n", damaged)
                + "\n\nskipped:\n" + String.join("\n", skipped) + "\n\noutputs:\n" + String.join("\n", log) + "\n";
        Suites.report("bad-input", fig, details);
        unclear.forEach(u -> System.out.println("UNCLEAR " + u));
        damaged.forEach(d -> System.out.println("DAMAGED " + d));
        skipped.forEach(s -> System.out.println("SKIPPED " + s));
        assertThat(n).isGreaterThanOrEqualTo(50);
        assertThat(unclear).as("cases whose message is unclear").isEmpty();
        assertThat(damaged).as("cases that changed the state").isEmpty();
    }

    // --- the populated state every case starts from ---------------------------------------------

    private Workbench populatedTemplate() throws Exception {
        Workbench wb = new Workbench(tmp.resolve("template"));
        wb.job(GOOD, """
                {
                  "name": "good-daily",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "work", "kind": "command", "effect": "none",
                      "command": ["sh", "-c", "if [ \\"$1\\" = 2026-11-28 ]; then echo 'bad input' >&2; exit 65; fi; echo \\"$1\\" >> done.txt", "sh", "{key}"] }
                  ]
                }
                """, null);
        wb.job("docs", """
                {
                  "name": "docs",
                  "key": { "type": "manual" },
                  "steps": [ { "id": "file", "kind": "command", "effect": "none", "command": ["true"] } ]
                }
                """, null);
        wb.job("weekly", """
                {
                  "name": "weekly",
                  "key": { "type": "week", "zone": "UTC", "start": "2026-W01" },
                  "steps": [ { "id": "report", "kind": "command", "effect": "none", "command": ["true"] } ]
                }
                """, null);
        wb.job("monthly", """
                {
                  "name": "monthly",
                  "key": { "type": "month", "zone": "UTC", "start": "2026-01" },
                  "steps": [ { "id": "report", "kind": "command", "effect": "none", "command": ["true"] } ]
                }
                """, null);
        Result run = wb.cli("run", "--yes", GOOD, "--from", "2026-11-27", "--to", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isEqualTo(3);
        Result doc = wb.cli("run", "docs", "--key", "doc-1");
        assertThat(doc.exit()).as(doc.toString()).isZero();
        Result cred = wb.cliWithInput("Cookie: sid=R3goodValue; theme=dark\n", "credentials", "set", "site");
        assertThat(cred.exit()).as(cred.toString()).isZero();
        return wb;
    }

    /** A copy of the template (jobs and state) in its own folder. */
    private Workbench fresh(String name) throws IOException {
        Workbench wb = new Workbench(tmp.resolve(name));
        copyTree(template.jobs, wb.jobs);
        copyTree(template.state, wb.state);
        return wb;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().endsWith(".lock.db")) {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** What an operator sees of the state: keys, their events, the credentials. */
    private static Map<String, String> snapshot(Workbench wb) {
        Map<String, String> s = new LinkedHashMap<>();
        // the keys that were there before, and apart from them which keys appeared
        Result status = wb.cli("status", "--json");
        StringBuilder known = new StringBuilder("exit " + status.exit() + "\n");
        StringBuilder added = new StringBuilder();
        if (status.exit() == 0) {
            for (var k : io.keyline.core.json.Json.read(status.out(), com.fasterxml.jackson.databind.JsonNode.class)) {
                String id = k.get("job").asText() + " " + k.get("key").asText();
                boolean before = KEYS.stream().anyMatch(x -> (x[0] + " " + x[1]).equals(id));
                (before ? known : added).append(k).append("\n");
            }
        } else {
            known.append(status.out()).append(status.err());
        }
        s.put("status --json", known.toString());
        s.put("new keys", added.toString());
        for (String[] k : KEYS) {
            s.put("timeline " + k[0] + " " + k[1] + " --json", text(wb.cli("timeline", k[0], k[1], "--json")));
        }
        s.put("credentials list", text(wb.cli("credentials", "list")));
        return s;
    }

    /** Whether every new key is DONE or claimed, and each DONE key's command wrote its line exactly once. */
    private static boolean doneOnce(Workbench wb, String newKeys) throws IOException {
        Path done = wb.jobs.resolve("done.txt");
        List<String> lines = Files.exists(done) ? Files.readAllLines(done) : List.of();
        for (String k : newKeys.lines().filter(l -> !l.isBlank()).toList()) {
            var key = io.keyline.core.json.Json.read(k, com.fasterxml.jackson.databind.JsonNode.class);
            String state = key.get("state").asText();
            String id = key.get("key").asText();
            if (state.equals("DONE") ? lines.stream().filter(id::equals).count() != 1
                    : !state.equals("RUNNING") && !state.equals("PENDING")) {
                return false;
            }
        }
        return true;
    }

    private static String text(Result r) {
        return "exit " + r.exit() + "\n" + r.out() + r.err();
    }

    /** Reopens the case's state and compares it with the original. */
    private List<String> changes(Workbench wb, byte[] bytesBefore, boolean allowClaims, boolean allowDoneOnce)
            throws IOException {
        List<String> out = new ArrayList<>();
        if (bytesBefore != null) {
            byte[] now = readIfExists(wb.state.resolve("keyline.mv.db"));
            if (!Arrays.equals(bytesBefore, now)) {
                out.add("keyline.mv.db changed (" + bytesBefore.length + " -> " + (now == null ? "absent" : now.length)
                        + " bytes)");
            }
        }
        if (isGarbage(wb)) {
            return out; // a state that was never readable: only its bytes can be compared
        }
        Map<String, String> now = snapshot(wb);
        if (allowClaims && !now.get("new keys").contains("\"DONE\"")) {
            // a disk that fills up mid-run may leave a claimed key (RUNNING), as a kill would; it resumes
            now.put("new keys", original.get("new keys"));
        } else if (allowDoneOnce && doneOnce(wb, now.get("new keys"))) {
            // a nearly full disk may still hold the first keys' commits (the store reuses the room its compaction
            // freed inside the file): a key is DONE only when its work was done, once, and the run stops at the
            // first commit that does not fit
            now.put("new keys", original.get("new keys"));
        }
        for (var e : original.entrySet()) {
            if (!e.getValue().equals(now.get(e.getKey()))) {
                out.add(e.getKey() + " differs: was " + oneLine(e.getValue()) + " now " + oneLine(now.get(e.getKey())));
            }
        }
        return out;
    }

    private static boolean isGarbage(Workbench wb) {
        return Files.exists(wb.root.resolve("garbage-state"));
    }

    private static byte[] readIfExists(Path p) throws IOException {
        return Files.isRegularFile(p) ? Files.readAllBytes(p) : null;
    }

    // --- clarity ---------------------------------------------------------------------------------

    static List<String> clarity(Outcome o, int exit, List<String> names) {
        List<String> p = new ArrayList<>(o.problems());
        if (exit == EITHER ? o.exit() != 1 && o.exit() != 64 : o.exit() != exit) {
            p.add("exit " + o.exit() + ", expected " + exit);
        }
        String t = o.text();
        if (t.isBlank()) {
            p.add("no message");
        }
        for (String name : names) {
            if (Arrays.stream(name.split("\\|")).noneMatch(t::contains)) {
                p.add("does not name \"" + name + "\"");
            }
        }
        if (io.keyline.domain.Printable.hasControl(t)) {
            p.add("raw control character in the output (" + t.replace("\n", "").replace("\t", "").codePoints()
                    .filter(c -> io.keyline.domain.Printable.hasControl(Character.toString(c))).mapToObj(
                            c -> String.format(java.util.Locale.ROOT, "U+%04X", c)).findFirst().orElse("?") + ")");
        }
        var m = STACK.matcher(t);
        if (m.find()) {
            p.add("stack trace or exception text: \"" + oneLine(t.substring(m.start(), Math.min(t.length(), m.start() + 80)))
                    + "\"");
        }
        return p;
    }

    static String oneLine(String s) {
        if (s == null) {
            return "null";
        }
        String one = s.strip().replace("\n", " | ");
        return one.length() > 600 ? one.substring(0, 600) + "..." : one;
    }

    private static Setup none() {
        return wb -> {
        };
    }

    private static Case cli(String group, String name, int exit, List<String> names, String... args) {
        return new Case(group, name, none(), wb -> Outcome.of(wb.cli(args)), none(), exit, names, false);
    }

    private static Case stdin(String group, String name, String input, int exit, List<String> names, String... args) {
        return new Case(group, name, none(), wb -> Outcome.of(wb.cliWithInput(input, args)), none(), exit, names, false);
    }

    // --- job files -------------------------------------------------------------------------------

    private static Path brokenFolder() throws URISyntaxException {
        return Path.of(BadInputSuite.class.getResource("/jobfiles/broken/expected.txt").toURI()).getParent();
    }

    private List<Case> jobFileCases() throws Exception {
        Path folder = brokenFolder();
        Map<String, List<String>> expected = Files.readAllLines(folder.resolve("expected.txt")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .collect(Collectors.groupingBy(l -> l.substring(0, l.indexOf(':')), java.util.TreeMap::new,
                        Collectors.toList()));
        List<Case> cases = new ArrayList<>();
        for (var e : expected.entrySet()) {
            String file = e.getKey();
            String stem = file.substring(0, file.length() - ".json".length());
            cases.add(new Case("job-file", file,
                    wb -> Files.copy(folder.resolve(file), wb.jobs.resolve(file)),
                    wb -> {
                        Outcome o = Outcome.of(wb.cli("run", stem, "--key", "2026-11-29"));
                        // the good job next to it still loads
                        Result jobs = wb.cli("jobs");
                        if (!jobs.out().contains(GOOD)) {
                            o.problems().add("the good job next to the broken file is not listed: " + oneLine(jobs.out()));
                        }
                        if (!(jobs.out() + jobs.err()).contains(file)) {
                            o.problems().add("'jobs' does not list the invalid file " + file);
                        }
                        return o;
                    }, none(), 1, e.getValue(), false));
        }
        // beyond the corpus: files that are not JSON text at all
        cases.add(new Case("job-file", "empty file", wb -> Files.writeString(wb.jobs.resolve("empty.json"), ""),
                wb -> Outcome.of(wb.cli("run", "empty", "--key", "2026-11-29")), none(), 1, List.of("empty.json"),
                false));
        cases.add(new Case("job-file", "binary garbage", wb -> {
            byte[] b = new byte[512];
            new Random(5).nextBytes(b);
            Files.write(wb.jobs.resolve("binary.json"), b);
        }, wb -> Outcome.of(wb.cli("run", "binary", "--key", "2026-11-29")), none(), 1, List.of("binary.json"), false));
        cases.add(new Case("job-file", "name differs from file name", wb -> Files.writeString(wb.jobs.resolve("other.json"),
                Files.readString(template.jobs.resolve(GOOD + ".json"))),
                wb -> Outcome.of(wb.cli("run", "other", "--key", "2026-11-29")), none(), 1, List.of("other.json"), false));
        cases.add(new Case("job-file", "jobs folder missing", wb -> deleteTree(wb.jobs),
                wb -> Outcome.of(wb.cli("run", GOOD, "--key", "2026-11-29")), wb -> copyTree(template.jobs, wb.jobs), 64, List.of("JOBS"), false));
        return cases;
    }

    // --- key arguments ---------------------------------------------------------------------------

    private static List<Case> keyCases() {
        String longKey = "k".repeat(200);
        List<Case> c = new ArrayList<>();
        c.add(cli("key", "month 13", 64, List.of("2026-13-01"), "run", GOOD, "--key", "2026-13-01"));
        c.add(cli("key", "30 February", 64, List.of("2026-02-30"), "run", GOOD, "--key", "2026-02-30"));
        c.add(cli("key", "path on a date job", 64, List.of("../etc"), "run", GOOD, "--key", "../etc"));
        c.add(cli("key", "empty", 64, List.of("\"\""), "run", GOOD, "--key", ""));
        c.add(cli("key", "newline in a date", 64, List.of("2026-11-29"), "run", GOOD, "--key", "2026-11-29\nrm -rf /"));
        c.add(cli("key", "week on a date job", 64, List.of("2026-W48"), "run", GOOD, "--key", "2026-W48"));
        c.add(cli("key", "before key.start", 64, List.of("2025-12-31", "2026-01-01"), "run", GOOD, "--key", "2025-12-31"));
        c.add(cli("key", "range starts before key.start", 64, List.of("2025-12-30"), "run", GOOD, "--from", "2025-12-30",
                "--to", "2026-01-02"));
        c.add(cli("key", "--from after --to", 64, List.of("2026-11-29", "2026-11-01"), "run", GOOD, "--from",
                "2026-11-29", "--to", "2026-11-01"));
        c.add(cli("key", "--to without --from", 64, List.of("--to", "--from"), "run", GOOD, "--to", "2026-11-29"));
        c.add(cli("key", "--key with --from", 64, List.of("--key", "--from"), "run", GOOD, "--key", "2026-11-29",
                "--from", "2026-11-01"));
        c.add(cli("key", "bad key in plan", 64, List.of("2026-13-01"), "plan", GOOD, "--key", "2026-13-01"));
        c.add(cli("key", "bad key in timeline", 64, List.of("2026-13-01"), "timeline", GOOD, "2026-13-01"));
        c.add(cli("key", "bad key in mark-done", 64, List.of("../etc"), "mark-done", GOOD, "../etc", "--note", "x"));
        c.add(cli("key", "manual: 200 characters", 64, List.of("k".repeat(20), "200"), "run", "docs", "--key", longKey));
        c.add(cli("key", "manual: ../etc", 64, List.of("../etc"), "run", "docs", "--key", "../etc"));
        c.add(cli("key", "manual: path separator", 64, List.of("a/b"), "run", "docs", "--key", "a/b"));
        c.add(cli("key", "manual: backslash", 64, List.of("a\\b"), "run", "docs", "--key", "a\\b"));
        c.add(cli("key", "manual: control character", 64, List.of("control character"), "run", "docs", "--key",
                "doc\u0007-2"));
        c.add(cli("key", "manual: escape sequence", 64, List.of("control character"), "run", "docs", "--key",
                "doc\u001b[31m"));
        c.add(cli("key", "manual: leading dot", 64, List.of(".hidden"), "run", "docs", "--key", ".hidden"));
        c.add(cli("key", "manual: space", 64, List.of("doc 2"), "run", "docs", "--key", "doc 2"));
        c.add(cli("key", "manual: --from", 64, List.of("manual"), "run", "docs", "--from", "a", "--to", "b"));
        c.add(cli("key", "manual: no key", 64, List.of("--key"), "run", "docs"));
        c.add(cli("key", "week 54", 64, List.of("2026-W54"), "run", "weekly", "--key", "2026-W54"));
        c.add(cli("key", "week 53 of a 52-week year", 64, List.of("2027-W53"), "run", "weekly", "--key", "2027-W53"));
        c.add(cli("key", "month 13", 64, List.of("2026-13"), "run", "monthly", "--key", "2026-13"));
        c.add(cli("key", "date on a month job", 64, List.of("2026-11-29"), "run", "monthly", "--key", "2026-11-29"));
        return c;
    }

    // --- cookie input ----------------------------------------------------------------------------

    private List<Case> cookieCases() {
        String unchanged = "the stored credential site is unchanged";
        List<Case> c = new ArrayList<>();
        c.add(stdin("cookie", "header: pair without '='", "Cookie: sid=abc; broken\n", 64,
                List.of("line 1, cookie 2", "missing '='", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "header: illegal name", "sid=abc; se@ss=1\n", 64,
                List.of("line 1, cookie 2, name", "'@'", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "header: control character", "sid=ab\u0001c\n", 64,
                List.of("line 1, cookie 1, value", "control character", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "header: two lines", "Cookie: sid=abc\nother=1\n", 64,
                List.of("line 2", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "blank input", "  \n", 64, List.of("empty", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "cookies.txt: 6 fields", "# Netscape HTTP Cookie File\n.example.org\tTRUE\t/\tFALSE\t0\tsid\n",
                64, List.of("line 2", "7 tab-separated fields", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "cookies.txt: expiry not a number", ".example.org\tTRUE\t/\tFALSE\tsoon\tsid\tabc\n", 64,
                List.of("line 1, field 5 (expiry)", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "cookies.txt: flag not TRUE/FALSE", ".example.org\tyes\t/\tFALSE\t0\tsid\tabc\n", 64,
                List.of("line 1, field 2", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "JSON: syntax error", "[{\"name\": \"sid\", \"value\": \"abc\",}\n", 64,
                List.of("line 1", "JSON", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "JSON: object instead of array", "{\"name\": \"sid\", \"value\": \"abc\"}", 64,
                List.of("line 1", "array", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "JSON: cookie without value", "[{\"name\": \"sid\", \"domain\": \"example.org\"}]", 64,
                List.of("[0]", "value", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "JSON: expiry is text", "[{\"name\": \"sid\", \"value\": \"abc\", \"expirationDate\": \"soon\"}]",
                64, List.of("[0]", "expirationDate", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "storageState: cookies is not an array", "{\"cookies\": {\"name\": \"sid\"}, \"origins\": []}",
                64, List.of("cookies: expected a JSON array", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "storageState: cookie without value",
                "{\"cookies\": [{\"name\": \"sid\", \"domain\": \"127.0.0.1\"}], \"origins\": []}", 64,
                List.of("cookies[0].value: missing", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "storageState: no cookies", "{\"cookies\": [], \"origins\": []}", 64,
                List.of("no cookies found", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "cookies.txt: domain with a port out of range", "127.0.0.1:99999\tFALSE\t/\tFALSE\t0\tsid\tabc\n",
                64, List.of("line 1", "port", unchanged), "credentials", "set", "site"));
        c.add(stdin("cookie", "--login-url not a URL", "sid=abc", 64,
                List.of("--login-url", "login.example.org", "absolute http(s) URL"), "credentials", "set", "site",
                "--login-url", "login.example.org"));
        c.add(stdin("cookie", "--login-url with another scheme", "sid=abc", 64,
                List.of("--login-url", "javascript:alert(1)"), "credentials", "set", "site",
                "--login-url", "javascript:alert(1)"));
        c.add(new Case("cookie", "--from-file with malformed cookies.txt", wb -> Files.writeString(wb.root.resolve(
                "cookies.txt"), ".example.org\tTRUE\t/\tFALSE\t0\tsid abc\n"),
                wb -> Outcome.of(wb.cli("credentials", "set", "site", "--from-file", wb.root.resolve("cookies.txt")
                        .toString())), none(), 64, List.of("cookies.txt", "line 1", unchanged), false));
        c.add(cli("cookie", "--from-file missing", 64, List.of("--from-file", "nope.txt", "no such file"), "credentials",
                "set", "site", "--from-file", "/nonexistent/nope.txt"));
        c.add(stdin("cookie", "bad --type", "sid=abc", 64, List.of("--type", "cookies"), "credentials", "set", "site",
                "--type", "cookies"));
        c.add(stdin("cookie", "bad credential name", "sid=abc", 64, List.of("../evil"), "credentials", "set", "../evil"));
        return c;
    }

    // --- CLI arguments ---------------------------------------------------------------------------

    private static List<Case> cliCases() {
        List<Case> c = new ArrayList<>();
        c.add(cli("cli", "unknown command", 64, List.of("frobnicate"), "frobnicate"));
        c.add(cli("cli", "unknown option", 64, List.of("--frobnicate"), "run", GOOD, "--frobnicate"));
        c.add(cli("cli", "unknown root option", 64, List.of("--colour"), "--colour", "status"));
        c.add(cli("cli", "--key without value", 64, List.of("--key"), "run", GOOD, "--key"));
        c.add(cli("cli", "--note without value", 64, List.of("--note"), "skip", GOOD, "2026-11-28", "--note"));
        c.add(cli("cli", "unknown job", 64, List.of("nosuchjob", GOOD), "run", "nosuchjob", "--key", "2026-11-29"));
        c.add(cli("cli", "run without job", 64, List.of("JOB"), "run", "--key", "2026-11-29"));
        c.add(cli("cli", "timeline without key", 64, List.of("KEY"), "timeline", GOOD));
        c.add(cli("cli", "extra argument", 64, List.of("surplus"), "status", GOOD, "surplus"));
        c.add(cli("cli", "mark-done without --note", 64, List.of("--note"), "mark-done", GOOD, "2026-11-28"));
        c.add(cli("cli", "pause without --reason", 64, List.of("--reason"), "pause", GOOD));
        c.add(cli("cli", "bad --until", 64, List.of("--until", "next tuesday"), "pause", GOOD, "--reason", "x", "--until",
                "next tuesday"));
        c.add(cli("cli", "--until in the past", 64, List.of("--until", "2020-01-01"), "pause", GOOD, "--reason", "x",
                "--until", "2020-01-01"));
        c.add(cli("cli", "--until with bad offset", 64, List.of("2026-12-01T09:00+25:00"), "pause", GOOD, "--reason", "x",
                "--until", "2026-12-01T09:00+25:00"));
        c.add(cli("cli", "apply without plan", 64, List.of("PLAN"), "apply"));
        c.add(cli("cli", "apply unknown plan", 1, List.of("0123456789abcdef"), "apply", "0123456789abcdef"));
        c.add(cli("cli", "run --due with --key", 64, List.of("--key", "--due"), "run", GOOD, "--due", "--key",
                "2026-11-29"));
        c.add(cli("cli", "credentials without subcommand", 64, List.of("credentials"), "credentials", "frob"));
        c.add(cli("cli", "credentials test unknown", EITHER, List.of("nosuchcred"), "credentials", "test", "nosuchcred"));
        c.add(cli("cli", "confirm a key that waits for nothing", 1, List.of("2026-11-27"), "confirm", GOOD,
                "2026-11-27", "--note", "x"));
        return c;
    }

    // --- hostile outputs: values from outside are data --------------------------

    /** A job whose first step reports the outputs in {@code NAME.out} and whose second step uses them. */
    private static String twoSteps(String name, String second) {
        return """
                {
                  "name": "%s",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "meta", "kind": "command", "effect": "none", "command": ["cat", "%s.out"] },
                    %s
                  ]
                }
                """.formatted(name, name, second);
    }

    private static Case hostile(String name, String job, String second, java.util.Map<String, String> outputs, int exit,
                                List<String> names, Setup extra) {
        return new Case("hostile-output", name, wb -> {
            Files.writeString(wb.jobs.resolve(job + ".json"), twoSteps(job, second));
            Files.writeString(wb.jobs.resolve(job + ".out"), "{\"outputs\": " + io.keyline.core.json.Json.write(outputs) + "}\n");
            extra.apply(wb);
        }, wb -> Outcome.of(wb.cli("run", job, "--key", "2026-11-29")), none(), exit, names, false);
    }

    private static List<Case> hostileOutputCases() {
        String post = """
                { "id": "send", "kind": "http", "effect": "idempotent",
                  "request": { "method": "POST", "url": "http://127.0.0.1:9/api", "bodyFile": "articles/{steps.meta.outputs.slug}.md" } }""";
        String program = """
                { "id": "use", "kind": "command", "effect": "none", "command": ["{steps.meta.outputs.prog}", "x"] }""";
        List<Case> c = new ArrayList<>();
        c.add(hostile("bodyFile leaves the job folder", "traversal", post, java.util.Map.of("slug", "../../../../etc/hostname"),
                2, List.of("body file", "outside the job folder"), none()));
        c.add(hostile("bodyFile through a symbolic link", "linked", post, java.util.Map.of("slug", "link"), 2,
                List.of("body file articles/link.md", "symbolic link"), wb -> {
                    Files.createDirectories(wb.jobs.resolve("articles"));
                    Files.createSymbolicLink(wb.jobs.resolve("articles/link.md"), Path.of("/etc/hostname"));
                }));
        // an output never goes into a command's arguments: as the program, an argument, or code behind any wrapper
        c.add(hostile("output as the program", "program", program, java.util.Map.of("prog", "../../../../bin/echo"), 1,
                List.of("program.json:7:", "$KEYLINE_OUTPUT_META_PROG"), none()));
        c.add(hostile("program name from an output", "named", program, java.util.Map.of("prog", "touch"), 1,
                List.of("named.json:7:", "$KEYLINE_OUTPUT_META_PROG"), none()));
        c.add(hostile("ESC in an output used in a URL", "escurl", """
                { "id": "get", "kind": "http", "effect": "none", "request": { "method": "GET", "url": "http://127.0.0.1:9/{steps.meta.outputs.t}" } }""",
                java.util.Map.of("t", "a\u001b]0;pwned\u0007"), 2, List.of("control character U+001B", "the URL"), none()));
        c.add(hostile("CR LF in an output used in a header", "crlf", """
                { "id": "get", "kind": "http", "effect": "none",
                  "request": { "method": "GET", "url": "http://127.0.0.1:9/x", "headers": { "X-T": "{steps.meta.outputs.t}" } } }""",
                java.util.Map.of("t", "ok\r\nX-Injected: 1"), 2, List.of("control character U+000D", "a header"), none()));
        c.add(hostile("NUL in an output used in a step's env", "nul", """
                { "id": "use", "kind": "command", "effect": "none", "command": ["true"], "env": { "T": "{steps.meta.outputs.t}" } }""",
                java.util.Map.of("t", "a\u0000b"), 2, List.of("control character U+0000", "an environment variable"), none()));
        c.add(hostile("output as an argument", "argument", """
                { "id": "use", "kind": "command", "effect": "none", "command": ["echo", "{steps.meta.outputs.t}"] }""",
                java.util.Map.of("t", "x"), 1, List.of("argument.json:7:", "$KEYLINE_OUTPUT_META_T"), none()));
        c.add(hostile("output inside sh -c", "shell", """
                { "id": "use", "kind": "command", "effect": "none", "command": ["sh", "-c", "echo {steps.meta.outputs.t}"] }""",
                java.util.Map.of("t", "$(id)"), 1, List.of("shell.json:7:", "never go into a command's arguments",
                        "$KEYLINE_OUTPUT_META_T"), none()));
        c.add(hostile("output inside python3 -c", "python", """
                { "id": "use", "kind": "command", "effect": "none", "command": ["env", "X=1", "python3", "-c", "print('{steps.meta.outputs.t}')"] }""",
                java.util.Map.of("t", "x"), 1, List.of("python.json:7:", "$KEYLINE_OUTPUT_META_T"), none()));
        c.add(hostile("output behind a wrapper: setarch sh -c", "wrapped", """
                { "id": "use", "kind": "command", "effect": "none", "command": ["setarch", "x86_64", "sh", "-c", "echo {steps.meta.outputs.t}"] }""",
                java.util.Map.of("t", "$(touch pwned)"), 1, List.of("wrapped.json:7:", "$KEYLINE_OUTPUT_META_T"), none()));
        c.add(new Case("hostile-output", "notify.json: {message} in a hook's arguments", wb -> Files.writeString(
                wb.jobs.resolve("notify.json"), """
                { "hooks": [ { "on": ["attention"], "command": ["setpriv", "sh", "-c", "echo {message}"] } ] }
                """), wb -> Outcome.of(wb.cli("notify", "test")), none(), 1,
                List.of("notify.json:1:", "{message}", "$KEYLINE_MESSAGE"), false));
        c.add(hostile("workdir from an output", "moved", """
                { "id": "use", "kind": "command", "effect": "none", "workdir": "{steps.meta.outputs.dir}", "command": ["pwd"] }""",
                java.util.Map.of("dir", "/etc"), 1, List.of("moved.json:7:", "workdir is never templated"), none()));
        return c;
    }

    // --- escape sequences: the terminal shows them, never obeys them -------------

    /** Window title (OSC 0), clipboard (OSC 52), erase line, 8-bit CSI, a bidi override. */
    static final String ESCAPES = "\u001b]0;pwned\u0007\u001b]52;c;cHduZWQ=\u0007\u001b[2K\u009b31m\u202eevil";

    private static Setup noisyJob() {
        return wb -> {
            Files.writeString(wb.jobs.resolve("escapes.txt"), ESCAPES);
            Files.writeString(wb.jobs.resolve("noisy.sh"), "cat escapes.txt; echo\ncat escapes.txt >&2; echo >&2\nexit 65\n");
            Files.writeString(wb.jobs.resolve("noisy.json"), """
                    {
                      "name": "noisy",
                      "description": %s,
                      "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                      "steps": [ { "id": "say", "kind": "command", "effect": "none", "command": ["sh", "noisy.sh"] } ]
                    }
                    """.formatted(io.keyline.core.json.Json.write("says " + ESCAPES)));
        };
    }

    private static Setup noisyRun() {
        return wb -> {
            noisyJob().apply(wb);
            wb.cli("run", "noisy", "--key", "2026-11-29");
        };
    }

    /** A valid operator pattern that a backtracking engine runs for minutes on a 41-character value. */
    static final String EVIL_PATTERN = "^(?:[a-z0-9]+?-?)+?\\\\.example\\\\.com$";

    /**
     * Answers that attack the reader, from a loopback server: a header for a pattern that backtracks, a 1 MiB body
     * for a body pattern, numbers whose plain notation has two billion digits, JSON nested past any stack, HTML
     * that never closes. Each run ends within the step's timeout with the step FAILED and a message that says why.
     */
    private List<Case> hostileBodyCases() throws IOException {
        byte[] deep = ("[".repeat(200_000)).getBytes(StandardCharsets.UTF_8);
        String evilHeader = "a".repeat(40) + "!";
        String mib = "a".repeat(1 << 20) + "b";
        String html = "<div>".repeat(100_000) + "<input name=other value=x>";
        hostileServer = new io.keyline.testing.FaultServer(r -> switch (r.path()) {
            case "/header" -> new io.keyline.testing.FaultServer.Reply.Respond(200, Map.of("X-Host", evilHeader,
                    "Content-Type", "text/plain"), "ok");
            case "/mib" -> new io.keyline.testing.FaultServer.Reply.Respond(200, Map.of("Content-Type", "text/plain"), mib);
            case "/bomb" -> io.keyline.testing.FaultServer.Reply.json("{\"total\": 1e2147483627, \"neg\": -1E2147483647}");
            case "/deep" -> io.keyline.testing.FaultServer.Reply.json(new String(deep, StandardCharsets.UTF_8));
            case "/html" -> new io.keyline.testing.FaultServer.Reply.Respond(200, Map.of("Content-Type", "text/html"), html);
            default -> io.keyline.testing.FaultServer.Reply.status(404, "{}");
        });
        String base = hostileServer.base();
        List<Case> c = new ArrayList<>();
        c.add(hostileBody("a backtracking pattern on a hostile header", "evilheader", base + "/header",
                "\"response\": { \"successWhen\": { \"header\": \"X-Host\", \"matches\": \"" + EVIL_PATTERN + "\" } }",
                List.of("the answer does not show success", "X-Host: aaaa", "does not match")));
        c.add(hostileBody("a body pattern on a hostile 1 MiB body", "evilbody", base + "/mib",
                "\"response\": { \"successWhen\": { \"bodyMatches\": \"(a|aa)+c$\" } }",
                List.of("the answer does not show success", "does not match")));
        c.add(hostileBody("a number bomb compared at a pointer", "bomb", base + "/bomb",
                "\"response\": { \"successWhen\": { \"jsonPointer\": \"/total\", \"in\": [0, 1] } }",
                List.of("the answer does not show success", "/total = 1E+2147483627")));
        c.add(hostileBody("a negative number bomb against another", "bomb2", base + "/bomb",
                "\"response\": { \"successWhen\": { \"jsonPointer\": \"/neg\", \"equals\": -1e2147483646 } }",
                List.of("the answer does not show success", "/neg = -1E+2147483647")));
        c.add(hostileBody("JSON nested 200,000 deep", "deep", base + "/deep",
                "\"response\": { \"successWhen\": { \"jsonPointer\": \"/a\", \"exists\": true } }",
                List.of("the answer does not show success", "not JSON")));
        c.add(hostileBody("HTML that never closes, for a css rule", "unclosed", base + "/html",
                "\"extract\": { \"sectok\": { \"css\": \"input[name=sectok]\", \"attr\": \"value\" } }",
                List.of("expected sectok in the answer, found none")));
        c.add(hostileBody("a regex rule on a hostile 1 MiB body", "evilextract", base + "/mib",
                "\"extract\": { \"tail\": { \"regex\": \"(a|aa)+(c)$\", \"group\": 2 } }",
                List.of("expected tail in the answer, found none")));
        return c;
    }

    private static Case hostileBody(String name, String job, String url, String rules, List<String> names) {
        return new Case("hostile-body", name, wb -> Files.writeString(wb.jobs.resolve(job + ".json"), """
                {
                  "name": "%s",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "read", "kind": "http", "effect": "none", "timeout": "PT10S",
                      "request": { "method": "GET", "url": "%s" },
                      %s }
                  ]
                }
                """.formatted(job, url, rules)), wb -> Outcome.of(wb.cli("run", job, "--key", "2026-11-29")), none(), 2,
                names, false);
    }

    private static List<Case> escapeCases() {
        List<String> shown = List.of("\\e]0;pwned\\x07", "\\e]52;", "\\x9b31m", "\\u202eevil");
        List<Case> c = new ArrayList<>();
        c.add(new Case("escape", "in a job description: jobs", noisyJob(), wb -> Outcome.of(wb.cli("jobs")), none(), 0,
                shown, false));
        c.add(new Case("escape", "in command output: run", noisyJob(),
                wb -> Outcome.of(wb.cli("run", "noisy", "--key", "2026-11-29")), none(), 2, shown, false));
        c.add(new Case("escape", "in the message: status --attention", noisyRun(),
                wb -> Outcome.of(wb.cli("status", "--attention")), none(), 0, List.of("\\e]0;pwned"), false));
        c.add(new Case("escape", "in the evidence: timeline", noisyRun(),
                wb -> Outcome.of(wb.cli("timeline", "noisy", "2026-11-29")), none(), 0, shown, false));
        c.add(new Case("escape", "in the evidence: timeline --json", noisyRun(),
                wb -> Outcome.of(wb.cli("timeline", "noisy", "2026-11-29", "--json")), none(), 0,
                List.of("\\u001B]0;pwned", "\\u009b31m", "\\u202eevil"), false));
        c.add(new Case("escape", "in a job file value: jobs", wb -> Files.writeString(wb.jobs.resolve("named.json"),
                "{\"name\": \"a\\u001b[2Kb\", \"key\": {\"type\": \"manual\"}, \"steps\": []}"),
                wb -> Outcome.of(wb.cli("jobs")), none(), 0, List.of("named.json:1:", "a\\e[2Kb"), false));
        return c;
    }

    // --- chat markup from a server: hooks quote it as text ------------------------------------------

    /** Mentions and a disguised link, as a hostile site puts them in an error body for a team chat. */
    static final String MARKUP = "<!channel> <!here> <@U024BE7LH> <https://evil.example/login|Log in again> "
            + "<at user_id=\"all\">all</at> <!subteam^S012> &lt;!everyone&gt;";

    private List<Case> chatMarkupCases() throws IOException {
        io.keyline.testing.FaultServer site = new io.keyline.testing.FaultServer(r -> new io.keyline.testing.FaultServer.Reply
                .Respond(r.path().contains("json") ? 200 : 422, java.util.Map.of("Content-Type",
                r.path().contains("json") ? "application/json" : "text/plain"),
                r.path().contains("json") ? io.keyline.core.json.Json.write(java.util.Map.of("errcode", 40001, "errmsg", MARKUP))
                        : MARKUP));
        io.keyline.testing.FaultServer hooks = new io.keyline.testing.FaultServer(r -> io.keyline.testing.FaultServer.Reply
                .json("{\"ok\": true, \"errcode\": 0}"));
        servers.add(site);
        servers.add(hooks);
        List<Case> c = new ArrayList<>();
        for (String body : List.of("text", "json")) {
            for (String format : List.of("slack", "feishu", "dingtalk", "wecom")) {
                String job = "markup-" + format + "-" + body;
                c.add(new Case("chat-markup", format + " hook, markup in a " + body + " error body", wb -> {
                    wb.job(job, """
                            {
                              "name": "%s",
                              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                              "retry": { "maxAttempts": 1 },
                              "steps": [ { "id": "publish", "kind": "http", "effect": "idempotent",
                                           "request": { "method": "POST", "url": "%s/api/%s", "body": "x" },
                                           "response": { "successWhen": { "jsonPointer": "/errcode", "equals": 0 } } } ]
                            }
                            """.formatted(job, site.base(), body), null);
                    Files.writeString(wb.jobs.resolve("notify.json"), """
                            { "hooks": [ { "on": ["attention"], "webhook": "%s/%s/T1/B1/tok", "format": "%s" } ] }
                            """.formatted(hooks.base(), job, format));
                }, wb -> {
                    Outcome o = Outcome.of(wb.cli("run", job, "--key", "2026-11-29"));
                    List<io.keyline.testing.FaultServer.Request> posted = hooks.received().stream()
                            .filter(r -> r.path().startsWith("/" + job + "/")).toList();
                    // the template's own FAILED key is announced too: look at the events of this job
                    List<com.fasterxml.jackson.databind.JsonNode> bodies = posted.stream()
                            .map(r -> io.keyline.core.json.Json.read(r.bodyText(), com.fasterxml.jackson.databind.JsonNode.class))
                            .filter(b -> b.toString().contains(job)).toList();
                    if (bodies.isEmpty()) {
                        o.problems().add("the " + format + " hook was not called for " + job);
                    }
                    for (com.fasterxml.jackson.databind.JsonNode b : bodies) {
                        String live = liveMarkup(format, b);
                        if (live != null) {
                            o.problems().add("live markup reached the " + format + " chat: " + live);
                        }
                    }
                    return o;
                }, none(), 2, List.of(body.equals("json") ? "does not show success" : "HTTP 422"), false));
            }
        }
        return c;
    }

    /** What of a webhook body a chat would read as a mention or a link, or {@code null}. */
    static String liveMarkup(String format, com.fasterxml.jackson.databind.JsonNode b) {
        List<String> texts = new ArrayList<>();
        collectTexts(b, texts);
        if (texts.stream().noneMatch(t -> t.contains("evil.example"))) {
            return "the server's text is missing: " + b;
        }
        switch (format) {
            case "slack" -> {
                for (String t : texts) {
                    for (String m : List.of("<!", "<@", "<http", "<#")) {
                        if (t.contains(m)) {
                            return m + " in " + t;
                        }
                    }
                }
            }
            case "feishu" -> {
                if (b.findValues("tag").stream().anyMatch(v -> v.asText().equals("at"))) {
                    return "an at element: " + b;
                }
                if (b.path("msg_type").asText().equals("text") && b.at("/content/text").asText().contains("<at")) {
                    return "<at> in a text message: " + b;
                }
                if (b.path("msg_type").asText().equals("interactive")) {
                    return "a card (lark_md reads markup): " + b;
                }
            }
            case "dingtalk", "wecom" -> {
                if (!b.path("msgtype").asText().equals("text")) {
                    return "msgtype " + b.path("msgtype").asText() + " reads markdown: " + b;
                }
                if (b.at("/at/isAtAll").asBoolean(false) || b.at("/text/mentioned_list").toString().contains("@all")) {
                    return "mentions everybody: " + b;
                }
            }
            default -> {
            }
        }
        return null;
    }

    private static void collectTexts(com.fasterxml.jackson.databind.JsonNode n, List<String> out) {
        if (n.isTextual()) {
            out.add(n.asText());
        }
        n.forEach(x -> collectTexts(x, out));
    }

    // --- state folder ----------------------------------------------------------------------------

    private List<Case> stateCases(List<String> skipped) throws Exception {
        List<Case> c = new ArrayList<>();
        String db = "keyline.mv.db";
        c.add(new Case("state", "corrupt: random bytes", wb -> {
            byte[] g = new byte[64 * 1024];
            new Random(42).nextBytes(g);
            Files.write(wb.state.resolve(db), g);
            Files.writeString(wb.root.resolve("garbage-state"), "");
        }, wb -> child(wb, "run", GOOD, "--key", "2026-11-29"), none(), 1, List.of(db, "corrupt|unreadable"), true));
        c.add(new Case("state", "corrupt: truncated", wb -> {
            byte[] all = Files.readAllBytes(wb.state.resolve(db));
            Files.write(wb.state.resolve(db), Arrays.copyOf(all, 3000));
            Files.writeString(wb.root.resolve("garbage-state"), "");
        }, wb -> child(wb, "status"), none(), 1, List.of(db, "corrupt|unreadable"), true));
        c.add(new Case("state", "corrupt: file headers zeroed", wb -> {
            byte[] all = Files.readAllBytes(wb.state.resolve(db));
            Arrays.fill(all, 0, Math.min(all.length, 8192), (byte) 0);
            Files.write(wb.state.resolve(db), all);
            Files.writeString(wb.root.resolve("garbage-state"), "");
        }, wb -> child(wb, "run", GOOD, "--key", "2026-11-29"), none(), 1, List.of(db, "corrupt|unreadable"), true));
        c.add(new Case("state", "corrupt: not an H2 file", wb -> {
            Files.writeString(wb.state.resolve(db), "this is a text file, not a database\n".repeat(200));
            Files.writeString(wb.root.resolve("garbage-state"), "");
        }, wb -> child(wb, "jobs"), none(), 1, List.of(db, "corrupt|unreadable"), true));
        c.add(new Case("state", "state path is a file", wb -> {
            deleteTree(wb.state);
            Files.writeString(wb.state, "not a folder\n");
            Files.writeString(wb.root.resolve("garbage-state"), "");
        }, wb -> {
            Outcome o = Outcome.of(wb.cli("run", GOOD, "--key", "2026-11-29"));
            if (!Files.isRegularFile(wb.state) || !Files.readString(wb.state).equals("not a folder\n")) {
                o.problems().add("the file given as --state was changed");
            }
            return o;
        }, none(), 1, List.of("STATE"), false));

        // read-only: root ignores chmod, so a read-only bind mount (else chattr +i, else skip)
        String ro = readOnlyMethod();
        if (ro == null) {
            skipped.add("state/read-only: neither a read-only bind mount nor chattr +i works here");
        } else {
            for (String[] cmd : List.of(new String[] {"run", GOOD, "--key", "2026-11-29"},
                    new String[] {"retry", GOOD, "2026-11-28"},
                    new String[] {"credentials", "set", "site", "--from-file", "COOKIE"})) {
                c.add(new Case("state", "read-only (" + ro + "): " + cmd[0], wb -> makeReadOnly(wb, ro),
                        wb -> child(wb, withCookieFile(wb, cmd)), wb -> undoReadOnly(wb, ro), 1,
                        List.of("STATE", "not writable|read-only|Read-only"), true));
            }
        }
        // out of space: the state on a small tmpfs that is then filled up
        // full: not a byte left; nearly full: room for the lock file, not for the first commit
        for (boolean nearly : new boolean[] {false, true}) {
            for (String[] cmd : List.of(new String[] {"run", "--yes", GOOD, "--from", "2026-10-01", "--to", "2026-11-26"},
                    new String[] {"retry", GOOD, "2026-11-28"}, new String[] {"pause", GOOD, "--reason", "full disk"},
                    new String[] {"credentials", "set", "site", "--from-file", "COOKIE"})) {
                if (nearly && !cmd[0].equals("run")) {
                    continue; // a small write (pause, retry, one credential) still fits in 4 KiB: not a failure
                }
                c.add(new Case("state", (nearly ? "nearly " : "") + "out of space: " + cmd[0], wb -> fillUp(wb, nearly),
                        wb -> child(wb, withCookieFile(wb, cmd)), this::unfill, 1,
                        List.of("STATE", "No space left on device|no space left|disk is full"), false));
            }
        }
        return c;
    }

    private static String[] withCookieFile(Workbench wb, String[] cmd) throws IOException {
        String[] out = cmd.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i].equals("COOKIE")) {
                Path f = wb.root.resolve("new-cookie.txt");
                Files.writeString(f, "Cookie: sid=R3newValue\n");
                out[i] = f.toString();
            }
        }
        return out;
    }

    private String readOnlyMethod() throws Exception {
        Path probe = tmp.resolve("ro-probe");
        Files.createDirectories(probe);
        if (sh("mount", "--bind", probe.toString(), probe.toString()) == 0) {
            boolean ok = sh("mount", "-o", "remount,ro,bind", probe.toString()) == 0
                    && !canWrite(probe.resolve("x"));
            sh("umount", probe.toString());
            if (ok) {
                return "bind mount";
            }
        }
        if (sh("chattr", "+i", probe.toString()) == 0) {
            boolean ok = !canWrite(probe.resolve("x"));
            sh("chattr", "-i", probe.toString());
            if (ok) {
                return "chattr +i";
            }
        }
        return null;
    }

    private static boolean canWrite(Path f) {
        try {
            Files.writeString(f, "x");
            Files.delete(f);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void makeReadOnly(Workbench wb, String method) throws Exception {
        String dir = wb.state.toString();
        if (method.equals("bind mount")) {
            check(sh("mount", "--bind", dir, dir), "mount --bind");
            mounts.add(dir);
            check(sh("mount", "-o", "remount,ro,bind", dir), "remount ro");
        } else {
            try (Stream<Path> files = Files.list(wb.state)) {
                for (Path p : files.toList()) {
                    sh("chattr", "+i", p.toString());
                }
            }
            sh("chattr", "+i", dir);
        }
    }

    private void undoReadOnly(Workbench wb, String method) throws Exception {
        String dir = wb.state.toString();
        if (method.equals("bind mount")) {
            sh("umount", dir);
            mounts.remove(dir);
        } else {
            sh("chattr", "-R", "-i", dir);
        }
    }

    private void fillUp(Workbench wb, boolean nearly) throws Exception {
        // move the populated state onto a tmpfs a little larger than it, then fill the rest
        Path saved = wb.root.resolve("state-saved");
        Files.move(wb.state, saved);
        Files.createDirectories(wb.state);
        long size;
        try (Stream<Path> walk = Files.walk(saved)) {
            size = walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        long kb = size / 1024 + 256;
        // mode=0700: a tmpfs root is 1777 by default, and a state folder others can write is refused
        check(sh("mount", "-t", "tmpfs", "-o", "size=" + kb + "k,mode=0700", "tmpfs", wb.state.toString()), "mount tmpfs");
        mounts.add(wb.state.toString());
        copyTree(saved, wb.state);
        Files.write(wb.state.resolve("spacer"), new byte[4096]);
        try (OutputStream out = Files.newOutputStream(wb.state.resolve("filler"))) {
            byte[] block = new byte[4096];
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // the device is full now
        }
        if (nearly) {
            Files.delete(wb.state.resolve("spacer"));
        }
    }

    private void unfill(Workbench wb) throws Exception {
        // back to an ordinary folder with whatever the case left on the tmpfs, then reopen and compare
        Path after = wb.root.resolve("state-after");
        Files.deleteIfExists(wb.state.resolve("filler"));
        Files.deleteIfExists(wb.state.resolve("spacer"));
        copyTree(wb.state, after);
        sh("umount", wb.state.toString());
        mounts.remove(wb.state.toString());
        deleteTree(wb.state);
        Files.move(after, wb.state);
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    private static void check(int rc, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " failed with " + rc);
        }
    }

    static int sh(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    /** The real CLI in a child JVM: its whole stdout and stderr, logging included. */
    static Outcome child(Workbench wb, String... args) throws Exception {
        Path log = wb.root.resolve("child-" + System.nanoTime() + ".log");
        Process p = ChildProcess.start(wb.state, wb.jobs, log, args);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            Outcome o = new Outcome(-1, Files.readString(log), new ArrayList<>());
            o.problems().add("did not end within 120 s");
            return o;
        }
        return new Outcome(p.exitValue(), Files.readString(log), new ArrayList<>());
    }

    /**
     * The state held by another process that will not share it: an embedded H2 connection without
     * AUTO_SERVER from this JVM, with {@code FILE_LOCK=FS}; the CLI runs in a child JVM meanwhile.
     * Runs alongside the other cases (the CLI waits a while for a lock that might be transient).
     */
    final class LockedCase implements AutoCloseable {
        final Workbench wb;
        Connection holder;
        Process process;
        Path log;
        byte[] before;
        String beforeHash;

        LockedCase(Path root) throws IOException {
            this.wb = new Workbench(root);
        }

        void start() throws Exception {
            copyTree(template.jobs, wb.jobs);
            copyTree(template.state, wb.state);
            holder = DriverManager.getConnection("jdbc:h2:file:" + wb.state.resolve("keyline")
                    + ";FILE_LOCK=FS;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", io.keyline.store.h2.DatabasePasswords.ADMIN_USER,
                    io.keyline.store.h2.DatabasePasswords.read(wb.state).admin());
            holder.createStatement().execute("SELECT COUNT(*) FROM key_state");
            // hashed by another process: opening and closing the file in this JVM would release H2's
            // POSIX lock on it (fcntl locks belong to the process, and any close drops them)
            Thread.sleep(2000); // H2's background writer settles what the open itself wrote
            beforeHash = sha256(wb.state.resolve("keyline.mv.db"));
            log = wb.root.resolve("child.log");
            process = ChildProcess.start(wb.state, wb.jobs, log, "run", GOOD, "--key", "2026-11-29");
        }

        Outcome finish() throws Exception {
            Outcome o;
            long waitStart = System.nanoTime();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                o = new Outcome(-1, Files.readString(log), new ArrayList<>());
                o.problems().add("did not end within 120 s");
            } else {
                o = new Outcome(process.exitValue(), Files.readString(log), new ArrayList<>());
            }
            System.out.println("locked case: waited " + (System.nanoTime() - waitStart) / 1_000_000 + " ms; holder valid "
                    + holder.isValid(1));
            if (!beforeHash.equals(sha256(wb.state.resolve("keyline.mv.db")))) {
                o.problems().add("keyline.mv.db changed while another process held it");
            }
            holder.close();
            holder = null;
            before = null; // the holder may write on close; compare through the CLI from here
            return o;
        }

        @Override
        public void close() throws Exception {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            if (holder != null) {
                holder.close();
            }
        }
    }

    static String sha256(Path f) throws Exception {
        Process p = new ProcessBuilder("sha256sum", f.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out.split(" ")[0];
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
