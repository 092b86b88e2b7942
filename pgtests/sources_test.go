package pgtests

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgerror"
	"cdcdb/pgtests/pgserver"
)

// These tests follow a real upstream PostgreSQL 15 (wal_level=logical)
// with CREATE SOURCE, and hold what cdcdb's source tables and the flows on
// them hold against a model of what the workload did upstream.

var sourceUpstreamSettings = []string{"fsync=off", "wal_level=logical", "max_wal_senders=20",
	"max_replication_slots=20", "max_connections=60"}

// sourcePassword is the connection's password: upstream trusts the
// loopback, so any password passes, and none may ever show.
const sourcePassword = "pw-Secr3t-never-shown"

// startUpstream starts an upstream PostgreSQL 15 with database "up".
func startUpstream(t *testing.T) *pgserver.Postgres {
	t.Helper()
	pg, err := pgserver.StartPostgresWith(t.Context(), pgserver.PostgresConfig{Settings: sourceUpstreamSettings, Database: "up"})
	if errors.Is(err, pgserver.ErrNoPostgres) {
		requireTool(t, err)
	}
	if err != nil {
		t.Fatalf("upstream PostgreSQL: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("upstream log:\n%s", lastLines(pg.Log(), 40))
		}
		if err := pg.Stop(); err != nil {
			t.Logf("stop upstream: %v", err)
		}
	})
	return pg
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func createConnectionSQL(pg *pgserver.Postgres) string {
	return fmt.Sprintf(`CREATE CONNECTION up TO POSTGRES (HOST '%s', PORT %d, USER '%s', PASSWORD '%s', DATABASE 'up', SSL MODE 'disable')`,
		pg.Host(), pg.Port(), pgserver.User, sourcePassword)
}

// accountsModel is what the workload did to upstream table accounts:
// each key's versions (for SCD TYPE 2) and the change events the source
// must hold.
type accountsModel struct {
	mu       sync.Mutex
	live     map[int]account
	versions map[int][]accountVersion
	events   int // rows the source table must hold
	nextID   int
}

type account struct {
	name    string
	balance int
}

type accountVersion struct {
	account
	open bool
}

func newAccountsModel() *accountsModel {
	return &accountsModel{live: map[int]account{}, versions: map[int][]accountVersion{}, nextID: 1}
}

func (m *accountsModel) put(id int, a account) {
	vs := m.versions[id]
	if n := len(vs); n > 0 && vs[n-1].open {
		vs[n-1].open = false
	}
	m.versions[id] = append(vs, accountVersion{a, true})
	m.live[id] = a
	m.events++
}

func (m *accountsModel) remove(id int) {
	vs := m.versions[id]
	vs[len(vs)-1].open = false
	delete(m.live, id)
	m.events++
}

// op is one change of the workload: its SQL, and what it does to the
// model once its transaction committed.
type accountOp struct {
	sql   string
	apply func(*accountsModel)
}

// randomTransaction makes 1 to 5 changes of live keys: inserts, updates,
// key changes and deletes. pending tracks the transaction's own effect so
// that it stays consistent.
func (m *accountsModel) randomTransaction(r *rand.Rand) []accountOp {
	m.mu.Lock()
	defer m.mu.Unlock()
	live := map[int]account{}
	for k, v := range m.live {
		live[k] = v
	}
	nextID := m.nextID
	var ops []accountOp
	keys := func() []int {
		out := make([]int, 0, len(live))
		for k := range live {
			out = append(out, k)
		}
		sort.Ints(out)
		return out
	}
	for range 1 + r.IntN(5) {
		ks := keys()
		switch kind := r.IntN(10); {
		case kind < 4 || len(ks) < 3:
			id := nextID
			nextID++
			a := account{name: fmt.Sprintf("n%d'%d", id, r.IntN(100)), balance: r.IntN(1000)}
			live[id] = a
			ops = append(ops, accountOp{fmt.Sprintf("INSERT INTO accounts VALUES (%d, %s, %d)", id, quoteLit(a.name), a.balance),
				func(m *accountsModel) { m.put(id, a) }})
		case kind < 7:
			id := ks[r.IntN(len(ks))]
			a := live[id]
			a.balance += 1 + r.IntN(50)
			live[id] = a
			ops = append(ops, accountOp{fmt.Sprintf("UPDATE accounts SET balance = %d WHERE id = %d", a.balance, id),
				func(m *accountsModel) { m.put(id, a) }})
		case kind < 8:
			id := ks[r.IntN(len(ks))]
			newID := nextID
			nextID++
			a := live[id]
			delete(live, id)
			live[newID] = a
			ops = append(ops, accountOp{fmt.Sprintf("UPDATE accounts SET id = %d WHERE id = %d", newID, id),
				func(m *accountsModel) { m.remove(id); m.put(newID, a) }})
		default:
			id := ks[r.IntN(len(ks))]
			delete(live, id)
			ops = append(ops, accountOp{fmt.Sprintf("DELETE FROM accounts WHERE id = %d", id),
				func(m *accountsModel) { m.remove(id) }})
		}
	}
	m.nextID = nextID
	return ops
}

func quoteLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// runTransaction runs ops upstream in one transaction and applies them to
// the model once it committed.
func (m *accountsModel) runTransaction(ctx context.Context, up *pgx.Conn, ops []accountOp) error {
	tx, err := up.Begin(ctx)
	if err != nil {
		return err
	}
	for _, op := range ops {
		if _, err := tx.Exec(ctx, op.sql); err != nil {
			_ = tx.Rollback(ctx)
			return fmt.Errorf("%s: %w", op.sql, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	m.mu.Lock()
	for _, op := range ops {
		op.apply(m)
	}
	m.mu.Unlock()
	return nil
}

// expectedHistory spells the model's SCD TYPE 2 versions as the query in
// checkAccounts reads them.
func (m *accountsModel) expectedHistory() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]int, 0, len(m.versions))
	for id := range m.versions {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var out []string
	for _, id := range ids {
		for _, v := range m.versions[id] {
			out = append(out, fmt.Sprintf("%d|%s|%d|%t", id, v.name, v.balance, v.open))
		}
	}
	return out
}

func (m *accountsModel) expectedCurrent() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]int, 0, len(m.live))
	for id := range m.live {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var out []string
	for _, id := range ids {
		out = append(out, fmt.Sprintf("%d|%s|%d", id, m.live[id].name, m.live[id].balance))
	}
	return out
}

func queryLines(t *testing.T, conn *pgx.Conn, sql string) []string {
	t.Helper()
	lines, err := tryQueryLines(t.Context(), conn, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return lines
}

// tryQueryLines reads every row of a query whose columns are all text, as
// lines of values joined by |.
func tryQueryLines(ctx context.Context, conn *pgx.Conn, sql string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, statementTimeout)
	defer cancel()
	return rowLines(ctx, conn, "|", func(v any) string { return fmt.Sprint(v) }, sql)
}

const (
	historyQuery = `SELECT id, name, balance::int, __END_AT IS NULL FROM accounts_history ORDER BY id, __START_AT`
	currentQuery = `SELECT id, name, balance::int FROM accounts_bitemporal WHERE __END_AT IS NULL AND __SYSTEM_END_AT IS NULL ORDER BY id`
)

// setUpAccounts creates upstream table accounts with a few rows and a
// publication, and in cdcdb the connection, the source, and an SCD TYPE 2
// and a BITEMPORAL flow on it.
func setUpAccounts(t *testing.T, pg *pgserver.Postgres, cdc *pgx.Conn, m *accountsModel) *pgx.Conn {
	t.Helper()
	up := connect(t, pg.URL("up"))
	mustExec(t, up, `CREATE TABLE accounts (id int PRIMARY KEY, name text NOT NULL, balance numeric(12,2))`)
	mustExec(t, up, `CREATE PUBLICATION pub FOR TABLE accounts`)
	for range 3 {
		id := m.nextID
		m.nextID++
		a := account{name: fmt.Sprintf("first%d", id), balance: 100 * id}
		mustExec(t, up, fmt.Sprintf("INSERT INTO accounts VALUES (%d, '%s', %d)", id, a.name, a.balance))
		m.put(id, a)
	}
	mustExec(t, cdc, createConnectionSQL(pg))
	mustExec(t, cdc, `CREATE SOURCE src FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (public.accounts)`)
	mustExec(t, cdc, `CREATE STREAMING TABLE accounts_history`)
	mustExec(t, cdc, `CREATE FLOW accounts_scd2 AS AUTO CDC INTO accounts_history FROM accounts KEYS (id)
		APPLY AS DELETE WHEN _op = 'd' SEQUENCE BY _lsn COLUMNS * EXCEPT (_op, _lsn, _commit_ts) STORED AS SCD TYPE 2`)
	mustExec(t, cdc, `CREATE STREAMING TABLE accounts_bitemporal`)
	mustExec(t, cdc, `CREATE FLOW accounts_bt AS AUTO CDC INTO accounts_bitemporal FROM accounts KEYS (id)
		APPLY AS DELETE WHEN _op = 'd' SEQUENCE BY _lsn SYSTEM SEQUENCE BY _commit_ts
		COLUMNS * EXCEPT (_op, _lsn, _commit_ts) STORED AS BITEMPORAL`)
	waitForSourceState(t, cdc, "streaming")
	return up
}

