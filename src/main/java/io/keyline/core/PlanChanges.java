package io.keyline.core;

import io.keyline.text.Said;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What changed between a plan's inputs when it was shown and its inputs now, in words: the reason {@code apply}
 * gives for refusing a stale plan ("key 2026-11-28: Done now, was not started", "the probe of publish answers
 * differently for key 2026-11-29"). The inputs are the text {@link Planner} hashes into the plan id, one fact per
 * line: the job file's hash, the pause, each credential, then per key its state and what each step sends or its
 * probe answered.
 */
final class PlanChanges {

    /** How many changes a refusal names; the rest are counted. */
    private static final int NAMED = 3;

    private PlanChanges() {
    }

    /**
     * The changes from {@code before} to {@code now}, or empty when {@code before} is unknown (a plan saved
     * before its inputs were kept) or nothing differs.
     *
     * @param keys the plan's keys (they begin each key's lines)
     */
    static List<Said> between(String before, String now, List<String> keys) {
        if (before == null || before.isEmpty()) {
            return List.of();
        }
        Map<String, String> was = facts(before, keys);
        Map<String, String> is = facts(now, keys);
        Set<String> names = new LinkedHashSet<>(was.keySet());
        names.addAll(is.keySet());
        Set<String> keysChanged = new LinkedHashSet<>();
        Set<String> probed = new LinkedHashSet<>();
        List<Said> changes = new ArrayList<>();
        for (String name : names) {
            String a = was.get(name);
            String b = is.get(name);
            if (java.util.Objects.equals(a, b)) {
                continue;
            }
            String[] part = name.split(" ", 4);
            switch (part[0]) {
                case "job" -> changes.add(Said.of("core.stale.jobFile"));
                case "pause" -> changes.add(Said.of("core.stale.pause"));
                case "credential" -> {
                    // a credential the job started or stopped using comes with "the job file changed"
                    if (a != null && b != null) {
                        changes.add(credential(part[1], a, b));
                    }
                }
                case "key" -> {
                    keysChanged.add(part[1]);
                    changes.add(key(part[1], a, b));
                }
                default -> {
                    // "step KEY STEP request|probe": a change that follows from the key's new state or from a
                    // probe's new answer (the step is now reconciled, or sent after all) is not named again
                    if (keysChanged.contains(part[1]) || probed.contains(part[1])) {
                        continue;
                    }
                    if ("probe".equals(part[3])) {
                        probed.add(part[1]);
                        changes.add(Said.of("core.stale.probe", part[1], part[2]));
                    } else {
                        changes.add(Said.of("core.stale.request", part[1], part[2]));
                    }
                }
            }
        }
        List<Said> distinct = new ArrayList<>(new LinkedHashSet<>(changes));
        if (distinct.size() <= NAMED) {
            return distinct;
        }
        List<Said> named = new ArrayList<>(distinct.subList(0, NAMED));
        named.add(Said.of("core.stale.more", distinct.size() - NAMED));
        return named;
    }

    /** The changes as one sentence ("a; b; c"), or {@code null} when there are none. */
    static Said listed(List<Said> changes) {
        Said all = null;
        for (int i = changes.size() - 1; i >= 0; i--) {
            all = all == null ? changes.get(i) : Said.of("core.stale.list", changes.get(i), all);
        }
        return all;
    }

    private static Said credential(String name, String was, String is) {
        String a = was == null ? "" : was.split(":", 2)[0];
        String b = is == null ? "" : is.split(":", 2)[0];
        return a.equals(b) ? Said.of("core.stale.renewed", name)
                : Said.of("core.stale.credential", name, status(b), status(a));
    }

    /** "usable", "missing", "rejected" (a {@link KeyDecision.CredentialStatus}), or the text as it is. */
    private static Said status(String name) {
        return switch (name) {
            case "USABLE", "MISSING", "REJECTED" -> Said.of("core.stale.status." + name);
            default -> Said.plain(name);
        };
    }

    private static Said key(String key, String was, String is) {
        String a = state(was);
        String b = state(is);
        if (a.equals(b)) {
            return Said.of("core.stale.keyUpdated", key);
        }
        return Said.of("core.stale.key", key, stateWords(b), stateWords(a));
    }

    private static String state(String fact) {
        return fact == null ? "new" : fact.split("\\|", 2)[0];
    }

    private static Said stateWords(String state) {
        return "new".equals(state) ? Said.of("core.stale.notStarted") : Said.of("common.state." + state);
    }

    /** The inputs as named facts: "job", "pause", "credential NAME", "key KEY", "step KEY STEP request|probe". */
    private static Map<String, String> facts(String inputs, List<String> keys) {
        Map<String, String> facts = new LinkedHashMap<>();
        Set<String> planned = new LinkedHashSet<>(keys);
        String[] lines = inputs.split("\n");
        String key = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (i == 0) {
                facts.put("job", line);
            } else if (i == 1) {
                facts.put("pause", line);
            } else if (key == null && line.startsWith("credential ") && line.contains("=")) {
                int eq = line.indexOf('=');
                facts.put("credential " + line.substring("credential ".length(), eq), line.substring(eq + 1));
            } else if (line.contains("|") && planned.contains(line.substring(0, line.indexOf('|')))) {
                key = line.substring(0, line.indexOf('|'));
                facts.put("key " + key, line.substring(key.length() + 1));
            } else if (key != null) {
                String[] words = line.split(" ", 3);
                if (words.length == 3) {
                    facts.put("step " + key + " " + words[0] + " " + words[1], words[2]);
                }
            }
        }
        return facts;
    }
}
