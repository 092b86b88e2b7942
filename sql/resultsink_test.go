package sql_test

import (
	"context"
	"fmt"
	"testing"

	"cdcdb/sql/sqltest"
	"cdcdb/wire"
)

// TestEmptyValuesAreNotNull: a value with no bytes (” as text, or in
// binary format) is sent as an empty value, not as NULL, also when it is
// the only value of the row.
func TestEmptyValuesAreNotNull(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	for q, want := range map[string]string{
		"SELECT ''":             "\n",
		"SELECT ''::bytea":      "\\x\n",
		"SELECT '', ''":         "|\n",
		"SELECT NULL::text, ''": "NULL|\n",
		"SELECT ''::varchar(3)": "\n",
		"SELECT array_to_string(ARRAY[]::text[], ',')": "\n",
	} {
		if got := c.MustExec(q).String(); got != want {
			t.Errorf("%s: got %q, want %q", q, got, want)
		}
	}
	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	sts, err := s.Parse(ctx, "SELECT ''::text", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sts[0].Bind(ctx, nil, nil, []int16{1})
	if err != nil {
		t.Fatal(err)
	}
	w := &rawRows{}
	if _, _, err := p.Execute(ctx, 0, w); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if len(w.rows) != 1 || w.rows[0][0] == nil || len(w.rows[0][0]) != 0 {
		t.Errorf("binary '': got %#v", w.rows)
	}
}

// rawRows keeps a copy of each row's values as sent, nil for NULL.
type rawRows struct{ rows [][][]byte }

func (w *rawRows) WriteRow(values [][]byte) error {
	row := make([][]byte, len(values))
	for i, v := range values {
		if v != nil {
			row[i] = append([]byte{}, v...)
		}
	}
	w.rows = append(w.rows, row)
	return nil
}
func (w *rawRows) Notice(*wire.NoticeInfo)                    {}
func (w *rawRows) CopyIn(bool, int) (wire.CopyReader, error)  { return nil, nil }
func (w *rawRows) CopyOut(bool, int) (wire.CopyWriter, error) { return nil, nil }

// TestSuspendedPortalRunsUnderEachExecutesContext: the wire server cancels
// each call's context when the call returns, so a portal suspended by a
// row limit must not keep reading under the context of the Execute that
// started it (it used to fail with 57014 once it checked, 256 rows on).
func TestSuspendedPortalRunsUnderEachExecutesContext(t *testing.T) {
	db := sqltest.Open(t)
	db.Conn().MustExec("CREATE TABLE t AS SELECT generate_series(1, 1000) AS a")
	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	call := func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }
	ctx, done := call()
	sts, err := s.Parse(ctx, "SELECT a FROM t", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sts[0].Bind(ctx, nil, nil, nil)
	done()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rows := 0
	for _, limit := range []int{100, 300, 300, 0} {
		ctx, done := call()
		w := &rawRows{}
		_, suspended, err := p.Execute(ctx, limit, w)
		done()
		if err != nil {
			t.Fatalf("Execute after %d rows: %v", rows, err)
		}
		rows += len(w.rows)
		if suspended != (limit != 0) {
			t.Fatalf("after %d rows: suspended %v", rows, suspended)
		}
	}
	if rows != 1000 {
		t.Errorf("%d rows, want 1000", rows)
	}
}

// TestStoredRowsMatchDecodedRows: a plain SELECT of a table's columns is
// sent from the rows' stored encoding (scan_stored.go); the same rows read
// through a filter are decoded first. Both must send the same bytes, in
// text and in binary, NULLs and columns added after a row was written
// included.
func TestStoredRowsMatchDecodedRows(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE t (id int8 PRIMARY KEY, i2 int2, i4 int4, b bool, s text, vc varchar(10), bp char(4),
		n name, f float8, num numeric, ts timestamptz, by bytea, ch "char")`)
	c.MustExec(`INSERT INTO t VALUES
		(1, -32768, 2147483647, true, 'héllo', 'v', 'ab', 'nm', 1.5, 12.50, '2024-02-29 12:00:00+00', '\x00ff', 'x'),
		(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(3, 0, -1, false, '', '', '', '', -0.0, -7, 'infinity', '', 'y'),
		(-9223372036854775808, 80, -17, true, repeat('z', 300), 'x', 'abcd', 'n', 'NaN', 'NaN', '-infinity', '\x', 'z')`)
	c.MustExec("ALTER TABLE t ADD COLUMN late int8")
	c.MustExec("ALTER TABLE t ADD COLUMN late_default text DEFAULT 'd'")
	c.MustExec("INSERT INTO t (id, late) VALUES (4, 9223372036854775807)")

	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	run := func(query string, format int16) [][][]byte {
		t.Helper()
		sts, err := s.Parse(ctx, query, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sts[0].Bind(ctx, nil, nil, []int16{format})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		w := &rawRows{}
		if _, _, err := p.Execute(ctx, 0, w); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return w.rows
	}
	const cols = "id, i2, i4, b, s, vc, bp, n, f, num, ts, by, ch, late, late_default, s"
	// A row of no columns is still a row.
	if rows := run("SELECT FROM t", 0); len(rows) != 5 {
		t.Errorf("SELECT FROM t: %d rows, want 5", len(rows))
	}
	for _, format := range []int16{0, 1} {
		stored := run("SELECT "+cols+" FROM t", format)
		decoded := run("SELECT "+cols+" FROM t WHERE id IS NOT NULL", format)
		if len(stored) != 5 || fmt.Sprint(stored) != fmt.Sprint(decoded) {
			t.Errorf("format %d:\nstored  %q\ndecoded %q", format, stored, decoded)
		}
	}
}
