package io.keyline.core.jobfile;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every field the job-file parser accepts is documented in docs/job-files.md, and every field of
 * notify.json in docs/operations.md. The fields come from the parser's own known-field sets (every
 * static collection named {@code *FIELDS} or {@code CONDITIONS} of this package), so a field added to
 * the parser without a word in the docs fails here.
 */
class JobFileDocsTest {

    /** Field-set name → its fields, for every class of the parser's package (read from the compiled classes). */
    static Map<String, Collection<String>> knownFieldSets() throws Exception {
        Path dir = Path.of(JobReader.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("io/keyline/core/jobfile");
        Map<String, Collection<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = f.getFileName().toString().replace(".class", "");
                Class<?> c = Class.forName("io.keyline.core.jobfile." + name, false,
                        JobFileDocsTest.class.getClassLoader());
                for (Field fl : c.getDeclaredFields()) {
                    if (Modifier.isStatic(fl.getModifiers()) && Collection.class.isAssignableFrom(fl.getType())
                            && (fl.getName().endsWith("FIELDS") || fl.getName().equals("CONDITIONS"))) {
                        fl.setAccessible(true);
                        @SuppressWarnings("unchecked")
                        Collection<String> values = (Collection<String>) fl.get(null);
                        out.put(c.getSimpleName() + "." + fl.getName(), values);
                    }
                }
            }
        }
        return out;
    }

    /** The names written as code in a markdown file: {@code `name`}, and the last part of {@code `a.b`}. */
    static java.util.Set<String> documented(Path doc) throws Exception {
        java.util.Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("`([A-Za-z][A-Za-z0-9.\\-]*)`").matcher(Files.readString(doc));
        while (m.find()) {
            String n = m.group(1);
            out.add(n);
            out.add(n.substring(n.lastIndexOf('.') + 1));
        }
        return out;
    }

    @Test
    void everyFieldTheParserAcceptsIsDocumented() throws Exception {
        Map<String, Collection<String>> sets = knownFieldSets();
        assertThat(sets).containsKeys("JobReader.FIELDS", "StepReader.FIELDS", "ProbeReader.FIELDS",
                "RetryReader.FIELDS", "NotifyFileReader.HOOK_FIELDS");
        java.util.Set<String> jobDoc = documented(Path.of("docs/job-files.md"));
        java.util.Set<String> opsDoc = documented(Path.of("docs/operations.md"));
        sets.forEach((set, fields) -> {
            java.util.Set<String> doc = set.startsWith("NotifyFileReader.") ? opsDoc : jobDoc;
            String where = set.startsWith("NotifyFileReader.") ? "docs/operations.md" : "docs/job-files.md";
            for (String field : fields) {
                assertThat(doc).as(set + " accepts \"" + field + "\", which " + where + " does not mention as `"
                        + field + "`").contains(field);
            }
        });
    }
}
