package pgtests

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Isolation levels over the wire, each expectation checked on PostgreSQL
// 15 first: what REPEATABLE READ and SERIALIZABLE promise (no lost update,
// reads from one snapshot, no serialization anomaly), what READ COMMITTED
// allows, and READ ONLY. See sql/txmodes.go for how cdcdb keeps them.

// isSerializationFailure reports whether err is SQLSTATE 40001.
func isSerializationFailure(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40001"
}

// isolationSeed is the seed of the randomized isolation tests: the
// ISOLATION_SEED environment variable, or a fresh one, logged either way.
func isolationSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ISOLATION_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ISOLATION_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("seed %d (ISOLATION_SEED=%d reproduces the clients' choices)", seed, seed)
	return seed
}

// readModifyWrite runs clients that each commit ops increments of randomly
// chosen counters, every one in its own transaction at level that reads
// the counter, then writes what it read plus one (retrying on 40001), and
// returns how many increments were acknowledged, how many were refused
// with 40001, and the counters' sum at the end.
func readModifyWrite(t *testing.T, tg target, level string, clients, ops, counters int, seed uint64) (acked, refused, sum int64) {
	t.Helper()
	ctx := testContext(t)
	setup := connect(t, tg.URL)
	mustExec(t, setup, "DROP TABLE IF EXISTS counters")
	mustExec(t, setup, "CREATE TABLE counters (id int PRIMARY KEY, v bigint NOT NULL)")
	mustExec(t, setup, "INSERT INTO counters SELECT g, 0 FROM generate_series(1, $1::int) g", counters)
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		conn := connect(t, tg.URL)
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < ops; {
				id := 1 + rng.IntN(counters)
				err := pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{IsoLevel: pgx.TxIsoLevel(level)}, func(tx pgx.Tx) error {
					var v int64
					if err := tx.QueryRow(ctx, "SELECT v FROM counters WHERE id = $1", id).Scan(&v); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, "UPDATE counters SET v = $1 WHERE id = $2", v+1, id)
					return err
				})
				mu.Lock()
				switch {
				case err == nil:
					acked++
					done++
				case isSerializationFailure(err):
					refused++
				default:
					mu.Unlock()
					errs <- fmt.Errorf("client %d: %w", c, err)
					return
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	sum = queryInt64s(t, setup, "SELECT sum(v)::bigint FROM counters")[0]
	return acked, refused, sum
}

// TestIsolationNoLostUpdates has four clients increment a few counters by
// reading them and writing back what they read plus one. Under REPEATABLE
// READ and SERIALIZABLE every acknowledged increment is in the total (the
// losers of each race get 40001 and retry); under READ COMMITTED no 40001
// is raised and increments may be lost, as in PostgreSQL.
func TestIsolationNoLostUpdates(t *testing.T) {
	seed := isolationSeed(t)
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			for _, level := range []string{"serializable", "repeatable read"} {
				t.Run(level, func(t *testing.T) {
					acked, refused, sum := readModifyWrite(t, tg, level, 4, 150, 3, seed)
					t.Logf("%d increments acknowledged, %d refused with 40001, total %d", acked, refused, sum)
					if sum != acked {
						t.Errorf("the counters add up to %d, but %d increments were acknowledged: %d lost", sum, acked, acked-sum)
					}
				})
			}
			t.Run("read committed", func(t *testing.T) {
				acked, refused, sum := readModifyWrite(t, tg, "read committed", 4, 150, 3, seed)
				t.Logf("%d increments acknowledged, total %d (%d lost, which READ COMMITTED allows)", acked, sum, acked-sum)
				if refused != 0 {
					t.Errorf("READ COMMITTED refused %d transactions with 40001; it never does", refused)
				}
				if sum > acked {
					t.Errorf("the counters add up to %d, more than the %d increments acknowledged", sum, acked)
				}
			})
			t.Run("read committed, one statement", func(t *testing.T) {
				// UPDATE ... SET v = v + 1 reads and writes the row in one
				// statement: nothing is lost at any level.
				ctx := testContext(t)
				setup := connect(t, tg.URL)
				mustExec(t, setup, "CREATE TABLE hits (id int PRIMARY KEY, v bigint NOT NULL)")
				mustExec(t, setup, "INSERT INTO hits VALUES (1, 0)")
				var wg sync.WaitGroup
				errs := make(chan error, 4)
				for range 4 {
					conn := connect(t, tg.URL)
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range 100 {
							if _, err := conn.Exec(ctx, "UPDATE hits SET v = v + 1 WHERE id = 1"); err != nil {
								errs <- err
								return
							}
						}
					}()
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Fatal(err)
				}
				if got := queryInt64s(t, setup, "SELECT v FROM hits")[0]; got != 400 {
					t.Errorf("hits = %d after 400 increments", got)
				}
			})
		})
	}
}

