package source

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgtests/pgserver"
)

// simpleSource is a database with one table, public.t (id integer PRIMARY
// KEY, v text), filled with rows 1..n, in publication pub.
type simpleSource struct {
	pg   *pgserver.Postgres
	db   string
	conn *pgconn.PgConn
	cfg  Config
}

func newSimpleSource(t *testing.T, pg *pgserver.Postgres, rows int) *simpleSource {
	t.Helper()
	db := newDatabase(t, pg)
	conn := dial(t, pg, db)
	mustExec(t, conn, fmt.Sprintf(`CREATE TABLE public.t (id integer PRIMARY KEY, v text);
		INSERT INTO public.t SELECT i, 'row ' || i FROM generate_series(1, %d) i;
		CREATE PUBLICATION pub FOR TABLE public.t`, rows))
	return &simpleSource{pg: pg, db: db, conn: conn, cfg: testConfig(t, connectionTo(pg, db), "pub", TableRef{Table: "t"})}
}

var simpleFollowed = followedTable{source: "t", upstream: "public.t", key: []string{"id"}}

// follow starts a Follower that the test closes at its end.
func follow(t *testing.T, cfg Config, sink Sink) *Follower {
	t.Helper()
	f, err := New(cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

func waitStreaming(t *testing.T, f *Follower, sink *modelSink) {
	t.Helper()
	waitFor(t, "the source to stream", time.Minute, func() bool {
		if st := f.Status(); st.State == StateFailed {
			t.Fatalf("the Follower failed: %s", st.LastError)
		}
		return f.Status().State == StateStreaming && sink.snapshot().cp.Phase == PhaseStreaming
	})
}

// waitFailed waits for f to fail and checks its error says what it must.
func waitFailed(t *testing.T, f *Follower, wants ...string) Status {
	t.Helper()
	waitFor(t, "the Follower to fail", time.Minute, func() bool { return f.Status().State == StateFailed })
	<-f.Done()
	st := f.Status()
	for _, want := range wants {
		if !strings.Contains(st.LastError, want) {
			t.Errorf("the error %q does not say %q", st.LastError, want)
		}
	}
	return st
}

// slotsOf lists the replication slots of database db.
func slotsOf(t *testing.T, conn *pgconn.PgConn, db string) []string {
	t.Helper()
	var names []string
	for _, r := range mustQuery(t, conn, "SELECT slot_name FROM pg_replication_slots WHERE database = $1 ORDER BY 1", db) {
		names = append(names, r.text(0))
	}
	return names
}

// currentXid commits a row and returns the transaction's id.
func commitRow(t *testing.T, conn *pgconn.PgConn, sql string) uint32 {
	t.Helper()
	mustExec(t, conn, "BEGIN; "+sql)
	r := mustQuery(t, conn, "SELECT (txid_current() % 4294967296)::text")
	mustExec(t, conn, "COMMIT")
	var xid uint32
	fmt.Sscan(r[0].text(0), &xid)
	return xid
}

// TestSnapshotStartsOverAfterCrash: cdcdb crashes right after committing
// the slot's name (before making the slot), then in the middle of the
// snapshot. Each restart throws the partial snapshot away, drops the slot
// it made and makes it again; the source ends with each row once, and
// upstream keeps one slot.
func TestSnapshotStartsOverAfterCrash(t *testing.T) {
	src := newSimpleSource(t, sharedUpstream(t), 1200)
	src.cfg.SnapshotBatchRows = 100
	sink := newModelSink()
	commits := 0
	sink.decide = func(b *Batch) fault {
		commits++
		switch commits {
		case 1, 4: // the first session's intent; the second one's third commit
			return crashAfter
		}
		return noFault
	}
	r := startRunner(t, src.cfg, sink)
	sink.crash = r.crash
	waitFor(t, "the snapshot", time.Minute, func() bool { return sink.snapshot().cp.Phase == PhaseStreaming })
	xid := commitRow(t, src.conn, "UPDATE t SET v = 'changed' WHERE id % 7 = 0; DELETE FROM t WHERE id % 11 = 0; INSERT INTO t VALUES (5000, 'new')")
	waitFor(t, "the change", time.Minute, func() bool { return sink.hasXid(xid) })
	r.close()

	sink.checkNoViolations(t)
	if r.starts != 3 || sink.resets != 2 {
		t.Errorf("%d Followers started and %d snapshots reset, want 3 and 2", r.starts, sink.resets)
	}
	st := sink.snapshot()
	if st.snapshotRows != 1200 {
		t.Errorf("the source holds %d snapshot rows, upstream had 1200", st.snapshotRows)
	}
	if slots := slotsOf(t, src.conn, src.db); len(slots) != 1 || slots[0] != st.cp.Slot {
		t.Errorf("upstream holds slots %v, the source uses %q", slots, st.cp.Slot)
	}
	verifyReplay(t, st, src.conn, simpleFollowed)
}

// TestTruncateDuringTheSnapshot: a TRUNCATE of a followed table while the
// snapshot reads another one. TRUNCATE is not MVCC-safe: had it committed
// before the snapshot came to the table, the snapshot would have read the
// table empty, and the stream then brought changes to rows the source
// never had. The snapshot holds its tables from its start: the truncate
// waits for it, and is streamed after.
func TestTruncateDuringTheSnapshot(t *testing.T) {
	pg := sharedUpstream(t)
	db := newDatabase(t, pg)
	conn := dial(t, pg, db)
	mustExec(t, conn, `CREATE TABLE public.a (id integer PRIMARY KEY, v text);
		CREATE TABLE public.b (id integer PRIMARY KEY, v text);
		INSERT INTO public.a SELECT i, 'a ' || i FROM generate_series(1, 300) i;
		INSERT INTO public.b SELECT i, 'b ' || i FROM generate_series(1, 300) i;
		CREATE PUBLICATION pub FOR TABLE public.a, public.b`)
	cfg := testConfig(t, connectionTo(pg, db), "pub", TableRef{Table: "a"}, TableRef{Table: "b"})
	cfg.SnapshotBatchRows = 100

	// At the snapshot's first batch (rows of a), the truncating
	// transaction runs; the batch commits once it has committed or waits
	// for a lock on b.
	truncator := dial(t, pg, db)
	truncated := make(chan error, 1)
	var truncatedXid string
	started := false
	sink := newModelSink()
	sink.decide = func(b *Batch) fault {
		if started || len(b.Changes) == 0 {
			return noFault
		}
		started = true
		go func() {
			rows, err := truncator.Exec(context.Background(), `BEGIN; UPDATE b SET v = 'changed' WHERE id <= 10;
				DELETE FROM b WHERE id BETWEEN 11 AND 20; TRUNCATE b; INSERT INTO b SELECT i, 'after ' || i FROM generate_series(1000, 1049) i;
				SELECT (txid_current() % 4294967296)::text; COMMIT`).ReadAll()
			if err == nil {
				truncatedXid = string(rows[5].Rows[0][0]) // the SELECT's
			}
			truncated <- err
		}()
		waitFor(t, "the truncate to commit or wait", time.Minute, func() bool {
			return len(truncated) > 0 || len(mustQuery(t, conn, "SELECT 1 FROM pg_catalog.pg_locks WHERE relation = 'public.b'::regclass AND NOT granted")) > 0
		})
		return noFault
	}
	f := follow(t, cfg, sink)
	waitStreaming(t, f, sink)
	if err := <-truncated; err != nil {
		t.Fatal(err)
	}
	var xid uint32
	fmt.Sscan(truncatedXid, &xid)
	waitFor(t, "the truncating transaction", time.Minute, func() bool { return sink.hasXid(xid) })
	_ = f.Close()

	sink.checkNoViolations(t)
	st := sink.snapshot()
	if st.snapshotRows != 600 || sink.resets != 0 {
		t.Errorf("the source holds %d snapshot rows after %d snapshot resets; want 600 rows (both tables before the truncate), no reset", st.snapshotRows, sink.resets)
	}
	for _, table := range []string{"a", "b"} {
		verifyReplay(t, st, conn, followedTable{source: table, upstream: "public." + table, key: []string{"id"}})
	}
}

// TestSnapshotTablesChangedBeforeTheLock: what commits between the
// slot's consistent point and the snapshot's lock on its tables. A
// truncate, a rewrite, or a table dropped and made again leaves the
// snapshot's transaction reading another file than its snapshot's: the
// lock refuses the snapshot (the Follower then starts it over). Other
// changes leave it be, and once locked no truncate can commit until the
// snapshot's transaction ends.
func TestSnapshotTablesChangedBeforeTheLock(t *testing.T) {
	pg := sharedUpstream(t)
	cases := []struct {
		name, change string
		refused      bool
	}{
		{"rows changed", "UPDATE t SET v = 'changed' WHERE id <= 5; DELETE FROM t WHERE id = 6; INSERT INTO t VALUES (100, 'new')", false},
		{"column added", "ALTER TABLE t ADD COLUMN extra text", false},
		{"truncated", "TRUNCATE t", true},
		{"truncated and filled again", "BEGIN; TRUNCATE t; INSERT INTO t SELECT i, 'again' FROM generate_series(1, 10) i; COMMIT", true},
		{"rewritten", "VACUUM FULL t", true},
		{"rewritten by ALTER TABLE", "ALTER TABLE t ALTER COLUMN v TYPE varchar(50)", true},
		{"dropped and made again", "DROP TABLE t; CREATE TABLE t (id integer PRIMARY KEY, v text)", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			src := newSimpleSource(t, pg, 10)
			table := Table{Upstream: TableName{Schema: "public", Name: "t"}}
			fmt.Sscan(mustQuery(t, src.conn, "SELECT 'public.t'::regclass::oid::text")[0].text(0), &table.RelationID)
			repl, err := connect(ctx, src.cfg.Connection, true)
			if err != nil {
				t.Fatal(err)
			}
			defer closeConn(repl)
			position, snapshotName, err := createSlot(ctx, repl, generatedSlotName("lock_test"), true)
			if err != nil {
				t.Fatal(err)
			}
			snapshot := dial(t, src.pg, src.db)
			mustExec(t, snapshot, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT "+quoteLiteral(snapshotName))
			mustExec(t, src.conn, c.change)

			err = lockSnapshotTables(ctx, snapshot, []Table{table}, position)
			if c.refused {
				if err == nil || !strings.Contains(err.Error(), "truncated, rewritten or dropped after the snapshot's consistent point") {
					t.Fatalf("the lock after %q: %v; want the snapshot refused", c.change, err)
				}
				if IsPermanent(err) {
					t.Errorf("the refusal is permanent: the Follower would not start the snapshot over")
				}
				return
			}
			if err != nil {
				t.Fatalf("the lock after %q: %v", c.change, err)
			}
			// The description is the snapshot's, even of a table the
			// lock waited for.
			version, err := checkServer(ctx, snapshot)
			if err != nil {
				t.Fatal(err)
			}
			described, err := readTable(ctx, snapshot, version, "pub", TableRef{Table: "t"})
			if err != nil {
				t.Fatal(err)
			}
			if cols := described.table.Columns; len(cols) != 2 || cols[0].Name != "id" || cols[1].Name != "v" {
				t.Errorf("the snapshot describes public.t with columns %+v after %q; want id and v", cols, c.change)
			}
			// Locked: a truncate waits for the snapshot's transaction.
			_, err = src.conn.Exec(ctx, "SET lock_timeout = '200ms'; TRUNCATE t").ReadAll()
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "55P03" {
				t.Errorf("a truncate while the snapshot holds the table: %v; want it to wait (lock_not_available)", err)
			}
		})
	}
}

// TestUnfollowableSchemaChanges: a change the source cannot follow stops
// it in state failed with an error that says what changed, and nothing
// of the transaction that followed the change reaches the source.
func TestUnfollowableSchemaChanges(t *testing.T) {
	pg := sharedUpstream(t)
	cases := []struct {
		name, ddl string
		want      []string
	}{
		{"drop column", "ALTER TABLE t DROP COLUMN v", []string{`column "v" was dropped`, "cannot follow"}},
		{"retype column", "ALTER TABLE t ALTER COLUMN v TYPE varchar(40)", []string{`column "v" changed type (it was text)`}},
		{"rename column", "ALTER TABLE t RENAME COLUMN v TO w", []string{`column "v" was dropped or renamed`}},
		{"drop and add a column again", "ALTER TABLE t DROP COLUMN v; ALTER TABLE t ADD COLUMN v text", []string{`column "v" was dropped and added again`}},
		{"reorder through drop", "ALTER TABLE t ADD COLUMN w text; ALTER TABLE t DROP COLUMN v; ALTER TABLE t ADD COLUMN v text", []string{`column "v"`}},
		{"rename table", "ALTER TABLE t RENAME TO t2", []string{`"public"."t": it was renamed to "public"."t2"`}},
		{"recreate table", "DROP TABLE t; CREATE TABLE t (id integer PRIMARY KEY, v text); ALTER PUBLICATION pub ADD TABLE t", []string{"was dropped and created again"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := newSimpleSource(t, pg, 10)
			sink := newModelSink()
			f := follow(t, src.cfg, sink)
			waitStreaming(t, f, sink)
			before := commitRow(t, src.conn, "INSERT INTO t (id, v) VALUES (100, 'before')")
			waitFor(t, "the change before", time.Minute, func() bool { return sink.hasXid(before) })
			mustExec(t, src.conn, c.ddl)
			table := "t"
			if c.name == "rename table" {
				table = "t2"
			}
			after := commitRow(t, src.conn, fmt.Sprintf("INSERT INTO %s (id) VALUES (101)", table))
			waitFailed(t, f, c.want...)
			if sink.hasXid(after) {
				t.Errorf("the change after the schema change reached the source")
			}
			sink.checkNoViolations(t)
		})
	}
}

// TestDropDropsOnlyTheSlotItMade: Drop removes a slot the source made,
// whether it named it or the user did, and never one the user made.
func TestDropDropsOnlyTheSlotItMade(t *testing.T) {
	pg := sharedUpstream(t)
	for _, c := range []struct {
		name     string
		slot     string
		userMade bool
	}{
		{"generated name", "", false},
		{"user's name", "named_by_user", false},
		{"user's slot", "made_by_user", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := newSimpleSource(t, pg, 10)
			src.cfg.Slot = c.slot
			if c.userMade {
				mustQuery(t, src.conn, "SELECT pg_create_logical_replication_slot($1, 'pgoutput')", c.slot)
			}
			sink := newModelSink()
			f := follow(t, src.cfg, sink)
			waitStreaming(t, f, sink)
			slot := sink.snapshot().cp.Slot
			if c.slot != "" && slot != c.slot {
				t.Errorf("the source uses slot %q, not %q", slot, c.slot)
			}
			if err := f.Drop(context.Background()); err != nil {
				t.Fatal(err)
			}
			if st := f.Status(); st.State != StateStopped {
				t.Errorf("state %s after Drop", st.State)
			}
			// The temporary slot a user's slot needs for its snapshot goes
			// with the session that made it, which PostgreSQL ends a moment
			// after the connection closes: give it that moment.
			slots := slotsOf(t, src.conn, src.db)
			for deadline := time.Now().Add(10 * time.Second); c.userMade && len(slots) > 1 && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
				slots = slotsOf(t, src.conn, src.db)
			}
			if c.userMade && (len(slots) != 1 || slots[0] != slot) {
				t.Errorf("after Drop upstream holds %v, want the user's %q kept", slots, slot)
			}
			if !c.userMade && len(slots) != 0 {
				t.Errorf("after Drop upstream holds %v, want none", slots)
			}
		})
	}
	t.Run("never started", func(t *testing.T) {
		src := newSimpleSource(t, pg, 1)
		f, err := New(src.cfg, newModelSink())
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Drop(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := f.Start(context.Background()); err == nil {
			t.Errorf("a dropped Follower started")
		}
		if err := f.Close(); err != nil {
			t.Errorf("a second Close: %v", err)
		}
	})
}

// TestPositionMovesPastOtherWAL: WAL that holds nothing for the source
// (another table's changes) moves its position and the slot's, so that
// upstream can free that WAL, and the lag drops to nothing.
func TestPositionMovesPastOtherWAL(t *testing.T) {
	src := newSimpleSource(t, sharedUpstream(t), 10)
	mustExec(t, src.conn, "CREATE TABLE other (id integer PRIMARY KEY, v text)")
	sink := newModelSink()
	f := follow(t, src.cfg, sink)
	waitStreaming(t, f, sink)
	start := sink.snapshot().cp.Position
	mustExec(t, src.conn, "INSERT INTO other SELECT i, repeat('x', 200) FROM generate_series(1, 20000) i")
	end, err := ParseLSN(mustQuery(t, src.conn, "SELECT pg_current_wal_lsn()::text")[0].text(0))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the position to move past the other table's WAL", time.Minute, func() bool {
		return sink.snapshot().cp.Position >= end
	})
	waitFor(t, "the slot to follow", time.Minute, func() bool {
		r := mustQuery(t, src.conn, "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = $1", sink.snapshot().cp.Slot)
		confirmed, err := ParseLSN(r[0].text(0))
		return err == nil && confirmed >= end
	})
	waitFor(t, "the lag to go", time.Minute, func() bool { return f.Status().LagBytes < 1<<16 })
	st := f.Status()
	if st.Transactions != 0 || len(sink.snapshot().txs) != 0 {
		t.Errorf("%d transactions reached the source from a table it does not follow", st.Transactions)
	}
	t.Logf("position %s -> %s over %d bytes of WAL; status %+v", start, sink.snapshot().cp.Position, end-start, st)
}

