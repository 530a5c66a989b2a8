package io.keyline.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The common arrangement of acceptance tests: a workbench (state and jobs folders, the real CLI
 * in-process) in a temp folder, and a loopback test site. Subclasses add their own set-up.
 */
public abstract class SiteTestBase {

    @TempDir
    protected Path tmp;
    protected Workbench wb;
    protected TestSite site;

    @BeforeEach
    void openBenchAndSite() throws IOException {
        wb = new Workbench(tmp);
        site = new TestSite();
    }

    @AfterEach
    void closeSite() throws IOException {
        site.close();
    }
}
