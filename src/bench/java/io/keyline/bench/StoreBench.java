package io.keyline.bench;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * B11: how large the state file of a long-lived process gets. One process runs 10,000 keys x 3 no-op {@code none}
 * steps through the engine on a fresh state (B1's job) and the file is measured before the state is closed, so
 * that the compaction H2 does on close does not hide what the process left while it had the file open.
 */
final class StoreBench {
    static final int KEYS = Integer.getInteger("bench.b11.keys", 10_000);
    static final int RUNS = Integer.getInteger("bench.b11.runs", 3);
    static final Path ROOT = Path.of("target", "bench", "b11");

    private StoreBench() {
    }

    static void run() throws Exception {
        Stats.deleteTree(ROOT);
        Files.createDirectories(ROOT);
        JobDefinition job = EngineBench.noopJob(ROOT);
        List<String> keys = KeyRules.range(job.key(), "1990-01-01", "2099-12-31").subList(0, KEYS);
        List<Double> mb = new ArrayList<>();
        List<Double> rate = new ArrayList<>();
        for (int r = 0; r < RUNS; r++) {
            Path state = ROOT.resolve("state-" + r);
            rate.add(EngineBench.engine(job, keys, state));
            mb.add(EngineBench.lastFileBytes / (1024.0 * 1024.0));
            Stats.log("B11 run " + r + ": " + String.format(java.util.Locale.ROOT, "%.1f", mb.get(r)) + " MB before close, "
                    + Math.round(rate.get(r)) + " keys/s, " + Files.size(state.resolve("keyline.mv.db")) / (1024 * 1024)
                    + " MB after close");
            Stats.deleteTree(state);
        }
        Stats.log("B11 keys/s per run: " + Stats.list(rate));
        Stats.figure("store.file_mb_after_10k_keys", mb, "MB");
    }
}
