package pgtests

import (
	"context"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/storage"
)

func TestRestartKeepsEveryCommittedRow(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	ctx := testContext(t)
	mustExec(t, conn, "CREATE SCHEMA kept")
	mustExec(t, conn, "CREATE TABLE kept.rows (id int8 PRIMARY KEY, v text NOT NULL DEFAULT 'default', n int4)")
	mustExec(t, conn, "INSERT INTO kept.rows (id, n) VALUES (1, 1), (2, 2), (3, 3)")
	mustExec(t, conn, "INSERT INTO kept.rows (id, v, n) VALUES (4, 'four', 4), (5, 'five', 5)")
	mustExec(t, conn, "BEGIN")
	mustExec(t, conn, "INSERT INTO kept.rows (id, n) VALUES (6, 6), (7, 7)")
	mustExec(t, conn, "COMMIT")
	mustExec(t, conn, "BEGIN")
	mustExec(t, conn, "INSERT INTO kept.rows (id, n) VALUES (999, 999)")
	mustExec(t, conn, "ROLLBACK")
	mustExec(t, conn, "UPDATE kept.rows SET v = 'updated' WHERE id = 1")
	mustExec(t, conn, "DELETE FROM kept.rows WHERE id = 2")
	var copyRows [][]any
	for id := 100; id < 150; id++ {
		copyRows = append(copyRows, []any{int64(id), "copied", int32(id)})
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"kept", "rows"}, []string{"id", "v", "n"}, pgx.CopyFromRows(copyRows)); err != nil {
		t.Fatalf("CopyFrom: %v", err)
	}
	wantIDs := []int64{1, 3, 4, 5, 6, 7}
	for id := int64(100); id < 150; id++ {
		wantIDs = append(wantIDs, id)
	}
	_ = conn.Close(ctx)

	if err := srv.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	checkDataFile(t, srv)
	srv.StartAgain()

	conn = connect(t, srv.URL())
	if got := queryInt64s(t, conn, "SELECT id FROM kept.rows ORDER BY id"); !slices.Equal(got, wantIDs) {
		t.Fatalf("after restart ids = %v\nwant %v", got, wantIDs)
	}
	if got := queryString(t, conn, "SELECT v FROM kept.rows WHERE id = 1"); got != "updated" {
		t.Errorf("after restart row 1 v = %q, want updated", got)
	}
	// The catalog survived too: the column default still applies.
	mustExec(t, conn, "INSERT INTO kept.rows (id) VALUES (200)")
	if got := queryString(t, conn, "SELECT v FROM kept.rows WHERE id = 200"); got != "default" {
		t.Errorf("column default after restart: v = %q, want default", got)
	}
	_ = conn.Close(ctx)

	// Writes made after a restart survive the next one.
	srv.Restart()
	conn = connect(t, srv.URL())
	if got := queryInt64s(t, conn, "SELECT count(*) FROM kept.rows"); !slices.Equal(got, []int64{int64(len(wantIDs) + 1)}) {
		t.Errorf("after the second restart count = %v, want %d", got, len(wantIDs)+1)
	}
}

func TestSignalShutsDownCleanlyAndReleasesTheFile(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			srv := startServer(t)
			conn := connect(t, srv.URL())
			mustExec(t, conn, "CREATE TABLE s (id int8 PRIMARY KEY)")
			mustExec(t, conn, "INSERT INTO s VALUES (1)")
			// A second client is mid-transaction when the signal comes.
			open := connect(t, srv.URL())
			mustExec(t, open, "BEGIN")
			mustExec(t, open, "INSERT INTO s VALUES (2)")

			// While it runs, the server holds the file.
			if db, err := storage.Open(srv.DataFile(), storage.Options{ReadOnly: true, Timeout: 300 * time.Millisecond}); err == nil {
				db.Close()
				t.Error("the data file could be opened while the server runs: it does not lock it")
			}

			if err := srv.StopWith(sig); err != nil {
				t.Fatalf("%v: %v", sig, err)
			}
			if err := conn.Ping(context.Background()); err == nil {
				t.Error("a client connection still answers after the server exited")
			}
			checkDataFile(t, srv)

			srv.StartAgain()
			conn = connect(t, srv.URL())
			if got := queryInt64s(t, conn, "SELECT id FROM s ORDER BY id"); !slices.Equal(got, []int64{1}) {
				t.Errorf("after %v and restart ids = %v, want [1] (2 was never committed)", sig, got)
			}
		})
	}
}
