package io.keyline.cli;

import picocli.CommandLine.Option;

/** A command on one key that the operator must explain: {@code --note} is required (it is kept with the audit event). */
abstract class NotedKeyCommand extends KeyCommand {

    @Option(names = "--note", paramLabel = "T", required = true)
    String note;
}
