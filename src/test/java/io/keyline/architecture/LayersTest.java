package io.keyline.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers you can see in the folders, kept so (as JabRef's MainArchitectureTest): every package is
 * in a named layer, each layer is used only by the layers above it, the wiring ({@code app}) sits on
 * top and nothing imports it, and no two packages depend on each other in a cycle. {@code core}
 * knows no JavaFX and no SQL; the UI never reaches into SQL.
 *
 * <pre>
 *   app                      Main, the console's wiring
 *   cli        ui            command line · JavaFX console (ui.shell over ui.inbox, ui.job, …)
 *   workspace                one state folder + one jobs folder wired (CLI; the console via app)
 *   store      sandbox       JDBC/H2 · the demo's loopback site
 *   core                     engine, planner, scheduler, operations (core.operations over core over core.exec, …)
 *   credentials              parsing, encryption, redaction
 *   domain                   records and rules
 * </pre>
 */
class LayersTest {

    static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.keyline");
    }

    static Architectures.LayeredArchitecture layers() {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("App").definedBy("io.keyline.app..")
                .layer("Cli").definedBy("io.keyline.cli..")
                .layer("Ui").definedBy("io.keyline.ui..")
                .layer("Workspace").definedBy("io.keyline.workspace..")
                .layer("Store").definedBy("io.keyline.store..")
                .layer("Sandbox").definedBy("io.keyline.sandbox..")
                .layer("Core").definedBy("io.keyline.core..")
                .layer("Credentials").definedBy("io.keyline.credentials..")
                .layer("Domain").definedBy("io.keyline.domain..")
                .whereLayer("App").mayNotBeAccessedByAnyLayer()
                .whereLayer("Cli").mayOnlyBeAccessedByLayers("App")
                .whereLayer("Ui").mayOnlyBeAccessedByLayers("App")
                .whereLayer("Workspace").mayOnlyBeAccessedByLayers("Cli", "App")
                .whereLayer("Store").mayOnlyBeAccessedByLayers("Workspace", "Cli", "App")
                .whereLayer("Sandbox").mayOnlyBeAccessedByLayers("Workspace", "Cli", "App")
                .whereLayer("Core").mayOnlyBeAccessedByLayers("Store", "Workspace", "Cli", "Ui", "App")
                .whereLayer("Credentials").mayOnlyBeAccessedByLayers("Core", "Store", "Workspace", "Cli", "Ui", "App")
                .whereLayer("Domain").mayOnlyBeAccessedByLayers("Credentials", "Core", "Store", "Workspace", "Cli",
                        "Ui", "App")
                .ensureAllClassesAreContainedInArchitecture();
    }

    @Test
    void everyPackageIsInALayerAndUsesOnlyTheLayersBelowIt() {
        layers().check(classes);
    }

    @Test
    void theLayerRuleCanFail() {
        // a rule that cannot fail is no rule: the same layers with the UI forbidden to the wiring must fail
        EvaluationResult r = layers().whereLayer("Ui").mayNotBeAccessedByAnyLayer().evaluate(classes);
        assertThat(r.hasViolation()).isTrue();
    }

    @Test
    void topLevelSlicesAreFreeOfCycles() {
        slices().matching("io.keyline.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void everyPackageIsFreeOfCycles() {
        // core and core.exec, ui.shell and ui.inbox, … each package on its own
        slices().matching("io.keyline.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void domainIsPlainRecordsAndRules() {
        noClasses().that().resideInAPackage("io.keyline.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("io.keyline.core..", "io.keyline.store..",
                        "io.keyline.cli..", "io.keyline.ui..", "io.keyline.app..", "javafx..", "java.sql..",
                        "com.fasterxml..")
                .check(classes);
    }

    @Test
    void coreUsesNeitherJavaFxNorSql() {
        noClasses().that().resideInAPackage("io.keyline.core..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "java.sql..", "javax.sql..",
                        "org.h2..", "org.flywaydb..", "io.keyline.store..", "io.keyline.ui..", "io.keyline.cli..",
                        "io.keyline.app..", "io.keyline.workspace..")
                .check(classes);
    }

    @Test
    void storeNeverImportsUiOrCli() {
        noClasses().that().resideInAPackage("io.keyline.store..")
                .should().dependOnClassesThat().resideInAnyPackage("io.keyline.ui..", "io.keyline.cli..",
                        "io.keyline.app..", "javafx..")
                .check(classes);
    }

    @Test
    void onlyTheH2StoreKnowsH2AndNothingOfOursLivesInH2sPackages() {
        // what exists because of H2 has one address (store.h2, docs/durability.md); a class planted in org.h2 to
        // reach its package-private parts would be another
        noClasses().that().resideOutsideOfPackage("io.keyline.store.h2..")
                .should().dependOnClassesThat().resideInAPackage("org.h2..")
                .check(classes);
        JavaClasses planted = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS).importPackages("org.h2");
        assertThat(planted).as("classes of ours in H2's packages").isEmpty();
    }

    @Test
    void credentialsLibraryIsPure() {
        noClasses().that().resideInAPackage("io.keyline.credentials..")
                .should().dependOnClassesThat().resideInAnyPackage("io.keyline.core..", "io.keyline.store..",
                        "io.keyline.ui..", "io.keyline.cli..", "javafx..", "java.sql..")
                .check(classes);
    }

    @Test
    void uiNeverReachesIntoSql() {
        noClasses().that().resideInAPackage("io.keyline.ui..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.h2..", "io.keyline.store..",
                        "io.keyline.workspace..")
                .check(classes);
    }

    @Test
    void operatorFlowsAreNotWrittenTwice() {
        // the CLI and the console call core.operations; neither runs an operator flow on the engine itself
        noClasses().that().resideInAnyPackage("io.keyline.ui..")
                .should().callMethod(io.keyline.core.OperatorActions.class, "retry",
                        io.keyline.domain.JobDefinition.class, String.class, String.class)
                .orShould().callMethod(io.keyline.core.OperatorActions.class, "confirm",
                        io.keyline.domain.JobDefinition.class, String.class, String.class, String.class)
                .orShould().callMethod(io.keyline.core.OperatorActions.class, "credentialUpdated", String.class,
                        String.class)
                .check(classes);
    }
}
