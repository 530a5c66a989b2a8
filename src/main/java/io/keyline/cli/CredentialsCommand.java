package io.keyline.cli;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialTester;
import io.keyline.core.OperatorException;
import io.keyline.core.operations.LoginCheck;
import io.keyline.credentials.CredentialFormatException;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.credentials.MasterKeyException;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.KeyRecord;
import io.keyline.core.CredentialStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "credentials",
        subcommands = {CredentialsCommand.ListCommand.class, CredentialsCommand.SetCommand.class,
            CredentialsCommand.TestCommand.class})
final class CredentialsCommand extends Sub implements Callable<Integer> {

    @Override
    public Integer call() {
        throw new UsageError(t("cli.credentials.needsCommand"));
    }

    /** Days before expiry at which a credential is flagged (env KEYLINE_CREDENTIAL_WARN_DAYS, default 3). */
    static Duration warnWindow(Map<String, String> env) {
        try {
            return CredentialAlerts.warnWindow(env);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
    }

    /** A one-line warning per credential that is rejected, missing or expires soon, for list, jobs and status. */
    static List<String> warnings(CredentialStore store, Instant now, Duration warn) {
        return CredentialAlerts.of(store, now, warn).stream().map(CredentialAlerts.Alert::message).toList();
    }

    /** The same from what was read of the credentials: their facts and the keys parked on missing ones. */
    static List<String> warnings(List<CredentialInfo> credentials, Map<String, Integer> parkedOnMissing, Instant now,
                                 Duration warn) {
        return CredentialAlerts.of(credentials, parkedOnMissing, now, warn).stream()
                .map(CredentialAlerts.Alert::message).toList();
    }

    /**
     * "3 parked keys resumed, but keyline run --due, the scheduler and workers park them again until daily-article
     * is reviewed": resumed keys of jobs whose unsafe steps wait for a review.
     */
    static String resumedForReview(int resumed, List<String> jobs) {
        return t("cli.credentials.resumedReview", resumed, String.join(t("common.listSeparator"), jobs), jobs.size());
    }

    @Command(name = "list")
    static final class ListCommand extends Sub implements Callable<Integer> {
        @Override
        public Integer call() {
            CredentialStore store = ws().credentials();
            Instant now = ws().options().clock().instant();
            Duration warn = warnWindow(root().env());
            List<CredentialInfo> all = store.list();
            if (all.isEmpty()) {
                out().println(t("cli.credentials.none"));
            } else {
                Text.Table t = new Text.Table(t("cli.credentials.col.name"), t("cli.credentials.col.type"),
                        t("cli.credentials.col.fingerprint"), t("cli.credentials.col.cookies"),
                        t("cli.credentials.col.expires"), t("cli.credentials.col.lastUsed"),
                        t("cli.credentials.col.result"), t("cli.credentials.col.parked"), "");
                for (CredentialInfo i : all) {
                    String flag = i.earliestExpiry() != null && !i.earliestExpiry().isAfter(now)
                            ? t("cli.credentials.flag.expired") : i.expiresWithin(now, warn)
                            ? t("cli.credentials.flag.expiresSoon") : i.parkedKeys() > 0
                            ? t("cli.credentials.flag.rejected") : "";
                    t.row(i.name(), i.type(), i.fingerprint(), i.cookies(), Text.time(i.earliestExpiry()),
                            Text.time(i.lastUsedAt()), result(i.lastResult()), i.parkedKeys(), flag);
                }
                t.print(out());
                for (CredentialInfo i : all) {
                    if (i.loginUrl() != null) {
                        out().println(i.parkedKeys() == 0 ? t("cli.credentials.loginAt", i.name(), i.loginUrl())
                                : t("cli.credentials.loginAtWaiting", i.name(), i.loginUrl(), i.parkedKeys()));
                    }
                }
            }
            store.parkedOnMissing().forEach((name, n) -> out().println(t("cli.credentials.notSet", name, n)));
            return 0;
        }

        /** What the site said at the last use, in words; "not used yet" when nothing was sent with the value. */
        static String result(String stored) {
            if (stored == null) {
                return t("cli.credentials.result.none");
            }
            String key = "cli.credentials.result." + stored.replace(' ', '_');
            return io.keyline.text.Text.has(key) ? t(key) : stored;
        }
    }

    @Command(name = "set")
    static final class SetCommand extends Sub implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Option(names = "--type", paramLabel = "T", defaultValue = "cookie")
        String type;

        @Option(names = "--from-file", paramLabel = "F")
        Path file;

        @Option(names = "--domain", paramLabel = "D")
        String domain;

        @Option(names = "--run")
        boolean run;

        @Option(names = "--login-url", paramLabel = "URL")
        String loginUrl;

        @Option(names = "--no-refresh")
        boolean noRefresh;

        @Option(names = "--refresh")
        boolean refresh;

        @Option(names = "--token-url", paramLabel = "URL")
        String tokenUrl;

        @Option(names = "--client-id", paramLabel = "ID")
        String clientId;

        @Override
        public Integer call() {
            if (io.keyline.core.operations.RenewAndResume.nameProblem(name) != null) { // the console's rule too
                throw new UsageError(t("cli.credentials.badName", name));
            }
            if (loginUrl != null && !loginUrl.isEmpty()) {
                loginUrl = checkedLoginUrl(loginUrl);
            }
            if (noRefresh && refresh) {
                throw new UsageError(t("cli.credentials.refreshBoth", "--refresh", "--no-refresh"));
            }
            Boolean refreshBySite = noRefresh ? Boolean.FALSE : refresh ? Boolean.TRUE : null;
            CredentialType t;
            try {
                t = CredentialType.fromJsonName(type);
            } catch (IllegalArgumentException e) {
                throw new UsageError(t("cli.credentials.badType", "--type", type));
            }
            if ((tokenUrl != null || clientId != null) && t != CredentialType.OAUTH2) {
                throw new UsageError(t("cli.credentials.oauthOnly", tokenUrl != null ? "--token-url" : "--client-id",
                        "--type oauth2"));
            }
            String input = read();
            if (input.isBlank() && (loginUrl != null || refreshBySite != null)) {
                return settingsOnly(refreshBySite);
            }
            ParsedCredential value;
            String source = file != null ? file.toString() : t("cli.credentials.stdin");
            try {
                CredentialParser.Parsed parsed = t == CredentialType.OAUTH2
                        ? new CredentialParser.Parsed(CredentialParser.parseOAuth(input, tokenUrl, clientId), List.of())
                        : CredentialParser.parseInput(t, input, domain);
                value = parsed.credential();
                if (!parsed.dropped().isEmpty()) {
                    // by name only: the value is the secret, and the names say which cookies the site will miss
                    err().println(t("cli.credentials.dropped", source, parsed.dropped().size(),
                            String.join(", ", parsed.dropped())));
                }
            } catch (CredentialFormatException e) {
                throw new UsageError(t("cli.credentials.badValue", source, e.getMessage(), name));
            }
            io.keyline.core.operations.RenewAndResume op = ws().operations().renewAndResume();
            io.keyline.core.operations.RenewAndResume.Renewed renewed;
            try {
                renewed = op.renew(name, value, loginUrl, refreshBySite, ws().options().user(), ws().catalog().jobs());
            } catch (MasterKeyException e) {
                throw new OperatorException(e.getMessage());
            }
            CredentialInfo info = renewed.info();
            List<KeyRecord> resumed = renewed.resumed();
            List<String> facts = new java.util.ArrayList<>(List.of(info.type(),
                    t("cli.credentials.fingerprint", info.fingerprint())));
            if (info.cookies() > 0) {
                facts.add(t("cli.credentials.cookies", info.cookies()));
            }
            if (value.oauth() != null) {
                facts.add(t("cli.credentials.oauthFor", value.oauth().clientId(), value.oauth().tokenUrl()));
            }
            if (info.earliestExpiry() != null) {
                facts.add(t("cli.credentials.expires", Text.time(info.earliestExpiry())));
            }
            if (info.loginUrl() != null) {
                facts.add(t("cli.credentials.logInAt", info.loginUrl()));
            }
            if (!ws().credentials().refreshBySite(name)) {
                facts.add(t("cli.credentials.notKept"));
            }
            out().println(t("cli.credentials.stored", name, String.join(t("cli.credentials.factSeparator"), facts)));
            unusedWarning();
            if (renewed.sameAsRejected()) {
                out().println(io.keyline.core.operations.RenewAndResume.sameAsRejected(name, renewed));
                return 4;
            }
            if (!run || resumed.isEmpty()) {
                List<String> review = resumed.isEmpty() ? List.of() : renewed.reviewFirst();
                out().println(review.isEmpty() ? io.keyline.core.operations.RenewAndResume.summary(renewed, null)
                        : resumedForReview(resumed.size(), review));
                for (KeyRecord k : resumed) {
                    out().println("  " + k.job() + " " + k.key());
                }
                review.forEach(j -> out().println(t("cli.run.nextReview", j)));
                return 0;
            }
            try (RunSession s = new RunSession(this)) {
                io.keyline.core.operations.RenewAndResume.Ran ran = op.run(resumed, ws().catalog()::job,
                        s.engine);
                out().println(io.keyline.core.operations.RenewAndResume.ranSummary(renewed, ran));
                ran.heldJobs().forEach(j -> out().println(t("cli.run.nextReview", j)));
                return io.keyline.core.RunReport.exitCode(ran.finals(), false);
            }
        }

        /**
         * Says when no loaded job names this credential: a renewal under a mistyped name resumes nothing while the
         * keys parked on the real one keep waiting. (Storing one before its job is written is fine: it is a warning.)
         */
        private void unusedWarning() {
            java.util.Set<String> used = new java.util.TreeSet<>();
            ws().catalog().jobs().forEach(j -> used.addAll(j.credentials()));
            if (!used.isEmpty() && !used.contains(name)) {
                out().println("! " + t("cli.credentials.unused", name, String.join(", ", used)));
            }
        }

        /** Changes the login URL or the refresh choice of a stored credential, its value as it is. */
        private int settingsOnly(Boolean refreshBySite) {
            CredentialStore store = ws().credentials();
            CredentialInfo info = store.settings(name, loginUrl, refreshBySite, ws().options().user())
                    .orElseThrow(() -> new UsageError(t("cli.credentials.notStored", name)));
            List<String> changes = new java.util.ArrayList<>();
            if (loginUrl != null) {
                changes.add(loginUrl.isEmpty() ? t("cli.credentials.loginUrlRemoved")
                        : t("cli.credentials.logInAt", loginUrl));
            }
            if (refreshBySite != null) {
                changes.add(t(refreshBySite ? "cli.credentials.kept" : "cli.credentials.notKept"));
            }
            out().println(t("cli.credentials.unchanged", name, info.fingerprint())
                    + changes.stream().map(c -> t("cli.credentials.factSeparator") + c)
                    .collect(java.util.stream.Collectors.joining()));
            return 0;
        }

        /** An absolute http(s) URL with a host, without control characters or credentials in it. */
        static String checkedLoginUrl(String url) {
            String hint = t("cli.credentials.badLoginUrl", "--login-url", url.replaceAll("\\p{Cntrl}", "?"));
            if (io.keyline.core.operations.LoginUrl.problem(url) != null) { // the console's check; the CLI's words
                throw new UsageError(hint);
            }
            return java.net.URI.create(url).toString();
        }

        private String read() {
            String source = file != null ? "--from-file" + " " + file : t("cli.credentials.stdin");
            try (java.io.InputStream in = file != null ? Files.newInputStream(file) : root().in()) {
                return CredentialParser.readInput(in, source);
            } catch (CredentialFormatException e) {
                throw new UsageError(t("cli.credentials.unchangedAfter", e.getMessage(), name));
            } catch (NoSuchFileException e) {
                throw new UsageError(t("cli.credentials.noFile", "--from-file", file));
            } catch (java.nio.file.AccessDeniedException e) {
                throw new UsageError(t("cli.credentials.denied", source));
            } catch (IOException e) {
                throw new UsageError(t("cli.credentials.cannotRead", source, e.getMessage()));
            }
        }
    }

