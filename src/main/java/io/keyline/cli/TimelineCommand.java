package io.keyline.cli;

import io.keyline.core.operations.Words;
import io.keyline.domain.Evidence;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.keyline.text.Text.t;

@Command(name = "timeline")
final class TimelineCommand extends KeyCommand {

    @Option(names = "--json")
    boolean json;

    @Override
    int call(KeyTarget.Target t) {
        List<KeyEvent> events = ws().operations().events(t.job().name(), t.key());
        doneReading();
        if (json) {
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
                rows.add(m);
            }
            Text.json(out(), rows);
            return 0;
        }
        if (events.isEmpty()) {
            out().println(t("cli.timeline.none", t.job().name(), String.valueOf(t.key())));
            return 0;
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
                    .append(String.format("%-24s", e.type())).append(' ').append(String.format("%-19s", e.state()));
            if (e.step() != null) {
                sb.append(' ').append(e.step());
                if (e.attempt() > 0) {
                    sb.append(" #").append(e.attempt());
                }
            }
            if (e.failureClass() != null) {
                sb.append(" [").append(e.failureClass()).append(']');
            }
            if (e.message() != null) {
                sb.append("  ").append(Printable.line(Words.said(e)));
            }
            if (e.user() != null) {
                sb.append("  ").append(e.note() == null ? t("cli.timeline.by", Printable.line(e.user()))
                        : t("cli.timeline.byWithNote", Printable.line(e.user()), Printable.line(e.note())));
            }
            out().println(sb);
            if (e.evidence() != null && e.failureClass() != null) {
                printEvidence(e.evidence(), e.said());
            }
        }
        return 0;
    }

    private void printEvidence(Evidence ev, io.keyline.text.Said words) {
        // the console's evidence text (core EvidenceText), indented under its event
        out().println(io.keyline.core.operations.EvidenceText.indented(ev, 6, words));
    }
}
