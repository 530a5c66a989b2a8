package io.keyline.store.h2;

import io.keyline.store.Database;
import org.h2.engine.SessionLocal;
import org.h2.index.Index;
import org.h2.jdbc.JdbcConnection;
import org.h2.result.Row;
import org.h2.table.Table;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * A child process for {@code IndexCheckTest}: removes one row's entry from one index of the state (what a
 * chunk written halfway through another session's commit leaves behind, as the crash loop found), commits,
 * and dies without closing the file, as a killed process would. Arguments: state dir, table, index, job, key,
 * and optionally a folder: then it first says "ready" there (it serves the state to whoever opens it
 * meanwhile) and waits for "go".
 */
public final class IndexCorrupter {
    private IndexCorrupter() {
    }

    public static void main(String[] a) throws Exception {
        H2Lockdown.apply();
        H2Database db = H2Database.open(Path.of(a[0]));
        if (a.length > 5) {
            java.nio.file.Files.writeString(Path.of(a[5]).resolve("ready"), "ready");
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (!java.nio.file.Files.exists(Path.of(a[5]).resolve("go")) && System.nanoTime() < until) {
                Thread.sleep(20);
            }
        }
        try (Connection c = db.connection()) {
            long rowId;
            try (PreparedStatement ps = c.prepareStatement("SELECT _ROWID_ FROM " + a[1]
                    + " WHERE job = ? AND key_value = ?")) {
                ps.setString(1, a[3]);
                ps.setString(2, a[4]);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("no such row");
                    }
                    rowId = rs.getLong(1);
                }
            }
            SessionLocal s = (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
            Table t = s.getDatabase().getSchema("public").findTableOrView(s, a[1]);
            Index ix = t.getIndexes().stream().filter(i -> i.getName().equals(a[2])).findFirst().orElseThrow();
            c.setAutoCommit(false);
            Row row = t.getRow(s, rowId);
            ix.remove(s, row);
            c.commit();
        }
        System.out.println("removed");
        System.out.flush();
        Runtime.getRuntime().halt(0); // no close: the file stays as a killed process leaves it
    }
}
