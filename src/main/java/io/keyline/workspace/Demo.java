package io.keyline.workspace;

import io.keyline.core.Engine;
import io.keyline.core.OperatorException;
import io.keyline.core.RunTrace;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.sandbox.SandboxSite;
import io.keyline.sandbox.SandboxSite.Fault;
import io.keyline.text.Text;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The demo workspace: the demo's jobs copied into a jobs folder, a sandbox site on loopback, and a
 * real backfill of the last {@value #DAYS} days through the engine, with the site's faults switched
 * on for a few keys so that the runs leave keys in every state an operator resolves.
 *
 * <p>The sandbox keeps its sessions and articles in {@code JOBS/.keyline-demo-site} and its port in
 * {@code JOBS/.keyline-demo}, so the console and {@code keyline sandbox} can start the same site
 * again later, on the port the job files name.
 */
public final class Demo {

    /** Marks a jobs folder as a demo workspace; holds the sandbox's port (properties). */
    public static final String MARKER = ".keyline-demo";
    /** The sandbox's sessions and articles. */
    public static final String WORLD = ".keyline-demo-site";
    public static final int DEFAULT_PORT = 18777;
    public static final String CREDENTIAL = "sandbox-cookie";
    public static final String ARTICLE_JOB = "daily-article";
    public static final String DIGEST_JOB = "weekly-digest";
    public static final int DAYS = 30;
    /** The demo's files (under {@code resources/demo}, in the jar under {@code io/keyline/demo}). */
    static final List<String> FILES = List.of("daily-article.json", "weekly-digest.json", "scripts/write-article.sh",
            "scripts/build-digest.sh");

    /**
     * What the demo made.
     *
     * @param site     the sandbox, still running (the caller closes it, or keeps it for the operator)
     * @param keys     the article keys, oldest first
     * @param failed   the key that ended FAILED
     * @param confirm  the key that waits in NEEDS_CONFIRMATION
     * @param parked   the keys parked in NEEDS_CREDENTIAL
     * @param counts   keys by state, per job
     * @param cookie   the fingerprint of the cookie stored as {@value #CREDENTIAL}
     */
    public record Result(SandboxSite site, List<String> keys, String failed, String confirm, List<String> parked,
                         Map<String, Map<KeyState, Integer>> counts, String cookie) {
    }

    private Demo() {
    }

    /** Whether {@code jobsDir} holds a demo workspace. */
    public static boolean isDemo(Path jobsDir) {
        return Files.isRegularFile(jobsDir.resolve(MARKER));
    }

    /** The sandbox port recorded in a demo workspace. */
    public static int port(Path jobsDir) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(jobsDir.resolve(MARKER))) {
            p.load(in);
            return Integer.parseInt(p.getProperty("port", "").strip());
        } catch (IOException | NumberFormatException e) {
            throw OperatorException.of("core.demo.noPort", jobsDir.resolve(MARKER).toString(), e.getMessage());
        }
    }

    /** Starts the sandbox of a demo workspace on its recorded port. */
    public static SandboxSite startSandbox(Path jobsDir, Clock clock) throws IOException {
        return SandboxSite.start(port(jobsDir), clock, jobsDir.resolve(WORLD));
    }

    /**
     * Creates the demo workspace on {@code ws}.
     *
     * @param port     the sandbox's port; 0 for any free one. If the default port is taken, any free one is used.
     * @param force    create it even though the state already has keys or the jobs folder has the demo's files
     * @param trace    where the runs are traced
     * @param progress a line per stage (may be {@code null})
     * @throws OperatorException when the state has keys (without {@code force}) or the sandbox cannot start
     */
    public static Result create(Workspace ws, int port, boolean force, RunTrace trace,
                                java.util.function.Consumer<String> progress) {
        java.util.function.Consumer<String> say = progress == null ? s -> { } : progress;
        Path jobsDir = ws.jobsDir();
        if (!force) {
            Map<String, Map<KeyState, Integer>> counts = ws.store().countsByJob();
            if (!counts.isEmpty()) {
                int n = counts.values().stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
                throw OperatorException.of("core.demo.stateNotEmpty", ws.stateDir().toString(), n,
                        String.join(", ", counts.keySet()));
            }
            List<String> present = FILES.stream().filter(f -> Files.exists(jobsDir.resolve(f))).toList();
            if (!present.isEmpty()) {
                throw OperatorException.of("core.demo.filesPresent", jobsDir.toString(), String.join(", ", present));
            }
        }
        Clock clock = ws.options().clock();
        SandboxSite site = startSite(jobsDir, port, clock, say);
        try {
            return run(ws, site, trace, say);
        } catch (RuntimeException e) {
            site.close();
            throw e;
        }
    }

    private static SandboxSite startSite(Path jobsDir, int port, Clock clock, java.util.function.Consumer<String> say) {
        try {
            Files.createDirectories(jobsDir);
            Files.deleteIfExists(jobsDir.resolve(WORLD));
            try {
                return SandboxSite.start(port, clock, jobsDir.resolve(WORLD));
            } catch (BindException e) {
                if (port != DEFAULT_PORT) {
                    throw OperatorException.of("core.demo.portInUse", String.valueOf(port));
                }
                say.accept(Text.t("core.demo.portBusy", String.valueOf(port)));
                return SandboxSite.start(0, clock, jobsDir.resolve(WORLD));
            }
        } catch (IOException e) {
            throw OperatorException.of("core.demo.cannotStart", e.getMessage());
        }
    }

    private static Result run(Workspace ws, SandboxSite site, RunTrace trace, java.util.function.Consumer<String> say) {
        Path jobsDir = ws.jobsDir();
        Clock clock = ws.options().clock();
        LocalDate today = LocalDate.now(clock.withZone(java.time.ZoneOffset.UTC));
        LocalDate first = today.minusDays(DAYS - 1L);
        String startWeek = KeyRules.keyAt(weekSpec(), first.atStartOfDay(java.time.ZoneOffset.UTC));
        copyJobs(jobsDir, Map.of("{{SANDBOX_URL}}", site.base(), "{{DEMO_START}}", first.toString(),
                "{{DEMO_START_WEEK}}", startWeek));
        writeMarker(jobsDir, site);
        say.accept(Text.t("core.demo.started", site.base(), jobsDir.toString()));

        SandboxSite.Session session = site.login();
        // the site's page with the login button is where the operator renews the cookie: shown where keys wait for it
        ParsedCredential cookie = CredentialParser.parse(CredentialType.COOKIE, session.cookiesTxtLine(), null);
        ws.credentials().set(CREDENTIAL, cookie, site.base() + "/", ws.options().user());

        JobCatalog catalog = JobFileLoader.loadFolder(jobsDir);
        JobDefinition article = job(catalog, ARTICLE_JOB);
        JobDefinition digest = job(catalog, DIGEST_JOB);
        List<String> keys = KeyRules.range(article.key(), first.toString(), today.toString());
        String failed = keys.get(6);
        String retried = keys.get(12);
        String reconciled = keys.get(17);
        String confirm = keys.get(23);
        List<String> parked = keys.subList(keys.size() - 3, keys.size());
        site.hangFor(java.time.Duration.ofSeconds(10));
        site.failKey(failed, Fault.POST_422)
                .failKey(retried, Fault.PROBE_503)
                .failKey(reconciled, Fault.POST_TIMEOUT_AFTER_SAVING)
                .failKey(confirm, Fault.POST_TIMEOUT_BEFORE_SAVING);
        // The login is refused for the last days. (Not site.expireSessions(): that would refuse every later
        // request too, and the operator's steps 2 and 3 - retry, confirm - would park on the credential as well.)
        parked.forEach(k -> site.failKey(k, Fault.ANY_401));

        Engine engine = ws.engine(trace);
        say.accept(Text.t("core.demo.backfilling", ARTICLE_JOB, first.toString(), today.toString(), keys.size()));
        engine.run(article, keys);
        String lastWeek = KeyRules.previous(digest.key(), KeyRules.current(digest.key(), clock));
        List<String> weeks = KeyRules.range(digest.key(), startWeek, lastWeek);
        say.accept(Text.t("core.demo.building", DIGEST_JOB, startWeek, lastWeek));
        engine.run(digest, weeks);
        site.clearFaults();

        Map<String, Map<KeyState, Integer>> counts = new java.util.LinkedHashMap<>();
        counts.put(ARTICLE_JOB, count(ws, ARTICLE_JOB, keys));
        counts.put(DIGEST_JOB, count(ws, DIGEST_JOB, weeks));
        return new Result(site, keys, failed, confirm, parked, counts, cookie.fingerprint());
    }

    private static Map<KeyState, Integer> count(Workspace ws, String job, List<String> keys) {
        Map<KeyState, Integer> out = new EnumMap<>(KeyState.class);
        for (KeyRecord r : ws.store().keys(job, keys).values()) {
            out.merge(r.state(), 1, Integer::sum);
        }
        return out;
    }

    private static io.keyline.domain.KeySpec weekSpec() {
        return new io.keyline.domain.KeySpec(io.keyline.domain.KeyType.WEEK, java.time.ZoneOffset.UTC, null);
    }

    private static JobDefinition job(JobCatalog catalog, String name) {
        return catalog.job(name).orElseThrow(() -> new IllegalStateException("the demo's job " + name
                + " did not load: " + catalog.errors().stream().map(JobFileError::toString)
                .collect(Collectors.joining("; "))));
    }

    private static void copyJobs(Path jobsDir, Map<String, String> replace) {
        for (String f : FILES) {
            String text;
            try (InputStream in = Demo.class.getResourceAsStream("/io/keyline/demo/" + f)) {
                if (in == null) {
                    throw new IllegalStateException("the demo's file " + f + " is missing from the class path");
                }
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (Map.Entry<String, String> e : replace.entrySet()) {
                text = text.replace(e.getKey(), e.getValue());
            }
            try {
                Path target = jobsDir.resolve(f);
                Files.createDirectories(target.getParent());
                Files.writeString(target, text, StandardCharsets.UTF_8);
                // the operator's files: job files 0600, scripts 0700 (not executable or readable by others)
                ownerOnly(target, f.endsWith(".sh") ? "rwx------" : "rw-------");
            } catch (IOException e) {
                throw OperatorException.of("core.demo.cannotWrite", jobsDir.resolve(f).toString(), e.getMessage());
            }
        }
    }

    private static void writeMarker(Path jobsDir, SandboxSite site) {
        String text = "# Keyline demo workspace: the console starts the sandbox site on this port\n"
                + "port=" + site.port() + "\nurl=" + site.base() + "\n";
        try {
            Files.writeString(jobsDir.resolve(MARKER), text, StandardCharsets.UTF_8);
            ownerOnly(jobsDir.resolve(MARKER), "rw-------");
        } catch (IOException e) {
            throw OperatorException.of("core.demo.cannotWrite", jobsDir.resolve(MARKER).toString(), e.getMessage());
        }
    }

    private static void ownerOnly(Path file, String mode) throws IOException {
        if (Files.getFileStore(file).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
        } else if (mode.startsWith("rwx")) {
            file.toFile().setExecutable(true, true);
        }
    }

    /** What the demo made and the operator's five steps, for the command line and the console. */
    public static String summary(Workspace ws, Result r, boolean sandboxStops) {
        String options = " --state " + Places.quoted(ws.stateDir().toString()) + " --jobs "
                + Places.quoted(ws.jobsDir().toString());
        String jar = launcher(running(), Path.of("").toAbsolutePath(), Places.packaged()) + options;
        StringBuilder sb = new StringBuilder();
        sb.append(Text.t("core.demo.summary.created", r.site().base())).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.jobs", ws.jobsDir().toString(), ARTICLE_JOB, DIGEST_JOB)).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.state", ws.stateDir().toString())).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.credential", CREDENTIAL, r.cookie())).append('\n');
        r.counts().forEach((job, c) -> sb.append("  ").append(Text.t("core.demo.summary.counts", job, describe(c)))
                .append('\n'));
        sb.append('\n');
        sb.append(Text.t("core.demo.summary.waiting")).append('\n');
        sb.append(waiting(KeyState.FAILED, ARTICLE_JOB + " " + r.failed(), Text.t("core.demo.summary.failed")));
        sb.append(waiting(KeyState.NEEDS_CONFIRMATION, ARTICLE_JOB + " " + r.confirm(),
                Text.t("core.demo.summary.confirm")));
        sb.append(waiting(KeyState.NEEDS_CREDENTIAL, ARTICLE_JOB + " " + String.join(", ", r.parked()),
                Text.t("core.demo.summary.parked")));
        sb.append('\n');
        sb.append(Text.t("core.demo.summary.steps")).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.step1", jar, String.valueOf(r.site().port()))).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.step2", r.site().base())).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.step3", ARTICLE_JOB, r.parked().size())).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.step4", r.failed())).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.step5", r.confirm())).append('\n');
        sb.append("  ").append(Text.t("core.demo.summary.step6", ARTICLE_JOB, r.keys().size())).append('\n');
        if (sandboxStops) {
            sb.append('\n').append(Text.t("core.demo.summary.sandboxStops", jar + " sandbox",
                    CREDENTIAL)).append('\n');
        }
        return sb.toString();
    }

    /**
     * How the operator starts this program again from {@code cwd}: the installed app's command, or
     * {@code java -jar} with the jar they ran (relative when it is below {@code cwd}); from built classes (a
     * development run) the jar the build makes.
     *
     * @param code where this class was loaded from: the jar, or a classes folder
     */
    static String launcher(Path code, Path cwd, boolean packaged) {
        if (packaged) {
            return "keyline";
        }
        if (code == null || !code.getFileName().toString().endsWith(".jar")) {
            return "java -jar target/keyline.jar";
        }
        Path jar = code.toAbsolutePath().normalize();
        Path here = cwd.toAbsolutePath().normalize();
        return "java -jar " + Places.quoted((jar.startsWith(here) ? here.relativize(jar) : jar).toString());
    }

    /** The jar (or classes folder) this class was loaded from, or {@code null} when the JVM does not say. */
    private static Path running() {
        try {
            java.security.CodeSource source = Demo.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI());
        } catch (java.net.URISyntaxException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }

    /** One line of what waits: its state, padded to a column, the keys and why. */
    private static String waiting(KeyState state, String keys, String why) {
        String s = Text.t("cli.state." + state.name());
        int width = 0;
        for (KeyState k : List.of(KeyState.FAILED, KeyState.NEEDS_CONFIRMATION, KeyState.NEEDS_CREDENTIAL)) {
            width = Math.max(width, Text.columns(Text.t("cli.state." + k.name())));
        }
        // padded by terminal columns: a Chinese state takes two per character
        return "  " + s + " ".repeat(width + 2 - Text.columns(s)) + keys + "  " + why + "\n";
    }

    static String describe(Map<KeyState, Integer> c) {
        int total = c.values().stream().mapToInt(Integer::intValue).sum();
        List<String> parts = new ArrayList<>();
        for (KeyState s : KeyState.values()) {
            Integer n = c.get(s);
            if (n != null && n > 0) {
                parts.add(Text.t("core.demo.state." + s.name(), n));
            }
        }
        return Text.t("core.demo.summary.keys", total, String.join(Text.t("common.listSeparator"), parts));
    }
}
