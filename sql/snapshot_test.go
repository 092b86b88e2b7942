package sql_test

import (
	"fmt"
	"sync"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestTimeTravelReadsSeeConsistentSnapshots moves amounts between keys with
// change events, each transfer one INSERT of two events, while readers sum
// the target now and as of earlier business times. Every sum must be the
// invariant total: a reader never sees half of a statement's flow effects.
func TestTimeTravelReadsSeeConsistentSnapshots(t *testing.T) {
	db := sqltest.Open(t)
	setup := db.Conn()
	setup.MustExec("CREATE TABLE moves (acct int, balance int, seq int)")
	setup.MustExec("CREATE STREAMING TABLE balances")
	setup.MustExec("CREATE FLOW f AS AUTO CDC INTO balances FROM moves KEYS (acct) SEQUENCE BY seq STORED AS SCD TYPE 2")
	const accounts, total = 10, 1000
	bal := make([]int, accounts)
	for i := range bal {
		bal[i] = total / accounts
		setup.MustExec(fmt.Sprintf("INSERT INTO moves VALUES (%d, %d, 0)", i, bal[i]))
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 8)
	for r := 0; r < 3; r++ {
		reader := db.Conn()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for asOf := 0; ; asOf = (asOf + 7) % 200 {
				select {
				case <-stop:
					return
				default:
				}
				for _, q := range []string{
					"SELECT sum(balance) FROM balances WHERE __end_at IS NULL",
					fmt.Sprintf("SELECT sum(balance) FROM balances FOR BUSINESS_TIME AS OF %d", asOf),
				} {
					res, err := reader.Exec(q)
					if err != nil {
						errs <- err
						return
					}
					if res.Rows[0][0] != fmt.Sprint(total) {
						errs <- fmt.Errorf("%s: sum %s, want %d", q, res.Rows[0][0], total)
						return
					}
				}
			}
		}()
	}
	writer := db.Conn()
	for seq := 1; seq <= 150; seq++ {
		from, to := seq%accounts, (seq*3+1)%accounts
		if from == to {
			continue
		}
		amt := seq % 7
		bal[from] -= amt
		bal[to] += amt
		writer.MustExec(fmt.Sprintf("INSERT INTO moves VALUES (%d, %d, %d), (%d, %d, %d)", from, bal[from], seq, to, bal[to], seq))
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
