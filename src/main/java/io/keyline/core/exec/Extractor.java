package io.keyline.core.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.jobfile.CanonicalJson;
import io.keyline.core.match.Patterns;
import io.keyline.credentials.SetCookie;
import io.keyline.domain.Extraction;
import io.keyline.text.Said;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes the values an http step's or probe's {@code extract} names from one answer (that passed the response
 * rules): HTML through jsoup (parsed once, only when a rule needs it), JSON by pointer, a header, a cookie the
 * answer sets, a regex group (RE2/J, linear time). An empty value counts as not found. Each rule ends by the
 * answer's deadline.
 */
final class Extractor {

    private Extractor() {
    }

    /**
     * What the rules found.
     *
     * @param values      the values found, by output name, in rule order
     * @param missingName the output of the first rule that is not optional and found nothing, or {@code null}
     * @param missingRule that rule as the job file reads ({@code css "#id" text}), or {@code null}
     */
    record Result(Map<String, String> values, String missingName, Said missingRule) {
    }

    static Result extract(Map<String, Extraction> rules, Conditions.Answer answer, List<String> setCookies, URI base) {
        Map<String, String> values = new LinkedHashMap<>();
        Document html = null;
        for (Map.Entry<String, Extraction> e : rules.entrySet()) {
            answer.deadline().check();
            Extraction rule = e.getValue();
            String value;
            if (rule instanceof Extraction.Css css) {
                if (html == null) {
                    html = Jsoup.parse(answer.text(), base.toString());
                    answer.deadline().check();
                }
                Element el = html.selectFirst(css.selector());
                value = el == null ? null : css.attribute() == null ? el.text()
                        : el.hasAttr(css.attribute()) ? el.attr(css.attribute()) : null;
            } else if (rule instanceof Extraction.Json json) {
                value = json(answer.json(), json.pointer());
            } else if (rule instanceof Extraction.Header header) {
                List<String> vs = answer.header(header.name());
                value = vs.isEmpty() ? null : vs.get(0);
            } else if (rule instanceof Extraction.Cookie cookie) {
                value = null;
                for (String h : setCookies) {
                    SetCookie sc = SetCookie.parse(h);
                    if (sc != null && sc.name().equals(cookie.name())) {
                        value = sc.value();
                    }
                }
            } else {
                Extraction.Regex regex = (Extraction.Regex) rule;
                value = Patterns.group(regex.pattern(), regex.group(), answer.text(), answer.deadline());
            }
            if (value == null || value.isEmpty()) {
                if (!rule.optional()) {
                    // a JSON rule on an answer that is no JSON (an HTML error page) says so, not only "found none"
                    Said described = rule instanceof Extraction.Json && answer.json() == null
                            ? Said.of("core.exec.ruleNotJson", rule.describe()) : Said.plain(rule.describe());
                    return new Result(values, e.getKey(), described);
                }
                continue;
            }
            values.put(e.getKey(), value);
        }
        return new Result(values, null, null);
    }

    /** A string as it is; a number, boolean, object or array as its JSON text; null or missing as nothing. */
    private static String json(JsonNode root, String pointer) {
        if (root == null) {
            return null;
        }
        JsonNode at = root.at(pointer);
        if (at.isMissingNode() || at.isNull()) {
            return null;
        }
        if (at.isTextual()) {
            return at.textValue();
        }
        if (at.isNumber()) {
            return CanonicalJson.number(at.decimalValue());
        }
        return at.isBoolean() ? String.valueOf(at.booleanValue()) : at.toString();
    }
}
