package pgtests

import (
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
