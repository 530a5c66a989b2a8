package io.keyline.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which arguments of a command line a program runs as code: the script of {@code sh -c SCRIPT}
 * (also {@code bash -ec}, {@code env X=1 sh -c}, {@code sudo -u u bash -c}, {@code timeout 5 sh -c},
 * {@code xargs sh -c}, {@code find -exec sh -c}), the inline program of {@code python -c},
 * {@code perl -e}, {@code ruby -e}, {@code node -e}, {@code php -r}, {@code awk PROGRAM},
 * {@code sed SCRIPT}, {@code osascript -e}, {@code pwsh -Command}, the command of {@code su -c},
 * {@code flock -c}, {@code script -c}, {@code watch}, {@code ssh HOST COMMAND}, and the script file
 * an interpreter runs ({@code sh FILE}, {@code python3 FILE}).
 *
 * <p>A value substituted there is parsed as code, so a server's answer could run commands: the job
 * loader refuses output placeholders in these arguments and points at the environment variable
 * that carries the same value as data ({@link Template#outputVariable}). The arguments after the
 * script ({@code sh -c 'cp "$1" out' sh {steps.a.outputs.file}}) are data and stay allowed.
 *
 * <p>The table covers the common shells, interpreters and wrappers; it is deliberately eager (an
 * option it does not know is taken as taking no value). Reading outputs from the environment is
 * always possible and always safe.
 */
public final class ScriptArguments {

    /**
     * An argument that is code.
     *
     * @param index       its index in the command line
     * @param interpreter what runs it, e.g. {@code sh -c} or {@code python3 -c}
     */
    public record Code(int index, String interpreter) {
    }

    private static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "pdksh",
            "ash", "yash", "posh", "rbash", "fish", "csh", "tcsh");
    /** Shell options that take a value ({@code -o pipefail}, {@code +O extglob}, {@code --rcfile F}). */
    private static final Set<String> SHELL_VALUE_OPTIONS = Set.of("-o", "+o", "-O", "+O", "--rcfile", "--init-file");

    private ScriptArguments() {
    }

    /** The code arguments of {@code argv} (templates or values), in order. */
    public static List<Code> find(List<String> argv) {
        List<Code> out = new ArrayList<>();
        scan(argv, 0, argv.size(), out, 0);
        return out;
    }

    /** Programs that run the command line that follows their options, with the options that take a value. */
    private static final java.util.Map<String, Set<String>> WRAPPERS = java.util.Map.ofEntries(
            java.util.Map.entry("nice", Set.of("-n", "--adjustment")),
            java.util.Map.entry("nohup", Set.of()),
            java.util.Map.entry("setsid", Set.of()),
            java.util.Map.entry("time", Set.of("-o", "-f", "--output", "--format")),
            java.util.Map.entry("stdbuf", Set.of("-i", "-o", "-e", "--input", "--output", "--error")),
            java.util.Map.entry("ionice", Set.of("-c", "-n", "--class", "--classdata")),
            java.util.Map.entry("sudo", Set.of("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user",
                    "--group", "--chdir", "--prompt", "--host", "--role", "--type", "--other-user",
                    "--command-timeout", "--close-from")),
            java.util.Map.entry("doas", Set.of("-u", "-C")),
            java.util.Map.entry("runuser", Set.of("-u", "-g", "-G", "--user", "--group", "--supp-group", "-w",
                    "--whitelist-environment")),
            java.util.Map.entry("unshare", Set.of("-S", "-G", "--setuid", "--setgid", "-R", "--root", "-w", "--wd")),
            java.util.Map.entry("nsenter", Set.of("-t", "--target", "-S", "-G", "-r", "-w", "--setuid", "--setgid")),
            java.util.Map.entry("caffeinate", Set.of("-t", "-w")),
            java.util.Map.entry("catchsegv", Set.of()),
            java.util.Map.entry("exec", Set.of("-a")),
            java.util.Map.entry("xargs", Set.of("-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--max-args",
                    "--max-procs", "--delimiter", "--arg-file", "--replace", "--max-lines", "--max-chars", "--eof")),
            // these take one positional argument before the command: DURATION, NEWROOT, MASK, PRIORITY
            java.util.Map.entry("timeout", Set.of("-s", "-k", "--signal", "--kill-after")),
            java.util.Map.entry("chroot", Set.of("--userspec", "--groups")),
            java.util.Map.entry("taskset", Set.of()),
            java.util.Map.entry("chrt", Set.of()));
    private static final Set<String> WITH_POSITIONAL = Set.of("timeout", "chroot", "taskset", "chrt");

    private static void scan(List<String> a, int start, int end, List<Code> out, int depth) {
        int i = start;
        while (i < end && depth < 8) {
            depth++;
            String prog = program(a.get(i));
            int next = i + 1;
            if (prog.equals("env")) {
                while (next < end && (a.get(next).startsWith("-") || a.get(next).contains("="))) {
                    String o = a.get(next);
                    if (o.equals("-S") || o.equals("--split-string")) {
                        addIf(out, next + 1, end, "env -S");
                        return;
                    }
                    if (o.startsWith("-S") || o.startsWith("--split-string=")) {
                        out.add(new Code(next, "env -S"));
                        return;
                    }
                    if (o.equals("--")) {
                        next++;
                        break;
                    }
                    next += o.equals("-u") || o.equals("--unset") || o.equals("-C") || o.equals("--chdir") ? 2 : 1;
                }
                i = next;
            } else if (prog.equals("busybox")) {
                i = next;
            } else if (prog.equals("runuser") && hasCommandOption(a, next, end, out, prog)) {
                return;
            } else if (WRAPPERS.containsKey(prog)) {
                i = skipOptions(a, next, end, WRAPPERS.get(prog)) + (WITH_POSITIONAL.contains(prog) ? 1 : 0);
            } else if (prog.equals("su")) {
                hasCommandOption(a, next, end, out, "su");
                return;
            } else if (prog.equals("flock") || prog.equals("script")) {
                if (hasCommandOption(a, next, end, out, prog)) {
                    return;
                }
                int j = skipOptions(a, next, end, Set.of("-w", "--timeout", "-E", "--conflict-exit-code"));
                i = prog.equals("flock") ? j + 1 : end; // flock FILE COMMAND...; script FILE (no command)
            } else if (prog.equals("watch")) {
                int j = skipOptions(a, next, end, Set.of("-n", "--interval"));
                boolean exec = a.subList(next, j).stream().anyMatch(o -> o.equals("-x") || o.equals("--exec"));
                if (!exec) {
                    for (int k = j; k < end; k++) {
                        out.add(new Code(k, "watch (runs its command with sh -c)"));
                    }
                    return;
                }
                i = j;
            } else if (prog.equals("ssh")) {
                int j = skipOptions(a, next, end, Set.of("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L",
                        "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B"));
                for (int k = j + 1; k < end; k++) {
                    out.add(new Code(k, "ssh (the remote shell runs the command)"));
                }
                return;
            } else if (prog.equals("find")) {
                for (int k = next; k < end; k++) {
                    String o = a.get(k);
                    if (o.equals("-exec") || o.equals("-execdir") || o.equals("-ok") || o.equals("-okdir")) {
                        int stop = k + 1;
                        while (stop < end && !a.get(stop).equals(";") && !a.get(stop).equals("+")) {
                            stop++;
                        }
                        scan(a, k + 1, stop, out, depth + 1);
                        k = stop;
                    }
                }
                return;
            } else {
                interpreter(a, i, prog, end, out);
                return;
            }
        }
    }

    /** {@code su -c CMD}, {@code flock -c CMD}, {@code --command=CMD}: marks the command; true if found. */
    private static boolean hasCommandOption(List<String> a, int from, int end, List<Code> out, String prog) {
        for (int k = from; k < end; k++) {
            String o = a.get(k);
            if (o.equals("-c") || o.equals("--command") || o.equals("--session-command")) {
                addIf(out, k + 1, end, prog + " -c");
                return true;
            }
            if (o.startsWith("--command=") || o.startsWith("--session-command=")) {
                out.add(new Code(k, prog + " -c"));
                return true;
            }
        }
        return false;
    }

    private static void interpreter(List<String> a, int i, String prog, int end, List<Code> out) {
        String family = family(prog);
        switch (family) {
            case "shell" -> {
                boolean inline = false;
                int k = i + 1;
                for (; k < end; k++) {
                    String o = a.get(k);
                    if (o.equals("--")) {
                        k++;
                        break;
                    }
                    if (SHELL_VALUE_OPTIONS.contains(o)) {
                        k++;
                    } else if (o.equals("--command") || o.equals("-c") && prog.equals("fish")) {
                        inline = true;
                    } else if (o.startsWith("--command=")) {
                        out.add(new Code(k, prog + " -c"));
                        return;
                    } else if ((o.startsWith("-") || o.startsWith("+")) && o.length() > 1 && !o.startsWith("--")) {
                        inline |= o.indexOf('c') > 0;
                        if (o.endsWith("o") || o.endsWith("O")) {
                            k++; // -euo pipefail: the option's value follows
                        }
                    } else if (!o.startsWith("--")) {
                        break;
                    }
                }
                if (k < end) {
                    out.add(new Code(k, inline ? prog + " -c" : "the script " + prog + " runs"));
                }
            }
            case "python" -> inlineOrScript(a, i, end, out, prog, Set.of('c', 'm'), Set.of("-W", "-X", "-Q"), false);
            case "perl", "ruby" -> inlineOrScript(a, i, end, out, prog, Set.of('e', 'E'),
                    Set.of("-I", "-M", "-m", "-x", "-r", "-C", "-F"), true);
            case "node" -> {
                for (int k = i + 1; k < end; k++) {
                    String o = a.get(k);
                    if (o.equals("-e") || o.equals("--eval") || o.equals("-p") || o.equals("--print")) {
                        addIf(out, k + 1, end, prog + " " + o);
                        return;
                    }
                    if (o.startsWith("--eval=") || o.startsWith("--print=")) {
                        out.add(new Code(k, prog + " --eval"));
                        return;
                    }
                    if (!o.startsWith("-")) {
                        out.add(new Code(k, "the script " + prog + " runs"));
                        return;
                    }
                    if (o.equals("-r") || o.equals("--require") || o.equals("--import")) {
                        k++;
                    }
                }
            }
            case "php" -> {
                for (int k = i + 1; k < end; k++) {
                    String o = a.get(k);
                    if (o.equals("-r") || o.equals("-R") || o.equals("-B") || o.equals("-E")) {
                        addIf(out, k + 1, end, prog + " " + o);
                        k++;
                    } else if (o.equals("-f")) {
                        addIf(out, k + 1, end, "the script " + prog + " runs");
                        return;
                    } else if (!o.startsWith("-")) {
                        out.add(new Code(k, "the script " + prog + " runs"));
                        return;
                    } else if (o.equals("-d") || o.equals("-c") || o.equals("-z")) {
                        k++;
                    }
                }
            }
            case "awk", "sed" -> {
                boolean programGiven = false;
                for (int k = i + 1; k < end; k++) {
                    String o = a.get(k);
                    if (o.equals("--")) {
                        if (!programGiven) {
                            addIf(out, k + 1, end, prog + " program");
                        }
                        return;
                    }
                    if (o.equals("-e") || o.equals("--expression") || o.equals("--source")) {
                        addIf(out, k + 1, end, prog + " " + o);
                        programGiven = true;
                        k++;
                    } else if (o.startsWith("--expression=") || o.startsWith("--source=")
                            || family.equals("sed") && o.startsWith("-e") && o.length() > 2) {
                        out.add(new Code(k, prog + " -e"));
                        programGiven = true;
                    } else if (o.equals("-f") || o.equals("--file")) {
                        addIf(out, k + 1, end, "the script " + prog + " runs");
                        programGiven = true;
                        k++;
                    } else if (family.equals("awk") && (o.equals("-F") || o.equals("-v"))
                            || family.equals("sed") && (o.equals("-l") || o.equals("--line-length"))) {
                        k++;
                    } else if (!o.startsWith("-") || o.equals("-")) {
                        if (!programGiven) {
                            out.add(new Code(k, prog + " program"));
                        }
                        return;
                    }
                }
            }
            case "osascript", "lua", "rscript" -> {
                for (int k = i + 1; k < end; k++) {
                    String o = a.get(k);
                    if (o.equals("-e")) {
                        addIf(out, k + 1, end, prog + " -e");
                        k++;
                    } else if (!o.startsWith("-")) {
                        out.add(new Code(k, "the script " + prog + " runs"));
                        return;
                    }
                }
            }
            case "pwsh" -> {
                for (int k = i + 1; k < end; k++) {
                    String o = a.get(k).toLowerCase(Locale.ROOT);
                    if (o.equals("-c") || o.equals("-command") || o.equals("-encodedcommand") || o.equals("-ec")
                            || o.equals("-file") || o.equals("-f")) {
                        for (int m = k + 1; m < end; m++) {
                            out.add(new Code(m, prog + " " + a.get(k)));
                        }
                        return;
                    }
                }
            }
            case "cmd" -> {
                for (int k = i + 1; k < end; k++) {
                    String o = a.get(k).toLowerCase(Locale.ROOT);
                    if (o.equals("/c") || o.equals("/k")) {
                        for (int m = k + 1; m < end; m++) {
                            out.add(new Code(m, prog + " " + a.get(k)));
                        }
                        return;
                    }
                }
            }
            default -> {
                // a program that takes its arguments as data
            }
        }
    }

    /** {@code python -c CODE}, {@code perl -e CODE} (option clusters like {@code -ne}), else the script file. */
    private static void inlineOrScript(List<String> a, int i, int end, List<Code> out, String prog, Set<Character> flags,
                                       Set<String> valueOptions, boolean repeatable) {
        boolean inline = false;
        for (int k = i + 1; k < end; k++) {
            String o = a.get(k);
            if (o.equals("--")) {
                if (!inline) {
                    addIf(out, k + 1, end, "the script " + prog + " runs");
                }
                return;
            }
            if (!o.startsWith("-") || o.equals("-")) {
                if (!inline) {
                    out.add(new Code(k, "the script " + prog + " runs")); // with inline code, the rest is data
                }
                return;
            }
            if (valueOptions.contains(o)) {
                k++;
                continue;
            }
            if (o.startsWith("--")) {
                continue;
            }
            for (int c = 1; c < o.length(); c++) {
                if (flags.contains(o.charAt(c))) {
                    String flag = prog + " -" + o.charAt(c);
                    inline = true;
                    if (c + 1 < o.length()) {
                        out.add(new Code(k, flag)); // -e'code' in one argument
                    } else {
                        addIf(out, k + 1, end, flag);
                        k++;
                    }
                    if (!repeatable) {
                        return;
                    }
                    break;
                }
            }
        }
    }

    private static int skipOptions(List<String> a, int from, int end, Set<String> valueOptions) {
        int k = from;
        while (k < end) {
            String o = a.get(k);
            if (o.equals("--")) {
                return k + 1;
            }
            if (!o.startsWith("-") || o.length() == 1) {
                return k;
            }
            k += valueOptions.contains(o) ? 2 : 1;
        }
        return k;
    }

    private static void addIf(List<Code> out, int index, int end, String interpreter) {
        if (index < end) {
            out.add(new Code(index, interpreter));
        }
    }

    /** The program's base name, lower-case, without a version ({@code /usr/bin/python3.11} -> {@code python3.11}). */
    private static String program(String arg) {
        String name = arg.substring(arg.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return name.endsWith(".exe") ? name.substring(0, name.length() - 4) : name;
    }

    private static String family(String prog) {
        if (SHELLS.contains(prog)) {
            return "shell";
        }
        String base = prog.replaceAll("[0-9.]+$", "");
        return switch (base) {
            case "python", "pypy", "python-" -> "python";
            case "perl" -> "perl";
            case "ruby", "jruby" -> "ruby";
            case "node", "nodejs", "bun" -> "node";
            case "php", "php-cli" -> "php";
            case "awk", "gawk", "mawk", "nawk" -> "awk";
            case "sed", "gsed" -> "sed";
            case "osascript" -> "osascript";
            case "lua", "luajit" -> "lua";
            case "rscript" -> "rscript";
            case "pwsh", "powershell" -> "pwsh";
            case "cmd" -> "cmd";
            default -> "";
        };
    }
}