    @Command(name = "test")
    static final class TestCommand extends Sub implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Option(names = "--key", paramLabel = "K")
        String key;

        @Override
        public Integer call() throws InterruptedException {
            io.keyline.core.operations.RenewAndResume.Tested t = ws().operations().renewAndResume()
                    .test(name, ws().catalog().jobs(), ws().options().clock(), key);
            t.results().forEach(r -> out().println(LoginCheck.line(r)));
            CredentialTester.Outcome outcome = t.outcome();
            out().println(name + ": " + CredentialTester.summary(name, t.results()));
            switch (outcome) {
                case ACCEPTED -> {
                    int resumed = t.resumed().size();
                    List<String> review = resumed == 0 ? List.of() : t.reviewFirst();
                    out().println(!review.isEmpty() ? resumedForReview(resumed, review)
                            : t(resumed == 0 ? "cli.credentials.noneResumed" : "cli.credentials.resumed", resumed));
                    review.forEach(j -> out().println(t("cli.run.nextReview", j)));
                }
                case REJECTED -> out().println(CredentialTester.keptIn(t.results())
                        ? t("cli.credentials.notSent", name) : t("cli.credentials.isRejected", name));
                case INCONCLUSIVE -> out().println(t("cli.credentials.inconclusive"));
            }
            return outcome.exitCode();
        }
    }
}
