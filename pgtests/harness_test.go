package pgtests

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgtests/pgserver"
	"cdcdb/storage"
)

// cdcdbBin is the server binary TestMain built; buildErr says why there is
// none. Each test that needs the server fails with buildErr, so a broken
// build reads as failing tests, not as a crashed test binary.
var (
	cdcdbBin string
	buildErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cdcdb-pgtests-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if prebuilt := os.Getenv("PGTESTS_CDCDB_BIN"); prebuilt != "" {
		cdcdbBin = prebuilt
	} else {
		cdcdbBin, buildErr = pgserver.Build(dir)
	}
	code := m.Run()
	stopReferencePostgres()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// startServer starts cdcdb for this test; see pgserver.Start.
func startServer(t testing.TB, opts ...pgserver.Option) *pgserver.Server {
	t.Helper()
	if buildErr != nil {
		t.Fatalf("cdcdb does not build: %v", buildErr)
	}
	return pgserver.Start(t, cdcdbBin, opts...)
}

// inCI reports whether the tests run in CI, where a missing tool must fail
// the run rather than quietly skip the tests that need it.
func inCI() bool { return os.Getenv("CI") == "true" }

// requireTool fails (in CI) or skips (elsewhere) when err says a tool the
// test needs is missing.
func requireTool(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if inCI() {
		t.Fatalf("required tool missing in CI: %v", err)
	}
	t.Skipf("skipped, a tool is missing: %v (.ci/run installs it)", err)
}

// psqlPath returns the psql client to run.
func psqlPath(t testing.TB) string {
	t.Helper()
	p, err := pgserver.FindPsql()
	requireTool(t, err)
	return p
}

var reference struct {
	once sync.Once
	pg   *pgserver.Postgres
	err  error
	dbs  atomic.Int64
}

// referencePostgres returns the real PostgreSQL 15 shared by the whole test
// run, starting it on first use.
func referencePostgres(t testing.TB) *pgserver.Postgres {
	t.Helper()
	reference.once.Do(func() { reference.pg, reference.err = pgserver.StartPostgres() })
	requireTool(t, reference.err)
	return reference.pg
}

func stopReferencePostgres() {
	if reference.pg != nil {
		if err := reference.pg.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop reference PostgreSQL:", err)
		}
	}
}

// target is a server a client test talks to.
type target struct {
	Name string // cdcdb or postgres15
	URL  string // for pgx
	DSN  string // for lib/pq
	// Host and Port are for psql.
	Host string
	Port int
	// DB is the database name to ask for.
	DB string
}

// againstPostgres reports whether client tests run against the reference
// PostgreSQL instead of cdcdb (see the package doc).
func againstPostgres() bool { return os.Getenv("PGTESTS_AGAINST") == "postgres15" }

// startTarget gives a client test a fresh server: cdcdb, or with
// PGTESTS_AGAINST=postgres15 a fresh database on the reference PostgreSQL.
func startTarget(t testing.TB) target {
	t.Helper()
	if !againstPostgres() {
		s := startServer(t)
		return target{Name: "cdcdb", URL: s.URL(), DSN: s.KeyValueDSN(), Host: s.Host(), Port: s.Port(), DB: pgserver.Database}
	}
	return referenceTarget(t)
}

// referenceTarget is a fresh database on the reference PostgreSQL 15.
func referenceTarget(t testing.TB) target {
	t.Helper()
	pg := referencePostgres(t)
	db := fmt.Sprintf("pgtests_%d", reference.dbs.Add(1))
	admin := connect(t, pg.URL("main"))
	mustExec(t, admin, "CREATE DATABASE "+db)
	return target{Name: "postgres15", URL: pg.URL(db), DSN: pg.KeyValueDSN(db), Host: pg.Host(), Port: pg.Port(), DB: db}
}

// bothTargets gives a test a fresh cdcdb and a fresh database on the
// reference PostgreSQL 15 (only the latter with PGTESTS_AGAINST=postgres15),
// so that every expectation of the test is shown to be PostgreSQL's before
// it is asked of cdcdb.
func bothTargets(t testing.TB) []target {
	t.Helper()
	first := startTarget(t)
	if againstPostgres() {
		return []target{first}
	}
	return []target{first, referenceTarget(t)}
}

// testContext bounds a test's blocking calls, so a hung server fails the
// test instead of the whole run's timeout.
func testContext(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// connect opens a pgx connection (default exec mode) closed at cleanup.
func connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	return connectMode(t, url, pgx.QueryExecModeCacheStatement)
}

// connectMode opens a pgx connection using mode for every query.
func connectMode(t testing.TB, url string, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatalf("parse %q: %v", url, err)
	}
	cfg.DefaultQueryExecMode = mode
	return connectConfig(t, cfg)
}

func connectConfig(t testing.TB, cfg *pgx.ConnConfig) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect to %s:%d: %v", cfg.Host, cfg.Port, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// statementTimeout bounds one statement of a helper below.
const statementTimeout = time.Minute

// mustExec runs one statement and returns its command tag.
func mustExec(t testing.TB, conn *pgx.Conn, sql string, args ...any) pgconn.CommandTag {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), statementTimeout)
	defer cancel()
	tag, err := conn.Exec(ctx, sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return tag
}

// queryInt64s runs a query returning one integer column.
func queryInt64s(t testing.TB, conn *pgx.Conn, sql string, args ...any) []int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), statementTimeout)
	defer cancel()
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return got
}

// queryString runs a query returning one text value.
func queryString(t testing.TB, conn *pgx.Conn, sql string, args ...any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), statementTimeout)
	defer cancel()
	var s string
	if err := conn.QueryRow(ctx, sql, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

// requireSQLState fails unless err is a server error with SQLSTATE code.
func requireSQLState(t testing.TB, err error, code string) *pgconn.PgError {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		t.Fatalf("want a server error with SQLSTATE %s, got %v", code, err)
	}
	if pgErr.Code != code {
		t.Fatalf("want SQLSTATE %s, got %s: %s", code, pgErr.Code, pgErr.Message)
	}
	return pgErr
}

// checkDataFile opens the data file of a server that has exited, read-only,
// and runs bbolt's consistency check over it.
func checkDataFile(t *testing.T, s *pgserver.Server) {
	t.Helper()
	if s.Running() {
		t.Fatal("checkDataFile: the server still runs")
	}
	db, err := storage.Open(s.DataFile(), storage.Options{ReadOnly: true, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("open %s after the server exited: %v", s.DataFile(), err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("data file after the server exited: %v", err)
	}
}

// waitFor polls cond until it holds or timeout passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// rowLines runs a query and returns its rows, in the query's order, each as
// its values formatted by format and joined by sep: the one loop behind the
// tests' ways of printing rows to compare.
func rowLines(ctx context.Context, conn *pgx.Conn, sep string, format func(any) string, query string, args ...any) ([]string, error) {
	rows, err := conn.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = format(v)
		}
		out = append(out, strings.Join(parts, sep))
	}
	return out, rows.Err()
}
