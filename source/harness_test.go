package source

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgtests/pgserver"
)

// The upstream PostgreSQL 15 of these tests: logical decoding on, and a
// tiny logical_decoding_work_mem so that large transactions spill to disk
// upstream, as big ones do in production.
var upstreamSettings = []string{
	"fsync=off",
	"wal_level=logical",
	"max_wal_senders=40",
	"max_replication_slots=40",
	"max_connections=100",
	"logical_decoding_work_mem=64kB",
}

var shared struct {
	once sync.Once
	pg   *pgserver.Postgres
	err  error
}

var databases atomic.Int64

func TestMain(m *testing.M) {
	code := m.Run()
	stopSecuredUpstream()
	if shared.pg != nil {
		if err := shared.pg.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop upstream PostgreSQL:", err)
		}
	}
	os.Exit(code)
}

// inCI reports whether the tests run in CI, where a missing PostgreSQL
// fails them instead of skipping them.
func inCI() bool { return os.Getenv("CI") == "true" }

func requirePostgres(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if inCI() || !errors.Is(err, pgserver.ErrNoPostgres) {
		t.Fatalf("upstream PostgreSQL: %v", err)
	}
	t.Skipf("skipped: %v (.ci/run installs it)", err)
}

// sharedUpstream is the upstream most tests share, each in a database of
// its own.
func sharedUpstream(t testing.TB) *pgserver.Postgres {
	t.Helper()
	shared.once.Do(func() {
		shared.pg, shared.err = pgserver.StartPostgresWith(context.Background(), pgserver.PostgresConfig{Settings: upstreamSettings})
	})
	requirePostgres(t, shared.err)
	return shared.pg
}

// ownUpstream is an upstream for one test, which may stop and start it.
func ownUpstream(t testing.TB, extraSettings ...string) *pgserver.Postgres {
	t.Helper()
	pg, err := pgserver.StartPostgresWith(context.Background(), pgserver.PostgresConfig{Settings: append(append([]string{}, upstreamSettings...), extraSettings...)})
	requirePostgres(t, err)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("upstream log:\n%s", tail(pg.Log(), 60))
		}
		if err := pg.Stop(); err != nil {
			t.Logf("stop upstream: %v", err)
		}
	})
	return pg
}

func tail(s string, lines int) string {
	all := strings.Split(s, "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// newDatabase creates a fresh upstream database for one test. At the end
// it drops the slots left in it, so that they stop holding WAL.
func newDatabase(t testing.TB, pg *pgserver.Postgres) string {
	t.Helper()
	db := "src_" + strconv.FormatInt(databases.Add(1), 10)
	admin := dial(t, pg, "postgres")
	mustExec(t, admin, "CREATE DATABASE "+db)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgconn.Connect(ctx, pg.URL("postgres"))
		if err != nil {
			return // the test stopped this upstream
		}
		defer closeConn(conn)
		_, _ = query(ctx, conn, `SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = $1 AND active_pid IS NOT NULL`, db)
		time.Sleep(100 * time.Millisecond)
		_, _ = query(ctx, conn, `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1 AND NOT active`, db)
	})
	return db
}

// connectionTo is how a Follower reaches db on pg.
func connectionTo(pg *pgserver.Postgres, db string) Connection {
	return Connection{Host: pg.Host(), Port: pg.Port(), User: pgserver.User, Database: db, SSLMode: SSLDisable}
}

// dial opens a plain connection to db with the session settings a
// Follower uses, so that values read here are spelled as the Follower
// receives them. It is closed when the test ends.
func dial(t testing.TB, pg *pgserver.Postgres, db string) *pgconn.PgConn {
	t.Helper()
	conn, err := dialErr(pg, db)
	if err != nil {
		t.Fatalf("connect to upstream %s: %v", db, err)
	}
	t.Cleanup(func() { closeConn(conn) })
	return conn
}

func dialErr(pg *pgserver.Postgres, db string) (*pgconn.PgConn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return connect(ctx, connectionTo(pg, db), false)
}

func mustExec(t testing.TB, conn *pgconn.PgConn, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := exec(ctx, conn, sql); err != nil {
		t.Fatalf("%s: %v", firstLine(sql), err)
	}
}

func mustQuery(t testing.TB, conn *pgconn.PgConn, sql string, args ...string) []row {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rows, err := query(ctx, conn, sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", firstLine(sql), err)
	}
	return rows
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// seeded returns the test's random source, seeded from SOURCE_TEST_SEED
// when set (to replay a failure) and printing the seed either way.
func seeded(t testing.TB) *rand.Rand {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("SOURCE_TEST_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("SOURCE_TEST_SEED: %v", err)
		}
	}
	t.Logf("seed %d (replay with SOURCE_TEST_SEED=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// waitFor polls cond until it holds or the time is up.
func waitFor(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// testConfig is a source's configuration with the short waits of tests.
func testConfig(t testing.TB, conn Connection, publication string, tables ...TableRef) Config {
	return Config{
		Name:              strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")),
		Connection:        conn,
		Publication:       publication,
		Tables:            tables,
		RetryMin:          20 * time.Millisecond,
		RetryMax:          300 * time.Millisecond,
		StatusInterval:    200 * time.Millisecond,
		AdvanceInterval:   50 * time.Millisecond,
		SnapshotBatchRows: 500,
		Logger:            testLogger(t),
	}
}
