package pgtests

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// A column's type modifier (numeric(10,2), varchar(3), timestamp(0), ...)
// applies to every value written to it, whatever the wire format and the
// statement: TestColumnModifiersMatchPostgres writes each value of
// modifiedTypes to a column of each type on cdcdb and on PostgreSQL 15, by
// every path of writePaths, and compares what each server answers (the
// RETURNING row, or the error's SQLSTATE, message and detail) and what the
// column then holds, read back in text and in binary.

// modifiedType is a column type with a modifier and the values written to
// it, as text (each is valid input of the base type unless noted).
type modifiedType struct {
	column string // the column's type
	base   string // the same type without the modifier
	values []string
	// key marks types a primary key can be made of (the ON CONFLICT
	// arbiter path).
	key bool
}

var modifiedTypes = []modifiedType{
	{column: "numeric(10,2)", base: "numeric", key: true, values: []string{
		"0.125", "7.007", "1", "0.5", "-0.125", "-0.001", "12345678.994", "99999999.995", "99999999.994",
		"1e-3", "NaN", "Infinity", "-Infinity", "123456789", "0.00000000000000000001"}},
	{column: "numeric(4,1)", base: "numeric", key: true, values: []string{"12.34", "12.35", "-12.35", "999.94", "999.95", "1000"}},
	{column: "numeric(3,0)", base: "numeric", values: []string{"0.5", "-0.5", "999.4", "999.5", "12.5e1"}},
	{column: "numeric(3,-1)", base: "numeric", values: []string{"1234", "15", "-25", "9994", "9995", "0.4"}},
	{column: "numeric(2,3)", base: "numeric", values: []string{"0.0123", "0.0995", "0.0994", "0.1", "0"}},
	{column: "varchar(3)", base: "varchar", key: true, values: []string{
		"ab", "abc", "abcd", "abc  ", "ab   x", "été", "été!", "", " ", "    "}},
	{column: "char(3)", base: "bpchar", key: true, values: []string{"a", "abc", "abcd", "abc   ", "é", "", "ab c"}},
	{column: "timestamp(0)", base: "timestamp", key: true, values: []string{
		"2024-01-01 00:00:05.6", "2024-01-01 00:00:05.4", "2024-01-01 00:00:05.5", "1990-01-01 00:00:00.5",
		"1990-01-01 00:00:00.6", "1999-12-31 23:59:59.5", "infinity", "-infinity", "2024-12-31 23:59:59.999999"}},
	{column: "timestamp(2)", base: "timestamp", values: []string{"2024-01-01 00:00:05.125", "2024-01-01 00:00:05.124999", "1970-01-01 00:00:00.005"}},
	{column: "timestamptz(0)", base: "timestamptz", key: true, values: []string{
		"2024-01-01 00:00:05.5+02", "2024-01-01 00:00:05.49+00", "1969-07-20 20:17:40.5+00"}},
	{column: "timestamptz(3)", base: "timestamptz", values: []string{"2024-01-01 00:00:05.1234565+00", "2024-01-01 00:00:05.0005+00"}},
	{column: "time(1)", base: "time", key: true, values: []string{"10:00:00.55", "10:00:00.54", "23:59:59.96", "00:00:00.05", "24:00:00"}},
	{column: "time(0)", base: "time", values: []string{"12:34:56.5", "23:59:59.5"}},
	{column: "interval(1)", base: "interval", key: true, values: []string{
		"1.25 seconds", "1 day 02:03:04.56", "-00:00:01.25", "1 year 2 mons 3 days 04:05:06.789"}},
	{column: "interval year", base: "interval", values: []string{"1 year 2 mons 3 days", "-1 year -11 mons", "23 mons", "1", "1.5", "2 3"}},
	{column: "interval month", base: "interval", values: []string{"1", "1 year 1", "1-2"}},
	{column: "interval day", base: "interval", key: true, values: []string{"1", "1 day 23:59:59", "-1.5"}},
	{column: "interval day to hour", base: "interval", values: []string{"1 day 02:03:04", "-1 day -02:59:59", "1 2", "1", "5 1 hour", "1-2 3"}},
	{column: "interval minute to second(1)", base: "interval", values: []string{"1 day 02:03:04.56", "00:00:00.04", "1:30", "1:30.55", "1 2"}},
	{column: "interval hour to minute", base: "interval", values: []string{"2 days 12:34:56.7", "1:30", "1"}},
	{column: "interval second(2)", base: "interval", values: []string{"1.555", "1 day 1.555"}},
	{column: "numeric(5,2)[]", base: "numeric[]", values: []string{"{1.005,2,NULL}", "{1234.5}", "{{1.111,2.225},{3,4}}", "{}"}},
	{column: "varchar(2)[]", base: "varchar[]", values: []string{"{ab,c}", "{ab,abc}", "{\"a  \"}"}},
	{column: "char(2)[]", base: "bpchar[]", values: []string{"{a,bc}", "{abc}"}},
	{column: "timestamp(0)[]", base: "timestamp[]", values: []string{"{\"2024-01-01 00:00:05.6\"}"}},
}

