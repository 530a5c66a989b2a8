package io.keyline.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.keyline.core.json.Json;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Output helpers: aligned tables, local times, and JSON with every field present. */
final class Text {
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    /**
     * The mapper for {@code --json}, in a holder: Jackson and its time module are some 450 classes, and a
     * plain-text command (cron's {@code status}) should not load them before it prints.
     */
    static final class Mapper {
        static final ObjectMapper JSON = Json.MAPPER.copy().setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .enable(SerializationFeature.INDENT_OUTPUT);

        static {
            // Jackson escapes C0 controls; DEL, C1 and the bidi controls too, so --json output holds none raw
            JSON.getFactory().setCharacterEscapes(Json.terminalSafeEscapes());
        }

        private Mapper() {
        }
    }

    private Text() {
    }

    static String time(Instant t) {
        if (t == null) {
            return "-";
        }
        // by hand: DateTimeFormatter took about a third of building a 10,000-row status table
        java.time.LocalDateTime d = java.time.LocalDateTime.ofEpochSecond(t.getEpochSecond(), 0,
                LOCAL.getZone().getRules().getOffset(t));
        int year = d.getYear();
        if (year < 1000 || year > 9999) {
            return LOCAL.format(t);
        }
        char[] c = new char[19];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, d.getMonthValue(), 2);
        c[7] = '-';
        digits(c, 8, d.getDayOfMonth(), 2);
        c[10] = ' ';
        digits(c, 11, d.getHour(), 2);
        c[13] = ':';
        digits(c, 14, d.getMinute(), 2);
        c[16] = ':';
        digits(c, 17, d.getSecond(), 2);
        return new String(c);
    }

    private static void digits(char[] c, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    static String orDash(Object o) {
        return o == null ? "-" : o.toString();
    }

    static void json(PrintStream out, Object value) {
        try {
            out.println(Mapper.JSON.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String clip(String s, int max) {
        if (s == null) {
            return "-";
        }
        String one = s.replace('\n', ' ');
        if (one.length() <= max) {
            return one;
        }
        // at the end of a word when one ends in the last fifth, so that no command or name reads cut in half
        int space = one.lastIndexOf(' ', max - 1);
        return one.substring(0, space > max * 4 / 5 ? space : max - 1) + "…";
    }

    /** A left-aligned text table; the last column is not padded. */
    static final class Table {
        private final List<String[]> rows = new ArrayList<>();

        /** Every cell, header included, is escaped ({@link io.keyline.domain.Printable#line}) once, here. */
        Table(String... header) {
            String[] h = new String[header.length];
            for (int i = 0; i < header.length; i++) {
                h[i] = io.keyline.domain.Printable.line(header[i]);
            }
            rows.add(h);
        }

        Table row(Object... cells) {
            String[] r = new String[cells.length];
            for (int i = 0; i < cells.length; i++) {
                r[i] = io.keyline.domain.Printable.line(orDash(cells[i]));
            }
            rows.add(r);
            return this;
        }

        int size() {
            return rows.size() - 1;
        }

        /**
         * How many terminal columns {@code s} takes: a Chinese character (and the other wide characters of East
         * Asian scripts, full-width punctuation) takes two, so that a Chinese table lines up.
         */
        static int width(String s) {
            return io.keyline.text.Text.columns(s);
        }

        void print(PrintStream out) {
            int cols = rows.get(0).length;
            int[] w = new int[cols];
            for (String[] r : rows) {
                for (int i = 0; i < cols; i++) {
                    w[i] = Math.max(w[i], width(r[i]));
                }
            }
            // one write per block of rows, not per row: the stream flushes on every println, and 10,000
            // rows were 10,000 writes to the terminal or file
            StringBuilder sb = new StringBuilder(1 << 16);
            for (String[] r : rows) {
                int start = sb.length();
                for (int i = 0; i < cols; i++) {
                    sb.append(r[i]);
                    if (i < cols - 1) {
                        sb.append(" ".repeat(w[i] - width(r[i]) + 2));
                    }
                }
                int end = sb.length();
                while (end > start && sb.charAt(end - 1) == ' ') {
                    end--;
                }
                sb.setLength(end);
                sb.append(System.lineSeparator());
                if (sb.length() >= 1 << 16) {
                    TerminalOut.printEscaped(out, sb.toString());
                    sb.setLength(0);
                }
            }
            TerminalOut.printEscaped(out, sb.toString());
            out.flush();
        }
    }
}
