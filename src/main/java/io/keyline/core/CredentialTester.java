package io.keyline.core;

import io.keyline.core.exec.HttpExecutor;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.StepContext;
import io.keyline.credentials.Redactor;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyType;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Asks, read-only, the probes of the steps that use a credential whether the site accepts it. */
public final class CredentialTester {

    /** What one step's probe said. */
    public record Result(String job, String step, Verdict verdict, String message) {
        /** "daily/publish: accepted (HTTP 200)". */
        public String text() {
            return job + "/" + step + ": " + verdict.word() + (message == null || message.isBlank() ? ""
                    : " (" + message + ")");
        }
    }

    public enum Verdict {
        ACCEPTED, REJECTED, NO_ANSWER, NOT_TESTED;

        /** "accepted", "rejected", "no answer", "not tested". */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        }
    }

    /** One sentence over a test's results: "Accepted by the probe.", "Rejected by 1 of 2 probes: renew it.", … */
    public static String summary(String name, List<Result> results) {
        long accepted = results.stream().filter(r -> r.verdict() == Verdict.ACCEPTED).count();
        long rejected = results.stream().filter(r -> r.verdict() == Verdict.REJECTED).count();
        long tested = results.stream().filter(r -> r.verdict() != Verdict.NOT_TESTED).count();
        if (tested == 0) {
            return "No step that uses " + name + " has an http probe to test with.";
        }
        if (rejected > 0) {
            return "Rejected by " + rejected + " of " + tested + " probe" + (tested == 1 ? "" : "s") + ": renew it.";
        }
        if (accepted == tested) {
            return "Accepted by " + (tested == 1 ? "the probe" : "all " + tested + " probes") + ".";
        }
        return "Accepted by " + accepted + " of " + tested + "; the others gave no answer.";
    }

    private final CredentialProvider credentials;
    private final Clock clock;

    public CredentialTester(CredentialProvider credentials, Clock clock) {
        this.credentials = credentials;
        this.clock = clock;
    }

    /** @throws OperatorException when the credential cannot be used at all (not set, wrong master key) */
    public List<Result> test(String name, List<JobDefinition> jobs) throws InterruptedException {
        CredentialProvider.Lookup found = credentials.lookup(name);
        if (!found.present()) {
            throw new OperatorException(found.problem());
        }
        HttpExecutor http = new HttpExecutor(clock);
        Redactor redactor = Redactor.NONE.plus(found.material().secretStrings());
        List<Result> out = new ArrayList<>();
        for (JobDefinition job : jobs) {
            for (StepDefinition step : job.steps()) {
                if (!name.equals(step.credential())) {
                    continue;
                }
                if (step.probe() == null || step.probe().kind() != StepKind.HTTP) {
                    out.add(new Result(job.name(), step.id(), Verdict.NOT_TESTED, "no http probe: nothing read-only to test with"));
                    continue;
                }
                if (job.key().type() == KeyType.MANUAL && step.probe().url().contains("{key}")) {
                    out.add(new Result(job.name(), step.id(), Verdict.NOT_TESTED, "the probe needs a manual key"));
                    continue;
                }
                String key = job.key().type() == KeyType.MANUAL ? "test" : KeyRules.current(job.key(), clock);
                StepContext ctx = new StepContext(job, step, key, "credentials-test", 1, Map.of(), found.material(),
                        redactor::redact);
                ProbeOutcome p = http.probe(ctx);
                Verdict v = switch (p.answer()) {
                    case PRESENT, ABSENT -> Verdict.ACCEPTED;
                    case AUTH -> Verdict.REJECTED;
                    case INCONCLUSIVE -> Verdict.NO_ANSWER;
                };
                credentials.recordUse(name, clock.instant(), v == Verdict.REJECTED ? "rejected"
                        : v == Verdict.ACCEPTED ? "accepted" : "no answer");
                out.add(new Result(job.name(), step.id(), v, p.message()));
            }
        }
        return out;
    }
}
