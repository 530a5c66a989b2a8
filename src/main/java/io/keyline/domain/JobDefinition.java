package io.keyline.domain;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A validated job file.
 *
 * @param name        job name ({@code [a-z0-9][a-z0-9-]{0,62}})
 * @param description free text, may be empty
 * @param key         key type, zone and start
 * @param schedule    parsed cron schedule, or {@code null}
 * @param retry       job-level retry policy
 * @param steps       steps in execution order
 * @param file        the job file
 * @param folder      folder that commands run in and relative paths resolve against
 * @param fileSha256  hex SHA-256 of the job file's bytes (part of every plan id)
 * @param concurrency keys of this job in flight at once in one run (at least 1)
 * @param rateLimit   requests per period to each host, shared by every key of the job, or {@code null}
 * @param probe       the job's own probe, asked before a key's first step, or {@code null}
 * @param runBudget   how long one run of the job may take: after it no key of the run starts, or {@code null}
 */
public record JobDefinition(String name, String description, KeySpec key, CronExpression schedule,
                            RetryPolicy retry, List<StepDefinition> steps, Path file, Path folder,
                            String fileSha256, int concurrency, RateLimit rateLimit, KeyProbe probe,
                            java.time.Duration runBudget) {
    public JobDefinition {
        steps = List.copyOf(steps);
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1");
        }
    }

    /**
     * The credentials the job sends: those of its steps, then its own probe's, each once, in that order.
     */
    public List<String> credentials() {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        steps.stream().map(StepDefinition::credential).filter(java.util.Objects::nonNull).forEach(out::add);
        if (probe != null && probe.credential() != null) {
            out.add(probe.credential());
        }
        return List.copyOf(out);
    }

    /**
     * The values among {@code outputs} (by step, then name) of the outputs that a step's or its probe's
     * {@code extract} marks secret: masked wherever the key is shown.
     */
    public List<String> secretValues(Map<String, ? extends Map<String, String>> outputs) {
        List<String> out = new java.util.ArrayList<>();
        for (StepDefinition s : steps) {
            Map<String, String> values = outputs == null ? null : outputs.get(s.id());
            if (values == null || values.isEmpty()) {
                continue;
            }
            List<Map<String, Extraction>> rules = new java.util.ArrayList<>();
            if (s.request() != null) {
                rules.add(s.request().extract());
            }
            if (s.probe() != null) {
                rules.add(s.probe().extract());
            }
            rules.forEach(r -> r.forEach((name, rule) -> {
                if (rule.secret() && values.get(name) != null) {
                    out.add(values.get(name));
                }
            }));
        }
        return out;
    }

    public StepDefinition step(String id) {
        for (StepDefinition s : steps) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        return null;
    }

    public int stepIndex(String id) {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
