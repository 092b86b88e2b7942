package pgtests

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Concurrent write transactions (docs/concurrency.md): a transaction that
// wrote and then idles stops no other writer of another table or another
// row; writers of the same row wait, fail or go on as PostgreSQL 15's do at
// each isolation level, step by step; and many clients moving money
// between accounts neither lose an update nor break the total.

// TestIdleWriterBlocksNoOtherRow leaves a transaction idle after an INSERT
// and an UPDATE and checks, on PostgreSQL and cdcdb alike, that other
// sessions insert into another table and into the same table, update
// another row, and commit, each within a statement_timeout far below what
// waiting for the idle one would take; only the row it holds makes a
// writer wait (55P03 under lock_timeout).
func TestIdleWriterBlocksNoOtherRow(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			idle, other := connect(t, tg.URL), connect(t, tg.URL)
			mustExec(t, other, "CREATE TABLE a (id int PRIMARY KEY, v int)")
			mustExec(t, other, "CREATE TABLE b (id int PRIMARY KEY, v int)")
			mustExec(t, other, "CREATE TABLE c (id serial PRIMARY KEY, v int)")
			mustExec(t, other, "INSERT INTO a VALUES (1, 1), (2, 2)")
			mustExec(t, idle, "BEGIN")
			mustExec(t, idle, "INSERT INTO a VALUES (10, 10)")
			mustExec(t, idle, "UPDATE a SET v = v + 1 WHERE id = 1")
			mustExec(t, idle, "INSERT INTO c (v) VALUES (1)")

			mustExec(t, other, "SET statement_timeout = '2s'")
			start := time.Now()
			mustExec(t, other, "INSERT INTO b VALUES (1, 1)")
			mustExec(t, other, "INSERT INTO a VALUES (11, 11)")
			mustExec(t, other, "UPDATE a SET v = v + 1 WHERE id = 2")
			mustExec(t, other, "INSERT INTO c (v) VALUES (2)")
			mustExec(t, other, "BEGIN")
			mustExec(t, other, "INSERT INTO a VALUES (12, 12)")
			mustExec(t, other, "DELETE FROM b WHERE id = 1")
			mustExec(t, other, "COMMIT")
			if took := time.Since(start); took > 2*time.Second {
				t.Fatalf("writers beside an idle transaction took %v", took)
			}
			// The row the idle transaction changed is held.
			mustExec(t, other, "SET lock_timeout = '200ms'")
			_, err := other.Exec(ctx, "UPDATE a SET v = 0 WHERE id = 1")
			requireSQLState(t, err, "55P03")
			_, err = other.Exec(ctx, "INSERT INTO a VALUES (10, 0)")
			requireSQLState(t, err, "55P03")
			mustExec(t, other, "RESET lock_timeout")
			mustExec(t, idle, "COMMIT")
			got := strings.Join(queryStrings(t, other, "SELECT id || ':' || v FROM a ORDER BY id"), " ")
			if want := "1:2 2:3 10:10 11:11 12:12"; got != want {
				t.Errorf("a holds %s, want %s", got, want)
			}
			if got := queryInt64s(t, other, "SELECT count(DISTINCT id) FROM c"); got[0] != 2 {
				t.Errorf("c has %d distinct serial ids, want 2", got[0])
			}
			if got := queryInt64s(t, other, "SELECT count(*) FROM b"); got[0] != 0 {
				t.Errorf("b has %d rows, want 0", got[0])
			}
		})
	}
}

// step is one statement of a scenario: the session (0 or 1) that sends it.
type step struct {
	session int
	sql     string
}

