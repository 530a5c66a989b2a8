package io.keyline.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;
import io.keyline.text.Said;

/**
 * Files that belong to the operator alone: folders 0700, files 0600, whatever the umask.
 *
 * <p>Java cannot set a process umask, so every file is either created with its mode as an
 * attribute and then set explicitly (the umask can only take bits away, never add the owner's), or,
 * when a library creates it (H2's {@code keyline.mv.db}, {@code keyline.lock.db},
 * {@code keyline.trace.db}), tightened right afterwards by {@link #tighten}. The folder's own mode
 * is what keeps other users out in between: nobody else can look inside a 0700 folder.
 *
 * <p>On a file system without POSIX permissions (Windows) every method only creates.
 */
public final class PrivateFiles {

    /** rwx------ */
    public static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
    /** rw------- */
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private static final Set<PosixFilePermission> WRITE_BY_OTHERS =
            EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    private static final Set<PosixFilePermission> ANY_BY_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private PrivateFiles() {
    }

    /**
     * A folder that others can write, or that belongs to someone else: it cannot be trusted. The message is said in
     * the language in use ({@link #getMessage}), in English for logs.
     */
    public static final class NotPrivateException extends IOException {
        private final transient Said said;

        public NotPrivateException(Said said) {
            super(said.english());
            this.said = said;
        }

        @Override
        public String getMessage() {
            return said == null ? super.getMessage() : said.text();
        }

        /** What is wrong, as words. */
        public Said said() {
            return said == null ? Said.plain(super.getMessage()) : said;
        }
    }

    /**
     * Makes {@code dir} a private folder: creates it 0700 (its missing parents with the usual mode),
     * or checks an existing one. An existing folder that group or others can write, or that another
     * user owns, is refused (its files may have been replaced: a person must look at it); one that
     * they can only read or enter is tightened to 0700 (its files: {@link #tightenContents}).
     *
     * @throws NotPrivateException with a message that says how to fix it
     * @throws IOException         when it cannot be created or its mode cannot be read or set
     */
    public static void ensurePrivateDirectory(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(dir)) {
            Path parent = dir.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                Files.createDirectory(dir, attribute(parent, DIR));
            } catch (FileAlreadyExistsException raced) {
                // another process created it a moment ago: check it like any existing folder
            }
        }
        if (!Files.isDirectory(dir)) {
            throw new IOException(Said.of("core.store.files.notAFolder", dir.toString()).text());
        }
        if (!posix(dir)) {
            return;
        }
        PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class);
        UserPrincipal me = currentUser(dir);
        if (me != null && !attrs.owner().equals(me)) {
            throw new NotPrivateException(Said.of("core.store.files.notYours", dir.toString(),
                    attrs.owner().getName(), me.getName()));
        }
        Set<PosixFilePermission> mode = attrs.permissions();
        if (mode.stream().anyMatch(WRITE_BY_OTHERS::contains)) {
            throw new NotPrivateException(Said.of(mode.contains(PosixFilePermission.OTHERS_WRITE)
                    ? "core.store.files.writableByOthers" : "core.store.files.writableByGroup", dir.toString(),
                    octal(mode)));
        }
        if (!mode.equals(DIR)) {
            Files.setPosixFilePermissions(dir, DIR);
        }
    }

    /**
     * Sets every file directly in {@code dir} (and, {@code depth} levels down, in its folders) to 0600
     * and every folder to 0700 where group or others had any access. Symbolic links are left alone
     * (their targets are not the state's). The files named in {@code keys} are left alone too: a key file
     * that others could read may have been read, which an owner must learn about (its reader refuses
     * it with a chmod hint) rather than have it quietly fixed.
     */
    public static void tightenContents(Path dir, int depth, Set<String> keys) throws IOException {
        if (!posix(dir)) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (keys.contains(p.getFileName().toString())) {
                    continue;
                }
                PosixFileAttributes a;
                try {
                    a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (java.nio.file.NoSuchFileException gone) {
                    continue; // a temporary file H2 removed meanwhile
                }
                if (a.isSymbolicLink()) {
                    continue;
                }
                if (a.isDirectory()) {
                    if (a.permissions().stream().anyMatch(ANY_BY_OTHERS::contains)) {
                        Files.setPosixFilePermissions(p, DIR);
                    }
                    if (depth > 0) {
                        tightenContents(p, depth - 1, keys);
                    }
                } else if (a.permissions().stream().anyMatch(ANY_BY_OTHERS::contains)) {
                    try {
                        Files.setPosixFilePermissions(p, FILE);
                    } catch (java.nio.file.NoSuchFileException gone) {
                        // removed meanwhile
                    }
                }
            }
        }
    }

    /** Sets one existing file to 0600 (nothing on a non-POSIX file system). */
    public static void tighten(Path file) throws IOException {
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(file) && posix(file)) {
            Files.setPosixFilePermissions(file, FILE);
        }
    }

    /** Creates {@code dir} (0700) and its missing parents inside an existing private folder. */
    public static Path createDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            createDirectories(parent);
        }
        try {
            Files.createDirectory(dir, attribute(parent, DIR));
        } catch (FileAlreadyExistsException raced) {
            return dir;
        }
        if (posix(dir)) {
            Files.setPosixFilePermissions(dir, DIR);
        }
        return dir;
    }

    /** Opens a channel on {@code file}, creating it 0600 if needed (an existing file is tightened too). */
    public static FileChannel open(Path file, StandardOpenOption... options) throws IOException {
        Set<StandardOpenOption> set = EnumSet.noneOf(StandardOpenOption.class);
        set.addAll(java.util.Arrays.asList(options));
        FileChannel ch = FileChannel.open(file, set, attribute(file.toAbsolutePath().getParent(), FILE));
        try {
            tighten(file);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /**
     * Replaces {@code file} with {@code bytes} so that a crash leaves the old content or the new, never
     * a part: a temporary file (0600) in the same folder, forced to disk, moved over it, folder synced.
     */
    public static void writeAtomically(Path file, byte[] bytes) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, "." + file.getFileName() + "-", ".tmp", attribute(dir, FILE));
        try {
            if (posix(temp)) {
                Files.setPosixFilePermissions(temp, FILE);
            }
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
        syncFolder(dir);
    }

    /** Forces a folder's entries to disk (a rename is durable only then); ignored where unsupported. */
    static void syncFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // not every platform can open a folder; the rename itself is atomic
        }
    }

    /** The mode as four octal digits, e.g. {@code 0755}. */
    public static String octal(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission permission : permissions) {
            mode |= 1 << (8 - permission.ordinal());
        }
        return String.format("%04o", mode);
    }

    /** Whether the file store holding {@code path} (or its nearest existing parent) has POSIX modes. */
    static boolean posix(Path path) throws IOException {
        Path p = path.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p != null && Files.getFileStore(p).supportsFileAttributeView(PosixFileAttributeView.class);
    }

    private static FileAttribute<?>[] attribute(Path near, Set<PosixFilePermission> mode) throws IOException {
        return near != null && posix(near) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)}
                : new FileAttribute<?>[0];
    }

    private static UserPrincipal currentUser(Path near) {
        try {
            return near.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException e) {
            return null; // no way to tell: the mode check still applies
        }
    }
}
