package corpus_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"cdcdb/pgtests/corpus"
	"cdcdb/sql/sqltest"
)

// TestCorpusInProcess holds an in-process engine to the corpus's recorded
// answers: every file on a fresh database, in one session opened with the
// corpus's startup parameters, each block sent as a simple Query through
// the Parse / Bind / Execute path the wire server drives. It needs neither
// PostgreSQL nor a built server; TestSQLCorpus in package pgtests checks
// the same answers over the wire and against PostgreSQL itself.
func TestCorpusInProcess(t *testing.T) {
	files, err := corpus.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	corpus.CheckFiles(t, files)
	for _, f := range files {
		t.Run(f.Name(), func(t *testing.T) {
			t.Parallel()
			db := sqltest.Open(t)
			s := &engineSession{conn: db.ConnWith(corpus.StartupParameters())}
			f.CheckAnswers(t, f.Answers(t.Context(), s))
		})
	}
}

// statementTimeout bounds one statement text, as it does over the wire.
const statementTimeout = time.Minute

// engineSession is a corpus.Session on an in-process engine. It reports
// what pgx's pgconn, the client the answers were recorded with, reports
// for the messages the wire server would send: the completed statements,
// and of the ErrorResponses the last one.
type engineSession struct {
	conn *sqltest.Conn
}

func (s *engineSession) Run(ctx context.Context, sql string) corpus.Outcome {
	ctx, cancel := context.WithTimeout(ctx, statementTimeout)
	defer cancel()
	res, err := s.conn.SimpleQuery(ctx, sql)
	if err != nil {
		return corpus.Outcome{Err: err}
	}
	var o corpus.Outcome
	for _, st := range res.Statements {
		if st.Fields == nil && len(st.Rows) > 0 {
			// Rows without a RowDescription: pgconn stops reading the
			// results there and reports this.
			o.Err = errors.New("unexpected DataRow message without preceding RowDescription")
			return o
		}
		var cols []corpus.Column
		for _, fd := range st.Fields {
			cols = append(cols, corpus.Column{Name: fd.Name, TypeOID: fd.TypeOID})
		}
		o.Results = append(o.Results, corpus.Result{Columns: cols, Rows: st.Rows, Tag: st.Tag})
	}
	if n := len(res.Errors); n > 0 {
		last := res.Errors[n-1]
		o.Err = &corpus.ServerError{Code: last.Code, Position: last.Position, Message: last.Message}
	}
	return o
}
