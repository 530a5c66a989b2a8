package io.keyline.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyline.core.exec.Executors;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepOutcome;
import io.keyline.domain.InvalidKeyException;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeySource;
import io.keyline.text.Said;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Asks a job's key source ({@code "keys": {"source": …}}) which keys exist. The source is read only and never
 * recorded. A listing longer than {@code maxKeys} is refused as a whole; an entry that is not a valid key is
 * reported and left out.
 */
public final class KeyListing {

    private static final ObjectMapper JSON = new ObjectMapper();

    private KeyListing() {
    }

    /**
     * The keys a source listed, in its order without duplicates, and what was wrong with the listing.
     *
     * @param keys     the valid keys
     * @param problems one line per bad entry, or one for a listing that could not be taken, as words
     */
    public record Listed(List<String> keys, List<Said> problems) {
        public Listed {
            keys = List.copyOf(keys);
            problems = List.copyOf(problems);
        }
    }

    static Listed list(Executors executors, JobDefinition job) throws InterruptedException {
        KeySource source = job.key().source();
        if (source == null) {
            return new Listed(List.of(), List.of());
        }
        StepContext ctx = new StepContext(job, source.step(), "", "keys-source", 1, Map.of(), null,
                UnaryOperator.identity());
        StepOutcome out = executors.forKind(source.step().kind()).execute(ctx);
        if (!out.succeeded()) {
            return new Listed(List.of(), List.of(Said.of("core.keySource.failed", job.name(), out.message())));
        }
        String text = out.outputs().get(KeySource.OUTPUT);
        JsonNode list;
        try {
            list = text == null ? null : JSON.readTree(text);
        } catch (java.io.IOException e) {
            list = null;
        }
        if (list == null || !list.isArray()) {
            return new Listed(List.of(), List.of(Said.of("core.keySource.noList", job.name(), KeySource.OUTPUT)));
        }
        if (list.size() > source.maxKeys()) {
            return new Listed(List.of(), List.of(Said.of("core.keySource.tooMany", job.name(),
                    String.valueOf(list.size()),
                    String.valueOf(source.maxKeys()))));
        }
        Set<String> keys = new LinkedHashSet<>();
        List<Said> problems = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode entry = list.get(i);
            if (source.each() != null) {
                entry = entry.at(source.each());
            }
            String raw = entry.isTextual() ? entry.textValue()
                    : entry.isIntegralNumber() ? entry.bigIntegerValue().toString() : null;
            if (raw == null) {
                problems.add(notAKey(job, i, describe(entry)));
                continue;
            }
            try {
                keys.add(KeyRules.normalize(job.key(), raw));
            } catch (InvalidKeyException e) {
                problems.add(notAKey(job, i, e.said()));
            }
        }
        return new Listed(new ArrayList<>(keys), problems);
    }

    /** Entry {@code i} (from 0) of the listing is not a key: {@code why}. */
    private static Said notAKey(JobDefinition job, int i, Said why) {
        return Said.of("core.keySource.notAKey", job.name(), String.valueOf(i), why);
    }

    private static Said describe(JsonNode entry) {
        String what = entry.isMissingNode() ? "missing" : entry.isNull() ? "null" : entry.isArray() ? "array"
                : entry.isObject() ? "object" : entry.isBoolean() ? "boolean" : "fraction";
        return Said.of("core.keySource.entry." + what);
    }
}