// TestIsolationSnapshot walks two sessions through the cases where the
// levels differ, step by step.
func TestIsolationSnapshot(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			a, b := connect(t, tg.URL), connect(t, tg.URL)
			reset := func() {
				mustExec(t, b, "DROP TABLE IF EXISTS acct, other")
				mustExec(t, b, "CREATE TABLE acct (id int PRIMARY KEY, bal int)")
				mustExec(t, b, "CREATE TABLE other (id int PRIMARY KEY, n int)")
				mustExec(t, b, "INSERT INTO acct VALUES (1, 100), (2, 100)")
				mustExec(t, b, "INSERT INTO other VALUES (1, 0)")
			}
			balance := func(c *pgx.Conn) int64 {
				return queryInt64s(t, c, "SELECT bal FROM acct WHERE id = 1")[0]
			}

			// READ COMMITTED: each statement sees the newest commit.
			reset()
			mustExec(t, a, "BEGIN ISOLATION LEVEL READ COMMITTED")
			if got := balance(a); got != 100 {
				t.Fatalf("read committed, first read: %d", got)
			}
			mustExec(t, b, "UPDATE acct SET bal = 50 WHERE id = 1")
			if got := balance(a); got != 50 {
				t.Errorf("read committed, read after another commit: %d, want 50", got)
			}
			mustExec(t, a, "UPDATE acct SET bal = bal + 1 WHERE id = 1")
			mustExec(t, a, "COMMIT")
			if got := balance(b); got != 51 {
				t.Errorf("read committed: %d after the update, want 51", got)
			}

			for _, level := range []string{"REPEATABLE READ", "SERIALIZABLE"} {
				// Reads repeat, new rows stay out of sight, and an update
				// of a row changed since the snapshot fails with 40001.
				reset()
				mustExec(t, a, "BEGIN ISOLATION LEVEL "+level)
				if got := balance(a); got != 100 {
					t.Fatalf("%s, first read: %d", level, got)
				}
				mustExec(t, b, "UPDATE acct SET bal = 50 WHERE id = 1")
				mustExec(t, b, "INSERT INTO acct VALUES (3, 7)")
				if got := balance(a); got != 100 {
					t.Errorf("%s: read %d after another commit, want the snapshot's 100", level, got)
				}
				if got := queryInt64s(t, a, "SELECT count(*) FROM acct"); got[0] != 2 {
					t.Errorf("%s: %d rows after another session inserted one, want the snapshot's 2", level, got[0])
				}
				_, err := a.Exec(ctx, "UPDATE acct SET bal = bal + 1 WHERE id = 1")
				if !isSerializationFailure(err) {
					t.Errorf("%s: update of a row changed since the snapshot: %v, want 40001", level, err)
				}
				mustExec(t, a, "ROLLBACK")
				if got := balance(b); got != 50 {
					t.Errorf("%s: %d after the refused update, want 50", level, got)
				}

				// A block that read nothing before it writes sees the newest
				// state: its snapshot is taken by its first statement.
				reset()
				mustExec(t, a, "BEGIN ISOLATION LEVEL "+level)
				mustExec(t, b, "UPDATE acct SET bal = 60 WHERE id = 1")
				mustExec(t, a, "UPDATE acct SET bal = bal + 1 WHERE id = 1")
				mustExec(t, a, "COMMIT")
				if got := balance(b); got != 61 {
					t.Errorf("%s, snapshot at the first statement: %d, want 61", level, got)
				}
			}

			// SERIALIZABLE: write skew. Both read the two accounts, each
			// takes 150 from a different one if the sum allows it; one of
			// them must fail.
			reset()
			mustExec(t, a, "BEGIN ISOLATION LEVEL SERIALIZABLE")
			mustExec(t, b, "BEGIN ISOLATION LEVEL SERIALIZABLE")
			sumOf := func(c *pgx.Conn) int64 { return queryInt64s(t, c, "SELECT sum(bal)::bigint FROM acct")[0] }
			if sumOf(a) != 200 || sumOf(b) != 200 {
				t.Fatal("write skew: sums before")
			}
			mustExec(t, a, "UPDATE acct SET bal = bal - 150 WHERE id = 1")
			// PostgreSQL refuses b's update at once (it would close a cycle
			// of read/write dependencies); cdcdb takes it and refuses b's
			// commit, as a committed first and changed what b read. Either
			// way the first writer commits and the second gets 40001.
			_, bErr := b.Exec(ctx, "UPDATE acct SET bal = bal - 150 WHERE id = 2")
			_, aErr := a.Exec(ctx, "COMMIT")
			if bErr == nil {
				_, bErr = b.Exec(ctx, "COMMIT")
			}
			if b.PgConn().TxStatus() != 'I' {
				mustExec(t, b, "ROLLBACK")
			}
			if aErr != nil {
				t.Errorf("write skew: the first writer's commit failed: %v", aErr)
			}
			if !isSerializationFailure(bErr) {
				t.Errorf("write skew: the second writer got %v, want 40001", bErr)
			}
			if got := sumOf(b); got != 50 {
				t.Errorf("write skew: sum %d after, want 50 (only the first withdrawal)", got)
			}

			// A SERIALIZABLE read-only block sees one snapshot throughout,
			// and never fails.
			reset()
			mustExec(t, a, "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY")
			if sumOf(a) != 200 {
				t.Fatal("read-only: sum before")
			}
			mustExec(t, b, "UPDATE acct SET bal = 0 WHERE id = 2")
			if got := queryInt64s(t, a, "SELECT bal FROM acct WHERE id = 2")[0]; got != 100 {
				t.Errorf("read-only serializable: %d, want the snapshot's 100", got)
			}
			mustExec(t, a, "COMMIT")
		})
	}
}

