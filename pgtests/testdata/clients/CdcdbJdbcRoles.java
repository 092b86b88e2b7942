import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

// pgjdbc as a read-only role and as a pipeline role (see
// TestRolesJDBC): the read-only role reads a flow's target and its
// history and is refused every write with 42501; the pipeline role inserts
// into the flow's source, which it cannot read. Prints ROLES OK.
public class CdcdbJdbcRoles {
    static Connection connect(String url, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        return DriverManager.getConnection(url, p);
    }

    static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void refused(Statement st, String sql) throws SQLException {
        try {
            st.execute(sql);
        } catch (SQLException e) {
            if (!"42501".equals(e.getSQLState())) {
                throw new AssertionError(sql + ": " + e.getSQLState() + " " + e.getMessage());
            }
            return;
        }
        throw new AssertionError(sql + " was accepted");
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        try (Connection pipe = connect(url, "pipeline", "pipe-pw"); Statement st = pipe.createStatement()) {
            st.executeUpdate("INSERT INTO events VALUES (1, 'a', 1), (1, 'b', 2)");
            refused(st, "SELECT * FROM events");
        }
        try (Connection bi = connect(url, "bi", "bi-pw"); Statement st = bi.createStatement()) {
            if (count(st, "SELECT count(*) FROM accounts") != 2) {
                throw new AssertionError("bi does not see the flow's two versions");
            }
            if (count(st, "SELECT count(*) FROM accounts FOR SYSTEM_TIME AS OF now()") != 2) {
                throw new AssertionError("bi does not see the history");
            }
            refused(st, "INSERT INTO events VALUES (2, 'x', 1)");
            refused(st, "DELETE FROM accounts");
            refused(st, "DROP FLOW accounts_flow");
            refused(st, "CREATE TABLE mine (a int)");
            refused(st, "SELECT * FROM cdcdb.table_changes('events', 0)");
        }
        System.out.println("ROLES OK");
    }
}
