package io.keyline.core;

import io.keyline.store.h2.H2Database;
import io.keyline.core.exec.CredentialMaterial;
import io.keyline.core.exec.Executors;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepExecutor;
import io.keyline.core.exec.StepOutcome;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.core.operations.PlanApply;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepKind;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.testing.MutableClock;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Generates random jobs (2–5 steps: command and http, effects none/idempotent/unsafe, probes with a
 * fixed answer, a third with a probe of the job's own (present, absent, no answer, a rejected login; sometimes
 * sent with a credential), credentials usable/missing/rejected, {@code confirm: always}) and random key states
 * (fresh, pending with finished steps, due and not-yet-due retries, interrupted runs of dead holders,
 * live holders, confirmations with the right and a stale payload, attention states, keys ahead of
 * schedule), then checks that the steps the engine executes — through recording executors, for
 * {@code apply} of the plan and for a plain {@code run} on an identical copy — are exactly the steps
 * the plan lists, in order, and that no key departs from its plan.
 */
final class PlanEngineEquivalence {

    static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
    static final List<String> EFFECTS = List.of("none", "idempotent", "unsafe");

    private final Path root;
    private final Random random;
    final List<String> failures = new ArrayList<>();
    int cases;
    int executedSteps;
    /** Cases whose plan found the key's work there by the job's own probe (nothing runs). */
    int foundByOwnProbe;
    /**
     * Cases whose key waits for a person because the probe of its step, whose outcome is unknown, could not tell as
     * often as the retry policy asks it.
     */
    int askedOut;
    final Map<String, Integer> stops = new java.util.TreeMap<>();

    PlanEngineEquivalence(Path root, long seed) {
        this.root = root;
        this.random = new Random(seed);
    }

    /** What the fake world answers: probes per (job, key, step), credentials per name. */
    static final class World implements CredentialProvider {
        final Map<String, io.keyline.domain.ProbeAnswer> probes = new ConcurrentHashMap<>();
        final Map<String, String> credentials = new ConcurrentHashMap<>();
        final List<String> executed = Collections.synchronizedList(new ArrayList<>());

        @Override
        public Lookup lookup(String name) {
            String state = credentials.getOrDefault(name, "missing");
            CredentialMaterial m = new CredentialMaterial() {
                @Override
                public String name() {
                    return name;
                }

                @Override
                public String fingerprint() {
                    return "f1f1f1f1";
                }

                @Override
                public Map<String, String> httpHeaders(URI uri, Instant now) {
                    return Map.of("Authorization", "Bearer t0ken-" + name);
                }

                @Override
                public Map<String, String> environment(Instant now) {
                    return Map.of();
                }

                @Override
                public List<String> secretStrings() {
                    return List.of("t0ken-" + name);
                }
            };
            return switch (state) {
                case "usable" -> Lookup.found(m);
                case "rejected" -> Lookup.rejected(m, io.keyline.text.Said.plain("rejected by the site (test)"));
                default -> Lookup.missing(io.keyline.text.Said.plain("credential " + name + " is not set"));
            };
        }

        StepExecutor executor() {
            return new StepExecutor() {
                @Override
                public StepOutcome execute(StepContext ctx) {
                    executed.add(ctx.job().name() + "|" + ctx.key() + "|" + ctx.step().id());
                    return StepOutcome.success("ok", Map.of("n", "1"), null);
                }

                @Override
                public ProbeOutcome probe(StepContext ctx) {
                    io.keyline.domain.ProbeAnswer a = probes.getOrDefault(
                            ctx.job().name() + "|" + ctx.key() + "|" + ctx.step().id(), io.keyline.domain.ProbeAnswer.ABSENT);
                    ProbeOutcome.Answer ans = switch (a) {
                        case PRESENT -> ProbeOutcome.Answer.PRESENT;
                        case AUTH -> ProbeOutcome.Answer.AUTH;
                        case INCONCLUSIVE, REFUSED -> ProbeOutcome.Answer.INCONCLUSIVE;
                        default -> ProbeOutcome.Answer.ABSENT;
                    };
                    // a question the site refuses as it is asked (a 400) is no answer that asking again changes
                    return new ProbeOutcome(ans, io.keyline.text.Said.plain("probe: " + a.word()), null, Map.of(),
                            null, null, a == io.keyline.domain.ProbeAnswer.REFUSED);
                }
            };
        }
    }

