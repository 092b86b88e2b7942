package pgtests

import (
	"context"
	"errors"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgtests/corpus"
)

// corpusDir holds the corpus files, relative to this package.
const corpusDir = "corpus/testdata"

// TestSQLCorpus runs the SQL corpus (package corpus: statements with the
// answers PostgreSQL 15 gave, recorded in corpus/testdata) over the wire:
// every file on a fresh cdcdb binary and in a fresh database of the
// reference PostgreSQL 15, and holds both to the recorded answers. With
// CORPUS_REWRITE=1 it records PostgreSQL's answers into the files first.
// TestCorpusInProcess (package corpus) holds an in-process engine to the
// same answers without either server.
func TestSQLCorpus(t *testing.T) {
	files, err := corpus.Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	rewrite := os.Getenv("CORPUS_REWRITE") != ""
	pg := referencePostgres(t) // fails in CI when missing, skips elsewhere
	corpus.CheckFiles(t, files)
	admin := connect(t, pg.URL("main"))
	for _, f := range files {
		db := "corpus_" + strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, strings.ToLower(f.Name()))
		mustExec(t, admin, "DROP DATABASE IF EXISTS "+db)
		mustExec(t, admin, "CREATE DATABASE "+db)
		t.Run(f.Name(), func(t *testing.T) {
			t.Parallel()
			runCorpusFile(t, f, pg.URL(db), rewrite)
		})
	}
}

func runCorpusFile(t *testing.T, f *corpus.File, pgURL string, rewrite bool) {
	ctx := testContext(t)
	postgres := f.Answers(ctx, corpusConnect(t, pgURL))
	if rewrite {
		if err := f.Record(postgres); err != nil {
			t.Fatal(err)
		}
	}
	f.CheckRecording(t, postgres)
	srv := startServer(t)
	f.CheckAnswers(t, f.Answers(ctx, corpusConnect(t, srv.URL())))
}

// corpusSession is a corpus.Session over one pgconn connection.
type corpusSession struct {
	conn *pgconn.PgConn
}

// corpusConnect opens a connection with the startup parameters every
// corpus session sends.
func corpusConnect(t *testing.T, url string) *corpusSession {
	t.Helper()
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		t.Fatalf("parse %q: %v", url, err)
	}
	maps.Copy(cfg.RuntimeParams, corpus.StartupParameters())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return &corpusSession{conn: conn}
}

// Run executes one statement text with the simple query protocol. The
// results of a text that failed stop at the failed statement, whose rows
// (if it sent any) the client drops; the error pgconn reports is the last
// ErrorResponse before ReadyForQuery.
func (s *corpusSession) Run(ctx context.Context, sql string) corpus.Outcome {
	ctx, cancel := context.WithTimeout(ctx, statementTimeout)
	defer cancel()
	results, err := s.conn.Exec(ctx, sql).ReadAll()
	var o corpus.Outcome
	for _, r := range results {
		if r.Err != nil {
			break
		}
		cols := make([]corpus.Column, len(r.FieldDescriptions))
		for i, fd := range r.FieldDescriptions {
			cols[i] = corpus.Column{Name: fd.Name, TypeOID: fd.DataTypeOID}
		}
		o.Results = append(o.Results, corpus.Result{Columns: cols, Rows: r.Rows, Tag: r.CommandTag.String()})
	}
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe):
		o.Err = &corpus.ServerError{Code: pe.Code, Position: int(pe.Position), Message: pe.Message}
	case err != nil:
		o.Err = err
	}
	return o
}
