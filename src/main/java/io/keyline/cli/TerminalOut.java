package io.keyline.cli;

import io.keyline.domain.Printable;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The command line's stdout and stderr: every string printed passes through {@link Printable#text},
 * so a control character that came from outside (a server's answer, a command's output, a job
 * file, a key) reaches the terminal as a visible escape ({@code \e}, {@code \x9b}, {@code \u202e}),
 * never as an instruction to the terminal (a window title, the clipboard, erased lines). Tab and
 * newline stay; fields that must stay on one line are escaped with {@link Printable#line} where
 * they are printed. JSON output carries no raw control character at all ({@link Text.Mapper#JSON}).
 */
final class TerminalOut extends PrintStream {

    private TerminalOut(PrintStream target) {
        super(target, true, StandardCharsets.UTF_8);
    }

    /** {@code target}, wrapped once. */
    static PrintStream of(PrintStream target) {
        return target instanceof TerminalOut ? target : new TerminalOut(target);
    }

    @Override
    public void print(String s) {
        super.print(Printable.text(String.valueOf(s)));
    }

    /**
     * Prints {@code s} as it is: only for text every outside part of which has been through
     * {@link Printable#line} already (a {@link Text.Table}'s cells), so scanning it again would find
     * nothing. A 10,000-row {@code status} table is 1.5 million characters; they are encoded
     * in one go, not through the stream's character encoder.
     */
    void printEscaped(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        write(b, 0, b.length); // print(String) keeps nothing back, so this stays in order with it
    }

    /** {@code s} on {@code out}: as it is when {@code out} is a terminal output, else through it. */
    static void printEscaped(PrintStream out, String s) {
        if (out instanceof TerminalOut t) {
            t.printEscaped(s);
        } else {
            out.print(s);
        }
    }

    @Override
    public void print(Object obj) {
        print(String.valueOf(obj));
    }

    @Override
    public void print(char[] s) {
        print(new String(s));
    }

    @Override
    public void print(char c) {
        print(String.valueOf(c));
    }

    @Override
    public void println(String x) {
        synchronized (this) {
            print(x);
            println();
        }
    }

    @Override
    public void println(Object x) {
        println(String.valueOf(x));
    }

    @Override
    public void println(char[] x) {
        println(new String(x));
    }

    @Override
    public void println(char x) {
        println(String.valueOf(x));
    }

    @Override
    public PrintStream append(CharSequence csq) {
        print(String.valueOf(csq));
        return this;
    }

    @Override
    public PrintStream append(CharSequence csq, int start, int end) {
        print(String.valueOf(csq == null ? "null" : csq.subSequence(start, end)));
        return this;
    }

    @Override
    public PrintStream append(char c) {
        print(c);
        return this;
    }
}
