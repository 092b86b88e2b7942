package pgtests

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgtests/pgserver"
)

// The online backup, cdcdb.backup(path), taken while writers commit into a
// plain table and into the sources of an SCD TYPE 2 and a BITEMPORAL flow.

const backupSchema = `
CREATE TABLE acct (id int PRIMARY KEY, balance int8 NOT NULL);
CREATE TABLE wlog (n int8 PRIMARY KEY);
CREATE TABLE ev (id int, v text, seq int8);
CREATE STREAMING TABLE hist;
CREATE FLOW hist_f AS AUTO CDC INTO hist FROM stream(ev) KEYS (id) SEQUENCE BY seq COLUMNS id, v STORED AS SCD TYPE 2;
CREATE TABLE bev (id int, x text, bt int8, st int8);
CREATE STREAMING TABLE bit;
CREATE FLOW bit_f AS AUTO CDC INTO bit FROM stream(bev) KEYS (id) SEQUENCE BY bt SYSTEM SEQUENCE BY st COLUMNS id, x STORED AS BITEMPORAL`

// backupWriters commits, each writer on its own connection and in order,
// numbered changes: n = 1, 2, ... Writer 0 inserts n into wlog and sets an
// account's balance to n; writer 1 sends an SCD TYPE 2 event of sequence n;
// writer 2 a bitemporal event of business time n-3 (arriving out of order)
// and system time n. acked[w] is the last n writer w had acknowledged.
type backupWriters struct {
	acked [3]atomic.Int64
	stop  atomic.Bool
	wg    sync.WaitGroup
	errs  [3]error
}

func startBackupWriters(t *testing.T, url string) *backupWriters {
	ws := &backupWriters{}
	ctx := testContext(t)
	stmts := [3]func(c *pgx.Conn, n int64) error{
		func(c *pgx.Conn, n int64) error {
			b, err := c.Begin(ctx)
			if err != nil {
				return err
			}
			defer b.Rollback(ctx)
			if _, err := b.Exec(ctx, "INSERT INTO wlog VALUES ($1)", n); err != nil {
				return err
			}
			if _, err := b.Exec(ctx, "INSERT INTO acct VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET balance = excluded.balance", int32(n%17), n); err != nil {
				return err
			}
			return b.Commit(ctx)
		},
		func(c *pgx.Conn, n int64) error {
			_, err := c.Exec(ctx, "INSERT INTO ev VALUES ($1, $2, $3)", int32(n%13), fmt.Sprintf("v%d", n), n)
			return err
		},
		func(c *pgx.Conn, n int64) error {
			_, err := c.Exec(ctx, "INSERT INTO bev VALUES ($1, $2, $3, $4)", int32(n%7), fmt.Sprintf("x%d", n), n-3*(n%2), n)
			return err
		},
	}
	for w := range stmts {
		conn := connect(t, url)
		ws.wg.Go(func() {
			for n := int64(1); !ws.stop.Load(); n++ {
				if err := stmts[w](conn, n); err != nil {
					ws.errs[w] = err
					return
				}
				ws.acked[w].Store(n)
			}
		})
	}
	return ws
}

func (ws *backupWriters) halt(t *testing.T) {
	ws.stop.Store(true)
	ws.wg.Wait()
	for w, err := range ws.errs {
		if err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	}
}

func sqlTime(ts time.Time) string {
	return "'" + ts.UTC().Format("2006-01-02 15:04:05.999999") + "+00'::timestamptz"
}

