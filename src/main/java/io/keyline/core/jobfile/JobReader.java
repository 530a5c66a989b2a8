package io.keyline.core.jobfile;

import io.keyline.domain.CronExpression;
import io.keyline.domain.InvalidKeyException;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeySpec;
import io.keyline.domain.KeyType;
import io.keyline.domain.RateLimit;
import io.keyline.domain.RetryPolicy;
import io.keyline.domain.StepDefinition;
import io.keyline.text.Said;

import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Validates the tree of a job file and maps it to a {@link JobDefinition}. */
final class JobReader {

    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    private static final List<String> FIELDS = List.of("name", "description", "key", "keys", "schedule", "retry",
            "steps", "concurrency", "rateLimit", "probe", "runBudget");
    /** The most keys of one job a run takes at once. */
    static final int MAX_CONCURRENCY = 64;
    private static final List<String> KEY_FIELDS = List.of("type", "zone", "start");

    private JobReader() {
    }

    /**
     * Validates a job.
     *
     * @return the job, or {@code null} if anything is invalid (every problem found is reported)
     */
    static JobDefinition read(SourceNode root, Problems problems, Path file, String sha256) {
        if (!(root instanceof SourceNode.Obj obj)) {
            problems.at(root, Said.of("core.jobfile.notAnObject", Problems.type(root)));
            return null;
        }
        ObjectView job = ObjectView.of(obj, "", problems, FIELDS);
        String name = job.require("name") ? job.matching("name", NAME, Said.of("core.jobfile.rule.jobName")) : null;
        SourceNode.Str description = job.string("description");
        KeySpec key = job.require("key", Said.of("core.jobfile.hint.key"))
                ? job.readObject("key", KEY_FIELDS, JobReader::key) : null;
        if (job.has("keys")) {
            io.keyline.domain.KeySource source = KeySourceReader.read(job, key);
            key = key == null || source == null ? key : new KeySpec(key.type(), key.zone(), key.start(), source);
        }
        CronExpression schedule = schedule(job, key);
        RetryPolicy retry = RetryReader.read(job, RetryPolicy.DEFAULT);
        List<StepDefinition> steps = job.require("steps") ? steps(job, retry == null ? RetryPolicy.DEFAULT : retry) : null;
        Integer concurrency = job.integer("concurrency", 1, MAX_CONCURRENCY);
        RateLimit rateLimit = rateLimit(job);
        io.keyline.domain.KeyProbe probe = job.has("probe") ? ProbeReader.readJobProbe(job, new StepTemplates(problems,
                steps == null ? Map.of() : stepIds(steps), 0, Said.of("core.jobfile.jobProbe"))) : null;
        java.time.Duration runBudget = job.duration("runBudget");
        if (!problems.isEmpty()) {
            return null;
        }
        return new JobDefinition(name, description == null ? "" : description.value(), key, schedule, retry, steps,
                file, file.toAbsolutePath().normalize().getParent(), sha256, concurrency == null ? 1 : concurrency,
                rateLimit, probe, runBudget);
    }

