package io.keyline.core;

import io.keyline.domain.KeyState;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A dry run: what a run would do for each targeted key. Its id hashes the job file and the
 * state of its keys; {@code apply} refuses a plan whose id no longer matches.
 *
 * @param planId    16 hex chars
 * @param job       job name
 * @param createdAt when the plan was made
 * @param paused    the job's pause reason, or {@code null}
 * @param keys      per key, in target order
 */
public record Plan(String planId, String job, Instant createdAt, String paused, List<KeyPlan> keys) {

    /**
     * The planned action for one key.
     *
     * @param key      the key
     * @param state    its current state ({@code PENDING} for a key never seen)
     * @param action   {@code skip (done)}, {@code run a,b}, {@code resume at b}, {@code wait until T},
     *                 {@code blocked: credential X}, {@code needs confirmation: b}, …
     * @param steps    steps the run would execute (in order)
     * @param requests the exact requests of its http steps (secrets masked)
     */
    public record KeyPlan(String key, KeyState state, String action, List<String> steps, List<RequestPreview> requests) {
        public boolean runs() {
            return !steps.isEmpty();
        }
    }

    /**
     * The request an http step would send.
     *
     * @param step       step id
     * @param method     method
     * @param url        URL (rendered)
     * @param headers    headers with credential values masked
     * @param bodyBytes  body size, or {@code null} when it is not known yet
     * @param bodySha256 body hash, or {@code null}
     * @param bodySource {@code inline}, {@code file …} or {@code none}
     * @param note       why something is not known yet (an earlier step produces it), or {@code null}
     */
    public record RequestPreview(String step, String method, String url, Map<String, String> headers, Long bodyBytes,
                                 String bodySha256, String bodySource, String note) {
    }
}
