package parse

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"cdcdb/pgerror"
)

// FuzzParse checks that any text gives either a tree or a well-formed
// PostgreSQL error, quickly, in both dialects:
//
//   - no panic and no hang: a parse finishes within a bound that grows
//     with the input (the parser never backtracks, and nesting is bounded);
//   - an error is a *pgerror.Error with a syntax, data or windowing SQLSTATE
//     (or 0A000 for what cdcdb refuses) and a position inside the text;
//   - a tree only holds positions inside the text;
//   - parsing is deterministic.
//
// The seed corpus is testdata/seed.sql and testdata/psql_describe.sql (a
// few hundred realistic statements: pgtests' PostgreSQL corpus, client and
// ORM queries, psql's describe queries, flows) plus every test input of
// this package. Run with: go test -fuzz FuzzParse ./sql/parse
func FuzzParse(f *testing.F) {
	for _, s := range readCorpus(f, "seed.sql") {
		f.Add(s, false)
	}
	for _, s := range readCorpus(f, "psql_describe.sql") {
		f.Add(s, false)
	}
	for _, c := range renderCases {
		f.Add(c.in, false)
	}
	for _, c := range pgErrorCases {
		f.Add(c.in, false)
	}
	f.Add("CREATE FLOW f AS AUTO CDC INTO `T` FROM stream(s) KEYS (`Id`) APPLY AS DELETE WHEN op = \"D\" SEQUENCE BY seq", true)
	f.Add(strings.Repeat("(", 6000)+"1", false)
	f.Fuzz(func(t *testing.T, sql string, databricks bool) {
		if len(sql) > 1<<16 {
			return
		}
		opts := Options{}
		if databricks {
			opts.Dialect = DialectDatabricks
		}
		start := time.Now()
		stmts, err := ParseWithOptions(sql, opts)
		// Generous: a 64 KiB input parses in well under 100ms.
		if d := time.Since(start); d > time.Second+time.Duration(len(sql))*100*time.Microsecond {
			t.Fatalf("parse took %v for %d bytes", d, len(sql))
		}
		if err != nil {
			checkError(t, sql, err)
			return
		}
		for _, s := range stmts {
			checkPositions(t, sql, reflect.ValueOf(s))
		}
		again, err2 := ParseWithOptions(sql, opts)
		if err2 != nil || len(again) != len(stmts) {
			t.Fatalf("second parse differs: %v", err2)
		}
		for i := range stmts {
			if render(stmts[i]) != render(again[i]) {
				t.Fatalf("second parse differs:\n%s\n%s", render(stmts[i]), render(again[i]))
			}
		}
	})
}

func checkError(t *testing.T, sql string, err error) {
	t.Helper()
	pe, ok := err.(*pgerror.Error)
	if !ok {
		t.Fatalf("error %T %v is not a *pgerror.Error", err, err)
	}
	switch {
	case pe.Code == pgerror.SyntaxError, pe.Code == pgerror.FeatureNotSupported,
		pe.Code == pgerror.WindowingError, strings.HasPrefix(pe.Code, "22"):
	default:
		t.Fatalf("unexpected SQLSTATE %s: %v", pe.Code, pe)
	}
	if pe.Position < 0 || pe.Position > utf8.RuneCountInString(sql)+1 {
		t.Fatalf("position %d outside the text (%d characters): %v", pe.Position, utf8.RuneCountInString(sql), pe)
	}
	if pe.Message == "" {
		t.Fatal("empty message")
	}
}

// checkPositions walks a tree and checks every Pos and OpPos field.
func checkPositions(t *testing.T, sql string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkPositions(t, sql, v.Elem())
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			checkPositions(t, sql, v.Index(i))
		}
	case reflect.Map:
		if v.Type() == reflect.TypeOf(map[string]int{}) { // CreateFlow.Clauses
			for _, k := range v.MapKeys() {
				if p := int(v.MapIndex(k).Int()); p < 0 || p >= len(sql) {
					t.Fatalf("clause %v at %d outside the text", k, p)
				}
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if (f.Name == "Pos" || f.Name == "OpPos") && f.Type.Kind() == reflect.Int {
				if p := int(v.Field(i).Int()); p < 0 || p > len(sql) {
					t.Fatalf("%s.%s = %d outside the text (%d bytes)", v.Type().Name(), f.Name, p, len(sql))
				}
				continue
			}
			checkPositions(t, sql, v.Field(i))
		}
	}
}

// TestSeedCorpus runs the fuzz properties over the seed corpus in ordinary
// test runs, and checks that what PostgreSQL accepts there parses.
func TestSeedCorpus(t *testing.T) {
	n := 0
	for _, file := range []string{"seed.sql", "psql_describe.sql"} {
		for _, sql := range readCorpus(t, file) {
			n++
			stmts, err := Parse(sql)
			if err != nil {
				checkError(t, sql, err)
				continue
			}
			for _, s := range stmts {
				checkPositions(t, sql, reflect.ValueOf(s))
			}
		}
	}
	if n < 800 {
		t.Errorf("only %d seed statements", n)
	}
}
