package io.keyline.cli;

import picocli.CommandLine.Option;

/**
 * {@code --json}: the command prints JSON instead of its table (status, timeline, plan); export prints only JSON and
 * takes it for symmetry with them. Each command's help says what its JSON is ({@code keyline.status.json}, …).
 */
final class JsonOutput {

    @Option(names = "--json")
    boolean on;
}
