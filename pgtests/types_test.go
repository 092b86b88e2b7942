package pgtests

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// typedTable has one column of each type the server must speak in text and
// binary.
const typedTable = `CREATE TABLE typed (
	id int4 PRIMARY KEY,
	c_int2 int2, c_int4 int4, c_int8 int8,
	c_float4 float4, c_float8 float8, c_numeric numeric,
	c_bool bool, c_text text, c_varchar varchar(40), c_bytea bytea,
	c_date date, c_timestamp timestamp, c_timestamptz timestamptz, c_uuid uuid
)`

var typedColumns = []string{
	"c_int2", "c_int4", "c_int8", "c_float4", "c_float8", "c_numeric",
	"c_bool", "c_text", "c_varchar", "c_bytea",
	"c_date", "c_timestamp", "c_timestamptz", "c_uuid",
}

// typedRow is one row of typed as Go values; nil pointers and invalid
// pgtype values are NULL.
type typedRow struct {
	ID          int32
	Int2        *int16
	Int4        *int32
	Int8        *int64
	Float4      *float32
	Float8      *float64
	Numeric     pgtype.Numeric
	Bool        *bool
	Text        *string
	Varchar     *string
	Bytea       []byte
	Date        *time.Time
	Timestamp   *time.Time
	Timestamptz *time.Time
	UUID        pgtype.UUID
}

func ptr[T any](v T) *T { return &v }

func numeric(s string) pgtype.Numeric {
	var n pgtype.Numeric
	if err := n.Scan(s); err != nil {
		panic(err)
	}
	return n
}

func uuid(s string) pgtype.UUID {
	var u pgtype.UUID
	if err := u.Scan(s); err != nil {
		panic(err)
	}
	return u
}

// The rows every mode writes and reads back: the extremes of each type,
// characters that need escaping, and NULLs.
var typedRows = []typedRow{
	{
		ID:   1,
		Int2: ptr(int16(32767)), Int4: ptr(int32(-2147483648)), Int8: ptr(int64(9223372036854775807)),
		Float4: ptr(float32(3.4028235e38)), Float8: ptr(0.1), Numeric: numeric("12345678901234567890.123456789"),
		Bool: ptr(true), Text: ptr("it's \"quoted\" \\ tab\t ünïcødé ✓"), Varchar: ptr("varchar(40) value"),
		Bytea:       []byte{0x00, 0x01, 0xfe, 0xff, '\\', '\''},
		Date:        ptr(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)),
		Timestamp:   ptr(time.Date(2024, 3, 1, 12, 34, 56, 123456000, time.UTC)),
		Timestamptz: ptr(time.Date(2024, 3, 1, 12, 34, 56, 654321000, time.FixedZone("+05:30", 5*3600+1800))),
		UUID:        uuid("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
	},
	{
		ID:   2,
		Int2: ptr(int16(-32768)), Int4: ptr(int32(2147483647)), Int8: ptr(int64(-9223372036854775808)),
		Float4: ptr(float32(-1.25)), Float8: ptr(-1.7976931348623157e308), Numeric: numeric("-0.000001230"),
		Bool: ptr(false), Text: ptr(""), Varchar: ptr("x"),
		Bytea:       []byte{},
		Date:        ptr(time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC)),
		Timestamp:   ptr(time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)),
		Timestamptz: ptr(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)),
		UUID:        uuid("00000000-0000-0000-0000-000000000000"),
	},
	{ID: 3},
}

// typedRow1Literals is typedRows[0] written as SQL literals, so the server's
// own text input is checked against what the clients send.
const typedRow1Literals = `32767, -2147483648, 9223372036854775807, 3.4028235e38, 0.1,
	12345678901234567890.123456789, true, 'it''s "quoted" \ tab	 ünïcødé ✓', 'varchar(40) value',
	'\x0001feff5c27', '2024-02-29', '2024-03-01 12:34:56.123456', '2024-03-01 12:34:56.654321+05:30',
	'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'`

func (r *typedRow) args() []any {
	return []any{r.Int2, r.Int4, r.Int8, r.Float4, r.Float8, r.Numeric, r.Bool, r.Text, r.Varchar,
		bytesArg(r.Bytea), r.Date, r.Timestamp, r.Timestamptz, r.UUID}
}

