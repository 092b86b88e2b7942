package sqltest_test

import (
	"context"
	"errors"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestSimpleQueryIsOneImplicitTransaction: the statements of one text share
// an implicit transaction, as over the wire; an error reports the
// statements before it, stops the rest and rolls all of them back.
func TestSimpleQueryIsOneImplicitTransaction(t *testing.T) {
	c := sqltest.Open(t).Conn()
	ctx := context.Background()
	res, err := c.SimpleQuery(ctx, "CREATE TABLE t (a int); INSERT INTO t VALUES (1), (2); SELECT 1/0; INSERT INTO t VALUES (3)")
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, s := range res.Statements {
		tags = append(tags, s.Tag)
	}
	if len(tags) != 2 || tags[0] != "CREATE TABLE" || tags[1] != "INSERT 0 2" {
		t.Errorf("completed statements %q, want CREATE TABLE and INSERT 0 2", tags)
	}
	if len(res.Errors) != 1 || res.Errors[0].Code != "22012" {
		t.Fatalf("errors %v, want one 22012", res.Errors)
	}
	res, err = c.SimpleQuery(ctx, "SELECT a FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || res.Errors[0].Code != "42P01" || res.Errors[0].Position != 15 {
		t.Errorf("after the failed text, errors %v, want 42P01 at 15: its CREATE TABLE was rolled back", res.Errors)
	}
}

// TestSimpleQueryResults: fields, rows as the DataRows carry them, tags,
// and the EmptyQueryResponse of a text without statements.
func TestSimpleQueryResults(t *testing.T) {
	c := sqltest.Open(t).Conn()
	ctx := context.Background()
	res, err := c.SimpleQuery(ctx, "SELECT 1 AS one, NULL::text AS nothing; SELECT 1 WHERE false; CREATE TABLE t (a int)")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 0 || len(res.Statements) != 3 {
		t.Fatalf("got %+v", res)
	}
	first := res.Statements[0]
	if len(first.Fields) != 2 || first.Fields[0].Name != "one" || first.Fields[0].TypeOID != 23 || first.Fields[1].TypeOID != 25 {
		t.Errorf("fields %+v, want one:int4 and nothing:text", first.Fields)
	}
	if len(first.Rows) != 1 || string(first.Rows[0][0]) != "1" || first.Rows[0][1] != nil || first.Tag != "SELECT 1" {
		t.Errorf("rows %q tag %q, want [1 NULL] and SELECT 1", first.Rows, first.Tag)
	}
	if none := res.Statements[1]; len(none.Fields) != 1 || len(none.Rows) != 0 || none.Tag != "SELECT 0" {
		t.Errorf("an empty result: %+v", none)
	}
	if ddl := res.Statements[2]; ddl.Fields != nil || ddl.Tag != "CREATE TABLE" {
		t.Errorf("DDL sends no RowDescription: %+v", ddl)
	}

	res, err = c.SimpleQuery(ctx, "-- only a comment")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Statements) != 1 || !res.Statements[0].Empty || len(res.Errors) != 0 {
		t.Errorf("an empty text: %+v, want one EmptyQueryResponse", res)
	}
}

// TestSimpleQueryErrorsAsTheClientSeesThem: a statement cut short by its
// context reaches the caller as the 57014 a client would get; COPY, which
// SimpleQuery has no data for, is refused without ending the session; and
// DEALLOCATE of a statement never prepared fails as over the wire.
func TestSimpleQueryErrorsAsTheClientSeesThem(t *testing.T) {
	c := sqltest.Open(t).Conn()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := c.SimpleQuery(ctx, "SELECT count(*) FROM generate_series(1, 100000000)")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || res.Errors[0].Code != "57014" || res.Errors[0].Message != "canceling statement due to user request" {
		t.Errorf("a cancelled statement: errors %v, want 57014", res.Errors)
	}
	res, err = c.SimpleQuery(context.Background(), "CREATE TABLE t (a int); COPY t FROM STDIN")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || res.Errors[0].Code != "0A000" {
		t.Errorf("COPY: errors %v, want 0A000", res.Errors)
	}
	if _, err := c.SimpleQuery(context.Background(), "SELECT 1"); errors.Is(err, sqltest.ErrConnClosed) {
		t.Errorf("the session ended after a refused COPY")
	}
	// The connection prepared no named statement, so SQL DEALLOCATE finds
	// none, as over the wire.
	res, err = c.SimpleQuery(context.Background(), "DEALLOCATE nosuch")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || res.Errors[0].Code != "26000" {
		t.Errorf("DEALLOCATE of an unknown statement: errors %v, want 26000", res.Errors)
	}
}