// TestIsolationSerializableReadThenWriteElsewhere: a SERIALIZABLE block
// that read a table another transaction changed since its snapshot, then
// writes another table. PostgreSQL lets it commit when nothing else closes a
// cycle; cdcdb finds conflicts per table, and checks a detached block's
// reads at its COMMIT, so it refuses it there with 40001 (a false
// positive, which a client retries as any 40001). The test pins cdcdb's
// behaviour and checks the retry succeeds.
func TestIsolationSerializableReadThenWriteElsewhere(t *testing.T) {
	tg := startTarget(t)
	if tg.Name != "cdcdb" {
		t.Skip("cdcdb's own behaviour")
	}
	ctx := testContext(t)
	a, b := connect(t, tg.URL), connect(t, tg.URL)
	mustExec(t, b, "CREATE TABLE src (id int PRIMARY KEY, v int)")
	mustExec(t, b, "CREATE TABLE dst (id int PRIMARY KEY, v int)")
	mustExec(t, b, "INSERT INTO src VALUES (1, 1)")
	mustExec(t, a, "BEGIN ISOLATION LEVEL SERIALIZABLE")
	queryInt64s(t, a, "SELECT v FROM src")
	mustExec(t, b, "UPDATE src SET v = 2")
	mustExec(t, a, "INSERT INTO dst VALUES (1, 1)")
	if _, err := a.Exec(ctx, "COMMIT"); !isSerializationFailure(err) {
		t.Fatalf("commit of a write after a read of a table changed since: %v, want 40001", err)
	}
	mustExec(t, a, "BEGIN ISOLATION LEVEL SERIALIZABLE")
	if got := queryInt64s(t, a, "SELECT v FROM src")[0]; got != 2 {
		t.Fatalf("retry read %d", got)
	}
	mustExec(t, a, "INSERT INTO dst SELECT id, v FROM src")
	mustExec(t, a, "COMMIT")
	if got := queryInt64s(t, b, "SELECT v FROM dst")[0]; got != 2 {
		t.Fatalf("dst after the retry: %d", got)
	}
}