// typmodOutcome is what one path answered and left: each step's result
// (its rows, in the format asked, or its error) and the column's value
// read back in text and in binary.
type typmodOutcome struct {
	steps  []string
	stored string
}

func (o typmodOutcome) String() string {
	return strings.Join(o.steps, "; ") + " => " + o.stored
}

// typmodConn runs a path's statements on one server, recording what each
// answered.
type typmodConn struct {
	// cdcdb is set on cdcdb's connection, which writes flow paths through
	// AUTO CDC flows.
	cdcdb bool
	conn  *pgx.Conn
	ctx   context.Context
	out   typmodOutcome
	// failed is set by the first error: a path stops there, as a client
	// would.
	failed bool
}

// describeErr is an error as the comparison sees it: SQLSTATE, message
// and detail, which cdcdb must give as PostgreSQL does.
func describeErr(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		s := "ERROR " + pe.Code + ": " + pe.Message
		if pe.Detail != "" {
			s += " (" + pe.Detail + ")"
		}
		return s
	}
	return "client error: " + err.Error()
}

func describeRows(rows [][][]byte, binaryFormat bool) string {
	var parts []string
	for _, r := range rows {
		var fields []string
		for _, f := range r {
			switch {
			case f == nil:
				fields = append(fields, "NULL")
			case binaryFormat:
				fields = append(fields, "\\x"+hex.EncodeToString(f))
			default:
				fields = append(fields, fmt.Sprintf("%q", f))
			}
		}
		parts = append(parts, "("+strings.Join(fields, ",")+")")
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// simple runs sql in the simple query protocol (text results).
func (c *typmodConn) simple(sql string) {
	if c.failed {
		return
	}
	results, err := c.conn.PgConn().Exec(c.ctx, sql).ReadAll()
	if err != nil {
		c.out.steps = append(c.out.steps, describeErr(err))
		c.failed = true
		return
	}
	var parts []string
	for _, r := range results {
		parts = append(parts, r.CommandTag.String()+describeRows(r.Rows, false))
	}
	c.out.steps = append(c.out.steps, strings.Join(parts, " "))
}

// extended runs sql in the extended protocol with one parameter (nil:
// none), sent in the given format, and results in the given format.
func (c *typmodConn) extended(sql string, param []byte, paramBinary, resultBinary bool) {
	if c.failed {
		return
	}
	var params [][]byte
	var formats []int16
	if param != nil {
		params = [][]byte{param}
		formats = []int16{formatCode(paramBinary)}
	}
	r := c.conn.PgConn().ExecParams(c.ctx, sql, params, nil, formats, []int16{formatCode(resultBinary)}).Read()
	if r.Err != nil {
		c.out.steps = append(c.out.steps, describeErr(r.Err))
		c.failed = true
		return
	}
	c.out.steps = append(c.out.steps, r.CommandTag.String()+describeRows(r.Rows, resultBinary))
}

// copyIn runs a COPY FROM STDIN with data.
func (c *typmodConn) copyIn(sql string, data []byte) {
	if c.failed {
		return
	}
	tag, err := c.conn.PgConn().CopyFrom(c.ctx, bytes.NewReader(data), sql)
	if err != nil {
		c.out.steps = append(c.out.steps, describeErr(err))
		c.failed = true
		return
	}
	c.out.steps = append(c.out.steps, tag.String())
}

// readBack records the value of table's row id, in text and in binary. It
// runs whether or not the path failed: a failed write must leave nothing.
func (c *typmodConn) readBack(table string, id int) {
	sql := fmt.Sprintf("SELECT v FROM %s WHERE id = %d", table, id)
	var parts []string
	for _, binaryFormat := range []bool{false, true} {
		r := c.conn.PgConn().ExecParams(c.ctx, sql, nil, nil, nil, []int16{formatCode(binaryFormat)}).Read()
		if r.Err != nil {
			parts = append(parts, describeErr(r.Err))
			continue
		}
		parts = append(parts, describeRows(r.Rows, binaryFormat))
	}
	c.out.stored = strings.Join(parts, " ")
}

func formatCode(binaryFormat bool) int16 {
	if binaryFormat {
		return pgtype.BinaryFormatCode
	}
	return pgtype.TextFormatCode
}

// sqlQuote is a SQL string literal.
func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// copyTextField escapes s for COPY's text format.
func copyTextField(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n", "\r", "\\r")
	return r.Replace(s)
}

// copyCSVField quotes s for COPY's CSV format.
func copyCSVField(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// binaryCopyRow is a binary COPY file of one row: an int4 id and a value
// already in binary.
func binaryCopyRow(id int32, value []byte) []byte {
	b := append([]byte("PGCOPY\n\xff\r\n\x00"), 0, 0, 0, 0, 0, 0, 0, 0)
	b = binary.BigEndian.AppendUint16(b, 2)
	b = binary.BigEndian.AppendUint32(b, 4)
	b = binary.BigEndian.AppendUint32(b, uint32(id))
	b = binary.BigEndian.AppendUint32(b, uint32(len(value)))
	b = append(b, value...)
	return binary.BigEndian.AppendUint16(b, 0xffff)
}

// typmodCase is one value of one type, as a path writes it.
type typmodCase struct {
	typ   modifiedType
	text  string
	table string // the table of the type: (id int4 primary key, v <type>)
	// bin is the value in binary as PostgreSQL sends its base type (nil
	// when the text is no valid value of it): the bytes a client sending
	// binary would send.
	bin []byte
	// goValue is the value as pgx decodes the text (nil when it cannot),
	// for pgx's own CopyFrom.
	goValue any
	// n numbers the case, so flow paths give each its own key.
	n int
}

// The objects of a flow path on cdcdb, per type: a source with the base
// type, a streaming table declared with the column type, and a flow from
// one to the other.
func flowSource(tc typmodCase) string { return tc.table + "_src" }
func flowTarget(tc typmodCase) string { return tc.table + "_tgt" }

func createFlowObjects(t *testing.T, conn *pgx.Conn, table string, typ modifiedType) {
	tc := typmodCase{table: table}
	mustExec(t, conn, fmt.Sprintf("CREATE TABLE %s (id int4, v %s, seq int4)", flowSource(tc), typ.base))
	mustExec(t, conn, fmt.Sprintf("CREATE STREAMING TABLE %s (id int4, v %s)", flowTarget(tc), typ.column))
	mustExec(t, conn, fmt.Sprintf("CREATE FLOW %s_flow AS AUTO CDC INTO %s FROM stream(%s) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (seq)",
		table, flowTarget(tc), flowSource(tc)))
}

// readFlowTarget records the flow target's row for the case on cdcdb, or
// the table's row 1 on PostgreSQL, as steps: they must read the same.
func (c *typmodConn) readFlowTarget(tc typmodCase) {
	c.failed = false
	sql := "SELECT v FROM " + tc.table + " WHERE id = 1"
	if c.cdcdb {
		sql = fmt.Sprintf("SELECT v FROM %s WHERE id = %d", flowTarget(tc), tc.n)
	}
	c.extended(sql, nil, false, false)
	c.extended(sql, nil, false, true)
}

// writePath is one way of writing a value into a column. run issues the
// statements; the harness then reads row 1 of tc.table back.
type writePath struct {
	name string
	// binary paths need the value in binary (tc.bin), pgxValue paths
	// tc.goValue; a case without it skips them.
	binary, pgxValue bool
	// key paths need a type a primary key can be made of.
	key bool
	// flow paths read back the flow's target themselves (readFlowTarget).
	flow bool
	run  func(c *typmodConn, tc typmodCase)
}

var writePaths = []writePath{
	{name: "INSERT literal", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, %s) RETURNING v", tc.table, sqlQuote(tc.text)))
	}},
	{name: "INSERT literal cast to the base type", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, CAST(%s AS %s)) RETURNING v", tc.table, sqlQuote(tc.text), tc.typ.base))
	}},
	{name: "INSERT explicit cast to the column type", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, CAST(%s AS %s)) RETURNING v", tc.table, sqlQuote(tc.text), tc.typ.column))
	}},
	{name: "INSERT text parameter, text result", run: func(c *typmodConn, tc typmodCase) {
		c.extended(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, $1) RETURNING v", tc.table), []byte(tc.text), false, false)
	}},
	{name: "INSERT binary parameter, binary result", binary: true, run: func(c *typmodConn, tc typmodCase) {
		c.extended(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, $1) RETURNING v", tc.table), tc.bin, true, true)
	}},
	{name: "INSERT binary parameter, text result", binary: true, run: func(c *typmodConn, tc typmodCase) {
		c.extended(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, $1) RETURNING v", tc.table), tc.bin, true, false)
	}},
	{name: "INSERT binary parameter cast to the column type", binary: true, run: func(c *typmodConn, tc typmodCase) {
		c.extended(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, $1::%s) RETURNING v", tc.table, tc.typ.column), tc.bin, true, true)
	}},
	{name: "SELECT text parameter cast to the column type", run: func(c *typmodConn, tc typmodCase) {
		c.extended(fmt.Sprintf("SELECT $1::%s", tc.typ.column), []byte(tc.text), false, true)
	}},
	{name: "SELECT binary parameter cast to the column type", binary: true, run: func(c *typmodConn, tc typmodCase) {
		c.extended(fmt.Sprintf("SELECT $1::%s", tc.typ.column), tc.bin, true, false)
	}},
	{name: "INSERT ... SELECT from a column of the base type", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("CREATE TEMP TABLE staging (v %s)", tc.typ.base))
		c.simple(fmt.Sprintf("INSERT INTO staging VALUES (%s)", sqlQuote(tc.text)))
		c.simple(fmt.Sprintf("INSERT INTO %s (id, v) SELECT 1, v FROM staging RETURNING v", tc.table))
		c.failed = false
		c.simple("DROP TABLE staging")
	}},
	{name: "UPDATE literal", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id) VALUES (1)", tc.table))
		c.simple(fmt.Sprintf("UPDATE %s SET v = %s WHERE id = 1 RETURNING v", tc.table, sqlQuote(tc.text)))
	}},
	{name: "UPDATE binary parameter", binary: true, run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id) VALUES (1)", tc.table))
		c.extended(fmt.Sprintf("UPDATE %s SET v = $1 WHERE id = 1 RETURNING v", tc.table), tc.bin, true, true)
	}},
	{name: "UPDATE from an expression of the base type", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id) VALUES (1)", tc.table))
		c.simple(fmt.Sprintf("UPDATE %s SET v = (SELECT CAST(%s AS %s)) WHERE id = 1 RETURNING v", tc.table, sqlQuote(tc.text), tc.typ.base))
	}},
	{name: "DEFAULT of the base type", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("ALTER TABLE %s ALTER COLUMN v SET DEFAULT CAST(%s AS %s)", tc.table, sqlQuote(tc.text), tc.typ.base))
		c.simple(fmt.Sprintf("INSERT INTO %s (id) VALUES (1) RETURNING v", tc.table))
		c.failed = false
		c.simple(fmt.Sprintf("ALTER TABLE %s ALTER COLUMN v DROP DEFAULT", tc.table))
	}},
	{name: "INSERT DEFAULT VALUES with a literal default", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("ALTER TABLE %s ALTER COLUMN v SET DEFAULT %s", tc.table, sqlQuote(tc.text)))
		c.simple(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, DEFAULT) RETURNING v", tc.table))
		c.failed = false
		c.simple(fmt.Sprintf("ALTER TABLE %s ALTER COLUMN v DROP DEFAULT", tc.table))
	}},
	{name: "ON CONFLICT DO UPDATE SET from EXCLUDED, binary parameter", binary: true, run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id) VALUES (1)", tc.table))
		c.extended(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET v = excluded.v RETURNING v", tc.table), tc.bin, true, true)
	}},
	{name: "ON CONFLICT DO UPDATE SET a literal", run: func(c *typmodConn, tc typmodCase) {
		c.simple(fmt.Sprintf("INSERT INTO %s (id) VALUES (1)", tc.table))
		c.simple(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, NULL) ON CONFLICT (id) DO UPDATE SET v = %s RETURNING v", tc.table, sqlQuote(tc.text)))
	}},
	{name: "ON CONFLICT on a key of the type, binary parameter", binary: true, key: true, run: func(c *typmodConn, tc typmodCase) {
		// The second insert's value is the first's once fitted to the
		// column, so it must find the first row.
		c.simple(fmt.Sprintf("CREATE TEMP TABLE keyed (v %s PRIMARY KEY, n int)", tc.typ.column))
		c.simple(fmt.Sprintf("INSERT INTO keyed VALUES (%s, 1)", sqlQuote(tc.text)))
		c.extended("INSERT INTO keyed VALUES ($1, 1) ON CONFLICT (v) DO UPDATE SET n = keyed.n + 1 RETURNING v, n", tc.bin, true, true)
		c.simple("SELECT v, n FROM keyed ORDER BY v")
		c.failed = false
		c.simple("DROP TABLE keyed")
	}},
	{name: "COPY text", run: func(c *typmodConn, tc typmodCase) {
		c.copyIn(fmt.Sprintf("COPY %s (id, v) FROM STDIN", tc.table), []byte("1\t"+copyTextField(tc.text)+"\n"))
	}},
	{name: "COPY csv", run: func(c *typmodConn, tc typmodCase) {
		c.copyIn(fmt.Sprintf("COPY %s (id, v) FROM STDIN (FORMAT csv)", tc.table), []byte("1,"+copyCSVField(tc.text)+"\n"))
	}},
	{name: "COPY binary", binary: true, run: func(c *typmodConn, tc typmodCase) {
		c.copyIn(fmt.Sprintf("COPY %s (id, v) FROM STDIN (FORMAT binary)", tc.table), binaryCopyRow(1, tc.bin))
	}},
	// A flow writing its target: on cdcdb an AUTO CDC flow from a source of
	// the base type into a streaming table declared with the column type;
	// on PostgreSQL, which has no flows, the same write into a table of
	// the column type, whose answers the flow's must match.
	{name: "flow target, INSERT binary parameter into its source", binary: true, flow: true, run: func(c *typmodConn, tc typmodCase) {
		if c.cdcdb {
			c.extended(fmt.Sprintf("INSERT INTO %s (id, v, seq) VALUES (%d, $1, 1)", flowSource(tc), tc.n), tc.bin, true, true)
		} else {
			c.extended(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, $1)", tc.table), tc.bin, true, true)
		}
		c.readFlowTarget(tc)
	}},
	{name: "flow target, COPY binary into its source", binary: true, flow: true, run: func(c *typmodConn, tc typmodCase) {
		if c.cdcdb {
			row := binaryCopyRow(int32(tc.n), tc.bin)
			// a third field, seq = 1, before the trailer
			row = row[:len(row)-2]
			row = binary.BigEndian.AppendUint32(row, 4)
			row = binary.BigEndian.AppendUint32(row, 1)
			row = binary.BigEndian.AppendUint16(row, 0xffff)
			binary.BigEndian.PutUint16(row[19:], 3)
			c.copyIn(fmt.Sprintf("COPY %s (id, v, seq) FROM STDIN (FORMAT binary)", flowSource(tc)), row)
		} else {
			c.copyIn(fmt.Sprintf("COPY %s (id, v) FROM STDIN (FORMAT binary)", tc.table), binaryCopyRow(1, tc.bin))
		}
		c.readFlowTarget(tc)
	}},
	{name: "flow target, INSERT literal into its source", flow: true, run: func(c *typmodConn, tc typmodCase) {
		if c.cdcdb {
			c.simple(fmt.Sprintf("INSERT INTO %s (id, v, seq) VALUES (%d, %s, 1)", flowSource(tc), tc.n, sqlQuote(tc.text)))
		} else {
			c.simple(fmt.Sprintf("INSERT INTO %s (id, v) VALUES (1, CAST(%s AS %s))", tc.table, sqlQuote(tc.text), tc.typ.base))
		}
		c.readFlowTarget(tc)
	}},
	{name: "pgx CopyFrom", pgxValue: true, run: func(c *typmodConn, tc typmodCase) {
		if c.failed {
			return
		}
		n, err := c.conn.CopyFrom(c.ctx, pgx.Identifier{tc.table}, []string{"id", "v"}, pgx.CopyFromRows([][]any{{1, tc.goValue}}))
		if err != nil {
			c.out.steps = append(c.out.steps, describeErr(err))
			c.failed = true
			return
		}
		c.out.steps = append(c.out.steps, fmt.Sprintf("copied %d", n))
	}},
}

