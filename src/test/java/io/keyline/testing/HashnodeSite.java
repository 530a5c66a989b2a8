package io.keyline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.testing.FaultServer.Reply;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hashnode's GraphQL API (Apollo Server) on loopback for one publication, {@value #HOST}, with the id
 * {@value #PUBLICATION_ID}, as Hashnode's own agent skill (github.com/Hashnode/gql-skill) describes it:
 * <ul>
 * <li>One endpoint: {@code POST /} with a JSON body {@code {"query": "…", "variables": {…}}}. It is not a GraphQL
 * engine: it tells the two operations a publishing job sends by their root fields, and answers any other root field
 * as a GraphQL server answers a field its schema lacks: {@code 400} with {@code GRAPHQL_VALIDATION_FAILED}
 * ({@code Cannot query field "x" on type "Query".}).</li>
 * <li>A Personal Access Token in {@code Authorization}, the {@code Bearer } prefix optional and case-insensitive.
 * Every mutation and {@code me} need one; a missing or invalid one is answered in a {@code 200} with
 * {@code {"errors": [{"message": …, "extensions": {"code": "UNAUTHENTICATED"}}]}}. Public reads
 * ({@code publication}) need none and ignore one that is not valid.</li>
 * <li>{@code publication(id: …) { post(slug: …) { id slug url } }} answers the post, or {@code "post": null};
 * {@code me { id username }} the token's user.</li>
 * <li>{@code mutation … publishPost(input: $input) { post { id slug url } }} makes a post every time it is asked:
 * Hashnode publishes no idempotency contract, so a second call with the same slug makes a second post (its slug
 * gets a suffix, {@code daily-2026-12-06-1}; this suffix is assumed, not documented). Invalid input
 * (an empty title or content, more than 15 tags) is {@code BAD_USER_INPUT} in a {@code 200}; a publication that is
 * not on Pro is {@code FORBIDDEN} with "Publication does not have an active Pro plan. …", for the lookup too.</li>
 * </ul>
 * Switches: {@link #holdAfterPublish()} (the post is made, its answer waits for {@link #release()}),
 * {@link #resetAfterPublish()}, {@link #unavailableBeforeNextPublish()} (a 503 before anything is made),
 * {@link #revokeAll()}, {@link #notPro()}, {@link #publishByHand(String)}. {@link #posts(String)} counts the posts made
 * for a slug, {@link #publishRequests()} the requests to make one.
 */
public final class HashnodeSite implements AutoCloseable {

    public static final String HOST = "daily.hashnode.dev";
    public static final String PUBLICATION_ID = "65a1f0c5e4b0a1b2c3d4e5f6";
    public static final String USER_ID = "65a1efc2e4b0a1b2c3d4e5a1";
    public static final String PRO_MESSAGE = "Publication does not have an active Pro plan. Upgrade in your dashboard"
            + " to access this via the API.";

    /** One request as the server saw it: the operation it asked, by its root fields. */
    public record Seen(String method, String authorization, String operation, String body) {
    }

    /** A post of the publication: the slug it was asked for, and the one it got. */
    public record Post(String id, String askedSlug, String slug, String title, String content, Instant publishedAt) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PUBLICATION = Pattern.compile("\\bpublication\\s*\\(\\s*(id|host)\\s*:\\s*"
            + "(\\$\\w+|\"[^\"]*\")\\s*\\)");
    private static final Pattern POST_BY_SLUG = Pattern.compile("\\bpost\\s*\\(\\s*slug\\s*:\\s*(\\$\\w+|\"[^\"]*\")"
            + "\\s*\\)\\s*\\{([^}]*)}");
    private static final Pattern ME = Pattern.compile("(?<![\\w$])me\\s*\\{([^}]*)}");
    private static final Pattern PUBLISH = Pattern.compile("\\bpublishPost\\s*\\(\\s*input\\s*:\\s*\\$(\\w+)\\s*\\)");
    private static final Pattern ROOT = Pattern.compile("^\\s*(?:(query|mutation|subscription)\\b[^{]*)?\\{\\s*(\\w+)");

    private final SecureRandom random = new SecureRandom();
    private final FaultServer server;
    private final Clock clock;
    private final Set<String> tokens = ConcurrentHashMap.newKeySet();
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();
    private final List<Post> posts = Collections.synchronizedList(new ArrayList<>());
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean pro = true;
    private volatile boolean resetAfter;
    private volatile boolean unavailableBefore;
    private volatile boolean revokeAtPublish;
    private volatile CountDownLatch holdAfter;
    private volatile CountDownLatch reached = new CountDownLatch(1);

    /** @param clock the server's time */
    public HashnodeSite(Clock clock) throws IOException {
        this.clock = clock;
        server = new FaultServer(this::handle);
    }

    /** Where {@code https://gql-beta.hashnode.com} is. */
    public String base() {
        return server.base();
    }

    /** A Personal Access Token, as Account Settings → Developer makes it. */
    public String newToken() {
        byte[] b = new byte[18];
        random.nextBytes(b);
        String t = HexFormat.of().formatHex(b).substring(0, 8) + "-" + HexFormat.of().formatHex(b).substring(8, 12)
                + "-" + HexFormat.of().formatHex(b).substring(12, 16) + "-" + HexFormat.of().formatHex(b).substring(16, 20)
                + "-" + HexFormat.of().formatHex(b).substring(20, 32);
        tokens.add(t);
        return t;
    }

    /** The user revoked the tokens (or was deactivated, which Hashnode treats as unauthenticated). */
    public void revokeAll() {
        revoked.addAll(tokens);
    }

    /** The publication's Pro plan ended: writes and the publication lookup are refused FORBIDDEN. */
    public HashnodeSite notPro() {
        pro = false;
        return this;
    }

    /** The next post is made, then its answer waits until {@link #release()}. */
    public HashnodeSite holdAfterPublish() {
        reached = new CountDownLatch(1);
        holdAfter = new CountDownLatch(1);
        return this;
    }

    /** The next post is made, then the connection is reset instead of answered. */
    public HashnodeSite resetAfterPublish() {
        resetAfter = true;
        return this;
    }

    /** The tokens are revoked just as the next request to publish arrives (after its probe asked). */
    public HashnodeSite revokeAtNextPublish() {
        revokeAtPublish = true;
        return this;
    }

    /** The next request to publish meets a 503 from the front (nothing is made). */
    public HashnodeSite unavailableBeforeNextPublish() {
        unavailableBefore = true;
        return this;
    }

    public boolean awaitHeld(long seconds) throws InterruptedException {
        return reached.await(seconds, TimeUnit.SECONDS);
    }

    public void release() {
        CountDownLatch a = holdAfter;
        holdAfter = null;
        if (a != null) {
            a.countDown();
        }
    }

    /** A person publishes the article in Hashnode's editor, with that slug. */
    public Post publishByHand(String slug) {
        return store(slug, "Written by hand", "Written by hand.");
    }

    /** The posts made for {@code slug}: more than 1 is a double post. */
    public int posts(String slug) {
        synchronized (posts) {
            return (int) posts.stream().filter(p -> p.askedSlug().equals(slug)).count();
        }
    }

    public Post postBySlug(String slug) {
        synchronized (posts) {
            return posts.stream().filter(p -> p.slug().equals(slug)).findFirst().orElse(null);
        }
    }

    public List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /** The requests that asked to publish a post. */
    public long publishRequests() {
        return requests().stream().filter(q -> "publishPost".equals(q.operation())).count();
    }

    /** Every token the site gave: none may be shown. */
    public List<String> tokens() {
        return List.copyOf(tokens);
    }

    private Reply handle(FaultServer.Request req) {
        String auth = req.header("Authorization");
        if (!req.method().equals("POST")) {
            seen.add(new Seen(req.method(), auth, null, req.bodyText()));
            return respond(400, error("GET query missing.", "BAD_REQUEST"));
        }
        JsonNode body;
        try {
            body = JSON.readTree(req.bodyText());
        } catch (IOException e) {
            seen.add(new Seen(req.method(), auth, null, req.bodyText()));
            return respond(400, error("POST body sent invalid JSON.", "BAD_REQUEST"));
        }
        String query = body == null ? "" : body.path("query").asText("");
        JsonNode variables = body == null ? JSON.createObjectNode() : body.path("variables");
        Matcher root = ROOT.matcher(query.replaceAll("#[^\\n]*", ""));
        boolean parsed = root.find();
        String operation = parsed ? root.group(2) : null;
        seen.add(new Seen(req.method(), auth, operation, req.bodyText()));
        if (query.isBlank()) {
            return respond(400, error("GraphQL operations must contain a non-empty `query` or a `persistedQuery`"
                    + " extension.", "BAD_REQUEST"));
        }
        if (!parsed) {
            return respond(400, error("Syntax Error: Unexpected Name \"" + query.strip().split("\\s+")[0] + "\".",
                    "GRAPHQL_PARSE_FAILED"));
        }
        boolean known = validToken(auth);
        String kind = root.group(1) == null ? "query" : root.group(1);
        if (kind.equals("mutation") && PUBLISH.matcher(query).find()) {
            return publish(query, variables, known);
        }
        if (kind.equals("query") && (PUBLICATION.matcher(query).find() || ME.matcher(query).find())) {
            return lookup(query, variables, known);
        }
        String type = kind.equals("mutation") ? "Mutation" : kind.equals("subscription") ? "Subscription" : "Query";
        return respond(400, error("Cannot query field \"" + operation + "\" on type \"" + type + "\".",
                "GRAPHQL_VALIDATION_FAILED"));
    }

    private boolean validToken(String auth) {
        if (auth == null) {
            return false;
        }
        String t = auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).strip() : auth.strip();
        return tokens.contains(t) && !revoked.contains(t);
    }

    private Reply lookup(String query, JsonNode variables, boolean known) {
        ObjectNode out = JSON.createObjectNode();
        ObjectNode data = JSON.createObjectNode();
        ArrayNode errors = JSON.createArrayNode();
        Matcher me = ME.matcher(query);
        if (me.find()) {
            if (known) {
                ObjectNode user = data.putObject("me");
                if (me.group(1).contains("id")) {
                    user.put("id", USER_ID);
                }
                if (me.group(1).contains("username")) {
                    user.put("username", "keyline-bot");
                }
            } else {
                data.putNull("me");
                errors.add(errorNode("User is not authenticated", "UNAUTHENTICATED").set("path",
                        JSON.createArrayNode().add("me")));
            }
        }
        Matcher pub = PUBLICATION.matcher(query);
        if (pub.find()) {
            String which = pub.group(1);
            String value = argument(pub.group(2), variables);
            boolean ours = which.equals("id") ? PUBLICATION_ID.equals(value) : HOST.equals(value);
            if (!ours) {
                data.putNull("publication");
            } else if (!pro) {
                data.putNull("publication");
                errors.add(errorNode(PRO_MESSAGE, "FORBIDDEN").set("path", JSON.createArrayNode().add("publication")));
            } else {
                ObjectNode p = data.putObject("publication");
                p.put("id", PUBLICATION_ID);
                Matcher bySlug = POST_BY_SLUG.matcher(query);
                if (bySlug.find()) {
                    Post post = postBySlug(String.valueOf(argument(bySlug.group(1), variables)));
                    if (post == null) {
                        p.putNull("post");
                    } else {
                        p.set("post", render(post, bySlug.group(2)));
                    }
                }
            }
        }
        if (!errors.isEmpty()) {
            out.set("errors", errors);
        }
        out.set("data", data);
        return respond(200, out);
    }

    private Reply publish(String query, JsonNode variables, boolean valid) {
        boolean known = valid;
        if (revokeAtPublish) {
            revokeAtPublish = false;
            revokeAll();
            known = false;
        }
        if (!known) {
            return respond(200, error("User is not authenticated", "UNAUTHENTICATED", "publishPost"));
        }
        if (unavailableBefore) {
            unavailableBefore = false;
            Map<String, String> h = new LinkedHashMap<>();
            h.put("Content-Type", "text/html");
            h.put("Retry-After", "5");
            return new Reply.Respond(503, h, "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>");
        }
        if (!pro) {
            return respond(200, error(PRO_MESSAGE, "FORBIDDEN", "publishPost"));
        }
        Matcher m = PUBLISH.matcher(query);
        m.find();
        JsonNode input = variables.path(m.group(1));
        if (!input.isObject()) {
            return respond(400, error("Variable \"$" + m.group(1) + "\" of required type \"PublishPostInput!\" was"
                    + " not provided.", "BAD_USER_INPUT"));
        }
        if (!PUBLICATION_ID.equals(input.path("publicationId").asText())) {
            return respond(200, error("Publication not found", "NOT_FOUND", "publishPost"));
        }
        String title = input.path("title").asText("");
        String content = input.path("contentMarkdown").asText("");
        if (title.isBlank()) {
            return respond(200, error("Title is required", "BAD_USER_INPUT", "publishPost"));
        }
        if (content.isBlank()) {
            return respond(200, error("Content is required", "BAD_USER_INPUT", "publishPost"));
        }
        if (input.path("tags").size() > 15) {
            return respond(200, error("A post can have at most 15 tags", "BAD_USER_INPUT", "publishPost"));
        }
        String slug = input.path("slug").asText("");
        if (slug.isEmpty()) {
            slug = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        }
        Post post = store(slug, title, content);
        CountDownLatch after = holdAfter;
        if (after != null) {
            reached.countDown();
            await(after);
        }
        if (resetAfter) {
            resetAfter = false;
            return new Reply.Reset();
        }
        ObjectNode out = JSON.createObjectNode();
        Matcher selection = Pattern.compile("\\bpost\\s*\\{([^}]*)}").matcher(query);
        out.putObject("data").putObject("publishPost").set("post",
                render(post, selection.find() ? selection.group(1) : "id"));
        return respond(200, out);
    }

    private synchronized Post store(String askedSlug, String title, String content) {
        String slug = askedSlug;
        for (int n = 1; postBySlug(slug) != null; n++) {
            slug = askedSlug + "-" + n;
        }
        byte[] b = new byte[12];
        random.nextBytes(b);
        Post p = new Post(HexFormat.of().formatHex(b), askedSlug, slug, title, content, clock.instant());
        posts.add(p);
        return p;
    }

    private static String argument(String written, JsonNode variables) {
        if (written.startsWith("$")) {
            JsonNode v = variables.path(written.substring(1));
            return v.isTextual() ? v.asText() : null;
        }
        return written.substring(1, written.length() - 1);
    }

    private static ObjectNode render(Post p, String selection) {
        ObjectNode o = JSON.createObjectNode();
        for (String f : selection.trim().split("[\\s,]+")) {
            switch (f) {
                case "id" -> o.put("id", p.id());
                case "slug" -> o.put("slug", p.slug());
                case "url" -> o.put("url", "https://" + HOST + "/" + p.slug());
                case "title" -> o.put("title", p.title());
                case "publishedAt" -> o.put("publishedAt",
                        DateTimeFormatter.ISO_INSTANT.format(p.publishedAt().truncatedTo(ChronoUnit.MILLIS)));
                default -> { }
            }
        }
        return o;
    }

    private static ObjectNode errorNode(String message, String code) {
        ObjectNode e = JSON.createObjectNode().put("message", message);
        e.putObject("extensions").put("code", code);
        return e;
    }

    private static ObjectNode error(String message, String code) {
        ObjectNode out = JSON.createObjectNode();
        out.putArray("errors").add(errorNode(message, code));
        return out;
    }

    /** An error of a field: its path, and {@code "data": null} (publishPost's payload is non-null). */
    private static ObjectNode error(String message, String code, String field) {
        ObjectNode out = JSON.createObjectNode();
        ObjectNode e = errorNode(message, code);
        e.putArray("path").add(field);
        out.putArray("errors").add(e);
        out.putNull("data");
        return out;
    }

    private static Reply respond(int status, JsonNode body) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json; charset=utf-8");
        return new Reply.Respond(status, h, body.toString());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        release();
        server.close();
    }
}