    /** Runs {@code n} generated cases; failures are collected in {@link #failures}. */
    void run(int n) throws IOException {
        run(n, this::generate);
    }

    /**
     * One case: a job file's text (its name {@code j<i>} is made {@code j<i>a} for the copy that is applied and
     * {@code j<i>r} for the one that is run), the key, its stored state, and what the world answers.
     *
     * @param answers the probes' answers by step id ({@link io.keyline.domain.KeyProbe#STEP} for the job's own)
     * @param credentials the credentials' states by name: usable, rejected or missing
     */
    record Case(String job, String body, String key, Seed seed, Map<String, io.keyline.domain.ProbeAnswer> answers,
                Map<String, String> credentials, boolean ahead) {
    }

    /** Runs the cases {@code generator} makes for {@code 0 … n-1}; failures are collected in {@link #failures}. */
    void run(int n, java.util.function.IntFunction<Case> generator) throws IOException {
        Path jobs = root.resolve("jobs");
        Files.createDirectories(jobs);
        MutableClock clock = new MutableClock(NOW);
        World world = new World();
        RunOptions options = new RunOptions(clock, d -> clock.advance(d), new Random(1), Duration.ofMinutes(1),
                Duration.ofMinutes(2), "tester");
        StepExecutor fake = world.executor();
        Executors executors = new Executors(Map.of(StepKind.COMMAND, fake, StepKind.HTTP, fake));
        try (Database db = H2Database.open(root.resolve("state"));
             JdbcStateStore store = new JdbcStateStore(db)) {
            Engine engine = new Engine(store, executors, world, RunTrace.NONE, options);
            Planner planner = new Planner(store, store, store, store, world, clock, ctx -> fake.probe(ctx));
            PlanApply planApply = new PlanApply(store, store, planner);
            for (int i = 0; i < n; i++) {
                clock.set(NOW);
                one(generator.apply(i), jobs, store, world, engine, planner, planApply);
                cases++;
            }
        }
    }

    /**
     * A key whose unsafe step's outcome is unknown and whose probe could not tell {@code asks} times since, due to
     * be asked again, which cannot tell now either: a job of a safe step and the unsafe one, three attempts.
     */
    static Case unknownAndAsked(int asks) {
        String job = "u" + asks;
        String body = "{\"name\": \"" + job + "\", \"key\": {\"type\": \"date\", \"zone\": \"UTC\"},"
                + " \"retry\": {\"maxAttempts\": 3, \"initialDelay\": \"PT5S\", \"jitter\": 0.0},"
                + " \"steps\": [{\"id\": \"s0\", \"kind\": \"command\", \"effect\": \"none\","
                + " \"command\": [\"true\", \"{key}\"]},"
                + " {\"id\": \"s1\", \"kind\": \"http\", \"effect\": \"unsafe\","
                + " \"request\": {\"method\": \"POST\", \"url\": \"http://127.0.0.1:9/x/{key}\", \"body\": \"hello\"},"
                + " \"probe\": {\"kind\": \"http\", \"url\": \"http://127.0.0.1:9/p/{key}\","
                + " \"presentWhen\": {\"jsonPointer\": \"/n\", \"notEquals\": 0}}}]}";
        return new Case(job, body, "2026-11-30", new Seed("asked", KeyState.RETRY_WAIT, 1, StepStatus.AMBIGUOUS, null,
                NOW.minusSeconds(5), null, asks), Map.of("s1", io.keyline.domain.ProbeAnswer.INCONCLUSIVE), Map.of(),
                false);
    }

    /**
     * A key whose unsafe step was not sent or failed safely, and whose retries are all but spent ({@code attempts}
     * of three: its probe could not tell before it, or it failed where nothing was sent), due to be retried; its
     * probe cannot tell now either.
     */
    static Case retried(int attempts) {
        Case c = unknownAndAsked(0);
        String job = "r" + attempts;
        return new Case(job, c.body().replace("\"" + c.job() + "\"", "\"" + job + "\""), c.key(), new Seed("retried",
                KeyState.RETRY_WAIT, 1, StepStatus.FAILED, null, NOW.minusSeconds(5), null, -1, attempts), c.answers(),
                Map.of(), false);
    }

