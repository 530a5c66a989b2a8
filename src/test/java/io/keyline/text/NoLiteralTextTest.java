package io.keyline.text;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The files listed here say nothing to an operator in a string literal: every word comes from the bundles
 * ({@link Text#t}). A literal with a letter in it fails unless it is machine text by where it stands: a
 * bundle key, a CSS style class or id, a stylesheet or resource path, a property's name, a thread's name,
 * a JSON field or log key, a command-line option, a name in capitals (a setting, a state); or one of the few
 * protocol words listed in {@link #MACHINE}. The list of files grows until it is every file of the console and the
 * command line.
 */
class NoLiteralTextTest {

    /** The files whose literals are checked (under src/main/java/io/keyline). */
    static final List<String> FILES = List.of(
            "ui/login/LoginWindow.java",
            "ui/login/LoginViewModel.java",
            "ui/credentials/CredentialDialog.java",
            "ui/credentials/CredentialsView.java",
            "ui/credentials/CredentialsViewModel.java",
            "ui/credentials/CredentialInput.java",
            "ui/workers/WorkersView.java",
            "ui/workers/WorkersViewModel.java",
            "ui/job/Heatmap.java",
            "ui/shell/SchedulerViewModel.java",
            "ui/shell/ConsoleViewModel.java",
            "ui/shell/ConsoleView.java",
            "ui/inbox/InboxView.java",
            "ui/inbox/InboxViewModel.java",
            "ui/job/JobView.java",
            "ui/job/JobViewModel.java",
            "ui/common/Format.java",
            "ui/common/ViewModel.java",
            "ui/ConsoleServices.java",
            "ui/Navigator.java",
            "ui/shell/Snapshot.java",
            "ui/shell/SnapshotLoader.java",
            "ui/common/NoteDialog.java",
            "ui/common/Toasts.java",
            "ui/common/Theme.java",
            "ui/common/StateChip.java",
            "ui/common/Cut.java",
            "ui/confirm/ConfirmDialog.java",
            "cli/ApplyCommand.java",
            "cli/ExportCommand.java",
            "cli/LiveCounter.java",
            "cli/SandboxCommand.java",
            "cli/TerminalOut.java",
            "cli/TimelineCommand.java",
            "cli/UsageError.java",
            "cli/WorkerCommand.java",
            "cli/BackupCommand.java",
            "cli/ConfirmCommand.java",
            "cli/DemoCommand.java",
            "cli/JobsCommand.java",
            "cli/MarkDoneCommand.java",
            "cli/MigrateStateCommand.java",
            "cli/PauseCommand.java",
            "cli/PruneCommand.java",
            "cli/RearmCommand.java",
            "cli/ResumeCommand.java",
            "cli/SkipCommand.java",
            "ui/confirm/ConfirmPane.java",
            "ui/confirm/ConfirmViewModel.java",
            "ui/timeline/TimelineView.java",
            "ui/timeline/TimelineViewModel.java",
            "ui/plan/PlanDialog.java",
            "ui/plan/PlanViewModel.java",
            "ui/plan/PlanChoice.java",
            "ui/confirm/RetryDialog.java",
            "ui/common/RetryFlow.java",
            "ui/common/RetryShow.java",
            "ui/common/Keys.java",
            "ui/credentials/CredentialViewModel.java",
            "cli/RunOutput.java",
            "cli/RunCommand.java",
            "cli/StatusCommand.java",
            "core/RunReport.java",
            "cli/ApproveCommand.java",
            "cli/InitCommand.java",
            "cli/PlanCommand.java",
            "cli/RunConsent.java",
            "cli/Sub.java",
            "cli/DoctorCommand.java",
            "cli/CredentialsCommand.java",
            "cli/NotifyCommand.java",
            "core/operations/Attention.java",
            "core/operations/Words.java",
            "core/operations/EvidenceText.java",
            "core/operations/Timeline.java",
            "core/operations/PlanText.java",
            "core/operations/ConfirmAndRun.java",
            "core/operations/Calendar.java",
            "core/Planner.java",
            "core/Orphans.java",
            "text/Said.java");

    /** Calls whose literal arguments are machine text: ids, style classes, resources, keys, names. */
    private static final Set<String> MACHINE_CALLS = Set.of(
            "setId", "setStyle", "lookup", "lookupAll", "getResource", "getResourceAsStream", "t", "has",
            "getPseudoClass", "createTempDirectory", "createTempFile", "fromString", "Thread", "getProperty",
            "getenv", "setting", "put", "ExtensionFilter", "ofPattern", "header", "kind",
            // a startup trace's marks (a diagnostic log, like the run log)
            "mark",
            // a comparison with a value the program or the operator types ("y", an event's name)
            "equals", "contains",
            // a regular expression; the name of the event a hook is sent
            "matches", "replaceAll", "sendNow",
            // a regular expression; a colour of the palette by its looked-up name
            "compile", "named",
            // the command line's --help: its descriptions stay in the annotations for now
            "Command", "Option", "Parameters", "ArgGroup",
            // the input of a plan's id (hashed, never shown); an attention item's identity (a selection keeps it)
            "fingerprint", "groupId");

    /** Calls on a style class or stylesheet list ({@code getStyleClass().add("muted")}). */
    private static final Pattern STYLE_LIST = Pattern.compile("get(StyleClass|Stylesheets)\\(\\)\\s*\\.\\s*\\w+$");

    /** A map's fields written to the run log or as JSON ({@code Map.of("result", "invalid")}). */
    private static final Pattern LOG_FIELDS = Pattern.compile("\\bMap\\s*\\.\\s*of$");

    /** A bundle key. */
    private static final Pattern KEY = Pattern.compile("(ui|cli|core|common)\\.[A-Za-z0-9_.]*");

    /** A command-line option, named as the operator types it ({@code --until}). */
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z0-9-]*");

    /** A lower-case name with dots or dashes: a style class, a file, a property ({@code state-chip}, {@code keyline.css}). */
    private static final Pattern TOKEN = Pattern.compile("[a-z][a-z0-9]*([._-][a-z0-9]*)+");

    /** An address or a path ({@code http://127.0.0.1:}, {@code /login}). */
    private static final Pattern ADDRESS = Pattern.compile("([a-z]+://|/)\\S*");

    /** A format specifier ({@code %-24s}, {@code %d}) or a terminal's control sequence ({@code ESC [K}): no word. */
    private static final Pattern FORMAT_SPECIFIER =
            Pattern.compile("%[-#+ 0,(]*\\d*(\\.\\d+)?[a-zA-Z%]|\\u001b\\[[0-9;]*[A-Za-z]");

    /** A job file's template placeholder ({@code {key}}, {@code {runId}}). */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[A-Za-z][A-Za-z0-9_.]*\\}");

    /** A name in capitals: a setting ({@code KEYLINE_CATCH_UP}), a state ({@code DONE}). */
    private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]+");

    /** A property's name in its constructor ({@code new SimpleStringProperty(this, "status", "")}). */
    private static final Pattern PROPERTY_NAME = Pattern.compile("[a-z][A-Za-z0-9]*");

    /** Protocol and format words shown or sent as they are, never translated. */
    static final Set<String> MACHINE = Set.of(
            "Authorization", "Bearer ", "Authorization: Bearer ••••••••", ": ••••••••", "Cookie: ", "rwx------",
            "about:blank", "keyline-login-", "data:text/css;base64,", ".root {", ".root ", ".web-view ", "*.txt",
            "*.json", "secret.key", "null", "user=demo");

    @Test
    void theListedFilesTakeEveryWordFromTheBundles() throws IOException {
        List<String> found = new ArrayList<>();
        for (String f : FILES) {
            found.addAll(operatorLiterals(f, Files.readString(Path.of("src/main/java/io/keyline", f),
                    StandardCharsets.UTF_8)));
        }
        assertThat(found).as("literals an operator reads (put them in the bundles)").isEmpty();
    }

    @Test
    void theScanFindsAWordAndPassesMachineText() {
        String src = """
                class X {
                    // "a comment" is not text
                    void f() {
                        label.setText("Saved the job");
                        label.getStyleClass().addAll("muted", ok ? "ok-text" : "error-text");
                        label.setId("login-status");
                        label.setText(Text.t("ui.login.title", name));
                        label.setText(n + " · " + m);
                        new SimpleStringProperty(this, "status", "");
                        System.out.println("Written %d" + x);
                        x.getStyleClass().addAll("code", switch (v) {
                            case A -> "ok-text";
                            default -> "muted (x)";
                        });
                        return switch (v) { case A -> "Accepted"; default -> ""; };
                        trace.other(now, "job-file", java.util.Map.of("result", "invalid", "message", m));
                        StartupTrace.mark("keys read (" + n + ")");
                    }
                }
                """;
        assertThat(operatorLiterals("X.java", src)).containsExactly("X.java:4 \"Saved the job\"",
                "X.java:10 \"Written %d\"", "X.java:15 \"Accepted\"");
    }

    /** The literals of {@code src} an operator would read, as {@code file:line "literal"}. */
    static List<String> operatorLiterals(String file, String src) {
        List<String> out = new ArrayList<>();
        StringBuilder code = new StringBuilder(); // the source without comments, literals kept
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                for (int k = i; k < (end < 0 ? n : end + 2); k++) {
                    if (src.charAt(k) == '\n') {
                        code.append('\n');
                    }
                }
                i = end < 0 ? n : end + 2;
            } else if (c == '\'') {
                int start = i++;
                while (i < n && src.charAt(i) != '\'') {
                    i += src.charAt(i) == '\\' ? 2 : 1;
                }
                code.append(src, start, Math.min(n, ++i));
            } else if (c == '"') {
                boolean block = src.startsWith("\"\"\"", i);
                int start = i;
                i += block ? 3 : 1;
                StringBuilder lit = new StringBuilder();
                while (i < n && !(block ? src.startsWith("\"\"\"", i) : src.charAt(i) == '"')) {
                    if (src.charAt(i) == '\\' && i + 1 < n) {
                        char e = src.charAt(i + 1);
                        i += 2;
                        if (e >= '0' && e <= '7') { // an octal escape ("\033"): a control character
                            int from = i - 1;
                            while (i < n && i < from + 3 && src.charAt(i) >= '0' && src.charAt(i) <= '7') {
                                i++;
                            }
                            lit.append((char) Integer.parseInt(src.substring(from, i), 8));
                        } else if (e == 'u') { // a unicode escape: one character
                            while (i < n && src.charAt(i) == 'u') {
                                i++;
                            }
                            lit.append((char) Integer.parseInt(src.substring(i, Math.min(n, i + 4)), 16));
                            i += 4;
                        } else {
                            lit.append(switch (e) {
                                case 'n' -> '\n';
                                case 't' -> '\t';
                                case 'r' -> '\r';
                                case 'b', 'f', 's' -> ' ';
                                default -> e;
                            });
                        }
                    } else {
                        lit.append(src.charAt(i++));
                    }
                }
                i += block ? 3 : 1;
                String value = lit.toString();
                boolean words = FORMAT_SPECIFIER.matcher(value).replaceAll("").codePoints().anyMatch(Character::isLetter);
                if (words && !machine(code, value)) {
                    long line = code.chars().filter(ch -> ch == '\n').count() + 1;
                    out.add(file + ":" + line + " \"" + value + "\"");
                }
                // the literal stays as empty quotes: its brackets and semicolons are not code
                long lines = src.substring(start, Math.min(n, i)).chars().filter(ch -> ch == '\n').count();
                code.append('"').append("\n".repeat((int) lines)).append('"');
            } else {
                code.append(c);
                i++;
            }
        }
        return out;
    }

    /** Whether {@code value}, a literal that follows {@code before}, is machine text by where it stands. */
    private static boolean machine(CharSequence before, String value) {
        if (MACHINE.contains(value) || KEY.matcher(value).matches() || OPTION.matcher(value).matches()
                || NAME.matcher(value).matches() || TOKEN.matcher(value).matches() || ADDRESS.matcher(value).matches()
                || PLACEHOLDER.matcher(value).matches()) {
            return true;
        }
        // the innermost call still open at the literal
        int depth = 0;
        int k = before.length() - 1;
        for (; k >= 0; k--) {
            char c = before.charAt(k);
            if (c == ')') {
                depth++;
            } else if (c == '(') {
                if (depth == 0) {
                    break;
                }
                depth--;
            } else if (c == ';' || c == '{') {
                // a statement starts here, unless it is a case of a switch expression that is an argument
                int open = c == '{' ? k : openBrace(before, k);
                if (open < 0 || !openSwitch(before, open) && !openArray(before, open)) {
                    return false;
                }
                k = open;
            }
        }
        if (k < 0) {
            return false;
        }
        String head = before.subSequence(Math.max(0, k - 120), k).toString().stripTrailing()
                .replaceAll("<[^<>()]*>$", ""); // new ReadOnlyObjectWrapper<>(this, "name")
        java.util.regex.Matcher m = Pattern.compile("(\\w+)$").matcher(head);
        if (!m.find()) {
            return false;
        }
        String call = m.group(1);
        if (MACHINE_CALLS.contains(call) || STYLE_LIST.matcher(head).find() || LOG_FIELDS.matcher(head).find()) {
            return true;
        }
        return (call.endsWith("Wrapper") || call.endsWith("Property")) && PROPERTY_NAME.matcher(value).matches();
    }

    /** The brace still open at {@code k}, or -1. */
    private static int openBrace(CharSequence before, int k) {
        int depth = 0;
        for (int j = k - 1; j >= 0; j--) {
            char c = before.charAt(j);
            if (c == '}') {
                depth++;
            } else if (c == '{') {
                if (depth == 0) {
                    return j;
                }
                depth--;
            }
        }
        return -1;
    }

    /** Whether the brace at {@code k} opens an array's values ({@code description = {"…", "…"}}). */
    private static boolean openArray(CharSequence before, int k) {
        String head = before.subSequence(Math.max(0, k - 40), k).toString();
        return Pattern.compile("(=|\\]|\\(|,)\\s*$").matcher(head).find();
    }

    /** Whether the brace at {@code k} opens a switch expression's body (its cases stay inside the call). */
    private static boolean openSwitch(CharSequence before, int k) {
        String head = before.subSequence(Math.max(0, k - 80), k).toString();
        return Pattern.compile("switch\\s*\\([^;{]*\\)\\s*$").matcher(head).find();
    }
}
