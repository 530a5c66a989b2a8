package io.keyline.core.jobfile;

import io.keyline.domain.JobDefinition;
import io.keyline.text.Said;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Loads job files: one JSON job per {@code *.json} file. A file that fails validation
 * is rejected as a whole with every error found, each positioned as {@code file:line:column}.
 */
public final class JobFileLoader {

    private JobFileLoader() {
    }

    /**
     * The outcome of loading one file: a job, or the errors that rejected it.
     *
     * @param job    the job, or {@code null} when rejected
     * @param errors   the errors, sorted by line and column; empty when the job loaded
     * @param warnings what may go wrong with a job that loaded (a rule that may retry an ended login), sorted by
     *                 line and column
     */
    public record Result(JobDefinition job, List<JobFileError> errors, List<JobFileError> warnings) {
        public Result {
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
        }

        public Result(JobDefinition job, List<JobFileError> errors) {
            this(job, errors, List.of());
        }
    }

    /**
     * Loads every {@code *.json} file directly in {@code folder}, in file-name order. Rejected
     * files are reported and skipped; a job whose name an earlier file already defines is rejected.
     */
    public static JobCatalog loadFolder(Path folder) {
        if (!Files.isDirectory(folder)) {
            return new JobCatalog(List.of(), List.of(new JobFileError(folder, 1, 1, Said.of(Files.exists(folder)
                    ? "core.jobfile.folderNotAFolder" : "core.jobfile.noFolder", String.valueOf(folder)))));
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(folder)) {
            // notify.json lives next to the jobs but is not a job file
            files = listing.filter(f -> f.getFileName().toString().endsWith(".json") && Files.isRegularFile(f)
                            && !f.getFileName().toString().equals(io.keyline.core.jobfile.NotifyConfig.FILE_NAME))
                    .sorted().toList();
        } catch (IOException e) {
            return new JobCatalog(List.of(), List.of(new JobFileError(folder, 1, 1,
                    Said.of("core.jobfile.cannotList", String.valueOf(e)))));
        }
        List<JobDefinition> jobs = new ArrayList<>();
        List<JobFileError> errors = new ArrayList<>();
        List<JobFileError> warnings = new ArrayList<>();
        Map<String, Path> definedIn = new HashMap<>();
        for (Path file : files) {
            Loaded loaded = read(file);
            JobDefinition job = loaded.result().job();
            if (job == null) {
                errors.addAll(loaded.result().errors());
            } else if (definedIn.containsKey(job.name())) {
                errors.add(new JobFileError(file, loaded.name().line(), loaded.name().column(), Said.of(
                        "core.jobfile.duplicateJob", "\"" + job.name() + "\"",
                        String.valueOf(definedIn.get(job.name()).getFileName()))));
            } else {
                definedIn.put(job.name(), file);
                jobs.add(job);
                warnings.addAll(loaded.result().warnings());
            }
        }
        return new JobCatalog(jobs, errors, warnings);
    }

    /** Loads and validates one job file. */
    public static Result loadFile(Path file) {
        return read(file).result();
    }

    /** A result and the position of the job's name value. */
    private record Loaded(Result result, SourceNode name) {
    }

    /** A job file is a few KiB of JSON; anything larger than this is refused unread. */
    public static final int MAX_BYTES = 1024 * 1024;

    private static Loaded read(Path file) {
        byte[] bytes;
        String text;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                return rejected(new JobFileError(file, 1, 1, Said.of("core.jobfile.tooLarge")));
            }
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return rejected(new JobFileError(file, 1, 1, Said.of("core.jobfile.notUtf8")));
        } catch (NoSuchFileException e) {
            return rejected(new JobFileError(file, 1, 1, Said.of("core.jobfile.noFile")));
        } catch (java.nio.file.AccessDeniedException e) {
            return rejected(new JobFileError(file, 1, 1, Said.of("core.jobfile.permissionDenied")));
        } catch (IOException e) {
            return rejected(new JobFileError(file, 1, 1, Said.of("core.jobfile.cannotRead", String.valueOf(e.getMessage()))));
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        Problems problems = new Problems(file, text);
        SourceNode root = SourceParser.parse(text, problems);
        JobDefinition job = root == null ? null : JobReader.read(root, problems, file, sha256(bytes));
        SourceNode.Field name = root instanceof SourceNode.Obj obj ? obj.field("name") : null;
        return new Loaded(new Result(job, problems.sorted(), job == null ? List.of() : problems.warnings()),
                name == null ? null : name.value());
    }

    private static Loaded rejected(JobFileError error) {
        return new Loaded(new Result(null, List.of(error)), null);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
