package io.keyline.cli;

import io.keyline.store.StateMaintenance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "export")
final class ExportCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB", descriptionKey = "JOB")
    String jobName;

    @Mixin
    JsonOutput json;

    @Override
    public Integer call() throws java.io.IOException {
        String name = jobName == null ? null : exportName(jobName);
        // read whole before it is written: the output may go to a pipe that is read slowly (doneReading)
        java.io.ByteArrayOutputStream json = new java.io.ByteArrayOutputStream();
        new StateMaintenance(ws().database()).export(name, ws().options().clock().instant(), json);
        doneReading();
        json.writeTo(out());
        out().println();
        out().flush();
        return 0;
    }

    /** A job of the jobs folder, or one whose file is gone but whose keys are still in the state. */
    private String exportName(String name) {
        if (ws().catalog().job(name).isPresent() || ws().operations().hasKeys(name)) {
            return name;
        }
        return job(name).name(); // the usual error: unknown job, or its file is invalid
    }
}