func serverClock(t *testing.T, c *pgx.Conn) time.Time {
	var ts time.Time
	if err := c.QueryRow(testContext(t), "SELECT clock_timestamp()").Scan(&ts); err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestBackupUnderLoadRestoresTheDatabaseAsOfOneCommit(t *testing.T) {
	// A small memtable: the copy must gather what is in the file's runs,
	// in frozen layers and in the active one, as checkpoints go on.
	orig := startServer(t, pgserver.WithArgs("-memtable", "1MiB"))
	conn := connect(t, orig.URL())
	for _, stmt := range strings.Split(backupSchema, ";") {
		mustExec(t, conn, stmt)
	}
	// Enough rows that the writers go on while the copy is written.
	mustExec(t, conn, "CREATE TABLE bulk (id int8 PRIMARY KEY, pad text)")
	mustExec(t, conn, "INSERT INTO bulk SELECT g, repeat('b', 100) FROM generate_series(1, 100000) g")
	ws := startBackupWriters(t, orig.URL())
	defer ws.halt(t)
	var early []time.Time // moments before the backup, to read as of
	for i := range 4 {
		waitFor(t, time.Minute, "the writers to get further", func() bool { return ws.acked[0].Load() > int64(100*(i+1)) })
		early = append(early, serverClock(t, conn))
	}
	var before [3]int64
	for w := range before {
		before[w] = ws.acked[w].Load()
	}
	t0 := serverClock(t, conn)
	out := filepath.Join(t.TempDir(), "copy.db")
	if got := queryString(t, conn, "SELECT cdcdb.backup($1)", out); got != out {
		t.Fatalf("cdcdb.backup returned %q", got)
	}
	t1 := serverClock(t, conn)
	var during [3]int64
	for w := range during {
		during[w] = ws.acked[w].Load() - before[w]
	}
	t.Logf("the backup took %v; the writers had %v more commits acknowledged meanwhile", t1.Sub(t0).Round(time.Millisecond), during)
	waitFor(t, time.Minute, "the writers to go on after the backup", func() bool { return ws.acked[1].Load() > before[1]+50 })
	ws.halt(t)

	mustCheck(t, out)
	restored := startServer(t, pgserver.WithDataFile(out))
	rc := connect(t, restored.URL())

	// Every acknowledged commit before the backup began is in it, and
	// each writer's changes are a prefix: 1..m with no hole.
	var m [3]int64
	for w, q := range []string{"SELECT count(*), coalesce(max(n), 0) FROM wlog", "SELECT count(*), coalesce(max(seq), 0) FROM ev", "SELECT count(*), coalesce(max(st), 0) FROM bev"} {
		var count, maxN int64
		if err := rc.QueryRow(testContext(t), q).Scan(&count, &maxN); err != nil {
			t.Fatal(err)
		}
		if count != maxN {
			t.Errorf("writer %d: the copy has %d of its changes up to %d: a hole", w, count, maxN)
		}
		if maxN < before[w] {
			t.Errorf("writer %d: the copy ends at change %d, but %d was acknowledged before the backup began", w, maxN, before[w])
		}
		m[w] = maxN
	}
	t.Logf("acknowledged before the backup: %v; in the copy: %v", before, m)

	// The backup's moment: the first commit time at which the original
	// had all that the copy has (commit times only grow).
	countsAt := func(ts time.Time) [3]int64 {
		var c [3]int64
		at := sqlTime(ts)
		if err := conn.QueryRow(testContext(t), "SELECT (SELECT count(*) FROM wlog FOR SYSTEM_TIME AS OF "+at+"), (SELECT count(*) FROM ev FOR SYSTEM_TIME AS OF "+at+"), (SELECT count(*) FROM bev FOR SYSTEM_TIME AS OF "+at+")").Scan(&c[0], &c[1], &c[2]); err != nil {
			t.Fatal(err)
		}
		return c
	}
	lo, hi := t0.Add(-10*time.Second), t1
	want := m[0] + m[1] + m[2]
	for hi.Sub(lo) > time.Microsecond {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Microsecond)
		c := countsAt(mid)
		if c[0]+c[1]+c[2] >= want {
			hi = mid
		} else {
			lo = mid
		}
	}
	moment := hi
	if got := countsAt(moment); got != m {
		t.Fatalf("the original never held what the copy holds: at %v it had %v, the copy %v", moment, got, m)
	}

	// The copy now answers as the original did at the backup's moment, and
	// as it did at earlier moments; the bitemporal target's own system
	// and business times too.
	same := func(what, origQuery, copyQuery string) {
		t.Helper()
		a, b := queryStrings(t, conn, origQuery), queryStrings(t, rc, copyQuery)
		if !slices.Equal(a, b) {
			t.Errorf("%s: the original had %d rows, the copy %d\noriginal: %.600s\ncopy:     %.600s", what, len(a), len(b), strings.Join(a, " "), strings.Join(b, " "))
		}
	}
	earlier := 0
	for _, e := range early {
		if e.Before(moment) {
			earlier++
		}
	}
	if earlier < 2 {
		t.Fatalf("only %d of the moments taken before the backup precede its moment %v", earlier, moment)
	}
	t.Logf("compared as of the backup's moment and %d earlier moments", earlier)
	for _, table := range []string{"acct", "wlog", "ev", "hist", "bev", "bulk"} {
		order := " ORDER BY 1, 2"
		if table == "wlog" {
			order = " ORDER BY 1"
		}
		same(table+" now", "SELECT * FROM "+table+" FOR SYSTEM_TIME AS OF "+sqlTime(moment)+order, "SELECT * FROM "+table+order)
		for i, e := range early {
			if !e.Before(moment) {
				// A commit can take its commit time before the backup
				// began and be durable only after it: a moment past the
				// backup's may see commits the copy rightly lacks.
				continue
			}
			q := "SELECT * FROM " + table + " FOR SYSTEM_TIME AS OF " + sqlTime(e) + order
			same(fmt.Sprintf("%s as of early moment %d", table, i), q, q)
		}
	}
	histOrder := " ORDER BY id, __start_at"
	for _, b := range []int64{m[1] / 3, m[1] / 2, m[1] - 1} {
		same(fmt.Sprintf("hist for business time %d", b),
			fmt.Sprintf("SELECT * FROM hist FOR SYSTEM_TIME AS OF %s FOR BUSINESS_TIME AS OF %d%s", sqlTime(moment), b, histOrder),
			fmt.Sprintf("SELECT * FROM hist FOR BUSINESS_TIME AS OF %d%s", b, histOrder))
	}
	bitOrder := " ORDER BY id, __start_at, __system_start_at"
	for _, s := range []int64{m[2] / 4, m[2] / 2, m[2]} {
		for _, b := range []int64{s / 2, s - 5} {
			// Not __system_end_at: a later belief ends a row's, and
			// later beliefs are what the copy lacks.
			q := fmt.Sprintf("SELECT id, x, __start_at, __end_at, __system_start_at FROM bit FOR SYSTEM_TIME AS OF %d FOR BUSINESS_TIME AS OF %d%s", s, b, bitOrder)
			same(fmt.Sprintf("bit as of system %d, business %d", s, b), q, q)
		}
	}
	// The flows in the copy go on: a new event reaches their targets.
	mustExec(t, rc, "INSERT INTO ev VALUES (1000, 'after', $1)", m[1]+1)
	if got := queryString(t, rc, "SELECT v FROM hist WHERE id = 1000"); got != "after" {
		t.Errorf("the copy's SCD TYPE 2 flow did not apply a new event: %q", got)
	}
	mustExec(t, rc, "INSERT INTO bev VALUES (1000, 'after', 1, $1)", m[2]+1)
	if got := queryString(t, rc, "SELECT x FROM bit WHERE id = 1000"); got != "after" {
		t.Errorf("the copy's BITEMPORAL flow did not apply a new event: %q", got)
	}
}