// TestRefusals: what makes a source impossible to follow fails it at once
// with an error that says what to do, rather than retrying for ever.
func TestRefusals(t *testing.T) {
	pg := sharedUpstream(t)
	cases := []struct {
		name  string
		setup string // SQL on the fresh database
		edit  func(*Config)
		want  []string
	}{
		{name: "no publication", edit: func(c *Config) { c.Publication = "nope" }, want: []string{`publication "nope" does not exist upstream`}},
		{name: "publication without truncate", setup: "CREATE PUBLICATION partial FOR TABLE t WITH (publish = 'insert, update, delete')",
			edit: func(c *Config) { c.Publication = "partial" }, want: []string{`publication "partial" does not publish truncate`}},
		{name: "table not published", setup: "CREATE TABLE u (id integer PRIMARY KEY)",
			edit: func(c *Config) { c.Tables = append(c.Tables, TableRef{Table: "u"}) }, want: []string{`upstream table "public"."u" is not in publication "pub"`}},
		{name: "no such table", edit: func(c *Config) { c.Tables = []TableRef{{Schema: "nowhere", Table: "t"}} }, want: []string{`upstream table "nowhere"."t" does not exist`}},
		{name: "partitioned table", setup: "CREATE TABLE p (id integer PRIMARY KEY) PARTITION BY RANGE (id); ALTER PUBLICATION pub ADD TABLE p",
			edit: func(c *Config) { c.Tables = []TableRef{{Table: "p"}} }, want: []string{"is partitioned"}},
		{name: "user's slot of another plugin", setup: "SELECT pg_create_logical_replication_slot('decoder', 'test_decoding')",
			edit: func(c *Config) { c.Slot = "decoder" }, want: []string{`replication slot "decoder"`, `plugin "test_decoding"`}},
		{name: "no such database", edit: func(c *Config) { c.Connection.Database = "nowhere" }, want: []string{`database "nowhere" does not exist`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := newSimpleSource(t, pg, 3)
			if c.setup != "" {
				mustExec(t, src.conn, c.setup)
			}
			c.edit(&src.cfg)
			sink := newModelSink()
			f := follow(t, src.cfg, sink)
			waitFailed(t, f, c.want...)
			if len(sink.snapshot().log) != 0 {
				t.Errorf("rows reached the source")
			}
		})
	}
	t.Run("wal_level replica", func(t *testing.T) {
		pg := ownUpstream(t, "wal_level=replica")
		src := newSimpleSource(t, pg, 3)
		f := follow(t, src.cfg, newModelSink())
		waitFailed(t, f, "wal_level = replica", "wal_level = logical")
	})
}

