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
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, rows.Err()
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
