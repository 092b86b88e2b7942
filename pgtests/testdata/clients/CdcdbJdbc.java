import java.io.StringReader;
import java.sql.*;
import java.util.*;

import org.postgresql.PGConnection;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.copy.CopyManager;

/**
 * Drives cdcdb through the PostgreSQL JDBC driver the way an application and
 * a BI tool do: DDL with an AUTO CDC flow, parameterized writes, batch
 * inserts with generated keys, COPY, temporal reads, the change feed, the
 * DatabaseMetaData / ResultSetMetaData calls tools make on connect, and
 * the call escape {? = call f(?)}.
 * Args: JDBC URL. Exits non-zero (with the reason) on the first failed check.
 */
public class CdcdbJdbc {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getString(name));
        }
        rs.close();
        return out;
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0])) {
            run(c);
        }
        System.out.println("JDBC OK");
    }

    static void run(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA s");
            st.execute("CREATE TABLE s.src (id int, v text, seq int)");
            st.execute("CREATE STREAMING TABLE s.tgt");
            st.execute("CREATE FLOW s_f AS AUTO CDC INTO s.tgt FROM stream(s.src) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2");
            st.execute("CREATE TABLE s.items (id serial PRIMARY KEY, name varchar(20) NOT NULL, price numeric(8,2))");
            st.execute("CREATE INDEX items_name ON s.items (name)");
            st.execute("CREATE TABLE s.orders (id int PRIMARY KEY, item int REFERENCES s.items (id) ON DELETE CASCADE)");
        }

        // JDBC's call escape: {? = call f(?)} is sent as
        // SELECT * FROM f($1, $2) AS result with $1, the OUT parameter,
        // declared void, which function lookup leaves out.
        // (In preferQueryMode=simple the driver inlines the OUT parameter
        // as NULL, and PostgreSQL 15 finds no upper(unknown, unknown).)
        boolean simple = c.getMetaData().getURL().contains("preferQueryMode=simple");
        try (CallableStatement cs = c.prepareCall("{? = call upper(?)}")) {
            cs.registerOutParameter(1, Types.VARCHAR);
            cs.setString(2, "abc");
            try {
                cs.execute();
                check(!simple && "ABC".equals(cs.getString(1)), "{? = call upper(?)} returned " + cs.getString(1));
            } catch (SQLException e) {
                check(simple && "42883".equals(e.getSQLState()), "{? = call upper(?)}: " + e);
            }
        }
        try (CallableStatement cs = c.prepareCall("{call upper(?)}")) {
            cs.setString(1, "xy");
            ResultSet rs = cs.executeQuery();
            check(rs.next() && "XY".equals(rs.getString(1)), "{call upper(?)}");
            rs.close();
        }

        // Events with parameters.
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO s.src (id, v, seq) VALUES (?, ?, ?)")) {
            Object[][] events = {{1, "a", 1}, {1, "b", 2}, {2, "x", 1}, {1, "c", 3}};
            for (Object[] e : events) {
                ps.setInt(1, (Integer) e[0]);
                ps.setString(2, (String) e[1]);
                ps.setInt(3, (Integer) e[2]);
                check(ps.executeUpdate() == 1, "insert one event");
            }
        }
        // More events through COPY.
        CopyManager cm = c.unwrap(PGConnection.class).getCopyAPI();
        long copied = cm.copyIn("COPY s.src (id, v, seq) FROM STDIN", new StringReader("2\ty\t5\n3\tz\t1\n"));
        check(copied == 2, "COPY reports 2 rows, got " + copied);

        // The SCD2 target: key 1 has three versions, key 2 two, key 3 one.
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, v, __START_AT, __END_AT FROM s.tgt ORDER BY id, __START_AT")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getInt(3) + " " + rs.getString(4));
            }
            check(rows.equals(List.of("1 a 1 2", "1 b 2 3", "1 c 3 null", "2 x 1 5", "2 y 5 null", "3 z 1 null")),
                    "target rows: " + rows);
            ResultSetMetaData md = rs.getMetaData();
            check(md.getColumnCount() == 4, "4 columns");
            check("tgt".equals(md.getTableName(1)), "table of column 1: " + md.getTableName(1));
            PGResultSetMetaData pmd = md.unwrap(PGResultSetMetaData.class);
            check("s".equals(pmd.getBaseSchemaName(1)), "schema of column 1: " + pmd.getBaseSchemaName(1));
            check("tgt".equals(pmd.getBaseTableName(1)), "base table of column 1: " + pmd.getBaseTableName(1));
            check("id".equals(md.getColumnName(1)), "name of column 1: " + md.getColumnName(1));
            check(md.getColumnType(1) == Types.INTEGER, "type of column 1: " + md.getColumnType(1));
            check("text".equals(md.getColumnTypeName(2)), "type name of column 2: " + md.getColumnTypeName(2));
            check(md.isNullable(1) == ResultSetMetaData.columnNullable, "column 1 nullable");
        }
        // A temporal read with a parameter.
        try (PreparedStatement ps = c.prepareStatement("SELECT v FROM s.tgt FOR BUSINESS_TIME AS OF 2 WHERE id = ?")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next() && "b".equals(rs.getString(1)) && !rs.next(), "key 1 as of 2 is b");
            }
        }

        // The change feed of s.src (one insert a commit, but the COPY's two),
        // windows by version (setLong) and by the commit's time
        // (setTimestamp, setObject with an OffsetDateTime).
        List<Long> versions = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT _commit_version FROM cdcdb.table_changes('s.src', ?) ORDER BY 1")) {
            ps.setLong(1, 0);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    versions.add(rs.getLong(1));
                }
            }
        }
        check(versions.size() == 5, "feed commits: " + versions);
        try (PreparedStatement ps = c.prepareStatement("SELECT id, v, _change_type, _commit_timestamp FROM cdcdb.table_changes('s.src', ?, ?)")) {
            ps.setLong(1, versions.get(1));
            ps.setLong(2, versions.get(1));
            Timestamp at;
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next() && "b".equals(rs.getString(2)) && "insert".equals(rs.getString(3)), "window by version");
                at = rs.getTimestamp(4);
                check(!rs.next(), "one row in the window by version");
            }
            ps.setTimestamp(1, at);
            ps.setTimestamp(2, at);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next() && "b".equals(rs.getString(2)) && !rs.next(), "window by time " + at);
            }
            java.time.OffsetDateTime odt = java.time.OffsetDateTime.ofInstant(at.toInstant(), java.time.ZoneOffset.UTC);
            ps.setObject(1, odt);
            ps.setObject(2, odt);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next() && "b".equals(rs.getString(2)) && !rs.next(), "window by OffsetDateTime " + odt);
            }
        }

        // Batch insert with generated keys.
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO s.items (name, price) VALUES (?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            for (String n : new String[]{"pen", "ink", "pad"}) {
                ps.setString(1, n);
                ps.setBigDecimal(2, new java.math.BigDecimal("1.50"));
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            check(counts.length == 3, "3 batch counts");
            List<Integer> keys = new ArrayList<>();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                while (rs.next()) {
                    keys.add(rs.getInt("id"));
                }
            }
            check(keys.equals(List.of(1, 2, 3)), "generated keys: " + keys);
        }

        DatabaseMetaData md = c.getMetaData();
        check(md.getDatabaseProductName().equals("PostgreSQL"), "product " + md.getDatabaseProductName());
        check(column(md.getCatalogs(), "TABLE_CAT").contains("main"), "catalogs list main");
        List<String> schemas = column(md.getSchemas(), "TABLE_SCHEM");
        check(schemas.contains("s") && schemas.contains("public") && schemas.contains("pg_catalog"), "schemas: " + schemas);
        List<String> tables = column(md.getTables(null, "s", "%", new String[]{"TABLE"}), "TABLE_NAME");
        check(tables.equals(List.of("items", "orders", "src", "tgt")), "tables of s: " + tables);
        List<String> cols = new ArrayList<>();
        try (ResultSet rs = md.getColumns(null, "s", "tgt", "%")) {
            while (rs.next()) {
                cols.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("TYPE_NAME") + ":" + rs.getInt("ORDINAL_POSITION"));
            }
        }
        check(cols.equals(List.of("id:int4:1", "v:text:2", "seq:int4:3", "__start_at:int4:4", "__end_at:int4:5")),
                "columns of s.tgt: " + cols);
        try (ResultSet rs = md.getColumns(null, "s", "items", "name")) {
            check(rs.next(), "items.name listed");
            check(rs.getInt("COLUMN_SIZE") == 20, "varchar(20) size " + rs.getInt("COLUMN_SIZE"));
            check(rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls, "items.name not null");
        }
        try (ResultSet rs = md.getColumns(null, "s", "items", "id")) {
            check(rs.next(), "items.id listed");
            check("serial".equals(rs.getString("TYPE_NAME")), "items.id is serial: " + rs.getString("TYPE_NAME"));
            check("YES".equals(rs.getString("IS_AUTOINCREMENT")), "items.id autoincrement");
        }
        List<String> pk = new ArrayList<>();
        try (ResultSet rs = md.getPrimaryKeys(null, "s", "items")) {
            while (rs.next()) {
                pk.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("KEY_SEQ") + ":" + rs.getString("PK_NAME"));
            }
        }
        check(pk.equals(List.of("id:1:items_pkey")), "primary key of s.items: " + pk);
        List<String> idx = new ArrayList<>();
        try (ResultSet rs = md.getIndexInfo(null, "s", "items", false, false)) {
            while (rs.next()) {
                idx.add(rs.getString("INDEX_NAME") + ":" + rs.getString("COLUMN_NAME") + ":" + rs.getBoolean("NON_UNIQUE"));
            }
        }
        Collections.sort(idx);
        check(idx.equals(List.of("items_name:name:true", "items_pkey:id:false")), "indexes of s.items: " + idx);
        List<String> fks = new ArrayList<>();
        try (ResultSet rs = md.getImportedKeys(null, "s", "orders")) {
            while (rs.next()) {
                fks.add(rs.getString("FKCOLUMN_NAME") + "->" + rs.getString("PKTABLE_NAME") + "." + rs.getString("PKCOLUMN_NAME")
                        + ":" + rs.getShort("DELETE_RULE") + ":" + rs.getString("PK_NAME"));
            }
        }
        check(fks.equals(List.of("item->items.id:" + DatabaseMetaData.importedKeyCascade + ":items_pkey")), "imported keys of s.orders: " + fks);
        List<String> typeNames = column(md.getTypeInfo(), "TYPE_NAME");
        check(typeNames.contains("int4") && typeNames.contains("text") && typeNames.contains("timestamptz"),
                "type info lists built-in types: " + typeNames.size());
    }
}
