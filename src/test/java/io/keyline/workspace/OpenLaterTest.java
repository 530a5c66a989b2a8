package io.keyline.workspace;

import io.keyline.core.CredentialStore;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Services built over a state that opens on first use read the same state once it is open. */
class OpenLaterTest {

    @TempDir
    Path dir;

    @Test
    void servicesBuiltBeforeTheStateOpensReadItOnFirstUse() throws IOException {
        Workbench wb = new Workbench(dir);
        wb.cli("init");
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env()).openLater()) {
            CredentialStore credentials = ws.credentialService();
            assertThat(credentials).isSameAs(ws.credentialService());
            assertThat(ws.operations().hasKeys("none")).isFalse();
            assertThat(credentials.list()).isEmpty();
        }
    }
}