// TestTransactionModes checks what the modes report and refuse, statement
// by statement, on both servers: SHOW and current_setting of the
// transaction_* parameters, SET TRANSACTION after a query (25001), and
// writes in a read-only transaction (25006, temporary tables excepted).
func TestTransactionModes(t *testing.T) {
	steps := []struct {
		sql  string
		want string // the one value returned, or "ERROR <code>", or "" for none
	}{
		{"SHOW transaction_isolation", "read committed"},
		{"SET default_transaction_isolation = 'serializable'", ""},
		{"SHOW transaction_isolation", "serializable"},
		{"SET transaction_isolation = 'repeatable read'", ""}, // a transaction of its own
		{"SELECT current_setting('transaction_isolation')", "serializable"},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ", ""},
		{"SHOW transaction_isolation", "repeatable read"},
		{"SET TRANSACTION ISOLATION LEVEL READ COMMITTED", ""},
		{"SHOW transaction_isolation", "read committed"},
		{"SELECT 1", "1"},
		{"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "ERROR 25001"},
		{"ROLLBACK", ""},
		{"SET default_transaction_isolation = 'bogus'", "ERROR 22023"},
		{"RESET default_transaction_isolation", ""},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", ""},
		{"SHOW default_transaction_isolation", "repeatable read"},
		{"SHOW transaction_read_only", "on"},
		{"INSERT INTO modes_t VALUES (1)", "ERROR 25006"},
		{"SET default_transaction_read_only = off", ""},
		{"RESET default_transaction_isolation", ""},
		{"BEGIN READ ONLY", ""},
		{"SHOW transaction_read_only", "on"},
		{"SELECT count(*) FROM modes_t", "0"},
		{"INSERT INTO modes_t VALUES (1)", "ERROR 25006"},
		{"ROLLBACK", ""},
		{"BEGIN READ ONLY", ""},
		{"UPDATE modes_t SET a = 2", "ERROR 25006"},
		{"ROLLBACK", ""},
		{"BEGIN READ ONLY", ""},
		{"DELETE FROM modes_t", "ERROR 25006"},
		{"ROLLBACK", ""},
		{"BEGIN READ ONLY", ""},
		{"CREATE TABLE modes_u (a int)", "ERROR 25006"},
		{"ROLLBACK", ""},
		{"BEGIN READ ONLY", ""},
		{"TRUNCATE modes_t", "ERROR 25006"},
		{"ROLLBACK", ""},
		{"BEGIN READ ONLY", ""},
		{"SELECT nextval('modes_s_id_seq')", "ERROR 25006"},
		{"ROLLBACK", ""},
		{"BEGIN READ ONLY", ""},
		{"INSERT INTO modes_tmp VALUES (1)", ""}, // temporary tables may be written
		{"SELECT count(*) FROM modes_tmp", "1"},
		{"COMMIT", ""},
		{"BEGIN", ""},
		{"SELECT 1", "1"},
		{"SET transaction_read_only = on", ""}, // tightening is allowed after a query
		{"INSERT INTO modes_t VALUES (1)", "ERROR 25006"},
		{"ROLLBACK", ""},
		{"BEGIN READ ONLY", ""},
		{"SELECT 1", "1"},
		{"SET transaction_read_only = off", "ERROR 25001"},
		{"ROLLBACK", ""},
		{"BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE", ""},
		{"SHOW transaction_deferrable", "on"},
		{"COMMIT", ""},
		{"SHOW transaction_read_only", "off"},
		{"SELECT count(*) FROM modes_t", "0"},
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			conn := connectMode(t, tg.URL, pgx.QueryExecModeSimpleProtocol)
			mustExec(t, conn, "CREATE TABLE modes_t (a int)")
			mustExec(t, conn, "CREATE TABLE modes_s (id serial)")
			mustExec(t, conn, "CREATE TEMP TABLE modes_tmp (a int)")
			for _, st := range steps {
				got := oneValue(ctx, conn, st.sql)
				if got != st.want {
					t.Errorf("%s: got %q, want %q", st.sql, got, st.want)
				}
			}
		})
	}
}

// oneValue runs sql and renders what it returned: its one value, "" when it
// returns no rows, or "ERROR <SQLSTATE>".
func oneValue(ctx context.Context, conn *pgx.Conn, sql string) string {
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return errorCode(err)
	}
	got := ""
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			rows.Close()
			return errorCode(err)
		}
		got = fmt.Sprint(vals[0])
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return errorCode(err)
	}
	return got
}

func errorCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return "ERROR " + pe.Code
	}
	return "ERROR " + err.Error()
}
