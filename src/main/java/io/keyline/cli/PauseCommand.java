package io.keyline.cli;

import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

import static io.keyline.text.Text.t;

@Command(name = "pause")
final class PauseCommand extends JobCommand {

    @Option(names = "--reason", paramLabel = "T", required = true)
    String reason;

    @Option(names = "--until", paramLabel = "ISO")
    String until;

    @Override
    int call(JobDefinition job) {
        Instant end = parseUntil(until);
        if (end != null && !end.isAfter(ws().options().clock().instant())) {
            throw new UsageError(t("cli.pause.past", "--until", until));
        }
        JobControl jc = ws().operations().actions().pause(job.name(), reason, end);
        return done(jc.until() == null ? t("cli.pause.done", job.name(), jc.reason())
                : t("cli.pause.doneUntil", job.name(), Text.time(jc.until()), jc.reason()));
    }

    static Instant parseUntil(String text) {
        if (text == null) {
            return null;
        }
        ZoneId zone = ZoneId.systemDefault();
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(text).atZone(zone).toInstant();
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(text).atStartOfDay(zone).toInstant();
                } catch (DateTimeParseException e) {
                    throw new UsageError(t("cli.pause.badUntil", "--until", text));
                }
            }
        }
    }
}
