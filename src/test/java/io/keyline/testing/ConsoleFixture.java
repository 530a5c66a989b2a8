package io.keyline.testing;

import io.keyline.app.ConsoleApp;
import io.keyline.app.Workspace;
import io.keyline.core.RunTrace;
import io.keyline.ui.ConsoleServices;

import java.io.IOException;
import java.nio.file.Path;

/** A workbench plus the console's services over the same state folder (for ViewModel and UI tests). */
public final class ConsoleFixture implements AutoCloseable {
    public final Workbench wb;
    public final Workspace workspace;
    public final ConsoleServices services;

    public ConsoleFixture(Path tmp) throws IOException {
        wb = new Workbench(tmp);
        workspace = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        services = ConsoleApp.services(workspace, RunTrace.NONE, wb.env());
    }

    @Override
    public void close() {
        workspace.close();
    }
}
