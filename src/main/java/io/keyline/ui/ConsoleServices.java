package io.keyline.ui;

import io.keyline.core.CredentialStore;
import io.keyline.core.Engine;
import io.keyline.core.SchedulerControl;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.operations.Operations;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What the console works with: core services only (the UI never reaches into SQL, and reaches the
 * state only through {@link Operations}). Built by the app's wiring on a real state folder, and by
 * tests on a temp one.
 *
 * @param catalog        loads the job files (again) from the jobs folder
 * @param operations     the operator's use cases and the reads the screens show
 * @param engine         runs keys (shared; thread-safe): handed to the operations that run keys
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
public record ConsoleServices(Supplier<JobCatalog> catalog, Operations operations, Engine engine,
                              CredentialStore credentials, Clock clock, String user, Path stateDir, Path jobsDir,
                              Duration credentialWarn, Supplier<String> demo, SchedulerControl scheduler) {

    /** A job definition by name, or a clear refusal when its file is gone or invalid. */
    public io.keyline.domain.JobDefinition job(String name) {
        return catalog.get().job(name).orElseThrow(() -> new io.keyline.core.OperatorException(
                io.keyline.text.Text.t("ui.console.jobNotLoaded", name, jobsDir.toString())));
    }

    /** The same services without a demo workspace to offer. */
    public ConsoleServices withoutDemo() {
        return new ConsoleServices(catalog, operations, engine, credentials, clock, user, stateDir, jobsDir,
                credentialWarn, null, scheduler);
    }
}
