package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// pgBinDir is where Debian's postgresql-15 package puts the server and pgbench.
const pgBinDir = "/usr/lib/postgresql/15/bin"

// errNoPostgres says PostgreSQL 15 is not installed; the CI test skips on it
// except under CI=true, where the benchmark must run.
var errNoPostgres = errors.New("PostgreSQL 15 is not installed")

// pgServer is a PostgreSQL 15 in a temporary directory, started with its
// default settings apart from where it listens: in particular fsync=on,
// synchronous_commit=on and the default shared_buffers. User cdcdb is its
// superuser (trust authentication, loopback only).
type pgServer struct {
	dir    string // data/, sock/, log
	port   int
	asUser string // OS user running the binaries ("" for ourselves)
}

func startPostgres(ctx context.Context) (*pgServer, error) {
	for _, tool := range []string{"initdb", "pg_ctl", "postgres", "pgbench"} {
		if _, err := os.Stat(filepath.Join(pgBinDir, tool)); err != nil {
			return nil, fmt.Errorf("%w: %s missing (apt-get install postgresql-15 postgresql-contrib)", errNoPostgres, filepath.Join(pgBinDir, tool))
		}
	}
	p := &pgServer{}
	if os.Geteuid() == 0 {
		p.asUser = "postgres" // PostgreSQL refuses to run as root
	}
	// Not under a 0700 root-owned temp dir: the postgres user must enter it.
	dir, err := os.MkdirTemp("", "cdcbench-pg15-")
	if err != nil {
		return nil, err
	}
	p.dir = dir
	if err := p.prepareDirs(); err != nil {
		p.removeDir()
		return nil, err
	}
	// --no-sync only skips initdb's own flush of the template files.
	if out, err := p.run(ctx, "initdb", "-D", p.dataDir(), "-U", "cdcdb", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		p.removeDir()
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	var startErr error
	for range 5 { // a free port can be taken before the server binds it
		if p.port, err = freePort(); err != nil {
			p.removeDir()
			return nil, err
		}
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", p.port, p.sockDir())
		out, err := p.run(ctx, "pg_ctl", "-D", p.dataDir(), "-l", filepath.Join(p.dir, "log"), "-w", "-t", "60", "-o", opts, "start")
		if err == nil {
			startErr = nil
			break
		}
		startErr = fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, p.logTail())
	}
	if startErr != nil {
		p.removeDir()
		return nil, startErr
	}
	return p, nil
}

func (p *pgServer) prepareDirs() error {
	if err := os.Chmod(p.dir, 0o755); err != nil {
		return err
	}
	for _, d := range []string{p.dataDir(), p.sockDir()} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	if p.asUser == "" {
		return nil
	}
	u, err := user.Lookup(p.asUser)
	if err != nil {
		return fmt.Errorf("running as root, PostgreSQL needs the %q OS user: %v", p.asUser, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, d := range []string{p.dir, p.dataDir(), p.sockDir()} {
		if err := os.Chown(d, uid, gid); err != nil {
			return err
		}
	}
	return nil
}

func (p *pgServer) dataDir() string { return filepath.Join(p.dir, "data") }
func (p *pgServer) sockDir() string { return filepath.Join(p.dir, "sock") }

func (p *pgServer) run(ctx context.Context, tool string, args ...string) ([]byte, error) {
	path := filepath.Join(pgBinDir, tool)
	var cmd *exec.Cmd
	if p.asUser != "" {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", p.asUser, "--", path}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, path, args...)
	}
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	return cmd.CombinedOutput()
}

func (p *pgServer) url(db string) string {
	return fmt.Sprintf("postgres://cdcdb@127.0.0.1:%d/%s?sslmode=disable", p.port, db)
}

func (p *pgServer) logTail() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "log"))
	if len(b) > 8<<10 {
		b = b[len(b)-8<<10:]
	}
	return string(b)
}

// freshDatabase drops and recreates database name, after a checkpoint so
// that a repetition does not pay for the previous one's dirty pages.
func (p *pgServer) freshDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, p.url("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		"DROP DATABASE IF EXISTS " + name + " WITH (FORCE)",
		"CREATE DATABASE " + name,
		"CHECKPOINT",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %v", q, err)
		}
	}
	return nil
}

