package io.keyline.core.jobfile;

import io.keyline.core.jobfile.Hook;
import io.keyline.core.jobfile.NotifyConfig;
import io.keyline.core.jobfile.HookTemplate;

import io.keyline.text.Said;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads {@code notify.json} with the job files' positioned errors: unknown fields, wrong
 * types, bad values, each as {@code file:line:column: message}.
 */
public final class NotifyFileReader {

    /** Fields of the file. */
    public static final List<String> FIELDS = List.of("hooks");
    /** Fields of one hook. */
    public static final List<String> HOOK_FIELDS = List.of("name", "on", "command", "webhook", "format", "secret",
            "timeout");
    /** Placeholders a command hook's arguments may use: validated values only (the message never). */
    public static final List<String> PLACEHOLDERS = HookTemplate.ARGUMENT_NAMES;

    private NotifyFileReader() {
    }

    /** {@code jobsDir/notify.json}: its hooks, its errors, or no hooks when it does not exist. */
    public static NotifyConfig load(Path jobsDir) {
        Path file = jobsDir.resolve(NotifyConfig.FILE_NAME);
        if (!Files.exists(file)) {
            return new NotifyConfig(file, List.of(), List.of());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (CharacterCodingException e) {
            return rejected(file, Said.of("core.jobfile.notifyNotUtf8", NotifyConfig.FILE_NAME));
        } catch (IOException e) {
            return rejected(file, Said.of("core.jobfile.notifyCannotRead", NotifyConfig.FILE_NAME,
                    String.valueOf(e.getMessage())));
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        Problems problems = new Problems(file, text);
        SourceNode root = SourceParser.parse(text, problems);
        List<Hook> hooks = root == null ? List.of() : read(root, problems);
        return problems.isEmpty() ? new NotifyConfig(file, hooks, List.of())
                : new NotifyConfig(file, List.of(), problems.sorted());
    }

    private static NotifyConfig rejected(Path file, Said message) {
        return new NotifyConfig(file, List.of(), List.of(new JobFileError(file, 1, 1, message)));
    }

    private static List<Hook> read(SourceNode root, Problems problems) {
        if (!(root instanceof SourceNode.Obj obj)) {
            problems.at(root, Said.of("core.jobfile.notifyNotObject", NotifyConfig.FILE_NAME, "{\"hooks\": [...]}",
                    Problems.type(root)));
            return List.of();
        }
        ObjectView file = ObjectView.of(obj, "", problems, FIELDS);
        if (!file.require("hooks", Said.of("core.jobfile.hint.hooks"))) {
            return List.of();
        }
        SourceNode.Arr arr = file.typed("hooks", SourceNode.Arr.class, Said.of("core.jobfile.expect.hooks"));
        if (arr == null) {
            return List.of();
        }
        List<Hook> hooks = new ArrayList<>();
        for (int i = 0; i < arr.items().size(); i++) {
            SourceNode item = arr.items().get(i);
            if (item instanceof SourceNode.Obj h) {
                Hook hook = hook(ObjectView.of(h, "hooks[" + i + "]", problems, HOOK_FIELDS), i + 1);
                if (hook != null) {
                    hooks.add(hook);
                }
            } else {
                problems.at(item, ObjectView.mustBe("hooks[" + i + "]", Said.of("core.jobfile.expect.object"),
                        Problems.type(item)));
            }
        }
        return hooks;
    }

    private static Hook hook(ObjectView h, int index) {
        return h.problems().unlessReported(() -> {
            SourceNode.Str name = h.string("name");
            Set<String> on = new LinkedHashSet<>();
            if (h.require("on", Said.of("core.jobfile.hint.events", String.join(", ", Hook.EVENTS)))) {
                List<SourceNode.Str> events = h.strings("on");
                for (SourceNode.Str e : events == null ? List.<SourceNode.Str>of() : events) {
                    if (Hook.EVENTS.contains(e.value())) {
                        on.add(e.value());
                    } else {
                        h.problems().at(e, Said.of("core.jobfile.unknownEvent", h.pathOf("on"), "\"" + e.value() + "\"",
                                String.join(", ", Hook.EVENTS), Suggestions.didYouMean(e.value(), Hook.EVENTS)));
                    }
                }
            }
            boolean hasCommand = h.has("command");
            boolean hasWebhook = h.has("webhook");
            if (hasCommand == hasWebhook) {
                h.problems().at(h.node(), Said.of("core.jobfile.commandOrWebhook", h.label(), "\"command\"",
                        "\"webhook\""));
            }
            List<String> command = hasCommand && !hasWebhook ? command(h) : null;
            URI webhook = hasWebhook && !hasCommand ? webhook(h) : null;
            String format = h.choice("format", Hook.FORMATS, false);
            if (format != null && !hasWebhook) {
                h.problems().atName(h.field("format"), Said.of("core.jobfile.onlyWith", h.pathOf("format"),
                        "\"webhook\""));
            }
            SourceNode.Str secret = h.string("secret");
            String fmt = format == null ? "json" : format;
            if (secret != null && !(fmt.equals("dingtalk") || fmt.equals("feishu"))) {
                h.problems().atName(h.field("secret"), Said.of("core.jobfile.secretFormat", h.pathOf("secret"), fmt));
            }
            Duration timeout = h.duration("timeout");
            if (timeout != null && timeout.compareTo(Duration.ofMinutes(2)) > 0) {
                h.problems().at(h.field("timeout").value(), Said.of("core.jobfile.hookTimeout", h.pathOf("timeout"),
                        String.valueOf(timeout)));
            }
            return new Hook(index, name == null ? null : name.value(), on, command, webhook, fmt,
                    secret == null ? null : secret.value(), timeout == null ? Hook.DEFAULT_TIMEOUT : timeout);
        });
    }

    private static List<String> command(ObjectView h) {
        List<SourceNode.Str> args = h.strings("command");
        if (args == null) {
            return null;
        }
        if (args.get(0).value().isBlank()) {
            h.problems().at(args.get(0), Said.of("core.jobfile.noProgram", h.pathOf("command") + "[0]"));
            return null;
        }
        List<String> out = new ArrayList<>();
        boolean valid = true;
        for (int i = 0; i < args.size(); i++) {
            SourceNode.Str arg = args.get(i);
            String path = h.pathOf("command") + "[" + i + "]";
            try {
                for (HookTemplate.Placeholder p : HookTemplate.scan(arg.value())) {
                    if (p.name().equals(HookTemplate.MESSAGE)) {
                        h.problems().atChar(arg, p.index(), Said.of("core.jobfile.messageInHook", path,
                                "{" + HookTemplate.MESSAGE + "}", "$KEYLINE_MESSAGE"));
                        valid = false;
                    } else if (!PLACEHOLDERS.contains(p.name())) {
                        h.problems().atChar(arg, p.index(), Said.of("core.jobfile.unknownPlaceholder", path,
                                "{" + p.name() + "}", "{job}", "{key}", "{state}", "$KEYLINE_MESSAGE",
                                Suggestions.didYouMean(p.name(), PLACEHOLDERS)));
                        valid = false;
                    }
                }
            } catch (HookTemplate.SyntaxError e) {
                h.problems().atChar(arg, e.index(), Said.of("core.jobfile.fieldSays", path, e.said()));
                valid = false;
            }
            out.add(arg.value());
        }
        return valid ? out : null;
    }

    private static URI webhook(ObjectView h) {
        SourceNode.Str str = h.string("webhook");
        if (str == null) {
            return null;
        }
        try {
            URI uri = new URI(str.value());
            if (uri.getScheme() == null || !(uri.getScheme().equals("https") || uri.getScheme().equals("http"))
                    || uri.getHost() == null) {
                // the value is not echoed: a webhook URL carries its token
                h.problems().at(str, Said.of("core.jobfile.webhookUrl", h.pathOf("webhook")));
                return null;
            }
            return uri;
        } catch (URISyntaxException e) {
            h.problems().at(str, Said.of("core.jobfile.notUrl", h.pathOf("webhook"), e.getReason()));
            return null;
        }
    }
}
