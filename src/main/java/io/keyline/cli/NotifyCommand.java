package io.keyline.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.core.OperatorException;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.core.jobfile.NotifyFileReader;
import io.keyline.core.notify.Events;
import io.keyline.core.jobfile.Hook;
import io.keyline.core.jobfile.NotifyConfig;
import io.keyline.core.notify.Notifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Map;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "notify",
        subcommands = {NotifyCommand.TestCommand.class, NotifyCommand.SendCommand.class})
final class NotifyCommand extends Sub implements Callable<Integer> {

    @Override
    public Integer call() {
        throw new UsageError(t("cli.notify.needsCommand"));
    }

    /** The hooks in effect (notify.json of the jobs folder, else the default channels), or exit 1 with its errors. */
    static NotifyConfig config(Sub cmd) {
        NotifyConfig cfg = io.keyline.core.notify.Channels.effective(NotifyFileReader.load(cmd.ws().jobsDir()),
                cmd.root().env());
        if (!cfg.valid()) {
            StringBuilder sb = new StringBuilder(t("cli.notify.invalid"));
            for (JobFileError e : cfg.errors()) {
                sb.append("\n  ").append(e);
            }
            throw new OperatorException(sb.toString());
        }
        if (cfg.hooks().isEmpty()) {
            throw new OperatorException(t(java.nio.file.Files.exists(cfg.file()) ? "cli.notify.noHooks"
                    : "cli.notify.noFile", cfg.file()));
        }
        return cfg;
    }

    static int report(Sub cmd, Map<Hook, String> results) {
        int failed = 0;
        for (Map.Entry<Hook, String> e : results.entrySet()) {
            if (e.getValue() == null) {
                cmd.out().println(t("cli.notify.sent", e.getKey().label()));
            } else {
                failed++;
                cmd.out().println(t("cli.notify.failed", e.getKey().label(), e.getValue()));
            }
        }
        return failed == 0 ? 0 : 1;
    }

    @Command(name = "test")
    static final class TestCommand extends Sub implements Callable<Integer> {
        @Override
        public Integer call() throws InterruptedException {
            NotifyConfig cfg = config(this);
            ObjectNode event = Events.test(ws().options().clock().instant(), Notifier.host());
            return report(this, Notifier.sendNow(cfg, "test", event, ws().jobsDir(), ws().options().clock()));
        }
    }

    @Command(name = "send")
    static final class SendCommand extends Sub implements Callable<Integer> {
        @Option(names = "--event", paramLabel = "E", defaultValue = "run")
        String event;

        @Option(names = "--job", paramLabel = "JOB")
        String job;

        @Parameters(index = "0", paramLabel = "MESSAGE", descriptionKey = "MESSAGE")
        String message;

        @Override
        public Integer call() throws InterruptedException {
            if (!Hook.EVENTS.contains(event)) {
                throw new UsageError(t("cli.notify.badEvent", "--event", event, String.join(", ", Hook.EVENTS)));
            }
            if (job != null && !job.matches("[a-z0-9][a-z0-9-]{0,62}")) {
                // {job} may stand in a hook's arguments: it is a job name, nothing else
                throw new UsageError(t("cli.notify.badJob", "--job", io.keyline.domain.Printable.line(job)));
            }
            NotifyConfig cfg = config(this);
            ObjectNode payload = Events.custom(event, job, message, ws().options().clock().instant(), Notifier.host());
            Map<Hook, String> results = Notifier.sendNow(cfg, event, payload, ws().jobsDir(), ws().options().clock());
            if (results.isEmpty()) {
                out().println(t("cli.notify.noneSubscribed", event));
            }
            return report(this, results);
        }
    }
}