// waitForSourceState waits until source src is in state.
func waitForSourceState(t *testing.T, cdc *pgx.Conn, state string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := queryLines(t, cdc, `SELECT state, coalesce(last_error, '') FROM cdcdb.sources WHERE name = 'src'`)
		if len(got) == 1 && strings.HasPrefix(got[0], state+"|") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("source src never reached state %s: %v", state, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitForAccounts waits until cdcdb holds what the model says, then checks
// every part of it: the SCD TYPE 2 history, the bitemporal current rows,
// and the source table's events, each exactly once.
func waitForAccounts(t *testing.T, cdc *pgx.Conn, m *accountsModel) {
	t.Helper()
	want := m.expectedHistory()
	deadline := time.Now().Add(60 * time.Second)
	var got []string
	for {
		var err error
		got, err = tryQueryLines(t.Context(), cdc, historyQuery)
		if err == nil && strings.Join(got, "\n") == strings.Join(want, "\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Logf("cdcdb.sources: %v", queryLines(t, cdc, `SELECT state, position, last_error FROM cdcdb.sources`))
			t.Fatalf("the SCD TYPE 2 history never matched the workload (err %v):\n got %d versions\n%s\nwant %d versions\n%s",
				err, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got, want := queryLines(t, cdc, currentQuery), m.expectedCurrent(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bitemporal current rows:\n got %v\nwant %v", got, want)
	}
	counts := queryLines(t, cdc, `SELECT count(*), count(DISTINCT _lsn) FROM accounts`)
	if wantCounts := fmt.Sprintf("%d|%d", m.events, m.events); counts[0] != wantCounts {
		t.Fatalf("source table accounts holds (events, distinct _lsn) %s, want %s: an upstream change is missing or twice", counts[0], wantCounts)
	}
}

func TestSourceFollowsUpstream(t *testing.T) {
	pg := startUpstream(t)
	s := startServer(t)
	cdc := connect(t, s.URL())
	m := newAccountsModel()
	up := setUpAccounts(t, pg, cdc, m)

	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	for range 150 {
		if err := m.runTransaction(t.Context(), up, m.randomTransaction(r)); err != nil {
			t.Fatal(err)
		}
	}
	waitForAccounts(t, cdc, m)
	snapshotRows := queryLines(t, cdc, `SELECT count(*) FROM accounts WHERE _op = 'r'`)
	if snapshotRows[0] != "3" {
		t.Errorf("snapshot rows: %s, want 3", snapshotRows[0])
	}
	state := queryLines(t, cdc, `SELECT name, connection, publication, state, tables::text, transactions_received > 0, last_error IS NULL FROM cdcdb.sources`)
	if want := "src|up|pub|streaming|{accounts}|true|true"; len(state) != 1 || state[0] != want {
		t.Errorf("cdcdb.sources: %v, want %s", state, want)
	}

	// Following resumes after a clean restart, from where it stopped.
	s.Restart()
	cdc = connect(t, s.URL())
	for range 30 {
		if err := m.runTransaction(t.Context(), up, m.randomTransaction(r)); err != nil {
			t.Fatal(err)
		}
	}
	waitForAccounts(t, cdc, m)

	// Source tables are written by their follower only.
	for _, stmt := range []string{`INSERT INTO accounts VALUES (1000, 'x', 1, 'c', 1, now())`, `DELETE FROM accounts`,
		`DROP TABLE accounts`, `ALTER TABLE accounts ADD COLUMN x int`, `TRUNCATE accounts`} {
		_, err := cdc.Exec(t.Context(), stmt)
		requireSQLState(t, err, pgerror.WrongObjectType)
	}

	// DROP SOURCE drops the slot it made.
	slots := queryLines(t, up, `SELECT count(*) FROM pg_replication_slots`)
	if slots[0] != "1" {
		t.Fatalf("upstream has %s replication slots, want 1", slots[0])
	}
	_, err := cdc.Exec(t.Context(), `DROP SOURCE src`)
	requireSQLState(t, err, pgerror.DependentObjectsStillExist)
	_, err = cdc.Exec(t.Context(), `DROP CONNECTION up`)
	requireSQLState(t, err, pgerror.DependentObjectsStillExist)
	mustExec(t, cdc, `DROP SOURCE src CASCADE`)
	if slots := queryLines(t, up, `SELECT count(*) FROM pg_replication_slots`); slots[0] != "0" {
		t.Fatalf("upstream has %s replication slots after DROP SOURCE, want 0", slots[0])
	}
	mustExec(t, cdc, `DROP CONNECTION up`)
	mustExec(t, cdc, `DROP SOURCE IF EXISTS src`)
	if n := queryLines(t, cdc, `SELECT count(*) FROM pg_class WHERE relname = 'accounts'`); n[0] != "0" {
		t.Fatalf("source table accounts still exists after DROP SOURCE")
	}
	if strings.Contains(s.Output(), sourcePassword) {
		t.Fatal("the connection's password appears in cdcdb's log")
	}
}

// TestSourceExactlyOnceAcrossCrashes runs a workload upstream while cdcdb
// is killed (kill -9) several times and upstream is restarted once: the
// source must hold every upstream change exactly once, and the flows what
// the workload did.
func TestSourceExactlyOnceAcrossCrashes(t *testing.T) {
	pg := startUpstream(t)
	s := startServer(t)
	cdc := connect(t, s.URL())
	m := newAccountsModel()
	_ = setUpAccounts(t, pg, cdc, m)

	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 11))
	// The workload holds paused for reading during each transaction; the
	// upstream restart takes it for writing, so that no transaction's
	// outcome is unknown.
	var paused sync.RWMutex
	reconnect := false // set under paused: upstream restarted
	stop := make(chan struct{})
	done := make(chan error, 1)
	var committed int
	go func() {
		ctx := context.Background()
		var up *pgx.Conn
		defer func() {
			if up != nil {
				_ = up.Close(ctx)
			}
		}()
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			paused.RLock()
			if up == nil || reconnect {
				if up != nil {
					_ = up.Close(ctx)
				}
				var err error
				if up, err = pgx.Connect(ctx, pg.URL("up")); err != nil {
					paused.RUnlock()
					done <- fmt.Errorf("connect upstream: %w", err)
					return
				}
				// Only this goroutine reads or writes reconnect while
				// holding paused for reading.
				reconnect = false
			}
			err := m.runTransaction(ctx, up, m.randomTransaction(r))
			paused.RUnlock()
			if err != nil {
				done <- err
				return
			}
			committed++
			time.Sleep(time.Duration(r.IntN(3)) * time.Millisecond)
		}
	}()
	workloadFailed := func() {
		select {
		case err := <-done:
			t.Fatalf("workload: %v", err)
		default:
		}
	}

	for i := range 4 {
		time.Sleep(time.Duration(300+rand.IntN(700)) * time.Millisecond)
		workloadFailed()
		s.Kill()
		s.StartAgain()
		if i == 1 {
			paused.Lock()
			if err := pg.Halt(t.Context(), pgserver.ShutdownFast); err != nil {
				paused.Unlock()
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond) // the follower meets a closed upstream
			if err := pg.StartAgain(t.Context()); err != nil {
				paused.Unlock()
				t.Fatal(err)
			}
			reconnect = true
			paused.Unlock()
		}
	}
	time.Sleep(500 * time.Millisecond)
	close(stop)
	if err := <-done; err != nil {
		t.Fatalf("workload: %v", err)
	}
	t.Logf("%d upstream transactions, %d change events", committed, m.events)
	cdc = connect(t, s.URL())
	waitForAccounts(t, cdc, m)
	if strings.Contains(s.Output(), sourcePassword) {
		t.Fatal("the connection's password appears in cdcdb's log")
	}
}

// TestSourceRefusals checks that every bad setting of CREATE CONNECTION
// and CREATE SOURCE is refused with its SQLSTATE, and that the password
// shows in no view and no error.
func TestSourceRefusals(t *testing.T) {
	pg := startUpstream(t)
	s := startServer(t)
	cdc := connect(t, s.URL())
	up := connect(t, pg.URL("up"))
	mustExec(t, up, `CREATE TABLE t1 (id int PRIMARY KEY, v text)`)
	mustExec(t, up, `CREATE TABLE t2 (id int PRIMARY KEY)`)
	mustExec(t, up, `CREATE PUBLICATION pub FOR TABLE t1`)
	mustExec(t, cdc, createConnectionSQL(pg))
	conn := func(opts string) string { return `CREATE CONNECTION c2 TO POSTGRES (` + opts + `)` }
	base := fmt.Sprintf(`HOST '%s', USER 'cdcdb', DATABASE 'up', PASSWORD '%s'`, pg.Host(), sourcePassword)
	var seen []string // every error message, searched for the password below
	for _, c := range []struct{ sql, code string }{
		{conn(base + `, COLOR 'red'`), pgerror.SyntaxError},
		{conn(base + `, HOST 'again'`), pgerror.SyntaxError},
		{conn(base + `, PORT 'x'`), pgerror.InvalidParameterValue},
		{conn(base + `, PORT 70000`), pgerror.InvalidParameterValue},
		{conn(base + `, SSL MODE 'sometimes'`), pgerror.InvalidParameterValue},
		{conn(`USER 'cdcdb', DATABASE 'up'`), pgerror.InvalidParameterValue},
		{conn(base+`, PORT 5432, SSL MODE 'verify-full'`) + `x`, pgerror.SyntaxError},
		{createConnectionSQL(pg), pgerror.DuplicateObject},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION nope (PUBLICATION 'pub') FOR TABLES (t1)`, pgerror.UndefinedObject},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'pub', SHAPE 'x') FOR TABLES (t1)`, pgerror.SyntaxError},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION up (SLOT 'a') FOR TABLES (t1)`, pgerror.InvalidParameterValue},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'pub', SLOT 'Bad-Name') FOR TABLES (t1)`, pgerror.InvalidName},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (t1, public.t1 AS t3)`, pgerror.DuplicateTable},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'nopub') FOR TABLES (t1)`, pgerror.UndefinedObject},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (t9)`, pgerror.UndefinedTable},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (t2)`, pgerror.UndefinedObject},
		{`DROP CONNECTION nope`, pgerror.UndefinedObject},
		{`DROP SOURCE nope`, pgerror.UndefinedObject},
	} {
		_, err := cdc.Exec(t.Context(), c.sql)
		if err == nil {
			t.Fatalf("%s: succeeded", c.sql)
		}
		pe := requireSQLState(t, err, c.code)
		seen = append(seen, pe.Message+pe.Detail+pe.Hint)
	}

	// In a transaction block: refused, as PostgreSQL refuses CREATE
	// SUBSCRIPTION there.
	tx, err := cdc.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(t.Context(), `CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (t1)`)
	requireSQLState(t, err, pgerror.ActiveSQLTransaction)
	_ = tx.Rollback(t.Context())

	// Upstream unreachable, and an upstream error quoting the password
	// back (as the name of a database that does not exist).
	mustExec(t, cdc, fmt.Sprintf(`CREATE CONNECTION closed TO POSTGRES (HOST '127.0.0.1', PORT 1, USER 'cdcdb', PASSWORD '%s', DATABASE 'up')`, sourcePassword))
	mustExec(t, cdc, fmt.Sprintf(`CREATE CONNECTION echo TO POSTGRES (HOST '%s', PORT %d, USER 'cdcdb', PASSWORD '%s', DATABASE '%s', SSL MODE 'disable')`,
		pg.Host(), pg.Port(), sourcePassword, sourcePassword))
	// SSL MODE is honoured: this upstream has no TLS, which require
	// refuses, as libpq does.
	mustExec(t, cdc, fmt.Sprintf(`CREATE CONNECTION tls TO POSTGRES (HOST '%s', PORT %d, USER 'cdcdb', DATABASE 'up', SSL MODE 'require')`,
		pg.Host(), pg.Port()))
	for _, c := range []struct{ sql, code string }{
		{`CREATE SOURCE s FROM POSTGRES CONNECTION tls (PUBLICATION 'pub') FOR TABLES (t1)`, pgerror.SQLClientUnableToEstablishConnection},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION closed (PUBLICATION 'pub') FOR TABLES (t1)`, pgerror.SQLClientUnableToEstablishConnection},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION echo (PUBLICATION 'pub') FOR TABLES (t1)`, "3D000"},
	} {
		_, err := cdc.Exec(t.Context(), c.sql)
		pe := requireSQLState(t, err, c.code)
		seen = append(seen, pe.Message+pe.Detail+pe.Hint)
	}
	// Its database name is the password: the view would rightly show it.
	mustExec(t, cdc, `DROP CONNECTION echo`)
	if n := queryLines(t, cdc, `SELECT count(*) FROM cdcdb.sources`); n[0] != "0" {
		t.Fatalf("a refused CREATE SOURCE left %s sources", n[0])
	}

	// A source that works, then every view that could show the password.
	mustExec(t, cdc, `CREATE SOURCE s FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (public.t1 AS upstream_t1)`)
	cols := queryLines(t, cdc, `SELECT attname || ' ' || format_type(atttypid, atttypmod) FROM pg_attribute
		WHERE attrelid = 'upstream_t1'::regclass AND attnum > 0 ORDER BY attnum`)
	if got, want := strings.Join(cols, ", "), "id integer, v text, _op text, _lsn bigint, _commit_ts timestamp with time zone"; got != want {
		t.Errorf("source table columns: %s, want %s", got, want)
	}
	conns := queryLines(t, cdc, `SELECT name, host, port, "user", database, ssl_mode FROM cdcdb.connections ORDER BY name`)
	if len(conns) != 3 || conns[2] != fmt.Sprintf("up|%s|%d|cdcdb|up|disable", pg.Host(), pg.Port()) {
		t.Errorf("cdcdb.connections: %v", conns)
	}
	for _, q := range []string{`SELECT * FROM cdcdb.connections`, `SELECT * FROM cdcdb.sources`,
		`SELECT coalesce(obj_description(oid), '') FROM pg_class`, `SELECT * FROM pg_stat_activity`} {
		seen = append(seen, queryLines(t, cdc, q)...)
	}
	for _, text := range append(seen, s.Output()) {
		if strings.Contains(text, sourcePassword) {
			t.Fatalf("the password shows: %s", text)
		}
	}
	mustExec(t, cdc, `DROP SOURCE s`)
	mustExec(t, cdc, `DROP CONNECTION IF EXISTS up, closed, tls, nope`)
}

