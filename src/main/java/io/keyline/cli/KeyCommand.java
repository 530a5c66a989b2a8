package io.keyline.cli;

import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/**
 * A command on one key of a job ({@code keyline COMMAND JOB KEY …}): the job and key are resolved ({@link KeyTarget})
 * before the command acts on them.
 */
abstract class KeyCommand extends Sub implements Callable<Integer> {

    @Mixin
    KeyTarget target;

    @Override
    public final Integer call() {
        return call(target.resolve(this));
    }

    /** Acts on the resolved key and returns the exit code. */
    abstract int call(KeyTarget.Target key);
}