// settings reports the settings that decide durability and caching, for
// the report: they show PostgreSQL ran as shipped.
func (p *pgServer) settings(ctx context.Context) (string, error) {
	conn, err := pgx.Connect(ctx, p.url("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	var parts []string
	for _, name := range []string{"fsync", "synchronous_commit", "wal_sync_method", "shared_buffers", "work_mem", "max_wal_size"} {
		var v string
		if err := conn.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&v); err != nil {
			return "", err
		}
		parts = append(parts, name+"="+v)
	}
	return strings.Join(parts, " "), nil
}

func (p *pgServer) stop() error {
	out, err := p.run(context.Background(), "pg_ctl", "-D", p.dataDir(), "-m", "fast", "-w", "-t", "60", "stop")
	p.removeDir()
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

func (p *pgServer) removeDir() {
	if p.dir != "" && strings.Contains(p.dir, "cdcbench-pg15-") {
		_ = os.RemoveAll(p.dir)
	}
}

// ---------------------------------------------------------------------------
// The PostgreSQL side of the AUTO CDC workloads: what a strong engineer
// writes to keep an SCD TYPE 2 or BITEMPORAL table exact under out-of-order
// events, without cdcdb.
//
// Design: every event goes into an append-only log with a primary key on
// (key, sequence) — which also refuses two events for one key and sequence,
// as the contract asks. Each batch is COPYed into a temporary table, appended
// to the log, and then the history of every key the batch touches is deleted
// and rebuilt from that key's whole log with window functions, all in one
// transaction. Rebuilding from the log is what makes the result independent
// of arrival order: a late event is just one more row of the log. The work
// per batch is proportional to the touched keys' logs (reached through the
// primary key index), never to the table.
// ---------------------------------------------------------------------------

// pgSCD2Schema creates the log and the target. The target's primary key is
// also the index the time-travel reads want: (key, start).
const pgSCD2Schema = `
CREATE TABLE ev_log (id bigint NOT NULL, name text, city text, op text, seq bigint NOT NULL, PRIMARY KEY (id, seq));
CREATE TABLE tgt (id bigint NOT NULL, name text, city text, __start_at bigint NOT NULL, __end_at bigint,
                  PRIMARY KEY (id, __start_at));`

// pgSCD2Rebuild rebuilds the touched keys' SCD TYPE 2 history (spec §4),
// replaying each key's events in sequence order, set-wise:
//
//   - a "boundary" event is one that ends the open version or starts a new
//     one: a delete, the key's first event, an upsert after a delete, or an
//     upsert whose values differ from the previous event's (the open version
//     holds the values of the last upsert, so comparing with the previous
//     event is comparing with the open version; an identical upsert adds
//     nothing);
//   - each boundary upsert starts a version, which ends at the next boundary
//     event (lead over the boundaries), NULL when there is none: open;
//   - boundary deletes close versions and start none.
//
// "Identical" is IS NOT DISTINCT FROM, as cdcdb compares values (NULL equals
// NULL). It runs in the batch's transaction, after COPY into ev_batch.
const pgSCD2Rebuild = `
INSERT INTO ev_log SELECT * FROM ev_batch;
DELETE FROM tgt WHERE id IN (SELECT id FROM ev_batch);
INSERT INTO tgt (id, name, city, __start_at, __end_at)
SELECT id, name, city, seq, next_seq
FROM (
	SELECT id, name, city, seq, del, lead(seq) OVER (PARTITION BY id ORDER BY seq) AS next_seq
	FROM (
		SELECT id, name, city, seq, del,
		       lag(seq) OVER w AS prev_seq, lag(del) OVER w AS prev_del,
		       lag(name) OVER w AS prev_name, lag(city) OVER w AS prev_city
		FROM (SELECT id, name, city, seq, coalesce(op = 'DELETE', false) AS del
		      FROM ev_log WHERE id IN (SELECT id FROM ev_batch)) e
		WINDOW w AS (PARTITION BY id ORDER BY seq)
	) e
	WHERE del OR prev_seq IS NULL OR prev_del OR (name, city) IS DISTINCT FROM (prev_name, prev_city)
) b
WHERE NOT del;
COMMIT;`

// pgBitemporalSchema: the log is keyed by (key, business time, system time),
// the contract's conflict key for BITEMPORAL.
const pgBitemporalSchema = `
CREATE TABLE ev_log (id bigint NOT NULL, name text, city text, op text, seq bigint NOT NULL, st bigint NOT NULL,
                     PRIMARY KEY (id, seq, st));
CREATE TABLE tgt (id bigint NOT NULL, name text, city text, __start_at bigint NOT NULL, __end_at bigint,
                  __system_start_at bigint NOT NULL, __system_end_at bigint,
                  PRIMARY KEY (id, __start_at, __system_start_at));`

// pgBitemporalRebuild rebuilds the touched keys' BITEMPORAL rows by the
// spec's §5 definition, set-wise, for each touched key:
//
//  1. sys: the key's distinct system times s, numbered (sn) with the next one;
//  2. eff: the business timeline's events at each s — an event counts from
//     its system time until a later-learned event with the same business time
//     supersedes it (sup, by lead over (key, business time));
//  3. bnd/ver: the SCD TYPE 2 replay of each timeline B(s), exactly as in
//     pgSCD2Rebuild but partitioned by (key, sn) and ordered by business time;
//  4. stays: a version (values and business period) is in B(s) for runs of
//     consecutive sn — gaps and islands (sn minus row_number is constant
//     along a run); each run is one row, whose system period goes from the
//     run's first system time to the system time after its last (NULL when
//     the run reaches the key's latest system time: still current).
const pgBitemporalRebuild = `
INSERT INTO ev_log SELECT * FROM ev_batch;
DELETE FROM tgt WHERE id IN (SELECT id FROM ev_batch);
INSERT INTO tgt (id, name, city, __start_at, __end_at, __system_start_at, __system_end_at)
WITH ev AS (
	SELECT id, name, city, seq, st, coalesce(op = 'DELETE', false) AS del,
	       lead(st) OVER (PARTITION BY id, seq ORDER BY st) AS sup
	FROM ev_log WHERE id IN (SELECT id FROM ev_batch)
), sys AS (
	SELECT id, st AS s, row_number() OVER (PARTITION BY id ORDER BY st) AS sn, lead(st) OVER (PARTITION BY id ORDER BY st) AS next_s
	FROM (SELECT DISTINCT id, st FROM ev) d
), eff AS (
	SELECT x.id, x.sn, e.seq, e.del, e.name, e.city
	FROM sys x JOIN ev e ON e.id = x.id AND e.st <= x.s AND (e.sup IS NULL OR x.s < e.sup)
), bnd AS (
	SELECT * FROM (
		SELECT id, sn, seq, del, name, city,
		       lag(seq) OVER w AS prev_seq, lag(del) OVER w AS prev_del,
		       lag(name) OVER w AS prev_name, lag(city) OVER w AS prev_city
		FROM eff WINDOW w AS (PARTITION BY id, sn ORDER BY seq)
	) q
	WHERE del OR prev_seq IS NULL OR prev_del OR (name, city) IS DISTINCT FROM (prev_name, prev_city)
), ver AS (
	SELECT * FROM (
		SELECT id, sn, name, city, del, seq AS b_start, lead(seq) OVER (PARTITION BY id, sn ORDER BY seq) AS b_end
		FROM bnd
	) q WHERE NOT del
), stays AS (
	SELECT id, name, city, b_start, b_end, min(sn) AS first_sn, max(sn) AS last_sn
	FROM (
		SELECT id, name, city, b_start, b_end, sn,
		       sn - row_number() OVER (PARTITION BY id, name, city, b_start, b_end ORDER BY sn) AS run
		FROM ver
	) q
	GROUP BY id, name, city, b_start, b_end, run
)
SELECT t.id, t.name, t.city, t.b_start, t.b_end, s1.s, s2.next_s
FROM stays t
JOIN sys s1 ON s1.id = t.id AND s1.sn = t.first_sn
JOIN sys s2 ON s2.id = t.id AND s2.sn = t.last_sn;
COMMIT;`

// pgFlow is the PostgreSQL side of an ingest workload, on one connection.
type pgFlow struct {
	conn       *pgx.Conn
	bitemporal bool
}

func newPGFlow(ctx context.Context, url string, bitemporal bool) (*pgFlow, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	f := &pgFlow{conn: conn, bitemporal: bitemporal}
	schema := pgSCD2Schema
	if bitemporal {
		schema = pgBitemporalSchema
	}
	// The batch table is temporary (no WAL) and emptied by each commit.
	if err := execScript(ctx, conn, schema+`
		CREATE TEMP TABLE ev_batch (LIKE ev_log) ON COMMIT DELETE ROWS;`); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return f, nil
}

// apply runs one batch in one transaction: BEGIN, COPY, then the rebuild
// and COMMIT in a single round trip.
func (f *pgFlow) apply(ctx context.Context, rows []byte) error {
	pc := f.conn.PgConn()
	if err := pc.Exec(ctx, "BEGIN").Close(); err != nil {
		return err
	}
	if _, err := pc.CopyFrom(ctx, bytes.NewReader(rows), "COPY ev_batch FROM STDIN"); err != nil {
		_ = pc.Exec(ctx, "ROLLBACK").Close()
		return err
	}
	rebuild := pgSCD2Rebuild
	if f.bitemporal {
		rebuild = pgBitemporalRebuild
	}
	if _, err := pc.Exec(ctx, rebuild).ReadAll(); err != nil {
		_ = pc.Exec(ctx, "ROLLBACK").Close()
		return fmt.Errorf("rebuild: %v", err)
	}
	return nil
}

func (f *pgFlow) close(ctx context.Context) { f.conn.Close(ctx) }

// execScript runs statements separated by semicolons in one simple query.
func execScript(ctx context.Context, conn *pgx.Conn, script string) error {
	_, err := conn.PgConn().Exec(ctx, script).ReadAll()
	return err
}
