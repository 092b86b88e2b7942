/*
 * Prints what pgjdbc's DatabaseMetaData.getIndexInfo and getTypeInfo
 * answer (argv: a JDBC URL), one line a row with every column, for
 * pgtests/clients_jdbc_meta_test.go to compare between cdcdb and
 * PostgreSQL 15.
 */
import java.sql.*;
import java.util.*;

public class CdcdbJdbcMeta {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0])) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS jm (id int PRIMARY KEY, a text, b int)");
                st.execute("CREATE UNIQUE INDEX IF NOT EXISTS jm_a ON jm (a)");
                st.execute("CREATE INDEX IF NOT EXISTS jm_ba ON jm (b DESC, a)");
            }
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getIndexInfo(null, "public", "jm", false, false)) {
                ResultSetMetaData m = rs.getMetaData();
                while (rs.next()) {
                    StringBuilder sb = new StringBuilder("index");
                    for (int i = 1; i <= m.getColumnCount(); i++) sb.append(' ').append(m.getColumnName(i)).append('=').append(rs.getString(i));
                    System.out.println(sb);
                }
            }
            int n = 0;
            try (ResultSet rs = md.getTypeInfo()) {
                ResultSetMetaData m = rs.getMetaData();
                while (rs.next()) {
                    n++;
                    StringBuilder sb = new StringBuilder("type");
                    for (int i = 1; i <= m.getColumnCount(); i++) sb.append(' ').append(m.getColumnName(i)).append('=').append(rs.getString(i));
                    System.out.println(sb);
                }
            }
            System.out.println("types " + n);
            System.out.println("JDBC META OK");
        }
    }
}
