package io.keyline.core;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Identity of a process that holds key leases: {@code host/pid/nonce}. A lease whose holder is a
 * dead process on this host is recognised at once; elsewhere the lease's expiry decides.
 */
public final class LeaseOwner {
    private static final String HOST = hostName();

    private LeaseOwner() {
    }

    /** This host's name, as lease owners and child-process records carry it. */
    public static String host() {
        return HOST;
    }

    /** A new owner id for this process. */
    public static String forThisProcess() {
        byte[] nonce = new byte[4];
        new SecureRandom().nextBytes(nonce);
        return HOST + "/" + ProcessHandle.current().pid() + "/" + HexFormat.of().formatHex(nonce);
    }

    /** Whether {@code owner} is provably a process of this host that no longer runs. */
    public static boolean provablyDead(String owner) {
        if (owner == null) {
            return true;
        }
        String[] parts = owner.split("/");
        if (parts.length != 3 || !parts[0].equals(HOST)) {
            return false;
        }
        try {
            long pid = Long.parseLong(parts[1]);
            return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env != null ? env : "localhost";
        }
    }
}
