package sql_test

import (
	"context"
	"testing"
	"time"

	"cdcdb/sql/sqltest"
	"cdcdb/wire"
)

// A portal suspended inside a transaction block gives back what it holds
// (here its own read snapshot) when the block aborts or ends, though the
// client never closes it: an open read transaction keeps the file from
// reusing pages, and the database from closing. After the end the portal
// reports its transaction ended, for wire to drop it.
func TestSuspendedPortalReleasedWithItsBlock(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after []string // statements that end or abort the block
		ended bool
	}{
		{"commit, then a new block", []string{"COMMIT", "BEGIN"}, true},
		{"rollback, then a new block", []string{"ROLLBACK", "BEGIN"}, true},
		{"aborted block", []string{"SELECT 1/0"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := sqltest.Open(t)
			db.Conn().MustExec("CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t SELECT g FROM generate_series(1, 100) g")
			sess := newSession(t, db)
			ctx := context.Background()
			sessExec(t, db, sess, "BEGIN")
			portal := bindQuery(t, sess, "SELECT id FROM t")
			if _, susp, err := portal.Execute(ctx, 10, &rowsWriter{}); err != nil || !susp {
				t.Fatalf("first fetch: suspended %v, %v", susp, err)
			}
			for _, q := range tc.after {
				_, _ = prepareNamed(t, db, sess, q, 0).run()
			}
			if tp, ok := portal.(wire.TransactionPortal); !ok {
				t.Errorf("a portal is not a wire.TransactionPortal")
			} else if got := tp.TransactionEnded(); got != tc.ended {
				t.Errorf("TransactionEnded() = %v, want %v", got, tc.ended)
			}
			closed := make(chan error, 1)
			go func() { closed <- db.Store.Close() }()
			select {
			case err := <-closed:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				portal.Close() // lets Close return
				<-closed
				t.Fatal("the suspended portal still held its read transaction")
			}
		})
	}
}
