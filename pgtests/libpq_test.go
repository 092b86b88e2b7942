package pgtests

import (
	"database/sql"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lib/pq"
)

// openLibPq opens a database/sql pool over lib/pq, closed at cleanup.
func openLibPq(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	db.SetConnMaxIdleTime(time.Minute)
	return db
}

func requirePqCode(t *testing.T, err error, code string) {
	t.Helper()
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) {
		t.Fatalf("want a *pq.Error with SQLSTATE %s, got %v", code, err)
	}
	if string(pqErr.Code) != code {
		t.Fatalf("want SQLSTATE %s, got %s: %s", code, pqErr.Code, pqErr.Message)
	}
}

func TestLibPqCoreSQL(t *testing.T) {
	srv := startTarget(t)
	db := openLibPq(t, srv.DSN)
	ctx := testContext(t)

	if _, err := db.ExecContext(ctx, "CREATE TABLE person (id int8 PRIMARY KEY, name text NOT NULL, born date, score float8 DEFAULT 0)"); err != nil {
		t.Fatal(err)
	}
	res, err := db.ExecContext(ctx, "INSERT INTO person (id, name, born) VALUES ($1, $2, $3), ($4, $5, $6)",
		1, "Ada", time.Date(1815, 12, 10, 0, 0, 0, 0, time.UTC), 2, "Grace", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 2 {
		t.Errorf("INSERT affected %d rows (%v), want 2", n, err)
	}

	// A prepared statement run several times.
	stmt, err := db.PrepareContext(ctx, "INSERT INTO person (id, name, score) VALUES ($1, $2, $3)")
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Edsger", "Barbara", "Donald"} {
		if _, err := stmt.ExecContext(ctx, 10+i, name, float64(i)+0.5); err != nil {
			t.Fatalf("prepared INSERT %s: %v", name, err)
		}
	}
	if err := stmt.Close(); err != nil {
		t.Fatal(err)
	}

	rows, err := db.QueryContext(ctx, "SELECT id, name, born, score FROM person WHERE id < $1 OR name = $2 ORDER BY id LIMIT $3", 5, "Donald", 10)
	if err != nil {
		t.Fatal(err)
	}
	type person struct {
		id    int64
		name  string
		born  sql.NullTime
		score float64
	}
	var got []person
	for rows.Next() {
		var p person
		if err := rows.Scan(&p.id, &p.name, &p.born, &p.score); err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []person{
		{1, "Ada", sql.NullTime{Time: time.Date(1815, 12, 10, 0, 0, 0, 0, time.UTC), Valid: true}, 0},
		{2, "Grace", sql.NullTime{}, 0},
		{12, "Donald", sql.NullTime{}, 2.5},
	}
	if len(got) != len(want) {
		t.Fatalf("SELECT returned %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.id != w.id || g.name != w.name || g.born.Valid != w.born.Valid || !g.born.Time.Equal(w.born.Time) || g.score != w.score {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}

	res, err = db.ExecContext(ctx, "UPDATE person SET score = score + $1 WHERE score > $2", 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Errorf("UPDATE affected %d rows, want 2", n)
	}
	res, err = db.ExecContext(ctx, "DELETE FROM person WHERE id >= $1", 11)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Errorf("DELETE affected %d rows, want 2", n)
	}

	_, err = db.ExecContext(ctx, "INSERT INTO person (id, name) VALUES ($1, $2)", 1, "again")
	requirePqCode(t, err, "23505")
	_, err = db.ExecContext(ctx, "INSERT INTO person (id) VALUES ($1)", 3)
	requirePqCode(t, err, "23502")
	_, err = db.QueryContext(ctx, "SELECT * FROM nope")
	requirePqCode(t, err, "42P01")
	_, err = db.ExecContext(ctx, "SELEC 1")
	requirePqCode(t, err, "42601")

	if got := libPqIDs(t, db, "SELECT id FROM person ORDER BY id"); !slices.Equal(got, []int64{1, 2, 10}) {
		t.Errorf("ids = %v, want [1 2 10]", got)
	}
}

func libPqIDs(t *testing.T, db *sql.DB, query string, args ...any) []int64 {
	t.Helper()
	rows, err := db.QueryContext(testContext(t), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestLibPqTransactionsAndCopyIn(t *testing.T) {
	srv := startTarget(t)
	db := openLibPq(t, srv.DSN)
	ctx := testContext(t)
	if _, err := db.ExecContext(ctx, "CREATE TABLE ledger (id int8 PRIMARY KEY, memo text, amount numeric)"); err != nil {
		t.Fatal(err)
	}

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO ledger VALUES ($1, $2, $3)", 1, "kept", "10.50"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	tx, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO ledger VALUES ($1, $2, $3)", 2, "rolled back", "1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}

	// After an error the transaction is aborted: 25P02 until it ends.
	tx, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO ledger VALUES ($1, 'dup', 0)", 1)
	requirePqCode(t, err, "23505")
	_, err = tx.ExecContext(ctx, "INSERT INTO ledger VALUES ($1, 'after the error', 0)", 3)
	requirePqCode(t, err, "25P02")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}

	// COPY FROM STDIN in text format, as lib/pq does it: a prepared
	// statement inside a transaction, one Exec per row, an empty Exec to end.
	tx, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.PrepareContext(ctx, "COPY ledger (id, memo, amount) FROM STDIN")
	if err != nil {
		t.Fatal(err)
	}
	memos := map[int]any{100: "tab\there", 101: "new\nline", 102: `back\slash`, 103: nil, 104: "ünïcødé"}
	for id := 100; id < 1100; id++ {
		memo, special := memos[id]
		if !special {
			memo = "plain"
		}
		if _, err := stmt.ExecContext(ctx, id, memo, "0.25"); err != nil {
			t.Fatalf("COPY row %d: %v", id, err)
		}
	}
	if _, err := stmt.ExecContext(ctx); err != nil {
		t.Fatalf("end of COPY: %v", err)
	}
	if err := stmt.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	var count int64
	var total string
	if err := db.QueryRowContext(ctx, "SELECT count(*), sum(amount)::text FROM ledger").Scan(&count, &total); err != nil {
		t.Fatal(err)
	}
	if count != 1001 || total != "260.50" {
		t.Errorf("count, sum(amount) = %d, %s; want 1001, 260.50", count, total)
	}
	for id, want := range memos {
		var memo sql.NullString
		if err := db.QueryRowContext(ctx, "SELECT memo FROM ledger WHERE id = $1", id).Scan(&memo); err != nil {
			t.Fatal(err)
		}
		if want == nil && memo.Valid || want != nil && memo.String != want {
			t.Errorf("memo of row %d = %+v, want %v", id, memo, want)
		}
	}
}
