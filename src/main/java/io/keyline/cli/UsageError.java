package io.keyline.cli;

/** Bad arguments: exit 64 with a message that says what is wrong. */
final class UsageError extends RuntimeException {
    UsageError(String message) {
        super(message);
    }
}
