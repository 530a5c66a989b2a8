package io.keyline.bench;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmark harness of {@code mvn -Pbench verify}: B1 engine throughput against a raw-JDBC
 * lower bound and Spring Batch, B2 rerun of DONE keys, B3 console over a big state, B4 cold start of
 * the app-image, B5 the cost of syncing the store before an unsafe step acts, B6 workers on one
 * PostgreSQL state, B7 a backfill against a site that answers after 50 ms (concurrency 16
 * vs the ideal), B8 the per-host rate limit's error, B9 what a one-shot command ({@code status}) costs
 * against the JVM's floor, B10 reading answers (extract over HTML, hostile patterns over a hostile body) per MiB
 * at 1 and 4 MiB, B11 the state file's size after 10,000 keys in one process. Arguments select benchmarks
 * ({@code b1 … b11}); none runs all.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        List<String> which = args.length == 0 ? List.of("b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11")
                : Arrays.asList(args);
        Files.createDirectories(Stats.OUT);
        Files.deleteIfExists(Stats.OUT.resolve("figures.txt"));
        Files.deleteIfExists(Stats.OUT.resolve("raw.tsv"));
        Stats.log("java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors()
                + " cores, max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB");
        if (which.contains("b1")) {
            EngineBench.run();
        }
        if (which.contains("b2")) {
            RerunBench.run();
        }
        if (which.contains("b3")) {
            ConsoleBench.run();
        }
        if (which.contains("b4")) {
            StartupBench.run();
        }
        if (which.contains("b5")) {
            DurabilityBench.run();
        }
        if (which.contains("b6")) {
            WorkersBench.run();
        }
        if (which.contains("b7")) {
            BackfillBench.run();
        }
        if (which.contains("b8")) {
            RateLimitBench.run();
        }
        if (which.contains("b9")) {
            CliBench.run();
        }
        if (which.contains("b10")) {
            AnswerBenchRun.run();
        }
        if (which.contains("b11")) {
            StoreBench.run();
        }
    }
}
