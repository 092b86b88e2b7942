package pgtests

import (
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// Transaction boundaries in the extended and simple protocols, message by
// message, on cdcdb and on the reference PostgreSQL 15 alike.

// unnamed is Parse, Bind and Execute of query through the unnamed
// statement and portal.
func unnamed(query string) []pgproto3.FrontendMessage {
	return []pgproto3.FrontendMessage{&pgproto3.Parse{Query: query}, &pgproto3.Bind{}, &pgproto3.Execute{}}
}

// batch joins messages and message lists into one batch ending in Sync.
func batch(parts ...any) []pgproto3.FrontendMessage {
	var out []pgproto3.FrontendMessage
	for _, p := range parts {
		switch p := p.(type) {
		case pgproto3.FrontendMessage:
			out = append(out, p)
		case []pgproto3.FrontendMessage:
			out = append(out, p...)
		default:
			panic("batch: not a message")
		}
	}
	return append(out, &pgproto3.Sync{})
}

// COMMIT or ROLLBACK with no BEGIN warns (25P01) and still ends the
// implicit transaction of the statements before it.
func TestProtocolCommitOutsideBlockWarns(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			r := openRaw(t, tg.URL)
			r.send(&pgproto3.Query{String: "CREATE TABLE w (id int4); INSERT INTO w VALUES (1); COMMIT; INSERT INTO w VALUES (2); ROLLBACK; SELECT count(*) FROM w"})
			requireTranscript(t, r.transcript(1), []string{
				"CommandComplete CREATE TABLE", "CommandComplete INSERT 0 1",
				"NoticeResponse 25P01", "CommandComplete COMMIT",
				"CommandComplete INSERT 0 1",
				"NoticeResponse 25P01", "CommandComplete ROLLBACK",
				"RowDescription count", "DataRow 1", "CommandComplete SELECT 1",
				"ReadyForQuery I",
			})
			r.send(batch(unnamed("INSERT INTO w VALUES (3)"), unnamed("ROLLBACK"), unnamed("COMMIT"), unnamed("SELECT count(*) FROM w"))...)
			requireTranscript(t, r.transcript(1), []string{
				"ParseComplete", "BindComplete", "CommandComplete INSERT 0 1",
				"ParseComplete", "BindComplete", "NoticeResponse 25P01", "CommandComplete ROLLBACK",
				"ParseComplete", "BindComplete", "NoticeResponse 25P01", "CommandComplete COMMIT",
				"ParseComplete", "BindComplete", "DataRow 1", "CommandComplete SELECT 1",
				"ReadyForQuery I",
			})
		})
	}
}

// A portal ends with the transaction it was bound in, also when a COMMIT
// or ROLLBACK ends that transaction in the middle of a batch: using it is
// then 34000, and its name is free for a new Bind. While the block is
// aborted a suspended portal serves nothing more (25P02).
func TestProtocolPortalEndsWithItsTransaction(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			conn := connect(t, tg.URL)
			mustExec(t, conn, "CREATE TABLE nums (id int4 PRIMARY KEY)")
			mustExec(t, conn, "INSERT INTO nums VALUES (1), (2), (3), (4), (5)")
			r := openRaw(t, tg.URL)
			r.send(&pgproto3.Parse{Name: "s", Query: "SELECT id FROM nums ORDER BY id"}, &pgproto3.Sync{})
			requireTranscript(t, r.transcript(1), []string{"ParseComplete", "ReadyForQuery I"})
			bind := &pgproto3.Bind{PreparedStatement: "s", DestinationPortal: "p"}
			fetch := func(n uint32) *pgproto3.Execute { return &pgproto3.Execute{Portal: "p", MaxRows: n} }
			describe := &pgproto3.Describe{ObjectType: 'P', Name: "p"}
			begin := func() {
				t.Helper()
				r.send(&pgproto3.Query{String: "BEGIN"})
				requireTranscript(t, r.transcript(1), []string{"CommandComplete BEGIN", "ReadyForQuery T"})
				// In a block the suspended portal outlives Sync.
				r.send(batch(bind, fetch(2))...)
				requireTranscript(t, r.transcript(1), []string{"BindComplete", "DataRow 1", "DataRow 2", "PortalSuspended", "ReadyForQuery T"})
			}

			begin()
			r.send(batch(fetch(1), unnamed("COMMIT"), fetch(1))...)
			requireTranscript(t, r.transcript(1), []string{
				"DataRow 3", "PortalSuspended",
				"ParseComplete", "BindComplete", "CommandComplete COMMIT",
				"ErrorResponse 34000", "ReadyForQuery I",
			})
			if want := `34000: portal "p" does not exist`; !slices.Equal(r.errors, []string{want}) {
				t.Errorf("errors %q, want %q", r.errors, want)
			}

			begin()
			r.send(batch(unnamed("ROLLBACK"), bind, describe, fetch(1))...)
			requireTranscript(t, r.transcript(1), []string{
				"ParseComplete", "BindComplete", "CommandComplete ROLLBACK",
				"BindComplete", "RowDescription id", "DataRow 1", "PortalSuspended",
				"ReadyForQuery I",
			})

			// Without BEGIN, COMMIT ends the batch's implicit transaction
			// and the portals bound in it.
			r.send(batch(bind, fetch(2), unnamed("COMMIT"), describe)...)
			requireTranscript(t, r.transcript(1), []string{
				"BindComplete", "DataRow 1", "DataRow 2", "PortalSuspended",
				"ParseComplete", "BindComplete", "NoticeResponse 25P01", "CommandComplete COMMIT",
				"ErrorResponse 34000", "ReadyForQuery I",
			})
			r.send(batch(bind, fetch(2), unnamed("ROLLBACK"), bind, fetch(1))...)
			requireTranscript(t, r.transcript(1), []string{
				"BindComplete", "DataRow 1", "DataRow 2", "PortalSuspended",
				"ParseComplete", "BindComplete", "NoticeResponse 25P01", "CommandComplete ROLLBACK",
				"BindComplete", "DataRow 1", "PortalSuspended",
				"ReadyForQuery I",
			})

			begin()
			r.send(&pgproto3.Query{String: "SELECT * FROM nope"})
			requireTranscript(t, r.transcript(1), []string{"ErrorResponse 42P01", "ReadyForQuery E"})
			r.send(batch(fetch(1))...)
			requireTranscript(t, r.transcript(1), []string{"ErrorResponse 25P02", "ReadyForQuery E"})
			r.send(&pgproto3.Query{String: "ROLLBACK"})
			requireTranscript(t, r.transcript(1), []string{"CommandComplete ROLLBACK", "ReadyForQuery I"})
			r.send(batch(fetch(1))...)
			requireTranscript(t, r.transcript(1), []string{"ErrorResponse 34000", "ReadyForQuery I"})
		})
	}
}

