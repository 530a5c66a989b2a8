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
 * The console and the command line say nothing to an operator in a string literal: every word comes from the
 * bundles ({@link Text#t}). Every file under {@code ui/}, {@code cli/} and {@code app/} is scanned, and the files
 * of the core and the workspace listed in {@link #CORE}. A literal with a letter in it fails unless it is machine
 * text by what it is or where it stands: a bundle key, a CSS style class, selector or colour, a font family, a
 * stylesheet, resource or file path, a property's name, a thread's name, a JSON field or log key, a command or an
 * option as the operator types it, a name in capitals (a setting, a state); or one of the few protocol words listed
 * in {@link #MACHINE}.
 */
class NoLiteralTextTest {

    /** The folders scanned whole (under src/main/java/io/keyline). */
    static final List<String> FOLDERS = List.of("ui", "cli", "app");

    /** Files of the core and the workspace that take every word from the bundles (under src/main/java/io/keyline). */
    static final List<String> CORE = List.of(
            "core/RunReport.java",
            "core/RunTrace.java",
            "core/CredentialAlerts.java",
            "core/CredentialInfo.java",
            "core/notify/HookCheck.java",
            "workspace/Places.java",
            "core/operations/Attention.java",
            "core/operations/Words.java",
            "core/operations/KeyActions.java",
            "core/operations/LoginUrl.java",
            "core/operations/EvidenceText.java",
            "core/operations/Timeline.java",
            "core/operations/PlanText.java",
            "core/operations/ConfirmAndRun.java",
            "core/operations/Calendar.java",
            "core/operations/RenewAndResume.java",
            "core/operations/CapturedCookies.java",
            "core/operations/LoginCheck.java",
            "core/Planner.java",
            "core/Orphans.java",
            "text/Said.java",
            "core/ConfirmationExpiry.java",
            "core/RunBudget.java",
            "core/jobfile/BodyReader.java",
            "core/jobfile/CanonicalJson.java",
            "core/jobfile/ConditionReader.java",
            "core/jobfile/ExtractReader.java",
            "core/jobfile/HookTemplate.java",
            "core/jobfile/JobCatalog.java",
            "core/jobfile/JobFileError.java",
            "core/jobfile/JobFileLoader.java",
            "core/jobfile/JobReader.java",
            "core/jobfile/KeySourceReader.java",
            "core/jobfile/NotifyConfig.java",
            "core/jobfile/NotifyFileReader.java",
            "core/jobfile/ObjectView.java",
            "core/jobfile/ProbeReader.java",
            "core/jobfile/Problems.java",
            "core/jobfile/RetryReader.java",
            "core/jobfile/SourceNode.java",
            "core/jobfile/SourceParser.java",
            "core/jobfile/StepReader.java",
            "core/jobfile/StepTemplates.java",
            "core/jobfile/Suggestions.java",
            "core/OperatorException.java",
            "core/CredentialTester.java",
            "core/Targets.java",
            "core/operations/KeySelection.java",
            "core/operations/RetryAndSend.java",
            "workspace/Demo.java",
            "core/operations/RunDue.java",
            "core/PlanCursor.java",
            "core/KeyListing.java",
            "core/Scheduler.java",
            "core/Worker.java",
            "core/DecisionInputs.java",
            "core/CredentialProvider.java",
            "domain/InvalidKeyException.java",
            "credentials/MasterKeyException.java",
            "credentials/CredentialDecryptException.java");

    /**
     * Files of the store whose failures an operator reads (a state that cannot be opened, locked, backed up,
     * exported; a credential or a worker that cannot be read or written): every literal given to an exception there
     * comes from the bundles. The rest of these files is SQL, JSON field names and lock-file lines, machine text that
     * no rule of {@link #CORE}'s scan tells from words, so only what reaches an exception is scanned.
     */
    static final List<String> STORE = List.of(
            "core/PrivateFiles.java",
            "store/Database.java",
            "store/JdbcCredentialStore.java",
            "store/JdbcNotifyStore.java",
            "store/JdbcStateStore.java",
            "store/JdbcWorkers.java",
            "store/StateMaintenance.java",
            "store/StateMigration.java",
            "store/StateLocation.java",
            "store/h2/OpenLock.java",
            "store/h2/H2Database.java",
            "store/postgres/PostgresDatabase.java");

    /** The job-file readers: their messages are bundle messages whose arguments are the format's own words. */
    static final String JOB_FILE_READERS = "core/jobfile/";

    /**
     * In {@link #JOB_FILE_READERS}, the job-file format's own words, shown as written in every language: a field name
     * or a value the format knows ({@code jsonPointer}, {@code "same-origin"}, {@code GET}), a list of them
     * ({@code date, week, month, manual}), a piece of a field's path ({@code steps[}, {@code ].id}), a JSON pointer
     * ({@code "/items"}) or a JSON example ({@code {"json": "/items"}}, {@code "text": true}).
     */
    static final Pattern JOB_FILE_WORDS = Pattern.compile("\"?[A-Za-z][A-Za-z0-9-]*\"?(, [A-Za-z][A-Za-z0-9-]*)*"
            + "|[a-z]+\\[|\\]\\.[a-z]+|\"/[a-z/]*\"|\\{.*\\}|\"[a-z]+\": true");

    /** Files of the scanned folders that hold no word for an operator at all, each with why. */
    static final java.util.Map<String, String> PURE_MACHINE = java.util.Map.of(
            "app/StartupProbe.java", "prints one measurement line (key=value) that the startup benchmark parses");

    /**
     * Literals of one file that are machine text where they stand but that no rule can tell from a word, each with
     * why: file → literals.
     */
    static final java.util.Map<String, Set<String>> MACHINE_IN = java.util.Map.of(
            // a defect's message (no file causes it) and the digest's name
            "core/jobfile/JobFileLoader.java", Set.of("SHA-256", "every JVM has SHA-256"),
            // a defect's message (no file causes it); the JSON parser's own words, which its message (quoted as it
            // is, in English, inside a translated sentence) keeps when the token it names is cut out
            "core/jobfile/SourceParser.java", Set.of("unexpected token ", "reading from a string failed", "NaN",
                    "Infinity", " characters)"),
            // the run log's JSON words: a line's type and result, and its selection field (a machine format that
            // scripts read, never translated; the progress lines on the terminal take their words from the bundle)
            "core/RunTrace.java", Set.of("step", "probe", "probe:", "paused", "ok", "parked", "run", "operator",
                    "no keys", " keys)"),
            // the run log's type of the line that records an expired wait
            "core/ConfirmationExpiry.java", Set.of("expired"),
            // the result a test records as the credential's last use (stored, and read back by its value)
            "core/CredentialTester.java", Set.of("accepted", "rejected"),
            // how keys were chosen, as the run log records it; a regular expression that splits typed keys
            "core/operations/KeySelection.java", Set.of("current", "[\\s,;]+"),
            // the demo's shipped files, its marker file (a properties file the console reads), a file mode, the
            // command that opens the console; and two failures of the build itself (a shipped file missing)
            "workspace/Demo.java", Set.of("scripts/write-article.sh", "scripts/build-digest.sh",
                    "# Keyline demo workspace: the console starts the sandbox site on this port\n", "port=", "\nurl=",
                    "rwx", "java -jar target/keyline.jar", "java -jar ", "the demo's job ", " did not load: ", "the demo's file ",
                    " is missing from the class path"),
            // the cause of a run interrupted from outside: an internal failure, not a sentence for the operator
            "core/operations/RunDue.java", Set.of("interrupted while jobs ran"),
            // the last word of a bundle key (a departure that says the probe's answer); the digest's name
            "core/PlanCursor.java", Set.of("Probe", "sha256 "),
            // the last word of the bundle key that says what a listed entry is
            "core/KeyListing.java", Set.of("missing", "array", "object", "boolean", "fraction"));

    /**
     * In {@link #STORE}, the failures no operator reads, each with why: file → literals. A defect's message is for
     * whoever fixes the code; an internal failure that is caught is never shown.
     */
    static final java.util.Map<String, Set<String>> UNSHOWN_FAILURES = java.util.Map.of(
            // a defect: a chain of keys is never empty where it is asked for
            "store/JdbcStateStore.java", Set.of("empty chain"),
            // the failure a heartbeat catches at once to take its lock again on a new session (its cause, for logs)
            "store/JdbcWorkers.java", Set.of("the worker row of ", " is gone"),
            // a caller's mistake: the command line sends a PostgreSQL state to pg_dump before it asks for a backup
            "store/StateMaintenance.java", Set.of("backup: ", " is a PostgreSQL database: use pg_dump"),
            // defects: H2 set up before its restrictions, and a process that would wait for its own open lock
            "store/h2/H2Database.java", Set.of("H2 was initialised before Keyline could restrict it (",
                    "): call H2Lockdown.apply() first", "this process has the state in ", " open alone to read it: ",
                    "close that first (it would wait for itself)"));

    /** The files scanned: every .java file of {@link #FOLDERS}, and {@link #CORE}. */
    static List<String> files() throws IOException {
        Path base = Path.of("src/main/java/io/keyline");
        List<String> files = new ArrayList<>();
        for (String folder : FOLDERS) {
            try (java.util.stream.Stream<Path> walk = Files.walk(base.resolve(folder))) {
                walk.filter(f -> f.toString().endsWith(".java")).sorted()
                        .forEach(f -> files.add(base.relativize(f).toString().replace('\\', '/')));
            }
        }
        files.removeAll(PURE_MACHINE.keySet());
        files.addAll(CORE);
        return files;
    }

    /** Calls whose literal arguments are machine text: ids, style classes, resources, keys, names. */
    private static final Set<String> MACHINE_CALLS = Set.of(
            "setId", "setStyle", "lookup", "lookupAll", "getResource", "getResourceAsStream", "t", "has",
            "getPseudoClass", "createTempDirectory", "createTempFile", "fromString", "Thread", "getProperty",
            "getenv", "setting", "put", "ExtensionFilter", "ofPattern", "header", "kind",
            // a startup trace's marks (a diagnostic log, like the run log); a run log line's field names
            "mark", "head",
            // a comparison with a value the program or the operator types ("y", an event's name)
            "equals", "contains",
            // a regular expression; the name of the event a hook is sent
            "matches", "replaceAll", "sendNow",
            // a regular expression; a colour of the palette by its looked-up name
            "compile", "named",
            // a file or folder name in a path ({@code dir.resolve("logs")})
            "resolve", "resolveSibling",
            // a setting's name and value in a properties file; a system property's name
            "setProperty", "getBoolean",
            // a class and a method found by reflection
            "forName", "getMethod",
            // why a run stopped, as the engine records it in the run log and the keys' events (the core's words)
            "stopStarting",
            // a bundle by its area; the key of a help text in it (picocli's builder)
            "bundle", "descriptionKey",
            // the input of a plan's id (hashed, never shown); an attention item's identity (a selection keeps it)
            "fingerprint", "groupId");

    /** picocli's annotations: their attributes are names, labels and numbers, but for the words listed below. */
    private static final Set<String> ANNOTATIONS = Set.of("Command", "Option", "Parameters", "ArgGroup", "Mixin");

    /** Attributes of picocli's annotations that hold words: the help reads them from the bundle instead. */
    private static final Set<String> WORD_ATTRIBUTES = Set.of("description", "header", "footer", "headerHeading",
            "synopsisHeading", "descriptionHeading", "parameterListHeading", "optionListHeading",
            "commandListHeading", "footerHeading", "customSynopsis", "heading", "prompt");

    /** The last attribute named before a literal in an annotation ({@code paramLabel = }). */
    private static final Pattern ATTRIBUTE = Pattern.compile("(\\w+)\\s*=(?!=)[^=]*$");

    /** Calls on a style class or stylesheet list ({@code getStyleClass().add("muted")}). */
    private static final Pattern STYLE_LIST = Pattern.compile("get(StyleClass|Stylesheets)\\(\\)\\s*\\.\\s*\\w+$");

    /** A map's fields written to the run log or as JSON ({@code Map.of("result", "invalid")}). */
    private static final Pattern LOG_FIELDS = Pattern.compile("\\bMap\\s*\\.\\s*of$");

    /** The names of a path ({@code Path.of("resources", "jobs")}). */
    private static final Pattern PATH_NAMES = Pattern.compile("\\bPaths?\\s*\\.\\s*(of|get)$");

    /** A bundle key. */
    private static final Pattern KEY = Pattern.compile("(ui|cli|core|common)\\.[A-Za-z0-9_.]*");

    /** A command-line option, named as the operator types it ({@code --until}, {@code -h}, {@code " --key "}). */
    private static final Pattern OPTION = Pattern.compile("\\s*(--[a-z][a-z0-9-]*|-[A-Za-z])\\s*");

    /**
     * A command as the operator types it: {@code keyline}, its words and options, the values left out
     * ({@code String.format("keyline run %s --key %s", …)}, {@code "keyline "}).
     */
    private static final Pattern COMMAND = Pattern.compile("\\s*keyline( +(--?)?[a-z][a-z0-9-]*)* *");

    /** A lower-case name with dots or dashes: a style class, a file, a property ({@code state-chip}, {@code keyline.css}). */
    private static final Pattern TOKEN = Pattern.compile("[a-z][a-z0-9]*([._-][a-z0-9]*)+");

    /** An address or a path ({@code http://127.0.0.1:}, {@code /login}). */
    private static final Pattern ADDRESS = Pattern.compile("([a-z]+://|/)\\S*");

    /**
     * A format specifier ({@code %-24s}, {@code %d}), an escape written by one ({@code \\u%04x}) or a terminal's
     * control sequence ({@code ESC [K}): no word.
     */
    private static final Pattern FORMAT_SPECIFIER =
            Pattern.compile("(\\\\[ux])?%[-#+ 0,(]*\\d*(\\.\\d+)?[a-zA-Z%]|\\u001b\\[[0-9;]*[A-Za-z]");

    /** A name in capitals: a setting ({@code KEYLINE_CATCH_UP}, {@code $KEYLINE_STATE}), a state ({@code DONE}). */
    private static final Pattern NAME = Pattern.compile("\\$?[A-Z][A-Z0-9_]+");

    /** A job file's template placeholder ({@code {key}}, {@code {runId}}). */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[A-Za-z][A-Za-z0-9_.]*\\}");

    /** A colour in hex ({@code #1a7f37}). */
    private static final Pattern HEX_COLOUR = Pattern.compile("#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})");

    /** A CSS name: a looked-up colour or a JavaFX property ({@code -kl-ok}, {@code -fx-font-family}). */
    private static final Pattern CSS_NAME = Pattern.compile("-(kl|fx)-[a-z0-9-]+");

    /**
     * A piece of a stylesheet: selectors ({@code .code, .inbox-item .evidence}, {@code .root.}), then perhaps
     * the opening of a rule up to a property's value ({@code .root { -fx-font-family: "}).
     */
    private static final Pattern CSS = Pattern.compile("\\s*((\\.[a-z][a-z0-9-]*)+\\.?(\\s*,?\\s*(\\.[a-z][a-z0-9-]*)+\\.?)*)?"
            + "\\s*,?\\s*(\\{\\s*(-fx-[a-z-]+\\s*:\\s*\"?)?)?\\s*");

    /**
     * A font family that carries Chinese: capitalised words ending in a script's tag or a Hei face, perhaps its
     * monospaced cut ({@code Noto Sans CJK SC}, {@code Microsoft YaHei}, {@code WenQuanYi Zen Hei Mono}).
     */
    private static final Pattern FONT_FAMILY = Pattern.compile("([A-Z][A-Za-z]* )+(SC|TC|CN|HK|TW|JP|KR|Hei|YaHei)( Mono)?");

    /** A constant that holds one name the program uses ({@code static final String STATE_FOLDER = "state";}). */
    private static final Pattern NAME_CONSTANT = Pattern.compile("\\bstatic\\s+final\\s+String\\s+[A-Z][A-Z0-9_]*\\s*=\\s*$");

    /** A property's name in its constructor ({@code new SimpleStringProperty(this, "status", "")}). */
    private static final Pattern PROPERTY_NAME = Pattern.compile("[a-z][A-Za-z0-9]*");

    /** A comparison that follows the literal ({@code "https".equals(scheme)}). */
    private static final Pattern COMPARED = Pattern.compile("\\s*\\.\\s*(equals|equalsIgnoreCase|startsWith|endsWith)\\s*\\(");

    /** Protocol and format words shown or sent as they are, never translated. */
    static final Set<String> MACHINE = Set.of(
            "Authorization", "Bearer ", "Basic ", "Authorization: Bearer ••••••••", ": ••••••••", "Cookie: ", "rwx------",
            "about:blank", "keyline-login-", "data:text/css;base64,", "*.txt", "*.json", "secret.key", "null",
            "user=demo", "Content-Type", "application/octet-stream");

    @Test
    void theConsoleAndTheCommandLineTakeEveryWordFromTheBundles() throws IOException {
        List<String> files = files();
        assertThat(files).as("the folders are walked").contains("cli/KeylineCli.java", "ui/common/Palette.java",
                "app/ConsoleApp.java", "core/RunTrace.java").doesNotContain("app/StartupProbe.java");
        List<String> found = new ArrayList<>();
        for (String f : files) {
            Set<String> exempt = MACHINE_IN.getOrDefault(f, Set.of());
            for (String literal : operatorLiterals(f, Files.readString(Path.of("src/main/java/io/keyline", f),
                    StandardCharsets.UTF_8))) {
                if (!exempt.contains(literal.substring(literal.indexOf('"') + 1, literal.length() - 1))) {
                    found.add(literal);
                }
            }
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

    /** Each rule passes its machine text, and the words next to it (in the same places) still fail. */
    @Test
    void eachRulePassesItsMachineTextOnly() {
        String src = """
                class Y {
                    static final String STATE_FOLDER = "state";
                    static final String TITLE = "Saved";
                    void f() {
                        c("-kl-ok", "#1a7f37", "#3fb950", "#fff");
                        c("Green", "#1a7f3", "-kl Ok");
                        css = ".root { -fx-font-family: \\"" + sans + "\\"; }\\n" + ".root." + DARK + " {\\n";
                        sel = ".code, .inbox-item .evidence, .text-area.code, ";
                        sel = ".root { color: red }";
                        fonts = List.of("Noto Sans CJK SC", "WenQuanYi Micro Hei Mono", "Microsoft YaHei");
                        fonts = List.of("Open Sans", "Sans SC now");
                        p.setProperty(KEY, chinese ? "zh-CN" : "en");
                        Path.of(home, ".config").resolve("keyline").resolve("console.properties");
                        Path.of("resources", "jobs");
                        boolean tls = "https".equals(scheme);
                        String s = "Done" + scheme.equals(x);
                        out.println(String.format("keyline run %s --key %s", job, key) + "keyline " + what);
                        out.println("keyline: run failed" + "run keyline");
                        spec.addOption(builder("-h", "--help", " --key "));
                        out.println("-h help" + "--help me");
                        where = "$KEYLINE_STATE";
                        where = "$Keyline state";
                        Class.forName("sun.misc.Signal").getMethod("handle", c);
                        engine.stopStarting("stopped by " + name);
                        out.println(String.format(Locale.ROOT, "\\\\u%04x", ch));
                        out.println("\\\\u%04x was written");
                    }
                    @Command(name = "retry", version = "Keyline 0.1", description = {"Re-arms a key.", "Again."})
                    @picocli.CommandLine.Option(names = {"--note", "-n"}, paramLabel = "T", description = "Why "
                            + "(kept).", descriptionKey = "note")
                    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB", descriptionKey = "JOB")
                    void g() {
                        new Option("Saved");
                    }
                }
                """;
        assertThat(operatorLiterals("Y.java", src)).containsExactly("Y.java:3 \"Saved\"",
                "Y.java:6 \"Green\"", "Y.java:6 \"#1a7f3\"", "Y.java:6 \"-kl Ok\"",
                "Y.java:9 \".root { color: red }\"", "Y.java:11 \"Open Sans\"", "Y.java:11 \"Sans SC now\"",
                "Y.java:16 \"Done\"", "Y.java:18 \"keyline: run failed\"", "Y.java:18 \"run keyline\"",
                "Y.java:20 \"-h help\"", "Y.java:20 \"--help me\"", "Y.java:22 \"$Keyline state\"",
                "Y.java:26 \"\\u%04x was written\"", "Y.java:28 \"Re-arms a key.\"", "Y.java:28 \"Again.\"",
                "Y.java:29 \"Why \"", "Y.java:30 \"(kept).\"", "Y.java:33 \"Saved\"");
    }

    /** In the job-file readers, the format's words pass as data; a sentence around them still fails. */
    @Test
    void theJobFileReadersPassTheFormatsWordsOnly() {
        String src = """
                class Z {
                    void f() {
                        view.choice("method", List.of("GET", "HEAD"), true);
                        at(s, Said.of("core.jobfile.onlyWith", path, "\\"webhook\\"", "steps[" + i + "].id"));
                        require("kind", Said.of("core.jobfile.expect.oneOf", "date, week, month, manual"));
                        hint("{\\"json\\": \\"/items\\"}", "\\"/items\\"", "\\"text\\": true");
                        at(s, path + " must not be empty");
                        at(s, "unknown field " + name);
                    }
                }
                """;
        assertThat(operatorLiterals("core/jobfile/Z.java", src)).containsExactly(
                "core/jobfile/Z.java:7 \" must not be empty\"", "core/jobfile/Z.java:8 \"unknown field \"");
        assertThat(operatorLiterals("core/Z.java", src)).contains("core/Z.java:5 \"date, week, month, manual\"");
    }

    @Test
    void theStoresFailuresTakeEveryWordFromTheBundles() throws IOException {
        List<String> found = new ArrayList<>();
        for (String f : STORE) {
            Set<String> exempt = UNSHOWN_FAILURES.getOrDefault(f, Set.of());
            for (String literal : failureLiterals(f, Files.readString(Path.of("src/main/java/io/keyline", f),
                    StandardCharsets.UTF_8))) {
                if (!exempt.contains(literal.substring(literal.indexOf('"') + 1, literal.length() - 1))) {
                    found.add(literal);
                }
            }
        }
        assertThat(found).as("words given to an exception (put them in the bundles)").isEmpty();
    }

    @Test
    void theFailureScanFindsWordsGivenToAnExceptionOnly() {
        String src = """
                class S {
                    void f() {
                        ps = c.prepareStatement("SELECT job FROM key_state WHERE state = 'DONE'");
                        throw new StateUnavailableException("cannot read " + name + ": " + m, e);
                        throw new StateUnavailableException(Said.of("core.store.read", name, m), e);
                        throw new SQLException("could not take a lock", "08001", e);
                        out.put("exportedAt", now);
                    }
                }
                """;
        assertThat(failureLiterals("S.java", src)).containsExactly("S.java:4 \"cannot read \"",
                "S.java:6 \"could not take a lock\"");
    }

    /** The literals of {@code src} an operator would read, as {@code file:line "literal"}. */
    static List<String> operatorLiterals(String file, String src) {
        return literals(file, src, false);
    }

    /** The literals of {@code src} with a letter in them that are given to an exception, as {@code file:line "literal"}. */
    static List<String> failureLiterals(String file, String src) {
        return literals(file, src, true);
    }

    private static List<String> literals(String file, String src, boolean failuresOnly) {
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
                if (failuresOnly ? words && givenToAnException(code)
                        : words && !(file.startsWith(JOB_FILE_READERS) && JOB_FILE_WORDS.matcher(value).matches())
                        && !machine(code, value, src.substring(Math.min(n, i), Math.min(n, i + 40)))) {
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

    /**
     * Whether {@code value}, a literal between {@code before} and {@code after}, is machine text by what it is or
     * where it stands.
     */
    private static boolean machine(CharSequence before, String value, String after) {
        if (MACHINE.contains(value) || KEY.matcher(value).matches() || OPTION.matcher(value).matches()
                || NAME.matcher(value).matches() || TOKEN.matcher(value).matches() || ADDRESS.matcher(value).matches()
                || COMMAND.matcher(FORMAT_SPECIFIER.matcher(value).replaceAll("")).matches() || HEX_COLOUR.matcher(value).matches()
                || PLACEHOLDER.matcher(value).matches()
                || CSS_NAME.matcher(value).matches() || CSS.matcher(value).matches()
                || FONT_FAMILY.matcher(value).matches() || COMPARED.matcher(after).lookingAt()) {
            return true;
        }
        String tail = before.subSequence(Math.max(0, before.length() - 120), before.length()).toString();
        if (NAME_CONSTANT.matcher(tail).find() && PROPERTY_NAME.matcher(value).matches()
                && after.stripLeading().startsWith(";")) {
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
        if (MACHINE_CALLS.contains(call) || STYLE_LIST.matcher(head).find() || LOG_FIELDS.matcher(head).find()
                || PATH_NAMES.matcher(head).find()) {
            return true;
        }
        if (ANNOTATIONS.contains(call) && head.matches("(?s).*@\\s*(\\w+\\s*\\.\\s*)*\\w+$")) {
            java.util.regex.Matcher a = ATTRIBUTE.matcher(before.subSequence(k, before.length()));
            return a.find() && !WORD_ATTRIBUTES.contains(a.group(1));
        }
        return (call.endsWith("Wrapper") || call.endsWith("Property")) && PROPERTY_NAME.matcher(value).matches();
    }

    /** Whether the innermost call still open after {@code before} makes an exception ({@code new XException(}). */
    private static boolean givenToAnException(CharSequence before) {
        int depth = 0;
        for (int k = before.length() - 1; k >= 0; k--) {
            char c = before.charAt(k);
            if (c == ')') {
                depth++;
            } else if (c == '(') {
                if (depth == 0) {
                    String head = before.subSequence(Math.max(0, k - 120), k).toString().stripTrailing();
                    return Pattern.compile("\\bnew\\s+[\\w.]*(Exception|Error)$").matcher(head).find();
                }
                depth--;
            } else if (c == ';' || c == '{' || c == '}') {
                return false;
            }
        }
        return false;
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
