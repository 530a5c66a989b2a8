package io.keyline.cli;

import io.keyline.core.operations.Words;
import io.keyline.domain.Evidence;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.keyline.text.Text.t;

@Command(name = "timeline")
final class TimelineCommand extends KeyCommand {

    @Mixin
    JsonOutput json;

    @Override
    int call(KeyTarget.Target t) {
        List<KeyEvent> events = ws().operations().events(t.job().name(), t.key());
        doneReading();
        if (json.on) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (KeyEvent e : events) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("ts", e.ts());
                m.put("runId", e.runId());
                m.put("type", e.type().name());
                m.put("step", e.step());
                m.put("attempt", e.attempt());
                m.put("state", e.state().name());
                m.put("class", e.failureClass() == null ? null : e.failureClass().name());
                m.put("message", e.message());
                m.put("user", e.user());
                m.put("note", e.note());
                m.put("evidence", e.evidence());
                // the probe's answer this event records, typed: scripts read it here, not in the message
                m.put("probe", e.probe() == null ? null : e.probe().code());
                rows.add(m);
            }
            Text.json(out(), rows);
            return 0;
        }
        if (events.isEmpty()) {
            out().println(t("cli.timeline.none", t.job().name(), String.valueOf(t.key())));
            return 0;
        }
        // the columns are as wide as this key's longest kind, state and step, so that the messages line up
        int kinds = 0;
        int states = 0;
        int steps = 0;
        for (KeyEvent e : events) {
            kinds = Math.max(kinds, Text.Table.width(String.valueOf(e.type())));
            states = Math.max(states, Text.Table.width(String.valueOf(e.state())));
            steps = Math.max(steps, Text.Table.width(where(e)));
        }
        String run = null;
        for (KeyEvent e : events) {
            if (e.runId() != null && !e.runId().equals(run)) {
                run = e.runId();
                out().println(t("cli.timeline.run", run));
            } else if (e.runId() == null) {
                run = null;
            }
            StringBuilder sb = new StringBuilder("  ").append(Text.time(e.ts())).append("  ")
                    .append(padded(String.valueOf(e.type()), kinds)).append("  ")
                    .append(padded(String.valueOf(e.state()), states)).append("  ")
                    .append(padded(where(e), steps));
            if (e.message() != null) {
                sb.append("  ").append(Printable.line(Words.said(e)));
            }
            if (e.user() != null) {
                sb.append("  ").append(e.note() == null ? t("cli.timeline.by", Printable.line(e.user()))
                        : t("cli.timeline.byWithNote", Printable.line(e.user()), Printable.line(e.note())));
            }
            out().println(sb.toString().stripTrailing());
            if (e.evidence() != null && e.failureClass() != null) {
                printEvidence(e.evidence(), e.said());
            }
        }
        return 0;
    }

    /** Where the event happened: "publish #2 [AMBIGUOUS]", or empty for an event of the whole key. */
    private static String where(KeyEvent e) {
        StringBuilder sb = new StringBuilder();
        if (e.step() != null) {
            sb.append(Printable.line(e.step()));
            if (e.attempt() > 0) {
                sb.append(" #").append(e.attempt());
            }
        }
        if (e.failureClass() != null) {
            sb.append(sb.length() == 0 ? "" : " ").append('[').append(e.failureClass()).append(']');
        }
        return sb.toString();
    }

    private static String padded(String s, int width) {
        return s + " ".repeat(Math.max(0, width - Text.Table.width(s)));
    }

    private void printEvidence(Evidence ev, io.keyline.text.Said words) {
        // the console's evidence text (core EvidenceText), indented under its event
        out().println(io.keyline.core.operations.EvidenceText.indented(ev, 6, words));
    }
}