// bytesArg keeps a nil slice NULL and an empty one empty.
func bytesArg(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

func (r *typedRow) scanTargets() []any {
	return []any{&r.Int2, &r.Int4, &r.Int8, &r.Float4, &r.Float8, &r.Numeric, &r.Bool, &r.Text, &r.Varchar,
		&r.Bytea, &r.Date, &r.Timestamp, &r.Timestamptz, &r.UUID}
}

// shown renders each column of r canonically (times in UTC), so rows compare
// column by column with readable differences.
func (r *typedRow) shown() []string {
	return []string{
		showPtr(r.Int2), showPtr(r.Int4), showPtr(r.Int8), showPtr(r.Float4), showPtr(r.Float8),
		showNumeric(r.Numeric), showPtr(r.Bool), showQuoted(r.Text), showQuoted(r.Varchar),
		showBytes(r.Bytea), showTime(r.Date), showTime(r.Timestamp), showTime(r.Timestamptz), showUUID(r.UUID),
	}
}

func showPtr[T any](p *T) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}

func showQuoted(p *string) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprintf("%q", *p)
}

func showTime(p *time.Time) string {
	if p == nil {
		return "NULL"
	}
	return p.UTC().Format(time.RFC3339Nano)
}

func showNumeric(n pgtype.Numeric) string {
	if !n.Valid {
		return "NULL"
	}
	v, err := n.Value()
	if err != nil {
		return "bad numeric: " + err.Error()
	}
	return fmt.Sprint(v)
}

func showBytes(b []byte) string {
	if b == nil {
		return "NULL"
	}
	return `\x` + hex.EncodeToString(b)
}

func showUUID(u pgtype.UUID) string {
	if !u.Valid {
		return "NULL"
	}
	return hex.EncodeToString(u.Bytes[:])
}

func diffTypedRows(t *testing.T, what string, got, want typedRow) {
	t.Helper()
	g, w := got.shown(), want.shown()
	for i := range w {
		if g[i] != w[i] {
			t.Errorf("%s: %s = %s, want %s", what, typedColumns[i], g[i], w[i])
		}
	}
}

func readTypedRow(t *testing.T, conn *pgx.Conn, id int32) typedRow {
	t.Helper()
	got := typedRow{ID: id}
	q := "SELECT " + strings.Join(typedColumns, ", ") + " FROM typed WHERE id = $1"
	if err := conn.QueryRow(testContext(t), q, id).Scan(got.scanTargets()...); err != nil {
		t.Fatalf("read typed row %d: %v", id, err)
	}
	return got
}

func checkTypesRoundTrip(t *testing.T, conn *pgx.Conn) {
	ctx := testContext(t)
	mustExec(t, conn, typedTable)
	placeholders := make([]string, len(typedColumns)+1)
	for i := range placeholders {
		placeholders[i] = fmt.Sprintf("$%d", i+1)
	}
	insert := "INSERT INTO typed (id, " + strings.Join(typedColumns, ", ") + ") VALUES (" + strings.Join(placeholders, ", ") + ")"
	for _, r := range typedRows {
		if _, err := conn.Exec(ctx, insert, append([]any{r.ID}, r.args()...)...); err != nil {
			t.Fatalf("insert typed row %d: %v", r.ID, err)
		}
	}
	for _, want := range typedRows {
		diffTypedRows(t, fmt.Sprintf("row %d", want.ID), readTypedRow(t, conn, want.ID), want)
	}

	mustExec(t, conn, "INSERT INTO typed VALUES (4, "+typedRow1Literals+")")
	diffTypedRows(t, "row 4 (written as SQL literals)", readTypedRow(t, conn, 4), typedRows[0])

	// Each type as a parameter in WHERE finds exactly its rows.
	for i, col := range typedColumns {
		got := queryInt64s(t, conn, "SELECT id::int8 FROM typed WHERE "+col+" = $1 ORDER BY id", typedRows[0].args()[i])
		if !slices.Equal(got, []int64{1, 4}) {
			t.Errorf("WHERE %s = $1 (row 1's value) found ids %v, want [1 4]", col, got)
		}
	}

	// ORDER BY over several types, NULLs first when descending (PostgreSQL's
	// default), with a parameterized LIMIT.
	for _, c := range []struct {
		order string
		want  []int64
	}{
		{"c_int8 DESC, id", []int64{3, 1, 4}},
		{"c_timestamptz, id", []int64{2, 1, 4}},
		{"c_text DESC, id", []int64{3, 1, 4}},
		{"c_numeric, id", []int64{2, 1, 4}},
		{"c_bytea, id", []int64{2, 1, 4}},
	} {
		got := queryInt64s(t, conn, "SELECT id::int8 FROM typed ORDER BY "+c.order+" LIMIT $1", int64(3))
		if !slices.Equal(got, c.want) {
			t.Errorf("ORDER BY %s LIMIT 3 = %v, want %v", c.order, got, c.want)
		}
	}
}

