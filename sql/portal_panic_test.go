package sql_test

import (
	"context"
	"fmt"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
	"cdcdb/storage"
	"cdcdb/wire"
)

// panickingWriter collects a portal's rows and, once armed, panics on the
// next one with panicWith: as a storage read that finds the file corrupt
// does, part-way through a result.
type panickingWriter struct {
	rowsWriter
	panicWith error
}

func (w *panickingWriter) WriteRow(values [][]byte) error {
	if w.panicWith != nil {
		panic(w.panicWith)
	}
	return w.rowsWriter.WriteRow(values)
}

// TestPanicInASuspendedPortalFailsTheStatement: a panic while a suspended
// portal runs on (an Execute with a row limit, then another) fails that
// statement with an error, XX001 for a corrupt read, and not the
// connection: the session goes on.
func TestPanicInASuspendedPortalFailsTheStatement(t *testing.T) {
	d := sqltest.Open(t)
	c := d.Conn()
	c.MustExec("CREATE TABLE n (i int)")
	c.MustExec("INSERT INTO n SELECT g FROM generate_series(1, 10) AS g")
	ctx := context.Background()
	sess := newSession(t, d)
	portal := bindQuery(t, sess, "SELECT i FROM n")
	w := &panickingWriter{}
	if _, suspended, err := portal.Execute(ctx, 3, w); err != nil || !suspended || len(w.rows) != 3 {
		t.Fatalf("first Execute: suspended %v after %d rows, %v", suspended, len(w.rows), err)
	}
	w.panicWith = fmt.Errorf("storage: a run lost its block: %w", storage.ErrCorrupt)
	_, _, err := portal.Execute(ctx, 3, w)
	if pe := pgerror.As(err); err == nil || pe.Code != pgerror.DataCorrupted {
		t.Fatalf("Execute that met a corrupt read: %v, want SQLSTATE %s", err, pgerror.DataCorrupted)
	}
	if err := sess.(wire.SyncSession).Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	if rows, err := prepareNamed(t, d, sess, "SELECT i FROM n", 0).run(); err != nil || len(rows) != 10 {
		t.Fatalf("the session's next statement: %d rows, %v", len(rows), err)
	}
}