// runScenario plays steps on two sessions and returns a transcript: each
// statement's outcome (its command tag, or its SQLSTATE and message), or
// "waits" when it has not ended half a second after it was sent, in which
// case its outcome is written when it ends, after the step that let it go.
// Then the rows of acct. Two servers that wait, fail and go on alike give
// the same transcript.
func runScenario(t *testing.T, url string, setup []string, steps []step) []string {
	t.Helper()
	ctx := testContext(t)
	conns := []*pgx.Conn{connect(t, url), connect(t, url)}
	defer func() {
		for _, c := range conns {
			_ = c.Close(ctx)
		}
	}()
	for _, s := range setup {
		mustExec(t, conns[0], s)
	}
	type result struct {
		tag pgconn.CommandTag
		err error
	}
	pending := make([]chan result, 2)
	outcome := func(r result) string {
		if r.err != nil {
			var pe *pgconn.PgError
			if errors.As(r.err, &pe) {
				return "ERROR " + pe.Code + " " + pe.Message
			}
			return "ERROR " + r.err.Error()
		}
		return r.tag.String()
	}
	const settle = 500 * time.Millisecond
	var transcript []string
	for i, st := range steps {
		if pending[st.session] != nil {
			t.Fatalf("%s: step %d: session %d still waits for its last statement:\n%s", url, i, st.session, strings.Join(transcript, "\n"))
		}
		done := make(chan result, 1)
		go func(c *pgx.Conn, sql string) {
			tag, err := c.Exec(ctx, sql)
			done <- result{tag, err}
		}(conns[st.session], st.sql)
		line := fmt.Sprintf("s%d %s: ", st.session, st.sql)
		select {
		case r := <-done:
			transcript = append(transcript, line+outcome(r))
		case <-time.After(settle):
			transcript = append(transcript, line+"waits")
			pending[st.session] = done
		}
		for s, ch := range pending {
			if ch == nil || s == st.session {
				continue
			}
			select {
			case r := <-ch:
				transcript = append(transcript, fmt.Sprintf("s%d resumes: %s", s, outcome(r)))
				pending[s] = nil
			case <-time.After(settle):
			}
		}
	}
	for s, ch := range pending {
		if ch != nil {
			t.Fatalf("session %d still waits at the end of the scenario", s)
		}
	}
	rows := queryStrings(t, conns[0], "SELECT id || ':' || bal FROM acct ORDER BY id")
	return append(transcript, "acct: "+strings.Join(rows, " "))
}