// TestTypesInTextAndBinaryFormat reads each type with the result format set
// explicitly, and compares the raw bytes with PostgreSQL's encodings: text as
// PostgreSQL prints it, binary as pgx encodes the same value (which is what
// PostgreSQL sends).
func TestTypesInTextAndBinaryFormat(t *testing.T) {
	srv := startTarget(t)
	conn := connect(t, srv.URL)
	mustExec(t, conn, "SET TimeZone = 'UTC'")
	mustExec(t, conn, typedTable)
	mustExec(t, conn, "INSERT INTO typed VALUES (1, "+typedRow1Literals+")")

	r := typedRows[0]
	values := []any{*r.Int2, *r.Int4, *r.Int8, *r.Float4, *r.Float8, r.Numeric, *r.Bool, *r.Text, *r.Varchar,
		r.Bytea, *r.Date, *r.Timestamp, *r.Timestamptz, r.UUID}
	columns := []struct {
		oid  uint32
		text string
	}{
		{pgtype.Int2OID, "32767"},
		{pgtype.Int4OID, "-2147483648"},
		{pgtype.Int8OID, "9223372036854775807"},
		{pgtype.Float4OID, "3.4028235e+38"},
		{pgtype.Float8OID, "0.1"},
		{pgtype.NumericOID, "12345678901234567890.123456789"},
		{pgtype.BoolOID, "t"},
		{pgtype.TextOID, "it's \"quoted\" \\ tab\t ünïcødé ✓"},
		{pgtype.VarcharOID, "varchar(40) value"},
		{pgtype.ByteaOID, `\x0001feff5c27`},
		{pgtype.DateOID, "2024-02-29"},
		{pgtype.TimestampOID, "2024-03-01 12:34:56.123456"},
		{pgtype.TimestamptzOID, "2024-03-01 07:04:56.654321+00"},
		{pgtype.UUIDOID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
	}
	typeMap := pgtype.NewMap()
	// The point read decodes the row; the scan sends it from its stored
	// encoding (sql/scan_stored.go).
	for _, where := range []string{" WHERE id = 1", ""} {
		query := "SELECT " + strings.Join(typedColumns, ", ") + " FROM typed" + where
		for _, format := range []int16{pgtype.TextFormatCode, pgtype.BinaryFormatCode} {
			name := map[int16]string{pgtype.TextFormatCode: "text", pgtype.BinaryFormatCode: "binary"}[format]
			t.Run(name+strings.ReplaceAll(where, " ", "_"), func(t *testing.T) {
				res := conn.PgConn().ExecParams(testContext(t), query, nil, nil, nil, []int16{format}).Read()
				if res.Err != nil {
					t.Fatal(res.Err)
				}
				if len(res.Rows) != 1 || len(res.Rows[0]) != len(columns) {
					t.Fatalf("got %d rows (%v), want one of %d columns", len(res.Rows), res.Rows, len(columns))
				}
				for i, c := range columns {
					fd := res.FieldDescriptions[i]
					if fd.Name != typedColumns[i] || fd.DataTypeOID != c.oid || fd.Format != format {
						t.Errorf("column %d described as %s oid %d format %d, want %s oid %d format %d",
							i, fd.Name, fd.DataTypeOID, fd.Format, typedColumns[i], c.oid, format)
					}
					want := []byte(c.text)
					if format == pgtype.BinaryFormatCode {
						var err error
						if want, err = typeMap.Encode(c.oid, format, values[i], nil); err != nil {
							t.Fatalf("encode %s: %v", typedColumns[i], err)
						}
					}
					if got := res.Rows[0][i]; !bytes.Equal(got, want) {
						t.Errorf("%s in %s format = %q, want %q", typedColumns[i], name, got, want)
					}
				}
			})
		}
	}
}

// TestTypesParameterOIDsAreReported checks that Describe of a statement
// reports real parameter and column OIDs, which the describe-based exec
// modes rely on.
func TestTypesParameterOIDsAreReported(t *testing.T) {
	srv := startTarget(t)
	conn := connect(t, srv.URL)
	mustExec(t, conn, typedTable)
	sd, err := conn.Prepare(testContext(t), "", "INSERT INTO typed (id, c_int2, c_numeric, c_bytea, c_timestamptz, c_uuid) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, c_date")
	if err != nil {
		t.Fatal(err)
	}
	wantParams := []uint32{pgtype.Int4OID, pgtype.Int2OID, pgtype.NumericOID, pgtype.ByteaOID, pgtype.TimestamptzOID, pgtype.UUIDOID}
	if !slices.Equal(sd.ParamOIDs, wantParams) {
		t.Errorf("parameter OIDs = %v, want %v", sd.ParamOIDs, wantParams)
	}
	var gotFields []uint32
	for _, f := range sd.Fields {
		gotFields = append(gotFields, f.DataTypeOID)
	}
	if want := []uint32{pgtype.Int4OID, pgtype.DateOID}; !slices.Equal(gotFields, want) {
		t.Errorf("RETURNING column OIDs = %v, want %v", gotFields, want)
	}
}
