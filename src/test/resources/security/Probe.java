import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Collections;

/**
 * What another local user tries against a Keyline state (SecurityTest/OtherUserTest runs it with
 * runuser): read the state's files, list its folder, connect to the AUTO_SERVER port it found, open
 * the database file directly. Prints one line per attempt: "ALLOWED what" or "REFUSED what: why".
 *
 * <p>java -cp h2.jar Probe.java STATE PORT KEY [USER PASSWORD]... [-- FILE...]
 */
public class Probe {
    public static void main(String[] args) throws Exception {
        Path state = Path.of(args[0]);
        String port = args[1];
        String key = args[2];
        int i = 3;
        java.util.List<String[]> logins = new java.util.ArrayList<>();
        while (i < args.length && !args[i].equals("--")) {
            logins.add(new String[] {args[i], args[i + 1]});
            i += 2;
        }
        i++;
        attempt("list " + state, () -> Files.list(state).count());
        for (; i < args.length; i++) {
            Path f = Path.of(args[i]);
            attempt("read " + f, () -> Files.readAllBytes(f).length);
        }
        for (String[] login : logins) {
            String url = "jdbc:h2:tcp://localhost:" + port + "/" + key;
            attempt("connect " + url + " as " + login[0] + "/" + (login[1].isEmpty() ? "(empty)" : "(password)"), () -> {
                try (Connection c = DriverManager.getConnection(url, login[0], login[1])) {
                    return c.createStatement().executeQuery("SELECT COUNT(*) FROM key_state").next();
                }
            });
        }
        attempt("open " + state.resolve("keyline") + " directly", () -> {
            try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + state.resolve("keyline")
                    + ";AUTO_SERVER=TRUE;IFEXISTS=TRUE", "keyline", "")) {
                return c.isValid(1);
            }
        });
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    attempt("TCP connect " + a.getHostAddress() + ":" + port, () -> {
                        try (Socket s = new Socket()) {
                            s.connect(new InetSocketAddress(a, Integer.parseInt(port)), 2000);
                            return true;
                        }
                    });
                }
            }
        }
    }

    interface Action {
        Object run() throws Exception;
    }

    static void attempt(String what, Action a) {
        try {
            a.run();
            System.out.println("ALLOWED " + what);
        } catch (Throwable t) {
            String m = String.valueOf(t.getMessage()).split("\n")[0];
            System.out.println("REFUSED " + what + ": " + t.getClass().getSimpleName() + ": " + m);
        }
    }
}
