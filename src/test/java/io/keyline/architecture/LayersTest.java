package io.keyline.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The layers you can see in the folders, kept so: domain is plain, core knows no JavaFX and no
 * SQL, store knows no UI, and nothing below the UI reaches into it.
 */
class LayersTest {

    static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.keyline");
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
                        "io.keyline.app..")
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
    void credentialsLibraryIsPure() {
        noClasses().that().resideInAPackage("io.keyline.credentials..")
                .should().dependOnClassesThat().resideInAnyPackage("io.keyline.core..", "io.keyline.store..",
                        "io.keyline.ui..", "io.keyline.cli..", "javafx..", "java.sql..")
                .check(classes);
    }

    @Test
    void uiNeverReachesIntoSql() {
        noClasses().that().resideInAPackage("io.keyline.ui..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.h2..", "io.keyline.store..")
                .allowEmptyShould(true)
                .check(classes);
    }
}