// mustCheck runs `cdcdb check` on a file and fails unless it is sound.
func mustCheck(t *testing.T, path string) {
	t.Helper()
	if code, out := runCheck(t, path); code != 0 {
		t.Fatalf("cdcdb check %s: exit %d\n%s", path, code, out)
	}
}

func TestBackupRefusesBadPaths(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	readOnlyDir := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnlyDir, 0o500); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, code string }{
		{"relative.db", "42602"},
		{existing, "58P02"},
		{srv.DataFile(), "58P02"},
		{filepath.Join(dir, "missing", "x.db"), "58P01"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		cases = append(cases, struct{ path, code string }{filepath.Join(readOnlyDir, "x.db"), "42501"})
	}
	for _, c := range cases {
		_, err := conn.Exec(testContext(t), "SELECT cdcdb.backup($1)", c.path)
		requireSQLState(t, err, c.code)
	}
	_, err := conn.Exec(testContext(t), "SELECT cdcdb.nosuch($1)", "x")
	requireSQLState(t, err, "42883")
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Errorf("the existing file was changed: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("refused backups left files behind: %v", entries)
	}
}

// TestKill9DuringABackup kills the server while a backup of a database of
// some size is being written: the server's file must come back whole, and
// no backup may sit at the path asked for unless it is complete.
func TestKill9DuringABackup(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	mustExec(t, conn, "CREATE TABLE big (id int8 PRIMARY KEY, pad text)")
	mustExec(t, conn, "INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, 200000) g")
	out := filepath.Join(t.TempDir(), "copy.db")
	backupDone := make(chan error, 1)
	go func() {
		c := connect(t, srv.URL())
		_, err := c.Exec(context.Background(), "SELECT cdcdb.backup($1)", out)
		backupDone <- err
	}()
	// Kill once the backup's partial file appears.
	waitFor(t, time.Minute, "the backup's partial file", func() bool {
		m, _ := filepath.Glob(out + ".partial*")
		return len(m) > 0 || len(backupDone) > 0
	})
	srv.Kill()
	err := <-backupDone
	if err == nil {
		t.Log("the backup finished before the kill; its copy must be whole")
		mustCheck(t, out)
	} else if _, statErr := os.Stat(out); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("a backup cut short left a file at its path: %v", statErr)
	}
	checkDataFile(t, srv)
	mustCheck(t, srv.DataFile())
	// The file the kill left, with the commits its log holds and no
	// server, copied by cdcdb backup: the copy has every row too.
	offline := filepath.Join(t.TempDir(), "offline.db")
	if out, err := exec.Command(cdcdbBin, "backup", "-data", srv.DataFile(), "-to", offline).CombinedOutput(); err != nil {
		t.Fatalf("cdcdb backup: %v\n%s", err, out)
	}
	mustCheck(t, offline)
	fromOffline := startServer(t, pgserver.WithDataFile(offline))
	if got := queryString(t, connect(t, fromOffline.URL()), "SELECT count(*)::text FROM big"); got != "200000" {
		t.Errorf("the offline copy has %s rows, want 200000", got)
	}
	srv.StartAgain()
	if got := queryString(t, connect(t, srv.URL()), "SELECT count(*)::text FROM big"); got != "200000" {
		t.Errorf("after the kill the server has %s rows, want 200000", got)
	}
	// A running server's file is not copied behind its back.
	busy, err := exec.Command(cdcdbBin, "backup", "-data", srv.DataFile(), "-to", filepath.Join(t.TempDir(), "x.db")).CombinedOutput()
	if err == nil || !strings.Contains(string(busy), "cdcdb.backup") {
		t.Errorf("cdcdb backup of a running server's file: %v\n%s", err, busy)
	}
}

// TestBackupHonoursStatementTimeout: a backup that runs past
// statement_timeout is cancelled with 57014 and leaves no file, and the
// server serves on.
func TestBackupHonoursStatementTimeout(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	mustExec(t, conn, "CREATE TABLE big (id int8 PRIMARY KEY, pad text)")
	mustExec(t, conn, "INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, 100000) g")
	dir := t.TempDir()
	mustExec(t, conn, "SET statement_timeout = '5ms'")
	_, err := conn.Exec(testContext(t), "SELECT cdcdb.backup($1)", filepath.Join(dir, "copy.db"))
	requireSQLState(t, err, "57014")
	mustExec(t, conn, "RESET statement_timeout")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a cancelled backup left files: %v", entries)
	}
	if got := queryString(t, conn, "SELECT count(*)::text FROM big"); got != "100000" {
		t.Errorf("after the cancelled backup: %s rows", got)
	}
}
