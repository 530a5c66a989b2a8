package io.keyline.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The English messages of parts of the bundles that read differently in Chinese, to find on a screen shown in
 * Chinese: a text that reads as a whole message (its arguments anything), or that holds one of its pieces of two
 * words or more (the words between its arguments). A single English word inside a longer text is not counted:
 * what the screens show as it is stored (a key's message, a step's answer) shares words such as "step" and
 * "probe" with the bundles.
 */
public final class EnglishMessages {

    private EnglishMessages() {
    }

    /** An English message, in one of its wordings. */
    public record Message(String key, String english, Pattern whole, List<Pattern> pieces) {
        public boolean shownIn(String text) {
            return whole.matcher(text).matches() || pieces.stream().anyMatch(p -> p.matcher(text).find());
        }
    }

    /** The texts of {@code texts} that show an English message: "text ⊃ key: message". */
    public static List<String> in(List<String> texts, List<Message> messages) {
        List<String> found = new ArrayList<>();
        for (String t : texts) {
            for (Message m : messages) {
                if (m.shownIn(t)) {
                    found.add(t + " ⊃ " + m.key() + ": " + m.english());
                }
            }
        }
        return found;
    }

    /**
     * The English messages whose keys start with one of {@code prefixes} (of any bundle: {@code ui.plan.},
     * {@code core.}) and read differently in Chinese, in each of their wordings.
     */
    public static List<Message> of(List<String> prefixes) throws IOException {
        List<Message> out = new ArrayList<>();
        for (String area : List.of("common", "core", "ui", "cli")) {
            if (prefixes.stream().noneMatch(p -> p.startsWith(area + "."))) {
                continue;
            }
            Properties en = load(area + ".properties");
            Properties zh = load(area + "_zh_CN.properties");
            for (String key : en.stringPropertyNames()) {
                String e = en.getProperty(key);
                if (prefixes.stream().noneMatch(key::startsWith) || e.equals(zh.getProperty(key))) {
                    continue;
                }
                for (String wording : wordings(e.replace("''", "'"))) {
                    String[] parts = wording.split("\\{(?:[^{}]|\\{[^{}]*\\})*\\}", -1);
                    StringBuilder whole = new StringBuilder();
                    List<Pattern> pieces = new ArrayList<>();
                    for (int i = 0; i < parts.length; i++) {
                        whole.append(i == 0 ? "" : "(?s).*").append(Pattern.quote(parts[i]));
                        String p = parts[i].strip();
                        boolean words = p.matches("(?s).*\\p{L}\\s+\\p{L}.*");
                        if (words && p.codePoints().filter(Character::isLetter).count() > 3) {
                            pieces.add(Pattern.compile("(?<![\\p{L}\\p{N}_-])" + Pattern.quote(p)
                                    + "(?![\\p{L}\\p{N}_-])"));
                        }
                    }
                    if (wording.replaceAll("\\{(?:[^{}]|\\{[^{}]*\\})*\\}", "").codePoints()
                            .filter(Character::isLetter).count() > 3) {
                        out.add(new Message(key, wording, Pattern.compile(whole.toString()), pieces));
                    }
                }
            }
        }
        return out;
    }

    /** A message with its count's choice spelled out: one wording per choice ("1 event", "{0} events"). */
    public static List<String> wordings(String message) {
        java.util.regex.Matcher m = Pattern.compile("\\{\\d+,choice,").matcher(message);
        if (!m.find()) {
            return List.of(message);
        }
        int depth = 0;
        int end = m.start();
        for (; end < message.length(); end++) {
            char c = message.charAt(end);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0) {
                break;
            }
        }
        List<String> out = new ArrayList<>();
        String inner = message.substring(m.end(), end);
        int from = 0;
        depth = 0;
        for (int i = 0; i <= inner.length(); i++) {
            char c = i < inner.length() ? inner.charAt(i) : '|';
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (c == '|' && depth == 0) {
                String choice = inner.substring(from, i).replaceFirst("^[^#<]*[#<]", "");
                out.addAll(wordings(message.substring(0, m.start()) + choice + message.substring(end + 1)));
                from = i + 1;
            }
        }
        return out;
    }

    /** A bundle file of {@code io/keyline/text/} as it is on the class path. */
    public static Properties load(String name) throws IOException {
        Properties p = new Properties();
        try (InputStream in = EnglishMessages.class.getResourceAsStream("/io/keyline/text/" + name)) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return p;
    }
}
