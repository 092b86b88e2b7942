package pgtests

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgtests/pgserver"
)

func TestConnectionLimitAnswers53300(t *testing.T) {
	srv := startServer(t)
	dial := func() (*pgconn.PgConn, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return pgconn.Connect(ctx, srv.URL())
	}
	const ceiling = 1000 // far above any sensible limit: a server without one fails here
	var open []*pgconn.PgConn
	t.Cleanup(func() {
		for _, c := range open {
			_ = c.Close(context.Background())
		}
	})
	var refusal error
	for len(open) < ceiling {
		c, err := dial()
		if err != nil {
			refusal = err
			break
		}
		open = append(open, c)
	}
	if refusal == nil {
		t.Fatalf("%d connections were all accepted: no connection limit", ceiling)
	}
	pgErr := requireSQLState(t, refusal, "53300")
	if pgErr.Message != "sorry, too many clients already" || pgErr.Severity != "FATAL" {
		t.Errorf("refusal: %s %q, want FATAL %q", pgErr.Severity, pgErr.Message, "sorry, too many clients already")
	}
	t.Logf("refused connection number %d", len(open)+1)

	// The sessions already in are unaffected, and a freed slot is usable.
	if err := open[0].Ping(context.Background()); err != nil {
		t.Errorf("an admitted session after the refusal: %v", err)
	}
	if err := open[len(open)-1].Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	open = open[:len(open)-1]
	var again *pgconn.PgConn
	waitFor(t, 10*time.Second, "a connection in the freed slot", func() bool {
		c, err := dial()
		if err != nil {
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "53300" {
				t.Fatalf("connecting into a freed slot: %v", err)
			}
			return false
		}
		again = c
		return true
	})
	open = append(open, again)
}

func TestIdleInTransactionTimeoutEndsOnlyTheIdleTransaction(t *testing.T) {
	srv := startServer(t, pgserver.WithArgs("-idle-in-transaction-timeout", "500ms"))
	idleOutside := openRaw(t, srv.URL())
	idleInside := openRaw(t, srv.URL())
	idleInside.send(&pgproto3.Query{String: "BEGIN"})
	requireTranscript(t, idleInside.transcript(1), []string{"CommandComplete BEGIN", "ReadyForQuery T"})

	_ = idleInside.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	msg, err := idleInside.fe.Receive()
	if err != nil {
		t.Fatalf("waiting for the timeout: %v", err)
	}
	e, ok := msg.(*pgproto3.ErrorResponse)
	if !ok || e.Code != "25P03" || e.Severity != "FATAL" {
		t.Fatalf("after idling in a transaction: %s, want a FATAL 25P03", describeMessage(msg))
	}
	requireHangUp(t, idleInside.conn)

	// A session idle outside a transaction for as long is left alone.
	idleOutside.send(&pgproto3.Query{String: "SELECT 1"})
	requireTranscript(t, idleOutside.transcript(1), []string{"RowDescription ?column?", "DataRow 1", "CommandComplete SELECT 1", "ReadyForQuery I"})
}
