package io.keyline.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures;
import io.keyline.core.ChildRecords;
import io.keyline.core.JobControls;
import io.keyline.core.KeyChanges;
import io.keyline.core.KeyEvents;
import io.keyline.core.KeyRecords;
import io.keyline.core.Leases;
import io.keyline.core.SavedPlans;
import io.keyline.core.StateStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers you can see in the folders, kept so (as JabRef's MainArchitectureTest): every package is
 * in a named layer, each layer is used only by the layers above it, the wiring ({@code app}) sits on
 * top and nothing imports it, and no two packages depend on each other in a cycle. {@code core} knows
 * no JavaFX and no SQL; the UI never reaches into SQL; the command line and the console's view models
 * reach the state only through {@code core.operations}.
 *
 * <pre>
 *   app                               Main, the console's wiring
 *   cli          ui.shell             command line · the console's window
 *                ui.inbox, ui.job, …  the console's features
 *                ui, ui.common        services, navigation, theme, threads, the view model base
 *   workspace                         one state and one jobs folder wired
 *   store        sandbox              JDBC (H2, PostgreSQL) · the demo's loopback site
 *   core.operations   core.notify     the operator's use cases · notifications
 *   core                              engine, decision, planner, scheduler, the state's ports
 *   core.exec, core.jobfile,          steps, job files,
 *   core.match, core.json             matching site answers (linear time), JSON
 *   credentials                       parsing, encryption, redaction
 *   domain                            records and rules
 *   text                              every word an operator reads, in English and Chinese
 * </pre>
 */
class LayersTest {

    static JavaClasses classes;

    /** The layers' packages; {@link #everyPackageIsNamed} keeps the list complete. */
    static final List<String> NAMED = List.of("io.keyline.app", "io.keyline.cli", "io.keyline.ui.shell",
            "io.keyline.ui.inbox", "io.keyline.ui.job", "io.keyline.ui.timeline", "io.keyline.ui.plan",
            "io.keyline.ui.confirm", "io.keyline.ui.credentials", "io.keyline.ui.login", "io.keyline.ui.workers",
            "io.keyline.ui", "io.keyline.ui.common", "io.keyline.workspace", "io.keyline.store",
            "io.keyline.sandbox", "io.keyline.core.operations", "io.keyline.core.notify", "io.keyline.core",
            "io.keyline.core.exec", "io.keyline.core.jobfile", "io.keyline.core.match", "io.keyline.core.json",
            "io.keyline.credentials",
            "io.keyline.domain", "io.keyline.text");

    /** The state's ports: only core.operations (and the wiring) hands them on; commands and screens never. */
    static final List<Class<?>> PORTS = List.of(StateStore.class, KeyRecords.class, KeyChanges.class,
            KeyEvents.class, JobControls.class, ChildRecords.class, SavedPlans.class, Leases.class);

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.keyline");
    }

    static Architectures.LayeredArchitecture layers() {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("App").definedBy("io.keyline.app")
                .layer("Cli").definedBy("io.keyline.cli")
                .layer("UiShell").definedBy("io.keyline.ui.shell")
                .layer("UiFeatures").definedBy("io.keyline.ui.inbox", "io.keyline.ui.job", "io.keyline.ui.timeline",
                        "io.keyline.ui.plan", "io.keyline.ui.confirm", "io.keyline.ui.credentials",
                        "io.keyline.ui.login", "io.keyline.ui.workers")
                .layer("UiBase").definedBy("io.keyline.ui", "io.keyline.ui.common")
                .layer("Workspace").definedBy("io.keyline.workspace")
                .layer("Store").definedBy("io.keyline.store..")
                .layer("Sandbox").definedBy("io.keyline.sandbox")
                .layer("Operations").definedBy("io.keyline.core.operations")
                .layer("Notify").definedBy("io.keyline.core.notify")
                .layer("Core").definedBy("io.keyline.core")
                .layer("CoreBase").definedBy("io.keyline.core.exec", "io.keyline.core.jobfile", "io.keyline.core.match",
                        "io.keyline.core.json")
                .layer("Credentials").definedBy("io.keyline.credentials")
                .layer("Domain").definedBy("io.keyline.domain")
                .layer("Text").definedBy("io.keyline.text")
                .whereLayer("App").mayNotBeAccessedByAnyLayer()
                .whereLayer("Cli").mayOnlyBeAccessedByLayers("App")
                .whereLayer("UiShell").mayOnlyBeAccessedByLayers("App")
                .whereLayer("UiFeatures").mayOnlyBeAccessedByLayers("UiShell", "App")
                .whereLayer("UiBase").mayOnlyBeAccessedByLayers("UiFeatures", "UiShell", "App")
                .whereLayer("Workspace").mayOnlyBeAccessedByLayers("Cli", "App")
                .whereLayer("Store").mayOnlyBeAccessedByLayers("Workspace", "Cli", "App")
                .whereLayer("Sandbox").mayOnlyBeAccessedByLayers("Workspace", "Cli", "App")
                .whereLayer("Operations").mayOnlyBeAccessedByLayers("Workspace", "Cli", "UiBase", "UiFeatures",
                        "UiShell", "App")
                .whereLayer("Notify").mayOnlyBeAccessedByLayers("Store", "Workspace", "Cli", "App")
                .whereLayer("Core").mayOnlyBeAccessedByLayers("Operations", "Notify", "Store", "Workspace", "Cli",
                        "UiBase", "UiFeatures", "UiShell", "App")
                .whereLayer("CoreBase").mayOnlyBeAccessedByLayers("Core", "Operations", "Notify", "Store",
                        "Workspace", "Cli", "UiBase", "UiFeatures", "UiShell", "App")
                .whereLayer("Credentials").mayOnlyBeAccessedByLayers("CoreBase", "Core", "Operations", "Notify",
                        "Store", "Workspace", "Cli", "UiBase", "UiFeatures", "UiShell", "App")
                .whereLayer("Domain").mayOnlyBeAccessedByLayers("Credentials", "CoreBase", "Core", "Operations",
                        "Notify", "Store", "Workspace", "Cli", "UiBase", "UiFeatures", "UiShell", "App")
                .whereLayer("Text").mayOnlyBeAccessedByLayers("Domain", "Credentials", "CoreBase", "Core",
                        "Operations", "Notify", "Store", "Workspace", "Sandbox", "Cli", "UiBase", "UiFeatures",
                        "UiShell", "App")
                .ensureAllClassesAreContainedInArchitecture();
    }

    @Test
    void everyPackageIsInALayerAndUsesOnlyTheLayersBelowIt() {
        layers().check(classes);
    }

    @Test
    void everyPackageIsNamed() {
        Set<String> packages = new TreeSet<>();
        classes.stream().map(JavaClass::getPackageName).filter(p -> p.startsWith("io.keyline")).forEach(packages::add);
        Set<String> named = new TreeSet<>(NAMED);
        // store's sub-packages (one per database) belong to the store layer
        packages.removeIf(p -> p.startsWith("io.keyline.store."));
        assertThat(packages).isEqualTo(named);
    }

    @Test
    void theLayerRulesCanFail() {
        // rules that cannot fail are no rules: each, turned around, must find the dependencies that exist
        assertThat(layers().whereLayer("UiShell").mayNotBeAccessedByAnyLayer().evaluate(classes).hasViolation())
                .as("the wiring opens the console's window").isTrue();
        assertThat(layers().whereLayer("Core").mayOnlyBeAccessedByLayers("Store").evaluate(classes).hasViolation())
                .as("operations use the core").isTrue();
        assertThat(layers().whereLayer("Operations").mayOnlyBeAccessedByLayers("App").evaluate(classes)
                .hasViolation()).as("commands and view models use the operations").isTrue();
        assertThat(reachesThePorts("io.keyline.core.operations..").evaluate(classes).hasViolation())
                .as("the operations use the ports").isTrue();
    }

    static ArchRule reachesThePorts(String... packages) {
        return noClasses().that().resideInAnyPackage(packages).should().dependOnClassesThat(
                DescribedPredicate.describe("the state's ports", c -> PORTS.stream().anyMatch(p -> c.isEquivalentTo(p))));
    }

    @Test
    void commandsAndViewModelsReachTheStateOnlyThroughOperations() {
        reachesThePorts("io.keyline.cli..", "io.keyline.ui..").check(classes);
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
                        String.class, java.util.List.class)
                .check(classes);
    }

    @Test
    void viewModelsAndCommandsNeverRunKeysOnTheEngineThemselves() {
        // a run is an operation (plan/apply, confirm and run, retry and run, run now): the engine is handed to it
        noClasses().that().resideInAnyPackage("io.keyline.ui..")
                .should().callMethodWhere(DescribedPredicate.describe("a run on the engine",
                        call -> call.getTargetOwner().isEquivalentTo(io.keyline.core.Engine.class)
                                && call.getName().startsWith("run")))
                .check(classes);
    }
}
