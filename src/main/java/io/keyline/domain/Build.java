package io.keyline.domain;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * This build of Keyline: its version, and the {@code User-Agent} its requests carry.
 *
 * <p>The version is Maven's project version, written into {@code io/keyline/build.properties} when Maven builds the
 * classes (so it is the same whether Keyline runs from its jar or from its classes); the jar's manifest carries it
 * too, as {@code Implementation-Version}. Classes compiled without Maven have neither: then the version is
 * {@value #UNKNOWN}.
 */
public final class Build {

    /** The version of classes built without Maven. */
    public static final String UNKNOWN = "dev";

    private static final String VERSION = read();

    private Build() {
    }

    /** The version of this build, e.g. {@code 0.1.0} or {@code 0.1.0-SNAPSHOT}; {@value #UNKNOWN} when not known. */
    public static String version() {
        return VERSION;
    }

    /** {@code Keyline 0.1.0}: the product and its version, as {@code keyline --version} prints them. */
    public static String nameAndVersion() {
        return "Keyline " + VERSION;
    }

    /**
     * The {@code User-Agent} of every request a job does not give its own: the product and its version, a comment
     * that says what sends it, then the HTTP library and its version, the form sites' bot policies ask for
     * ({@code Keyline/0.1.0 (unattended job runner) Java-http-client/17.0.12}). A site that wants a contact in it
     * (Wikimedia's wikis do) gets one from the job's own {@code User-Agent} header, which replaces this one.
     */
    public static String userAgent() {
        return "Keyline/" + VERSION + " (unattended job runner) Java-http-client/"
                + System.getProperty("java.version", "17");
    }

    private static String read() {
        String fromManifest = Build.class.getPackage().getImplementationVersion();
        if (usable(fromManifest)) {
            return fromManifest;
        }
        try (InputStream in = Build.class.getResourceAsStream("/io/keyline/build.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (usable(v)) {
                    return v.strip();
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // unreadable: the version is not known
        }
        return UNKNOWN;
    }

    /** A version a header can carry as one token: not empty, not an unfiltered {@code ${…}}, no space or control. */
    private static boolean usable(String v) {
        return v != null && !v.isBlank() && v.strip().chars().allMatch(c -> c > ' ' && c < 127 && c != '$'
                && c != '{' && c != '}' && c != '(' && c != ')' && c != '/');
    }
}