// TestLostPositionFails: when the slot can no longer give every change
// after the source's position (dropped upstream, or moved on by someone
// else), the source fails instead of streaming with a hole.
func TestLostPositionFails(t *testing.T) {
	pg := sharedUpstream(t)
	for _, c := range []struct {
		name, sql string
		want      string
	}{
		{"slot dropped", "SELECT pg_drop_replication_slot($1)", "no longer exists upstream"},
		{"slot moved on", "SELECT pg_replication_slot_advance($1, pg_current_wal_lsn())", "has moved on to"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := newSimpleSource(t, pg, 3)
			sink := newModelSink()
			f := follow(t, src.cfg, sink)
			waitStreaming(t, f, sink)
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			mustExec(t, src.conn, "INSERT INTO t VALUES (10, 'missed')")
			slot := sink.snapshot().cp.Slot
			waitFor(t, "the slot to be free", time.Minute, func() bool {
				return mustQuery(t, src.conn, "SELECT active FROM pg_replication_slots WHERE slot_name = $1", slot)[0].text(0) == "f"
			})
			mustQuery(t, src.conn, c.sql, slot)
			waitFailed(t, follow(t, src.cfg, sink), c.want)
		})
	}
}

// TestCommitsWaitingForAStandby: a transaction whose commit record is
// written but which waits for a synchronous standby is not yet visible
// upstream, though pgoutput already sends it. A source must neither lose
// it nor read the catalog about it too early.
func TestCommitsWaitingForAStandby(t *testing.T) {
	pg := ownUpstream(t)
	// stall makes the commits upstream wait for a standby that does not
	// exist, runs sql in a session of its own, lets the Follower meet the
	// waiting commit, then lets it through.
	stall := func(t *testing.T, src *simpleSource, sql string, meanwhile func()) {
		mustExec(t, src.conn, "ALTER SYSTEM SET synchronous_standby_names = 'nobody'")
		mustExec(t, src.conn, "SELECT pg_reload_conf()")
		waiting := make(chan error, 1)
		go func() {
			conn, err := dialErr(pg, src.db)
			if err == nil {
				defer closeConn(conn)
				err = exec(context.Background(), conn, sql)
			}
			waiting <- err
		}()
		waitFor(t, "the commit to wait for the standby", time.Minute, func() bool {
			return len(mustQuery(t, src.conn, "SELECT 1 FROM pg_stat_activity WHERE wait_event = 'SyncRep'")) == 1
		})
		meanwhile()
		time.Sleep(500 * time.Millisecond) // the Follower meets the waiting commit
		mustExec(t, src.conn, "ALTER SYSTEM RESET synchronous_standby_names")
		mustExec(t, src.conn, "SELECT pg_reload_conf()")
		if err := <-waiting; err != nil {
			t.Fatal(err)
		}
	}

	// The user's slot may stand past the waiting commit (as a consumer of
	// it would move it): a snapshot taken then would not see the
	// transaction, and the slot would not send it. The snapshot of a slot
	// made beside it holds it (the slot waits for it).
	t.Run("snapshot beside the user's slot", func(t *testing.T) {
		src := newSimpleSource(t, pg, 5)
		src.cfg.Slot = "users_slot"
		mustQuery(t, src.conn, "SELECT pg_create_logical_replication_slot('users_slot', 'pgoutput')")
		sink := newModelSink()
		var f *Follower
		stall(t, src, "INSERT INTO t VALUES (999, 'waited for the standby')", func() {
			mustQuery(t, src.conn, "SELECT pg_replication_slot_advance('users_slot', pg_current_wal_lsn())")
			f = follow(t, src.cfg, sink)
		})
		waitStreaming(t, f, sink)
		xid := commitRow(t, src.conn, "INSERT INTO t VALUES (1000, 'after')")
		waitFor(t, "the last change", time.Minute, func() bool { return sink.hasXid(xid) })
		_ = f.Close()
		sink.checkNoViolations(t)
		verifyReplay(t, sink.snapshot(), src.conn, simpleFollowed)
	})

	// A column added with a default by a waiting transaction: the value
	// the rows there were take, and the column's number, are read once
	// upstream shows the transaction.
	t.Run("added column", func(t *testing.T) {
		src := newSimpleSource(t, pg, 5)
		sink := newModelSink()
		f := follow(t, src.cfg, sink)
		waitStreaming(t, f, sink)
		stall(t, src, "BEGIN; ALTER TABLE t ADD COLUMN flag integer DEFAULT 7; INSERT INTO t VALUES (100, 'x', 8); COMMIT", func() {})
		xid := commitRow(t, src.conn, "INSERT INTO t VALUES (101, 'after', 9)")
		waitFor(t, "the last change", time.Minute, func() bool { return sink.hasXid(xid) })
		_ = f.Close()
		sink.checkNoViolations(t)
		st := sink.snapshot()
		if len(st.added) != 1 || st.added[0].Columns[0].AttNum != 3 || st.added[0].ExistingValues[0] != Text("7") {
			t.Errorf("added columns %+v, want flag, number 3, rows there taking 7", st.added)
		}
		verifyReplay(t, st, src.conn, simpleFollowed)
	})
}