// Any error inside a transaction block aborts it, also one the extended
// protocol raises before a statement runs (a parameter that does not parse
// at Bind) or without one (a Bind naming no statement): later statements
// get 25P02, at Bind already, until the block ends, and COMMIT rolls back.
func TestProtocolBindErrorAbortsTransactionBlock(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			conn := connect(t, tg.URL)
			mustExec(t, conn, "CREATE TABLE kept (id int4)")
			r := openRaw(t, tg.URL)
			r.send(batch(&pgproto3.Parse{Name: "one", Query: "SELECT $1::int4"}, &pgproto3.Parse{Name: "ins", Query: "INSERT INTO kept VALUES ($1)"})...)
			requireTranscript(t, r.transcript(1), []string{"ParseComplete", "ParseComplete", "ReadyForQuery I"})
			begin := func() {
				t.Helper()
				r.send(&pgproto3.Query{String: "BEGIN"})
				requireTranscript(t, r.transcript(1), []string{"CommandComplete BEGIN", "ReadyForQuery T"})
			}

			begin()
			r.send(batch(&pgproto3.Bind{PreparedStatement: "ins", Parameters: [][]byte{[]byte("1")}}, &pgproto3.Execute{})...)
			requireTranscript(t, r.transcript(1), []string{"BindComplete", "CommandComplete INSERT 0 1", "ReadyForQuery T"})
			r.send(batch(&pgproto3.Bind{PreparedStatement: "one", Parameters: [][]byte{[]byte("abc")}}, &pgproto3.Execute{})...)
			requireTranscript(t, r.transcript(1), []string{"ErrorResponse 22P02", "ReadyForQuery E"})
			r.send(batch(&pgproto3.Bind{PreparedStatement: "one", Parameters: [][]byte{[]byte("1")}}, &pgproto3.Execute{})...)
			requireTranscript(t, r.transcript(1), []string{"ErrorResponse 25P02", "ReadyForQuery E"})
			r.send(&pgproto3.Query{String: "SELECT 1"})
			requireTranscript(t, r.transcript(1), []string{"ErrorResponse 25P02", "ReadyForQuery E"})
			r.send(batch(unnamed("COMMIT"))...)
			requireTranscript(t, r.transcript(1), []string{"ParseComplete", "BindComplete", "CommandComplete ROLLBACK", "ReadyForQuery I"})
			r.send(&pgproto3.Query{String: "SELECT count(*) FROM kept"})
			requireTranscript(t, r.transcript(1), []string{"RowDescription count", "DataRow 0", "CommandComplete SELECT 1", "ReadyForQuery I"})

			for _, tc := range []struct {
				name string
				msg  pgproto3.FrontendMessage
				code string
			}{
				{"Bind of no statement", &pgproto3.Bind{PreparedStatement: "nope"}, "26000"},
				{"Bind with a parameter too few", &pgproto3.Bind{PreparedStatement: "one"}, "08P01"},
				{"Execute of no portal", &pgproto3.Execute{Portal: "nope"}, "34000"},
				{"Describe of no statement", &pgproto3.Describe{ObjectType: 'S', Name: "nope"}, "26000"},
				{"Describe of no portal", &pgproto3.Describe{ObjectType: 'P', Name: "nope"}, "34000"},
				{"Parse of a taken name", &pgproto3.Parse{Name: "one", Query: "SELECT 2"}, "42P05"},
			} {
				begin()
				r.send(batch(tc.msg)...)
				if got, want := r.transcript(1), []string{"ErrorResponse " + tc.code, "ReadyForQuery E"}; !slices.Equal(got, want) {
					t.Errorf("%s: got %q, want %q", tc.name, got, want)
				}
				r.send(&pgproto3.Query{String: "ROLLBACK"})
				requireTranscript(t, r.transcript(1), []string{"CommandComplete ROLLBACK", "ReadyForQuery I"})
			}
		})
	}
}
