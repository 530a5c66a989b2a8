package io.keyline.ui;

import io.keyline.core.CredentialStore;
import io.keyline.core.Engine;
import io.keyline.core.OperatorActions;
import io.keyline.core.Planner;
import io.keyline.core.SchedulerControl;
import io.keyline.core.StateStore;
import io.keyline.core.jobfile.JobCatalog;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What the console works with: core services only (the UI never reaches into SQL). Built by the
 * app's wiring on a real state folder, and by tests on a temp one.
 *
 * @param catalog        loads the job files (again) from the jobs folder
 * @param store          the state
 * @param planner        dry runs
 * @param actions        operator actions
 * @param engine         runs keys (shared; thread-safe)
 * @param credentials    the credential store
 * @param clock          the clock
 * @param user           the OS user (shown on audited actions)
 * @param stateDir       the state folder (status bar)
 * @param jobsDir        the jobs folder
 * @param credentialWarn warn this long before a cookie expires
 * @param demo           creates the demo workspace on this state and jobs folder and returns a one-line summary
 *                       (slow: runs keys; call it off the FX thread), or {@code null} where there is none
 * @param scheduler      the embedded scheduler ({@link SchedulerControl#NONE} when there is none)
 */
public record ConsoleServices(Supplier<JobCatalog> catalog, StateStore store, Planner planner, OperatorActions actions,
                              Engine engine, CredentialStore credentials, Clock clock, String user, Path stateDir,
                              Path jobsDir, Duration credentialWarn, Supplier<String> demo, SchedulerControl scheduler) {

    /** Confirm-and-run (preview and confirm of a waiting unsafe step). */
    public io.keyline.core.operations.ConfirmAndRun confirmAndRun() {
        return new io.keyline.core.operations.ConfirmAndRun(store, credentials, actions, clock);
    }

    /** Retry-and-run, run now, rearm. */
    public io.keyline.core.operations.KeyActions keyActions() {
        return new io.keyline.core.operations.KeyActions(store, actions);
    }

    /** Renew a login and resume the keys parked on it. */
    public io.keyline.core.operations.RenewAndResume renewAndResume() {
        return new io.keyline.core.operations.RenewAndResume(credentials, store, actions);
    }

    /** Plan-and-save, apply-if-not-stale. */
    public io.keyline.core.operations.PlanApply planApply() {
        return new io.keyline.core.operations.PlanApply(store, planner);
    }

    /** A job definition by name, or a clear refusal when its file is gone or invalid. */
    public io.keyline.domain.JobDefinition job(String name) {
        return catalog.get().job(name).orElseThrow(() -> new io.keyline.core.OperatorException("job " + name
                + " is not loaded: its file in " + jobsDir + " is missing or invalid"));
    }

    /** Services without a demo workspace to offer and without a scheduler. */
    public ConsoleServices(Supplier<JobCatalog> catalog, StateStore store, Planner planner, OperatorActions actions,
                           Engine engine, CredentialStore credentials, Clock clock, String user, Path stateDir,
                           Path jobsDir, Duration credentialWarn) {
        this(catalog, store, planner, actions, engine, credentials, clock, user, stateDir, jobsDir, credentialWarn, null,
                SchedulerControl.NONE);
    }
}
