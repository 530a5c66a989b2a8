package io.keyline.core;

import java.time.Instant;
import java.util.Collection;

/** The leases processes hold on running keys, and the registry that says whether a holder is alive. */
public interface Leases {

    /**
     * Extends the leases of the keys {@code owner} holds (the per-process heartbeat: one call for all of
     * them), without changing their versions.
     *
     * @return how many were renewed (a key another process took over is not)
     */
    int renewLeases(String owner, Collection<LeaseKeeper.Held> keys, Instant until);

    /** The processes registered on this state, and the rule whether a key's holder is alive. */
    default WorkerRegistry workers() {
        return WorkerRegistry.LOCAL;
    }
}
