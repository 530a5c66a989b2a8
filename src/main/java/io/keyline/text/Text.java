package io.keyline.text;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * Every word an operator reads, in their language: the console's and the command line's human output come
 * from resource bundles in {@code io/keyline/text/}, one per area: a key's first word names its bundle
 * ({@code ui.inbox.title} is in {@code ui.properties}, its Chinese in {@code ui_zh_CN.properties}; areas
 * {@code ui}, {@code cli}, {@code core} and {@code common}). Machine output (JSON, the run log's keys, job
 * files) never comes from them.
 *
 * <p>The language is {@code KEYLINE_LANG} ({@code en}, {@code zh}, {@code zh-CN}), else the system's locale
 * (Chinese for any {@code zh} locale, else English); the console can switch it ({@link #use}). Every message
 * is a {@link MessageFormat} pattern ({@code {0}} for an argument, {@code ''} for an apostrophe), formatted for
 * the language in use.
 */
public final class Text {

    /** The bundles' package. */
    public static final String BUNDLES = "io.keyline.text.";
    /** The areas, one bundle each. */
    public static final java.util.List<String> AREAS = java.util.List.of("common", "core", "cli", "ui");
    /** English, the bundle's default. */
    public static final Locale ENGLISH = Locale.ENGLISH;
    /** Simplified Chinese. */
    public static final Locale CHINESE = Locale.SIMPLIFIED_CHINESE;

    private static volatile Locale locale = initial(System.getenv("KEYLINE_LANG"), Locale.getDefault());
    private static final java.util.Map<String, ResourceBundle> BUNDLES_IN_USE =
            new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * The patterns parsed so far, by language and key (the bundles hold a few hundred): parsing one for every
     * message took a fiftieth of the engine's time, as much as formatting it.
     */
    private static final java.util.Map<String, MessageFormat> PARSED = new java.util.concurrent.ConcurrentHashMap<>();

    private Text() {
    }

    /**
     * The language a {@code KEYLINE_LANG} value and the system's locale choose: Chinese or English.
     *
     * @param lang   {@code KEYLINE_LANG}, or {@code null}
     * @param system the system's locale
     */
    public static Locale initial(String lang, Locale system) {
        String l = lang == null || lang.isBlank() ? system.getLanguage() : lang.strip().toLowerCase(Locale.ROOT);
        return l.startsWith("zh") ? CHINESE : ENGLISH;
    }

    /** The language in use. */
    public static Locale locale() {
        return locale;
    }

    /** Whether the language in use is Chinese. */
    public static boolean chinese() {
        return CHINESE.equals(locale);
    }

    /** Switches the language (the console's switch; tests). */
    public static void use(Locale l) {
        locale = CHINESE.getLanguage().equals(l.getLanguage()) ? CHINESE : ENGLISH;
        BUNDLES_IN_USE.clear();
    }

    /** The bundle of {@code area} in the language in use. */
    public static ResourceBundle bundle(String area) {
        Locale l = bundleLocale();
        return BUNDLES_IN_USE.computeIfAbsent(area + "/" + l, k -> ResourceBundle.getBundle(BUNDLES + area, l,
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES)));
    }

    private static String area(String key) {
        int dot = key.indexOf('.');
        return dot < 0 ? "common" : key.substring(0, dot);
    }

    private static Locale bundleLocale() {
        return chinese() ? CHINESE : Locale.ROOT;
    }

    /**
     * The message {@code key} in the language in use, with {@code args} put in. A key the bundle lacks is
     * a defect the bundle tests catch; at run time it shows as the key itself rather than failing.
     */
    public static String t(String key, Object... args) {
        return in(locale, key, args);
    }

    /**
     * The message {@code key} in {@code language} (Chinese or English) whatever the language in use: the English
     * words of a {@link Said} that machine output (JSON) keeps.
     */
    public static String in(Locale language, String key, Object... args) {
        boolean zh = CHINESE.getLanguage().equals(language.getLanguage());
        String pattern;
        try {
            pattern = (zh == chinese() ? bundle(area(key)) : ResourceBundle.getBundle(BUNDLES + area(key),
                    zh ? CHINESE : Locale.ROOT, ResourceBundle.Control.getNoFallbackControl(
                            ResourceBundle.Control.FORMAT_PROPERTIES))).getString(key);
        } catch (MissingResourceException | IllegalArgumentException e) {
            return key;
        }
        String p = pattern;
        MessageFormat parsed = PARSED.computeIfAbsent((zh ? "zh " : "en ") + key,
                k -> new MessageFormat(p, zh ? CHINESE : ENGLISH));
        // a MessageFormat is not made for threads: one formats with it at a time
        synchronized (parsed) {
            return parsed.format(args);
        }
    }

    /**
     * How many terminal columns {@code s} takes: a Chinese character (and the other wide characters of East Asian
     * scripts, full-width punctuation) takes two, so that a Chinese table lines up.
     */
    public static int columns(String s) {
        int w = s.length();
        for (int i = 0; i < s.length(); i++) {
            if (wide(s.charAt(i))) {
                w++;
            }
        }
        return w;
    }

    private static boolean wide(char c) {
        return c >= '\u1100' && c <= '\u115f' || c >= '\u2e80' && c <= '\ua4cf' && c != '\u303f'
                || c >= '\uac00' && c <= '\ud7a3' || c >= '\uf900' && c <= '\ufaff'
                || c >= '\ufe30' && c <= '\ufe4f' || c >= '\uff00' && c <= '\uff60'
                || c >= '\uffe0' && c <= '\uffe6';
    }

    /** Whether the bundle has {@code key} (for texts chosen by a value, e.g. {@code state.DONE}). */
    public static boolean has(String key) {
        return AREAS.contains(area(key)) && bundle(area(key)).containsKey(key);
    }
}
