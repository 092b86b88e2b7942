package sql_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"cdcdb/pgerror"
	"cdcdb/pgtests/corpus"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
	"cdcdb/sql/sqltest"
	"cdcdb/wire"
)

// FuzzQuery drives the whole front end with arbitrary text: parsing,
// binding and planning every statement (as Parse does for the wire), and
// running the read-only ones against a few tables with a short deadline.
// Whatever the input, the server must answer with a PostgreSQL error or a
// result: never a panic (which Execute would turn into XX000), never an
// error without a SQLSTATE. The seed corpus is every statement of the SQL
// corpus in pgtests; fuzz for real with
//
//	go test ./sql -run '^$' -fuzz FuzzQuery -fuzztime 1m
func FuzzQuery(f *testing.F) {
	for _, s := range corpusStatements(f) {
		f.Add(s)
	}
	f.Add("SELECT $1::int + 1")
	f.Add("SELECT sum(a) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM f")
	db := fuzzDatabase(f)
	f.Fuzz(func(t *testing.T, q string) {
		sess, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb", Database: "main"})
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		stmts, err := parse.Parse(q)
		if err != nil {
			requirePgError(t, q, err)
			return
		}
		prepared, err := sess.Parse(ctx, q, nil)
		if err != nil {
			requirePgError(t, q, err)
			return
		}
		if len(stmts) != len(prepared) {
			t.Fatalf("%q: %d statements parsed, %d prepared", q, len(stmts), len(prepared))
		}
		for i, st := range stmts {
			if _, ok := st.(*ast.Select); !ok {
				continue // writes and DDL are planned above, not run
			}
			params := make([][]byte, len(prepared[i].ParamTypes()))
			portal, err := prepared[i].Bind(ctx, params, nil, nil)
			if err != nil {
				requirePgError(t, q, err)
				continue
			}
			_, _, err = portal.Execute(ctx, 0, discardRows{})
			portal.Close()
			if err != nil {
				requirePgError(t, q, err)
			}
		}
		if s, ok := sess.(wire.SyncSession); ok {
			_ = s.Sync(ctx, true)
		}
	})
}

// requirePgError fails unless err is a PostgreSQL error other than an
// internal one.
func requirePgError(t *testing.T, q string, err error) {
	t.Helper()
	var pe *pgerror.Error
	if !errors.As(err, &pe) {
		t.Fatalf("%q: error without a SQLSTATE: %v", q, err)
	}
	if pe.Code == "" || pe.Code == pgerror.InternalError {
		t.Fatalf("%q: %s %s", q, pe.Code, pe.Message)
	}
}

// fuzzDatabase makes the database the fuzz inputs of one run share: a few
// tables of the common types, an index, a foreign key and a view.
func fuzzDatabase(f *testing.F) *sqltest.DB {
	db := sqltest.Open(f)
	c := db.Conn()
	for _, s := range []string{
		`CREATE TABLE f (id int PRIMARY KEY, a int, b text, c numeric, d date, e jsonb, g int[])`,
		`CREATE INDEX f_a ON f (a)`,
		`CREATE TABLE h (id int PRIMARY KEY, f_id int REFERENCES f, t timestamptz)`,
		`INSERT INTO f SELECT g, g % 7, 'b' || g, g / 3.0, DATE '2024-01-01' + g, jsonb_build_object('k', g), ARRAY[g, g + 1] FROM generate_series(1, 50) AS g`,
		`INSERT INTO h SELECT g, g % 50 + 1, TIMESTAMPTZ '2024-01-01 00:00+00' + g * interval '1 hour' FROM generate_series(1, 80) AS g`,
		`CREATE VIEW fv AS SELECT a, count(*) AS n FROM f GROUP BY a`,
	} {
		c.MustExec(s)
	}
	return db
}

// corpusStatements reads the statements of the SQL corpus (package
// pgtests/corpus).
func corpusStatements(tb testing.TB) []string {
	files, err := corpus.Load(filepath.Join("..", "pgtests", "corpus", "testdata"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, f := range files {
		for _, b := range f.Blocks {
			out = append(out, b.SQL)
		}
	}
	return out
}

// discardRows is a ResultWriter that drops what it is given.
type discardRows struct{}

func (discardRows) WriteRow([][]byte) error                   { return nil }
func (discardRows) Notice(*wire.NoticeInfo)                   {}
func (discardRows) CopyIn(bool, int) (wire.CopyReader, error) { return nil, errors.New("no COPY here") }
func (discardRows) CopyOut(bool, int) (wire.CopyWriter, error) {
	return nil, errors.New("no COPY here")
}