    /** The {@code i}th generated case. */
    private Case generate(int i) {
        int steps = 2 + random.nextInt(4);
        StringBuilder json = new StringBuilder();
        List<String> effects = new ArrayList<>();
        List<Boolean> probes = new ArrayList<>();
        List<String> creds = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            String effect = EFFECTS.get(random.nextInt(3));
            boolean http = random.nextBoolean();
            boolean probe = effect.equals("unsafe") && random.nextInt(3) > 0;
            boolean always = effect.equals("unsafe") && random.nextInt(4) == 0;
            String cred = random.nextInt(3) == 0 ? "c" + random.nextInt(2) : null;
            effects.add(effect);
            probes.add(probe);
            creds.add(cred);
            json.append(s == 0 ? "" : ",\n");
            json.append("{\"id\": \"s").append(s).append("\", \"kind\": \"").append(http ? "http" : "command")
                    .append("\", \"effect\": \"").append(effect).append('"');
            if (always) {
                json.append(", \"confirm\": \"always\"");
            }
            if (cred != null) {
                json.append(", \"credential\": \"").append(cred).append('"');
            }
            if (http) {
                json.append(", \"request\": {\"method\": \"POST\", \"url\": \"http://127.0.0.1:9/x/{key}/s").append(s)
                        .append("\", \"body\": \"hello {key}\"}");
            } else {
                json.append(", \"command\": [\"true\", \"{key}\"]");
            }
            if (probe) {
                json.append(", \"probe\": {\"kind\": \"http\", \"url\": \"http://127.0.0.1:9/p/{key}/s").append(s)
                        .append("\", \"presentWhen\": {\"jsonPointer\": \"/n\", \"notEquals\": 0}}");
            }
            json.append('}');
        }
        Map<String, String> credentials = new HashMap<>();
        for (String c : List.of("c0", "c1")) {
            int r = random.nextInt(4);
            credentials.put(c, r == 0 ? "missing" : r == 1 ? "rejected" : "usable");
        }
        String job = "j" + i;
        // a third of the jobs have a probe of their own, sometimes sent with a credential
        boolean ownProbe = random.nextInt(3) == 0;
        String ownCredential = ownProbe && random.nextBoolean() ? "c" + random.nextInt(2) : null;
        String own = !ownProbe ? "" : " \"probe\": {\"kind\": \"http\", \"url\": \"http://127.0.0.1:9/k/{key}\","
                + (ownCredential == null ? "" : " \"credential\": \"" + ownCredential + "\",")
                + " \"presentWhen\": {\"jsonPointer\": \"/n\", \"notEquals\": 0}},";
        String body = "{\"name\": \"" + job + "\", \"key\": {\"type\": \"date\", \"zone\": \"UTC\", \"start\": \"2026-01-01\"}," + own
                + " \"retry\": {\"maxAttempts\": 3, \"initialDelay\": \"PT5S\", \"multiplier\": 2.0, \"maxDelay\": \"PT5M\","
                + " \"jitter\": 0.0, \"maxElapsed\": \"PT30M\"},"
                + " \"steps\": [\n" + json + "\n]}";
        // the key: mostly today or earlier, sometimes tomorrow (not yet due)
        int offset = random.nextInt(10) == 0 ? 1 : -random.nextInt(3);
        String key = java.time.LocalDate.of(2026, 11, 30).plusDays(offset).toString();
        Map<String, io.keyline.domain.ProbeAnswer> answers = new HashMap<>();
        if (ownProbe) {
            int r = random.nextInt(11);
            answers.put(io.keyline.domain.KeyProbe.STEP, r < 4 ? io.keyline.domain.ProbeAnswer.ABSENT : r < 7
                    ? io.keyline.domain.ProbeAnswer.PRESENT : r == 7 ? io.keyline.domain.ProbeAnswer.INCONCLUSIVE
                    : r == 10 ? io.keyline.domain.ProbeAnswer.REFUSED : io.keyline.domain.ProbeAnswer.AUTH);
        }
        for (int s = 0; s < steps; s++) {
            if (probes.get(s)) {
                int r = random.nextInt(11);
                answers.put("s" + s, r < 5 ? io.keyline.domain.ProbeAnswer.ABSENT : r < 8
                        ? io.keyline.domain.ProbeAnswer.PRESENT : r == 8 ? io.keyline.domain.ProbeAnswer.INCONCLUSIVE
                        : r == 10 ? io.keyline.domain.ProbeAnswer.REFUSED : io.keyline.domain.ProbeAnswer.AUTH);
            }
        }
        Seed seed = seed(steps, effects, probes);
        if (seed.asks() >= 0 && probes.get(seed.finished()) && random.nextInt(3) > 0) {
            // a probe that could not tell after the unknown outcome mostly cannot tell now either
            answers.put("s" + seed.finished(), io.keyline.domain.ProbeAnswer.INCONCLUSIVE);
        }
        return new Case(job, body, key, seed, answers, credentials, offset > 0 && random.nextBoolean());
    }

    private void one(Case c, Path jobs, JdbcStateStore store, World world, Engine engine, Planner planner,
                     PlanApply planApply) throws IOException {
        String job = c.job();
        String body = c.body();
        String key = c.key();
        Seed seed = c.seed();
        world.credentials.putAll(c.credentials());
        // the same job twice: one copy is applied from its plan, the other simply run
        JobDefinition applied = load(jobs, job + "a", body.replace("\"" + job + "\"", "\"" + job + "a\""));
        JobDefinition ran = load(jobs, job + "r", body.replace("\"" + job + "\"", "\"" + job + "r\""));
        for (JobDefinition d : List.of(applied, ran)) {
            c.answers().forEach((s, a) -> world.probes.put(d.name() + "|" + key + "|" + s, a));
            seed.store(store, d, key, engine);
        }
        boolean ahead = c.ahead();
        Planner.Options opts = Planner.Options.DEFAULT.withAhead(ahead);

        // apply
        Plan plan = planApply.planAndSave(applied, List.of(key), Map.of(), opts);
        Plan.KeyPlan kp = plan.keys().get(0);
        if (kp.stopKind() == KeyDecision.StopKind.ALREADY_PRESENT) {
            foundByOwnProbe++;
        }
        world.executed.clear();
        int seeded = store.events(applied.name(), key).size();
        RunReport report = planApply.apply(plan.planId(), name -> applied, engine).report();
        List<String> executedApply = executedSteps(world, applied.name(), key);
        check(job + " apply", seed, kp, executedApply, report);
        checkStop(job + " apply", seed, kp, store.events(applied.name(), key), seeded, report);

        // plain run of an identical copy
        Plan planRun = planner.plan(ran, List.of(key), Map.of(), opts);
        world.executed.clear();
        RunReport runReport = engine.run(ran, List.of(key), RunRequest.plain(ahead, "test"));
        List<String> executedRun = executedSteps(world, ran.name(), key);
        check(job + " run", seed, planRun.keys().get(0), executedRun, runReport);
        checkStop(job + " run", seed, planRun.keys().get(0), store.events(ran.name(), key), seeded, runReport);
        if (kp.stopKind() == KeyDecision.StopKind.NEEDS_CONFIRMATION && seed.asks() >= 0) {
            askedOut++;
        }
        executedSteps += executedApply.size() + executedRun.size();
        String stop = kp.stop() == null ? kp.action() : kp.stop().text();
        stops.merge(stop.replaceAll("s[0-9]", "S").replaceAll("c[0-9]", "C").replaceAll("\\(.*", "").strip(), 1,
                Integer::sum);
    }

    /**
     * The event with which a run first stops a key, by where its plan said it stops: the run may go on after it (it
     * waits in place for a retry and asks again), but it first does what the plan said. A stop that leaves the key
     * as it is writes nothing.
     */
    private static EventType firstStop(KeyDecision.StopKind kind) {
        return switch (kind) {
            case COMPLETE, ALREADY_PRESENT -> EventType.KEY_DONE;
            case NEEDS_CONFIRMATION, NEEDS_REVIEW -> EventType.WAITING_FOR_CONFIRMATION;
            case NEEDS_CREDENTIAL -> EventType.WAITING_FOR_CREDENTIAL;
            case PROBE_INCONCLUSIVE -> EventType.RETRY_SCHEDULED;
            case RETRIES_SPENT -> EventType.KEY_FAILED;
            case PROBE_REFUSED -> EventType.KEY_FAILED;
            case YIELD -> EventType.YIELDED;
            default -> null;
        };
    }

    private static final java.util.Set<EventType> STOPS = java.util.EnumSet.of(EventType.KEY_DONE,
            EventType.WAITING_FOR_CONFIRMATION, EventType.WAITING_FOR_CREDENTIAL, EventType.RETRY_SCHEDULED,
            EventType.KEY_FAILED, EventType.YIELDED);

    private static final java.util.Set<KeyState> KEPT = java.util.EnumSet.of(KeyState.DONE, KeyState.SKIPPED,
            KeyState.FAILED, KeyState.NEEDS_CONFIRMATION, KeyState.NEEDS_CREDENTIAL);

    /** The run first stopped the key where its plan said (the events after the {@code seeded} ones are the run's). */
    private void checkStop(String what, Seed seed, Plan.KeyPlan kp, List<KeyEvent> events, int seeded,
                           RunReport report) {
        if (!report.departed().isEmpty() || kp.stopKind() == null) {
            return;
        }
        // a key that waits for a person, failed or is finished is left as it is: nothing is written
        EventType expected = KEPT.contains(kp.state()) ? null : firstStop(kp.stopKind());
        EventType actual = events.subList(seeded, events.size()).stream().map(KeyEvent::type).filter(STOPS::contains)
                .findFirst().orElse(null);
        if (expected != actual) {
            failures.add(what + " [" + seed + "]: plan stops " + kp.stopKind() + " (" + kp.action()
                    + "), the run first stopped with " + actual);
        }
    }

    private void check(String what, Seed seed, Plan.KeyPlan kp, List<String> executed, RunReport report) {
        if (!executed.equals(kp.steps())) {
            failures.add(what + " [" + seed + "]: plan listed " + kp.steps() + " (" + kp.action() + "), engine executed "
                    + executed);
        }
        if (!report.departed().isEmpty()) {
            failures.add(what + " [" + seed + "]: departed from its own plan: " + kp.action());
        }
    }

    private static List<String> executedSteps(World world, String job, String key) {
        List<String> out = new ArrayList<>();
        synchronized (world.executed) {
            for (String e : world.executed) {
                String[] p = e.split("\\|");
                if (p[0].equals(job) && p[1].equals(key)) {
                    out.add(p[2]);
                }
            }
        }
        return out;
    }

    private static JobDefinition load(Path jobs, String name, String json) throws IOException {
        Path f = jobs.resolve(name + ".json");
        Files.writeString(f, json);
        JobFileLoader.Result loaded = JobFileLoader.loadFile(f);
        if (loaded.job() == null) {
            throw new IllegalStateException("generated job does not load: " + loaded.errors() + "\n" + json);
        }
        return loaded.job();
    }

    /** A generated key state. */
    record Seed(String kind, KeyState state, int finished, StepStatus interrupted, String confirm, Instant next,
                String lease, int asks, int attempts) {
        Seed(String kind, KeyState state, int finished, StepStatus interrupted, String confirm, Instant next,
             String lease, int asks) {
            this(kind, state, finished, interrupted, confirm, next, lease, asks, 1);
        }

        Seed(String kind, KeyState state, int finished, StepStatus interrupted, String confirm, Instant next,
             String lease) {
            this(kind, state, finished, interrupted, confirm, next, lease, -1);
        }

        void store(JdbcStateStore store, JobDefinition job, String key, Engine engine) {
            if (kind.equals("fresh")) {
                return;
            }
            List<io.keyline.domain.StepDefinition> steps = job.steps();
            int at = Math.min(finished, steps.size() - 1);
            String step = steps.get(at).id();
            String hash = null;
            if (confirm != null) {
                Map<String, Map<String, String>> outs = new HashMap<>();
                for (int s = 0; s < at; s++) {
                    outs.put(steps.get(s).id(), Map.of("n", "1"));
                }
                hash = confirm.equals("stale") ? "0".repeat(64) : Engine.payloadHash(new StepContext(job, steps.get(at),
                        key, "{runId}", 1, outs, null, java.util.function.UnaryOperator.identity()));
            }
            String owner = lease == null ? null : lease.equals("live") ? engine.owner() : "ghost-host/1/dead";
            Instant until = lease == null ? null : lease.equals("live") ? NOW.plusSeconds(600) : NOW.minusSeconds(60);
            KeyRecord rec = new KeyRecord(job.name(), key, state, step, interrupted != null ? attempts : 0, next, null,
                    "seeded",
                    null, confirm == null ? null : step, hash, "seed", owner, until, 0, NOW, NOW);
            List<StateStore.Change> chain = new ArrayList<>();
            chain.add(new StateStore.Change(null, rec, null, new KeyEvent(0, job.name(), key, NOW, "seed",
                    EventType.CLAIMED, null, 0, state, null, "seeded", null, null, null)));
            KeyRecord prev = rec.withVersion(1);
            for (int s = 0; s <= at; s++) {
                StepStatus st = s < at ? StepStatus.SUCCEEDED : interrupted;
                if (st == null) {
                    continue;
                }
                StepRecord sr = new StepRecord(steps.get(s).id(), st, s == at ? attempts : 1, NOW,
                        st == StepStatus.SUCCEEDED ? Map.of("n", "1") : Map.of(), NOW);
                KeyRecord next1 = prev.withVersion(prev.version());
                chain.add(new StateStore.Change(prev, next1, sr, null));
                prev = next1.withVersion(prev.version() + 1);
            }
            // the interrupted step's attempt, then its probe's asks that could not tell, each scheduling the next
            List<KeyEvent> history = new ArrayList<>();
            if (asks >= 0) {
                history.add(new KeyEvent(0, job.name(), key, NOW.minusSeconds(3600), "seed", EventType.STEP_STARTED,
                        step, 1, KeyState.RUNNING, null, "attempt 1 of " + step + " started", null, null, null, null));
            }
            for (int a = 0; a < asks; a++) {
                history.add(new KeyEvent(0, job.name(), key, NOW.minusSeconds(1800 - a), "seed",
                        EventType.RETRY_SCHEDULED, step, 1, KeyState.RETRY_WAIT,
                        io.keyline.domain.FailureClass.AMBIGUOUS, "seeded ask " + (a + 1), null, null, null,
                        io.keyline.domain.ProbeAnswer.INCONCLUSIVE));
            }
            for (KeyEvent e : history) {
                KeyRecord next1 = prev.withVersion(prev.version());
                chain.add(new StateStore.Change(prev, next1, null, e));
                prev = next1.withVersion(prev.version() + 1);
            }
            store.applyChain(chain);
        }
    }

    private Seed seed(int steps, List<String> effects, List<Boolean> probes) {
        int finished = random.nextInt(steps);
        if (random.nextInt(13) == 0) {
            // an unsafe step whose outcome is unknown, due to ask its probe again after it could not tell 0-2 times
            List<Integer> probed = new ArrayList<>();
            for (int s = 0; s < steps; s++) {
                if (probes.get(s)) {
                    probed.add(s);
                }
            }
            int at = probed.isEmpty() ? finished : probed.get(random.nextInt(probed.size()));
            return new Seed("asked", KeyState.RETRY_WAIT, at, StepStatus.AMBIGUOUS, null, random.nextBoolean()
                    ? NOW.minusSeconds(5) : NOW.plusSeconds(20), null, random.nextInt(3));
        }
        StepStatus interrupted = switch (random.nextInt(4)) {
            case 0 -> StepStatus.STARTED;
            case 1 -> StepStatus.AMBIGUOUS;
            case 2 -> StepStatus.FAILED;
            default -> null;
        };
        String confirm = random.nextInt(4) == 0 ? (random.nextBoolean() ? "right" : "stale") : null;
        return switch (random.nextInt(12)) {
            case 0, 1, 2 -> new Seed("fresh", KeyState.PENDING, 0, null, null, null, null);
            case 3, 4 -> new Seed("pending", KeyState.PENDING, finished, interrupted == StepStatus.FAILED ? null
                    : interrupted == null ? null : StepStatus.FAILED, confirm, null, null);
            case 5 -> new Seed("retry-due", KeyState.RETRY_WAIT, finished, StepStatus.FAILED, null,
                    NOW.minusSeconds(5), null, -1, 1 + random.nextInt(2));
            case 6 -> new Seed("retry-soon", KeyState.RETRY_WAIT, finished, StepStatus.FAILED, null,
                    NOW.plusSeconds(20), null);
            case 7 -> new Seed("retry-later", KeyState.RETRY_WAIT, finished, StepStatus.FAILED, null,
                    NOW.plusSeconds(3600), null);
            case 8 -> new Seed("dead-holder", KeyState.RUNNING, finished, interrupted, confirm, null, "dead");
            case 9 -> new Seed("live-holder", KeyState.RUNNING, finished, StepStatus.STARTED, null, null, "live");
            case 10 -> new Seed("confirmed", KeyState.PENDING, finished, random.nextBoolean() ? StepStatus.AMBIGUOUS
                    : null, random.nextBoolean() ? "right" : "stale", null, null);
            default -> new Seed("attention", List.of(KeyState.FAILED, KeyState.NEEDS_CONFIRMATION,
                    KeyState.NEEDS_CREDENTIAL, KeyState.DONE, KeyState.SKIPPED).get(random.nextInt(5)), finished,
                    null, null, null, null);
        };
    }
}