// TestSourceTypesTruncateAndAddedColumns follows a table of every common
// type through inserts, updates (one leaving a TOASTed value unsent),
// deletes, a TRUNCATE and an ADD COLUMN ... DEFAULT, and holds the latest
// row of every key in the source table to upstream's table, value by value
// in PostgreSQL's text form.
func TestSourceTypesTruncateAndAddedColumns(t *testing.T) {
	pg := startUpstream(t)
	s := startServer(t)
	cdc := connect(t, s.URL())
	up := connect(t, pg.URL("up"))
	for _, c := range []*pgx.Conn{cdc, up} {
		mustExec(t, c, `SET TimeZone = 'UTC'`)
	}
	mustExec(t, up, `CREATE TABLE typed (id int PRIMARY KEY, i2 int2, i8 int8, n numeric(10,3), vc varchar(20), b bool, d date,
		ts timestamp, tstz timestamptz, u uuid, j jsonb, by bytea, arr int4[], tarr text[], f8 float8, big text)`)
	mustExec(t, up, `CREATE PUBLICATION pub FOR TABLE typed`)
	mustExec(t, up, `INSERT INTO typed VALUES (1, 1, 10000000000, 1.5, 'snap', true, '2020-02-29', '2020-01-01 10:00:00.123456',
		'2020-01-01 10:00:00+02', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": [1, "x"]}', '\x00ff', '{1,NULL,3}', '{"a b","c,d"}', 0.1, 'small')`)
	mustExec(t, cdc, createConnectionSQL(pg))
	mustExec(t, cdc, `CREATE SOURCE src FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (typed)`)
	mustExec(t, cdc, `CREATE STREAMING TABLE typed_now`)
	mustExec(t, cdc, `CREATE FLOW typed_scd1 AS AUTO CDC INTO typed_now FROM typed KEYS (id)
		APPLY AS DELETE WHEN _op = 'd' SEQUENCE BY _lsn COLUMNS * EXCEPT (_op, _lsn, _commit_ts)`)
	waitForSourceState(t, cdc, "streaming")

	for _, stmt := range []string{
		`INSERT INTO typed VALUES (2, -32768, -9223372036854775808, -99999.999, 'quote''s \ back', false, '0001-01-01',
			'1999-12-31 23:59:59', '2038-01-19 03:14:08+00', '00000000-0000-0000-0000-000000000000', '[]', '\x', '{}', '{}', 'NaN', NULL)`,
		`INSERT INTO typed (id) VALUES (3)`,
		`INSERT INTO typed (id, big) SELECT 4, string_agg(md5(i::text), '') FROM generate_series(1, 400) i`,
		`UPDATE typed SET i2 = 5 WHERE id = 4`, // big is TOASTed and unchanged: pgoutput does not send it
		`UPDATE typed SET f8 = 1e300, j = '{"k": null}' WHERE id = 1`,
		`UPDATE typed SET id = 5 WHERE id = 2`,
		`DELETE FROM typed WHERE id = 3`,
	} {
		mustExec(t, up, stmt)
	}
	const columns = `id::text, i2::text, i8::text, n::text, vc, b::text, d::text, ts::text, tstz::text, u::text, j::text,
		by::text, arr::text, tarr::text, f8::text, md5(big)`
	upstreamRows := func(extra string) []string {
		return queryLines(t, up, `SELECT `+columns+extra+` FROM typed ORDER BY id`)
	}
	sourceQuery := func(extra string) string {
		return `SELECT ` + columns + extra + ` FROM (SELECT DISTINCT ON (id) * FROM typed ORDER BY id, _lsn DESC) latest WHERE _op <> 'd' ORDER BY id`
	}
	waitForRows := func(what, query string, want []string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			got, err := tryQueryLines(t.Context(), cdc, query)
			if err == nil && strings.Join(got, "\n") == strings.Join(want, "\n") {
				return
			}
			if time.Now().After(deadline) {
				t.Logf("cdcdb.sources: %v", queryLines(t, cdc, `SELECT state, position, last_error FROM cdcdb.sources`))
				t.Fatalf("%s (err %v):\n got %s\nwant %s", what, err, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitForRows("latest source rows", sourceQuery(""), upstreamRows(""))
	waitForRows("SCD TYPE 1 target", `SELECT `+columns+` FROM typed_now ORDER BY id`, upstreamRows(""))

	// With REPLICA IDENTITY FULL a delete carries the whole old row;
	// without, only the key.
	mustExec(t, up, `ALTER TABLE typed REPLICA IDENTITY FULL`)
	mustExec(t, up, `DELETE FROM typed WHERE id = 5`)
	mustExec(t, up, `ALTER TABLE typed REPLICA IDENTITY DEFAULT`)
	mustExec(t, up, `DELETE FROM typed WHERE id = 4`)
	waitForRows("deletes", `SELECT id::text, i2::text, vc FROM typed WHERE _op = 'd' AND id IN (4, 5) ORDER BY id`,
		[]string{"4|<nil>|<nil>", "5|-32768|quote's \\ back"})
	waitForRows("after the deletes", sourceQuery(""), upstreamRows(""))

	// TRUNCATE upstream: a delete of every key, then rows again.
	mustExec(t, up, `TRUNCATE typed`)
	mustExec(t, up, `INSERT INTO typed (id, vc) VALUES (7, 'after truncate')`)
	waitForRows("after TRUNCATE", sourceQuery(""), upstreamRows(""))
	waitForRows("SCD TYPE 1 target after TRUNCATE", `SELECT `+columns+` FROM typed_now ORDER BY id`, upstreamRows(""))
	if got := queryLines(t, cdc, `SELECT count(*) FROM typed WHERE _op = 'd' AND _lsn = (SELECT max(_lsn) FROM typed WHERE _op = 'd')`); got[0] != "1" {
		t.Errorf("the TRUNCATE wrote %s deletes with its _lsn, want 1 (key 1)", got[0])
	}

	// ADD COLUMN upstream: the column appears, and the rows already there
	// take its default.
	mustExec(t, up, `ALTER TABLE typed ADD COLUMN extra int DEFAULT 7`)
	mustExec(t, up, `INSERT INTO typed (id, extra) VALUES (8, 9)`)
	// A flow reads the table, and a flow's source keeps its columns: the
	// source waits, retrying, until the flow is dropped.
	waitForSourceState(t, cdc, "retrying")
	if got := queryLines(t, cdc, `SELECT last_error FROM cdcdb.sources`); !strings.Contains(got[0], `flow "typed_scd1" reads source table "typed"`) {
		t.Errorf("last_error: %s", got[0])
	}
	mustExec(t, cdc, `DROP FLOW typed_scd1`)
	waitForRows("after ADD COLUMN", sourceQuery(", extra::text"), upstreamRows(", extra::text"))
	if got := queryLines(t, cdc, `SELECT state FROM cdcdb.sources`); got[0] != "streaming" {
		t.Errorf("source state %s after ADD COLUMN", got[0])
	}
}

// TestSourceSnapshotStartsOverAfterACrash kills cdcdb in the middle of a
// large initial snapshot that a flow already applies: after the restart
// the snapshot starts over (a new slot, the source tables and the flow's
// target emptied in the same transaction), and the target ends up equal to
// upstream, every row once.
func TestSourceSnapshotStartsOverAfterACrash(t *testing.T) {
	pg := startUpstream(t)
	s := startServer(t)
	cdc := connect(t, s.URL())
	up := connect(t, pg.URL("up"))
	const rows = 300_000
	mustExec(t, up, `CREATE TABLE big (id int PRIMARY KEY, v text)`)
	mustExec(t, up, fmt.Sprintf(`INSERT INTO big SELECT i, md5(i::text) FROM generate_series(1, %d) i`, rows))
	mustExec(t, up, `CREATE PUBLICATION pub FOR TABLE big`)
	mustExec(t, cdc, createConnectionSQL(pg))
	mustExec(t, cdc, `CREATE SOURCE src FROM POSTGRES CONNECTION up (PUBLICATION 'pub') FOR TABLES (big)`)
	mustExec(t, cdc, `CREATE STREAMING TABLE big_now`)
	mustExec(t, cdc, `CREATE FLOW big_scd1 AS AUTO CDC INTO big_now FROM big KEYS (id)
		APPLY AS DELETE WHEN _op = 'd' SEQUENCE BY _lsn COLUMNS * EXCEPT (_op, _lsn, _commit_ts)`)
	// Kill it once some of the snapshot is in, not all.
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := queryLines(t, cdc, `SELECT state, rows_received FROM cdcdb.sources`)
		if got[0] == "streaming|"+fmt.Sprint(rows) {
			t.Fatal("the snapshot finished before the test could kill cdcdb in its middle: make the table larger")
		}
		if strings.HasPrefix(got[0], "snapshotting|") && got[0] != "snapshotting|0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the snapshot never started: %v", got)
		}
		time.Sleep(5 * time.Millisecond)
	}
	partial := queryLines(t, cdc, `SELECT count(*) FROM big_now`)
	s.Kill()
	t.Logf("killed with %s rows in the target", partial[0])
	s.StartAgain()
	cdc = connect(t, s.URL())
	mustExec(t, up, `UPDATE big SET v = 'changed' WHERE id % 1000 = 0`)
	waitForSourceState(t, cdc, "streaming")
	want := queryLines(t, up, `SELECT count(*), count(*) FILTER (WHERE v = 'changed'), sum(id)::text FROM big`)
	deadline = time.Now().Add(60 * time.Second)
	for {
		got := queryLines(t, cdc, `SELECT count(*), count(*) FILTER (WHERE v = 'changed'), sum(id)::text FROM big_now`)
		if got[0] == want[0] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("target (rows, changed, sum of ids) %s, want %s", got[0], want[0])
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := queryLines(t, cdc, `SELECT count(*), count(DISTINCT id) FROM big WHERE _op = 'r'`); got[0] != fmt.Sprintf("%d|%d", rows, rows) {
		t.Fatalf("snapshot rows in the source (rows, distinct ids): %s, want each of %d once", got[0], rows)
	}
	if slots := queryLines(t, up, `SELECT count(*) FROM pg_replication_slots`); slots[0] != "1" {
		t.Fatalf("upstream holds %s slots, want 1 (the first snapshot's is dropped)", slots[0])
	}
}