    /** The ids of the steps read, by index (the job's probe may refer to none of them: it runs first). */
    private static Map<String, Integer> stepIds(List<StepDefinition> steps) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i) != null) {
                out.put(steps.get(i).id(), i);
            }
        }
        return out;
    }

    /** {@code "rateLimit": "10/s"} or {@code "600/min"}. */
    private static RateLimit rateLimit(ObjectView job) {
        SourceNode.Str str = job.typed("rateLimit", SourceNode.Str.class, Said.of("core.jobfile.expect.rateLimit"));
        if (str == null) {
            return null;
        }
        try {
            return RateLimit.parse(str.value());
        } catch (IllegalArgumentException e) {
            job.problems().at(str, Said.of("core.jobfile.valueSays", "rateLimit", Problems.quote(str.value()),
                    e instanceof RateLimit.InvalidRateException r ? r.said() : Said.plain(e.getMessage())));
            return null;
        }
    }

    private static KeySpec key(ObjectView key) {
        String typeName = key.require("type", Said.of("core.jobfile.expect.oneOf", "date, week, month, manual"))
                ? key.choice("type", List.of("date", "week", "month", "manual"), false) : null;
        KeyType type = typeName == null ? null : KeyType.valueOf(typeName.toUpperCase(Locale.ROOT));
        ZoneId zone = zone(key);
        SourceNode.Str startStr = key.string("start");
        String start = null;
        if (startStr != null && type == KeyType.MANUAL) {
            key.problems().atName(key.field("start"), Said.of("core.jobfile.startManual", "key.start"));
        } else if (startStr != null && type != null && zone != null) {
            try {
                start = KeyRules.normalize(new KeySpec(type, zone, null), startStr.value());
            } catch (InvalidKeyException e) {
                key.problems().at(startStr, Said.of("core.jobfile.fieldSays", "key.start", invalidKey(e)));
            }
        }
        return type == null || zone == null ? null : new KeySpec(type, zone, start);
    }

    /** What is wrong with a key.start, in words of the bundles for the kinds of key a start can have. */
    private static Said invalidKey(InvalidKeyException e) {
        List<String> v = e.values();
        Said said = switch (e.problem()) {
            case NOT_A_DATE, NOT_A_WEEK, NOT_A_MONTH ->
                    Said.of("core.jobfile.key." + e.problem().name(), "\"" + v.get(0) + "\"");
            case NO_SUCH_WEEK -> Said.of("core.jobfile.key.NO_SUCH_WEEK", "\"" + v.get(0) + "\"", v.get(1), v.get(2));
            default -> null;
        };
        // any other problem keeps the key rules' English, as the job-file errors always said it
        return said == null ? Said.plain(Problems.clipQuoted(e.said().english())) : Problems.clipped(said);
    }

    private static ZoneId zone(ObjectView key) {
        SourceNode.Str str = key.string("zone");
        if (str == null) {
            return key.has("zone") ? null : ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(str.value());
        } catch (DateTimeException e) {
            key.problems().at(str, Said.of("core.jobfile.unknownZone", "key.zone", Problems.quote(str.value()),
                    Suggestions.didYouMean(str.value(), ZoneId.getAvailableZoneIds())));
            return null;
        }
    }

    private static CronExpression schedule(ObjectView job, KeySpec key) {
        SourceNode.Str str = job.typed("schedule", SourceNode.Str.class, Said.of("core.jobfile.expect.cron"));
        if (str == null) {
            return null;
        }
        if (key != null && key.type() == KeyType.MANUAL) {
            job.problems().at(str, Said.of("core.jobfile.scheduleManual", "schedule"));
            return null;
        }
        try {
            return CronExpression.parse(str.value());
        } catch (IllegalArgumentException e) {
            job.problems().at(str, Said.of("core.jobfile.fieldSays", "schedule",
                    e instanceof CronExpression.InvalidCronException c ? Problems.clipped(c.said())
                            : Said.plain(Problems.clipQuoted(e.getMessage()))));
            return null;
        }
    }

    private static List<StepDefinition> steps(ObjectView job, RetryPolicy jobRetry) {
        SourceNode.Arr arr = job.typed("steps", SourceNode.Arr.class, Said.of("core.jobfile.expect.steps"));
        if (arr == null) {
            return null;
        }
        if (arr.items().isEmpty()) {
            job.problems().at(arr, Said.of("core.jobfile.noSteps", "steps"));
            return null;
        }
        Map<String, Integer> indexes = stepIndexes(arr, job.problems());
        List<StepDefinition> steps = new ArrayList<>();
        for (int i = 0; i < arr.items().size(); i++) {
            SourceNode item = arr.items().get(i);
            if (item instanceof SourceNode.Obj obj) {
                steps.add(StepReader.read(obj, "steps[" + i + "]", job.problems(), indexes, i, jobRetry,
                        new ArrayList<>(steps)));
            } else {
                steps.add(null);
                job.problems().at(item, ObjectView.mustBe("steps[" + i + "]", Said.of("core.jobfile.expect.object"),
                        Problems.type(item)));
            }
        }
        return steps;
    }

    /**
     * The index of each well-formed step id; reports duplicate ids, and ids that differ only in case or
     * in {@code -}/{@code _} ({@code fetch-page}, {@code fetch_page}): their outputs would reach commands
     * in the same environment variables ({@code KEYLINE_OUTPUT_FETCH_PAGE_…}).
     */
    private static Map<String, Integer> stepIndexes(SourceNode.Arr steps, Problems problems) {
        Map<String, Integer> indexes = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        Map<String, String> variables = new LinkedHashMap<>();
        for (int i = 0; i < steps.items().size(); i++) {
            SourceNode.Field id = steps.items().get(i) instanceof SourceNode.Obj step ? step.field("id") : null;
            if (id != null && id.value() instanceof SourceNode.Str str && StepReader.ID.matcher(str.value()).matches()) {
                if (indexes.containsKey(str.value())) {
                    problems.at(str, Said.of("core.jobfile.duplicateStep", "steps[" + i + "].id",
                            Problems.quote(str.value()), String.valueOf(lines.get(str.value()))));
                } else if (variables.containsKey(io.keyline.domain.Template.variablePart(str.value()))) {
                    String other = variables.get(io.keyline.domain.Template.variablePart(str.value()));
                    problems.at(str, Said.of("core.jobfile.sameVariables", "steps[" + i + "].id",
                            Problems.quote(str.value()), Problems.quote(other), String.valueOf(lines.get(other)),
                            io.keyline.domain.Template.outputVariable(str.value(), "") + "…"));
                } else {
                    indexes.put(str.value(), i);
                    lines.put(str.value(), str.line());
                    variables.put(io.keyline.domain.Template.variablePart(str.value()), str.value());
                }
            }
        }
        return indexes;
    }
}