// TestSameRowConflictsAsPostgres plays two sessions writing the same rows at
// each isolation level, on PostgreSQL 15 and on cdcdb, and compares the
// transcripts: who waits, who goes on with the newer version, who fails
// with which SQLSTATE and message, and the rows left.
func TestSameRowConflictsAsPostgres(t *testing.T) {
	setup := []string{
		"DROP TABLE IF EXISTS acct",
		"CREATE TABLE acct (id int PRIMARY KEY, bal int NOT NULL, tag text UNIQUE)",
		"INSERT INTO acct VALUES (1, 100, 'one'), (2, 100, 'two')",
	}
	// The same accounts, each of an owner, for the foreign key scenarios.
	ownedSetup := []string{
		"DROP TABLE IF EXISTS acct",
		"DROP TABLE IF EXISTS owner",
		"CREATE TABLE owner (id int PRIMARY KEY)",
		"INSERT INTO owner VALUES (1), (2)",
		"CREATE TABLE acct (id int PRIMARY KEY, bal int NOT NULL, tag text UNIQUE, owner int REFERENCES owner (id))",
		"INSERT INTO acct VALUES (1, 100, 'one', 1), (2, 100, 'two', 2)",
	}
	type scenario struct {
		name  string
		steps []step
	}
	var scenarios []scenario
	owned := map[string]bool{} // the scenarios that run on ownedSetup
	for _, level := range []string{"READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"} {
		begin := "BEGIN ISOLATION LEVEL " + level
		for _, end := range []string{"COMMIT", "ROLLBACK"} {
			scenarios = append(scenarios,
				scenario{level + ", update then update, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "UPDATE acct SET bal = bal + 10 WHERE id = 1"},
					{1, "UPDATE acct SET bal = bal * 2 WHERE id = 1"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", delete then update, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "DELETE FROM acct WHERE id = 1"},
					{1, "UPDATE acct SET bal = bal + 1 WHERE id = 1"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", update then delete, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "UPDATE acct SET bal = 0 WHERE id = 2"},
					{1, "DELETE FROM acct WHERE id = 2 AND bal > 50"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", same key inserted twice, first " + end, []step{
					{0, begin}, {1, begin},
					{0, "INSERT INTO acct VALUES (5, 5, 'five')"},
					{1, "INSERT INTO acct VALUES (5, 50, 'fifty')"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", same unique value inserted twice, first " + end, []step{
					{0, begin}, {1, begin},
					{0, "INSERT INTO acct VALUES (6, 6, 'six')"},
					{1, "INSERT INTO acct VALUES (7, 7, 'six')"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", upsert of an existing row twice, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "INSERT INTO acct VALUES (1, 0, 'one') ON CONFLICT (id) DO UPDATE SET bal = acct.bal + 1"},
					{1, "INSERT INTO acct VALUES (1, 0, 'one') ON CONFLICT (id) DO UPDATE SET bal = acct.bal + 100"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", upsert of a new key twice, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "INSERT INTO acct VALUES (9, 9, 'nine') ON CONFLICT (id) DO UPDATE SET bal = acct.bal + 1"},
					{1, "INSERT INTO acct VALUES (9, 90, 'ninety') ON CONFLICT (id) DO UPDATE SET bal = acct.bal + 100"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", insert or nothing of a new unique value twice, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "INSERT INTO acct VALUES (10, 10, 'ten') ON CONFLICT DO NOTHING"},
					{1, "INSERT INTO acct VALUES (11, 11, 'ten') ON CONFLICT DO NOTHING"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", select for update then update, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "SELECT bal FROM acct WHERE id = 1 FOR UPDATE"},
					{1, "SELECT bal FROM acct WHERE id = 1 FOR UPDATE"},
					{0, "UPDATE acct SET bal = 150 WHERE id = 1"},
					{0, end},
					{1, "UPDATE acct SET bal = bal + 1 WHERE id = 1"},
					{1, "COMMIT"},
				}},
				scenario{level + ", update then select for share, first " + end, []step{
					{0, begin}, {1, begin},
					{1, "SELECT count(*) FROM acct"},
					{0, "UPDATE acct SET bal = 7 WHERE id = 2"},
					{1, "SELECT id, bal FROM acct WHERE bal > 50 FOR SHARE"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", two children of one parent, first " + end, []step{
					{0, begin}, {1, begin},
					{0, "INSERT INTO acct VALUES (5, 5, 'five', 1)"},
					{1, "INSERT INTO acct VALUES (6, 6, 'six', 1)"},
					{1, "UPDATE acct SET owner = 1 WHERE id = 2"},
					{0, end},
					{1, "COMMIT"},
				}},
				scenario{level + ", a child of a parent not committed yet, first " + end, []step{
					{0, begin}, {1, begin},
					{0, "INSERT INTO owner VALUES (3)"},
					{1, "INSERT INTO acct VALUES (7, 7, 'seven', 3)"},
					{0, end},
					{1, "ROLLBACK"},
				}},
				scenario{level + ", other rows go on, first " + end, []step{
					{0, begin}, {1, begin},
					{0, "UPDATE acct SET bal = bal - 1 WHERE id = 1"},
					{1, "UPDATE acct SET bal = bal - 2 WHERE id = 2"},
					{1, "INSERT INTO acct VALUES (8, 8, 'eight')"},
					{1, "COMMIT"},
					{0, end},
				}},
			)
		}
	}
	for _, sc := range scenarios {
		if strings.Contains(sc.name, "child") {
			owned[sc.name] = true
		}
	}
	transcripts := map[string]map[string][]string{}
	for _, tg := range bothTargets(t) {
		transcripts[tg.Name] = map[string][]string{}
		for _, sc := range scenarios {
			s := setup
			if owned[sc.name] {
				s = ownedSetup
			}
			transcripts[tg.Name][sc.name] = runScenario(t, tg.URL, s, sc.steps)
		}
	}
	if len(transcripts) < 2 {
		return // PGTESTS_AGAINST=postgres15 runs PostgreSQL alone
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			pg, cdc := transcripts["postgres15"][sc.name], transcripts["cdcdb"][sc.name]
			if strings.Join(pg, "\n") != strings.Join(cdc, "\n") {
				t.Errorf("PostgreSQL 15:\n  %s\ncdcdb:\n  %s", strings.Join(pg, "\n  "), strings.Join(cdc, "\n  "))
			}
		})
	}
}

// TestConcurrentTransfersKeepTheBooks has clients move random amounts
// between random accounts, each transfer one transaction of two UPDATEs
// (at READ COMMITTED as one statement each, or as a SELECT ... FOR UPDATE
// and a write of what was read; at REPEATABLE READ and SERIALIZABLE as a
// read and a write of what was read), retried on 40001 and 40P01, while one
// more client keeps a write transaction on another table open for a
// while. The money in all accounts stays what it was, and each account
// holds exactly what the acknowledged transfers say: no update lost, none
// applied twice.
func TestConcurrentTransfersKeepTheBooks(t *testing.T) {
	seed := isolationSeed(t)
	tg := startTarget(t)
	for _, level := range []string{"read committed", "read committed, select for update", "repeatable read", "serializable"} {
		forUpdate := strings.HasSuffix(level, ", select for update")
		level = strings.TrimSuffix(level, ", select for update")
		name := level
		if forUpdate {
			name += ", select for update"
		}
		t.Run(name, func(t *testing.T) {
			ctx := testContext(t)
			const clients, transfers, accounts, initial = 6, 60, 10, 1000
			setup := connect(t, tg.URL)
			mustExec(t, setup, "DROP TABLE IF EXISTS ledger, side")
			mustExec(t, setup, "CREATE TABLE ledger (id int PRIMARY KEY, bal bigint NOT NULL)")
			mustExec(t, setup, "CREATE TABLE side (id int PRIMARY KEY)")
			mustExec(t, setup, "INSERT INTO ledger SELECT g, $1::bigint FROM generate_series(1, $2::int) g", initial, accounts)

			// The idle writer: a transaction that wrote and then waits.
			idle := connect(t, tg.URL)
			mustExec(t, idle, "BEGIN")
			mustExec(t, idle, "INSERT INTO side VALUES (1)")

			var mu sync.Mutex
			want := make([]int64, accounts+1)
			for i := 1; i <= accounts; i++ {
				want[i] = initial
			}
			retries := 0
			var wg sync.WaitGroup
			errs := make(chan error, clients)
			for c := range clients {
				conn := connect(t, tg.URL)
				rng := rand.New(rand.NewPCG(seed, uint64(c)))
				wg.Add(1)
				go func() {
					defer wg.Done()
					for done := 0; done < transfers; {
						from := 1 + rng.IntN(accounts)
						to := 1 + rng.IntN(accounts-1)
						if to >= from {
							to++
						}
						amount := int64(1 + rng.IntN(50))
						err := pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{IsoLevel: pgx.TxIsoLevel(level)}, func(tx pgx.Tx) error {
							if level == "read committed" && !forUpdate {
								if _, err := tx.Exec(ctx, "UPDATE ledger SET bal = bal - $1 WHERE id = $2", amount, from); err != nil {
									return err
								}
								_, err := tx.Exec(ctx, "UPDATE ledger SET bal = bal + $1 WHERE id = $2", amount, to)
								return err
							}
							for _, leg := range []struct {
								id    int
								delta int64
							}{{from, -amount}, {to, amount}} {
								var bal int64
								read := "SELECT bal FROM ledger WHERE id = $1"
								if forUpdate {
									read += " FOR UPDATE"
								}
								if err := tx.QueryRow(ctx, read, leg.id).Scan(&bal); err != nil {
									return err
								}
								if _, err := tx.Exec(ctx, "UPDATE ledger SET bal = $1 WHERE id = $2", bal+leg.delta, leg.id); err != nil {
									return err
								}
							}
							return nil
						})
						var pe *pgconn.PgError
						switch {
						case err == nil:
							mu.Lock()
							want[from] -= amount
							want[to] += amount
							mu.Unlock()
							done++
						case errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01"):
							mu.Lock()
							retries++
							mu.Unlock()
						default:
							errs <- fmt.Errorf("client %d: %w", c, err)
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
			mustExec(t, idle, "COMMIT")
			t.Logf("%d transfers by %d clients, %d retried (40001 or 40P01)", clients*transfers, clients, retries)
			got := queryInt64s(t, setup, "SELECT bal FROM ledger ORDER BY id")
			var sum int64
			for i, bal := range got {
				sum += bal
				if bal != want[i+1] {
					t.Errorf("account %d holds %d, the acknowledged transfers say %d", i+1, bal, want[i+1])
				}
			}
			if sum != accounts*initial {
				t.Errorf("the accounts hold %d in all, want %d", sum, accounts*initial)
			}
			if got := queryInt64s(t, setup, "SELECT count(*) FROM side"); got[0] != 1 {
				t.Errorf("the idle transaction's row: %d rows in side", got[0])
			}
		})
	}
}