// TestColumnModifiersMatchPostgres writes every value of modifiedTypes by
// every path of writePaths on cdcdb and on PostgreSQL 15 and requires the
// same answers and the same stored values.
func TestColumnModifiersMatchPostgres(t *testing.T) {
	ctx := testContext(t)
	servers := bothTargets(t)
	conns := make([]*pgx.Conn, len(servers))
	for i, s := range servers {
		conns[i] = connect(t, s.URL)
		mustExec(t, conns[i], "SET TimeZone = 'UTC'")
	}
	isCdcdb := func(i int) bool { return servers[i].Name == "cdcdb" }
	ref := conns[len(conns)-1]
	typeMap := pgtype.NewMap()
	checked := 0
	for ti, typ := range modifiedTypes {
		table := fmt.Sprintf("tm%d", ti)
		for i, c := range conns {
			mustExec(t, c, fmt.Sprintf("CREATE TABLE %s (id int4 PRIMARY KEY, v %s)", table, typ.column))
			if isCdcdb(i) {
				createFlowObjects(t, c, table, typ)
			}
		}
		for _, text := range typ.values {
			tc := typmodCase{typ: typ, text: text, table: table}
			tc.bin, tc.goValue = valueInBinary(ctx, ref, typeMap, typ.base, text)
			for _, path := range writePaths {
				if (path.binary && tc.bin == nil) || (path.pgxValue && tc.goValue == nil) || (path.key && !typ.key) {
					continue
				}
				checked++
				tc.n = checked
				outcomes := make([]typmodOutcome, len(conns))
				for i, conn := range conns {
					mustExec(t, conn, "DELETE FROM "+table)
					c := &typmodConn{cdcdb: isCdcdb(i), conn: conn, ctx: ctx}
					path.run(c, tc)
					if !path.flow {
						c.readBack(table, 1)
					}
					outcomes[i] = c.out
				}
				if len(conns) == 2 && outcomes[0].String() != outcomes[1].String() {
					t.Errorf("%s <- %q by %s:\n  cdcdb:      %s\n  PostgreSQL: %s", typ.column, text, path.name, outcomes[0], outcomes[1])
				}
			}
		}
	}
	t.Logf("%d cases of %d types compared", checked, len(modifiedTypes))
}

