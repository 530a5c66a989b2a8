package io.keyline.core;

import io.keyline.domain.BodyFields;
import io.keyline.domain.Effect;
import io.keyline.domain.HttpRequestSpec;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The review of a job's unsafe steps before an unattended run. What is reviewed is what the unsafe steps do to
 * the outside world: each one's id, kind, method, URL template, body template (inline, file or fields) and
 * command. Its hash is stored with the job's controls when the operator approves the job or applies a plan of
 * it; an unattended run ({@code run --due}, the scheduler, a worker) of a job whose hash differs puts its keys
 * to wait for the review. A job without unsafe steps needs none.
 */
public final class Review {

    private Review() {
    }

    /** Whether a job's unsafe steps wait for a review, and why. */
    public enum Need {
        /** No unsafe steps, or reviewed as they are now. */
        NONE,
        /** A new job: its unsafe steps were never reviewed. */
        NEW_JOB,
        /** An unsafe step changed since the review. */
        CHANGED;

        public boolean pending() {
            return this != NONE;
        }

        /**
         * "new job: review its plan" / "an unsafe step changed since its review: review its plan again", in
         * English: the detail of the engine's stop, which the key's record keeps.
         */
        public String words() {
            return said().english();
        }

        /** {@link #words}, said in the language of whoever shows it. */
        public Said said() {
            return Said.of("core.review." + name());
        }

        /**
         * The words of a stop's detail ({@link #words}) said in the language in use; a detail that is no
         * {@code Need}'s words (an older state's) as it is.
         */
        public static Said said(String words) {
            for (Need n : values()) {
                if (n.words().equals(words)) {
                    return n.said();
                }
            }
            return Said.plain(words);
        }
    }

    /** Whether {@code job} waits for a review of its unsafe steps, given its stored controls. */
    public static Need need(JobDefinition job, JobControl control) {
        String now = hash(job);
        if (now == null) {
            return Need.NONE;
        }
        String reviewed = control == null ? null : control.reviewed();
        if (reviewed == null) {
            return Need.NEW_JOB;
        }
        return reviewed.equals(JobControl.ADOPTED) || reviewed.equals(now) ? Need.NONE : Need.CHANGED;
    }

    /**
     * The hash of what the job's unsafe steps do (hex SHA-256), or {@code null} for a job without unsafe steps.
     * Descriptions, retries, timeouts, probes and safe steps are not part of it: editing them asks for no review.
     */
    public static String hash(JobDefinition job) {
        StringBuilder text = new StringBuilder();
        boolean any = false;
        for (StepDefinition s : job.steps()) {
            if (s.effect() != Effect.UNSAFE) {
                continue;
            }
            any = true;
            field(text, "step", s.id());
            field(text, "kind", s.kind().name());
            if (s.kind() == StepKind.COMMAND) {
                field(text, "command", String.valueOf(s.command().size()));
                s.command().forEach(a -> field(text, "arg", a));
            } else {
                HttpRequestSpec r = s.request();
                field(text, "method", r.method());
                field(text, "url", r.url());
                field(text, "body", r.body());
                field(text, "bodyFile", r.bodyFile());
                body(text, r.fields());
            }
        }
        if (!any) {
            return null;
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static void body(StringBuilder text, BodyFields fields) {
        if (fields instanceof BodyFields.Form f) {
            for (BodyFields.Field field : f.fields()) {
                field(text, "form", field.name());
                field(text, "values", String.valueOf(field.values().size()));
                field.values().forEach(v -> field(text, "value", v));
            }
        } else if (fields instanceof BodyFields.Multipart m) {
            for (BodyFields.Part p : m.parts()) {
                field(text, "part", p.name());
                field(text, "value", p.value());
                field(text, "file", p.file());
                field(text, "contentType", p.contentType());
            }
        } else if (fields instanceof BodyFields.Json j) {
            field(text, "json", j.template());
        }
    }

    /** One field, length-prefixed (no two different steps write the same text). */
    private static void field(StringBuilder text, String name, String value) {
        text.append(name).append(':');
        if (value == null) {
            text.append("-\n");
        } else {
            text.append(value.length()).append(':').append(value).append('\n');
        }
    }

    /**
     * What the review covers, one line per unsafe step: {@code publish: POST https://…/{key} (body file
     * articles/{key}.md)}, {@code send: command ./send.sh {key}}.
     */
    public static List<String> unsafeSteps(JobDefinition job) {
        List<String> out = new ArrayList<>();
        for (StepDefinition s : job.steps()) {
            if (s.effect() != Effect.UNSAFE) {
                continue;
            }
            if (s.kind() == StepKind.COMMAND) {
                out.add(Text.t("core.review.command", s.id(), String.join(" ", s.command())));
            } else {
                HttpRequestSpec r = s.request();
                String request = r.method() + " " + r.url();
                out.add(r.bodyFile() != null ? Text.t("core.review.bodyFile", s.id(), request, r.bodyFile())
                        : r.body() != null ? Text.t("core.review.inlineBody", s.id(), request)
                        : r.fields() != null ? Text.t("core.review.fieldsBody", s.id(), request,
                        r.fields().kind())
                        : Text.t("core.review.request", s.id(), request));
            }
        }
        return out;
    }
}
