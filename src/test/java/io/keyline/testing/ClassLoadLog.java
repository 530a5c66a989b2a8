package io.keyline.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a child JVM's {@code -Xlog:class+load=info:file=...}: the loaded class names, in order. */
public final class ClassLoadLog {
    private ClassLoadLog() {
    }

    public static List<String> classes(Path log) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            int i = line.indexOf("[class,load] ");
            if (i >= 0) {
                String rest = line.substring(i + "[class,load] ".length());
                int sp = rest.indexOf(' ');
                out.add(sp < 0 ? rest : rest.substring(0, sp));
            }
        }
        return out;
    }
}