// valueInBinary returns text as a value of base in binary, as PostgreSQL
// sends it, and as pgx decodes it (nil, nil when text is no value of base;
// a nil Go value when pgx cannot decode it).
func valueInBinary(ctx context.Context, ref *pgx.Conn, m *pgtype.Map, base, text string) ([]byte, any) {
	r := ref.PgConn().ExecParams(ctx, "SELECT $1::"+base+", pg_typeof($1::"+base+")::oid", [][]byte{[]byte(text)}, nil, nil,
		[]int16{pgtype.BinaryFormatCode, pgtype.TextFormatCode}).Read()
	if r.Err != nil || len(r.Rows) != 1 {
		return nil, nil
	}
	bin := r.Rows[0][0]
	var oid uint32
	if _, err := fmt.Sscan(string(r.Rows[0][1]), &oid); err != nil {
		return bin, nil
	}
	typ, ok := m.TypeForOID(oid)
	if !ok {
		return bin, nil
	}
	v, err := typ.Codec.DecodeValue(m, oid, pgtype.BinaryFormatCode, bin)
	if err != nil {
		return bin, nil
	}
	return bin, v
}

// TestFlowTargetsKeepTheirColumnModifiers shows a flow's target declared
// with modifiers holding its columns' values everywhere a value of the
// event counts: the key (1.001 and 1.004 are one key of numeric(10,2)),
// SCD TYPE 2's change detection (5.001 then 5.004 is no change of a
// numeric(10,2)), the period columns (timestamp(0) rounds the sequence
// value), and a value the column cannot hold refusing the write to the
// source, with PostgreSQL's error, whatever the format it came in.
func TestFlowTargetsKeepTheirColumnModifiers(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE ev (k numeric, v numeric, note varchar, seq timestamp)")
	mustExec(t, conn, "CREATE STREAMING TABLE hist (k numeric(10,2), v numeric(10,2), note varchar(5), __start_at timestamp(0), __end_at timestamp(0))")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO hist FROM stream(ev) KEYS (k) SEQUENCE BY seq COLUMNS * EXCEPT (seq) STORED AS SCD TYPE 2")
	insert := "INSERT INTO ev VALUES ($1, $2, $3, $4)"
	for _, ev := range [][]any{
		{numeric("1.001"), numeric("5.001"), "a", time.Date(2024, 1, 1, 0, 0, 0, 400_000_000, time.UTC)},
		{numeric("1.004"), numeric("5.004"), "a", time.Date(2024, 1, 1, 0, 0, 10, 600_000_000, time.UTC)},
		{numeric("1.006"), numeric("6"), "b", time.Date(2024, 1, 1, 0, 0, 20, 500_000_000, time.UTC)},
		{numeric("1.009"), numeric("7.499"), "c", time.Date(2024, 1, 1, 0, 0, 30, 0, time.UTC)},
	} {
		// pgx sends numeric and timestamp parameters in binary.
		if _, err := conn.Exec(ctx, insert, ev...); err != nil {
			t.Fatalf("%v: %v", ev, err)
		}
	}
	got := queryString(t, conn, `SELECT string_agg(format('%s %s %s %s..%s', k, v, note, __start_at, coalesce(__end_at::text, '')), ' | ' ORDER BY k, __start_at) FROM hist`)
	want := "1.00 5.00 a 2024-01-01 00:00:00.. | 1.01 6.00 b 2024-01-01 00:00:21..2024-01-01 00:00:30 | 1.01 7.50 c 2024-01-01 00:00:30.."
	if got != want {
		t.Errorf("target:\n got  %s\n want %s", got, want)
	}
	// A note longer than varchar(5) cannot be a target value: the event is
	// refused as PostgreSQL refuses the value for such a column, and
	// nothing of it is kept.
	_, err := conn.Exec(ctx, insert, numeric("2"), numeric("1"), "toolong", time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC))
	pgErr := requireSQLState(t, err, "22001")
	if pgErr.Message != "value too long for type character varying(5)" {
		t.Errorf("message: %s", pgErr.Message)
	}
	_, err = conn.PgConn().CopyFrom(ctx, strings.NewReader("3\t123456789.5\tx\t2024-01-03\n"), "COPY ev FROM STDIN")
	pgErr = requireSQLState(t, err, "22003")
	if want := "A field with precision 10, scale 2 must round to an absolute value less than 10^8."; pgErr.Detail != want {
		t.Errorf("detail: %s", pgErr.Detail)
	}
	if n := queryInt64s(t, conn, "SELECT count(*) FROM ev"); n[0] != 4 {
		t.Errorf("the source holds %d events, want the 4 accepted", n[0])
	}
}
