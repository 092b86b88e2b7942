package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
)

// The change feed workload: what changed in the latest window of commits
// of a table whose history is 1x or 10x as long, read by concurrent
// clients. cdcdb answers from the table's change log (cdcdb.table_changes);
// PostgreSQL from the change table a row trigger fills, indexed by commit
// time, the usual way to keep a change feed there. Both windows hold the
// same changes; the goal is that the 10x history's window costs at
// most 1.5x the 1x one's (the feed's cost follows the window, not the
// history).

const changesSchema = `CREATE TABLE acct (id int PRIMARY KEY, bal int)`

// pgChangesSchema is PostgreSQL's change feed: every row change appended
// to acct_changes by a trigger, in the writing transaction.
const pgChangesSchema = changesSchema + `;
CREATE TABLE acct_changes (id int, bal int, _change_type text, _commit_version bigint, _commit_timestamp timestamptz);
CREATE INDEX acct_changes_at ON acct_changes (_commit_timestamp);
CREATE FUNCTION acct_feed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO acct_changes VALUES (NEW.id, NEW.bal, 'insert', txid_current(), now());
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO acct_changes VALUES (OLD.id, OLD.bal, 'update_preimage', txid_current(), now()),
			(NEW.id, NEW.bal, 'update_postimage', txid_current(), now());
	ELSE
		INSERT INTO acct_changes VALUES (OLD.id, OLD.bal, 'delete', txid_current(), now());
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER acct_feed AFTER INSERT OR UPDATE OR DELETE ON acct FOR EACH ROW EXECUTE FUNCTION acct_feed()`

// The window query in each system's words, from a commit time on.
const (
	cdcdbChangesWindow = `SELECT id, bal, _change_type, _commit_version, _commit_timestamp FROM cdcdb.table_changes('acct', $1::timestamptz)`
	pgChangesWindow    = `SELECT id, bal, _change_type, _commit_version, _commit_timestamp FROM acct_changes WHERE _commit_timestamp >= $1::timestamptz`
)

// changeHistory is one table with its history, in a cdcdb server and a
// PostgreSQL database of its own, and the start of its latest window.
type changeHistory struct {
	what    string
	db      string
	srv     *cdcdbServer
	cdc, pg *pgx.Conn
	window  time.Time
}

func (h *changeHistory) close(ctx context.Context) {
	for _, c := range []*pgx.Conn{h.cdc, h.pg} {
		if c != nil {
			c.Close(ctx)
		}
	}
	if h.srv != nil {
		_ = h.srv.stop()
	}
}

// openChangeHistory loads a table of changeKeys rows updated rounds times
// over (each round one UPDATE a chunk of keys, each its own commit), then
// the window: changeWindowCommits commits of changeWindowKeys updates.
func (b *bench) openChangeHistory(ctx context.Context, db, what string, rounds int) (h *changeHistory, err error) {
	h = &changeHistory{what: what, db: db}
	defer func() {
		if err != nil {
			h.close(ctx)
		}
	}()
	if h.srv, err = b.newCdcdb(); err != nil {
		return h, err
	}
	if h.cdc, err = pgx.Connect(ctx, h.srv.url()); err != nil {
		return h, err
	}
	if err = execScript(ctx, h.cdc, changesSchema); err != nil {
		return h, err
	}
	if err = b.pg.freshDatabase(ctx, db); err != nil {
		return h, err
	}
	if h.pg, err = pgx.Connect(ctx, b.pg.URL(db)); err != nil {
		return h, err
	}
	if err = execScript(ctx, h.pg, pgChangesSchema); err != nil {
		return h, err
	}
	t0 := time.Now()
	both := func(sql string, args ...any) error {
		if _, err := h.cdc.Exec(ctx, sql, args...); err != nil {
			return fmt.Errorf("cdcdb: %s: %v", sql, err)
		}
		if _, err := h.pg.Exec(ctx, sql, args...); err != nil {
			return fmt.Errorf("PostgreSQL: %s: %v", sql, err)
		}
		return nil
	}
	const update = "UPDATE acct SET bal = bal + 1 WHERE id > $1 AND id <= $2"
	keys, chunk := b.sz.changeKeys, b.sz.changeChunk
	if err := both("INSERT INTO acct SELECT g, 0 FROM generate_series(1, $1::int) g", keys); err != nil {
		return h, err
	}
	for r := 0; r < rounds; r++ {
		for lo := 0; lo < keys; lo += chunk {
			if err := both(update, lo, min(lo+chunk, keys)); err != nil {
				return h, err
			}
		}
	}
	if err := execScript(ctx, h.pg, "VACUUM ANALYZE acct_changes"); err != nil {
		return h, err
	}
	// The window: commits after this moment, on this machine's clock,
	// which both servers' commit times follow.
	time.Sleep(10 * time.Millisecond)
	h.window = time.Now()
	time.Sleep(10 * time.Millisecond)
	r := rand.New(rand.NewPCG(5, uint64(rounds)))
	for c := 0; c < b.sz.changeWindowCommits; c++ {
		lo := r.IntN(keys - b.sz.changeWindowKeys + 1)
		if err := both(update, lo, lo+b.sz.changeWindowKeys); err != nil {
			return h, err
		}
	}
	// Both windows hold the same rows (but for the versions, which are
	// each system's own numbers).
	at := h.window.UTC().Format("2006-01-02 15:04:05.999999+00")
	q := func(from string) string {
		return fmt.Sprintf("SELECT id, bal, _change_type FROM %s", from)
	}
	d, err := compareTables(ctx, h.cdc, h.pg, q("cdcdb.table_changes('acct', '"+at+"'::timestamptz)"),
		q("acct_changes WHERE _commit_timestamp >= '"+at+"'::timestamptz"), "change feed window, "+what)
	if err != nil {
		return h, err
	}
	if want := int64(2 * b.sz.changeWindowCommits * b.sz.changeWindowKeys); d.rows != want {
		return h, fmt.Errorf("change feed window, %s: %d rows, want %d", what, d.rows, want)
	}
	b.logf("changes: %s loaded (%d keys, %d row versions) in %s; windows identical (%d rows)",
		what, keys, keys*(rounds+1), time.Since(t0).Round(time.Second), d.rows)
	return h, nil
}

// changesWorkload is the change feed workload: the same window read over a
// 1x and a 10x history, on both systems, in every repetition.
func (b *bench) changesWorkload(ctx context.Context) error {
	small, err := b.openChangeHistory(ctx, "changes", "1x history", b.sz.changeRounds)
	if err != nil {
		return err
	}
	defer small.close(ctx)
	large, err := b.openChangeHistory(ctx, "changes10x", "10x history", 10*b.sz.changeRounds)
	if err != nil {
		return err
	}
	defer large.close(ctx)
	if err := b.quietDisk(ctx); err != nil {
		return err
	}
	var w1, w10 measured
	for rep := range b.sz.readReps {
		for _, m := range []struct {
			h *changeHistory
			m *measured
		}{{small, &w1}, {large, &w10}} {
			h := m.h
			gen := func(*rand.Rand) []any { return []any{h.window} }
			rh := &readHistory{what: h.what, db: h.db, srv: h.srv}
			wait := b.profile(h.srv, "changes-"+h.db, rep)
			if err := b.measureReads(ctx, m.m, rep, rh, cdcdbChangesWindow, pgChangesWindow, gen, "change feed window, "+h.what); err != nil {
				return err
			}
			if err := wait(); err != nil {
				return err
			}
		}
	}
	b.addLoadFigures("Change feed window, 1x history", w1.cdc, w1.pg, goal{})
	b.addLoadFigures("Change feed window, 10x history", w10.cdc, w10.pg, goal{})
	growth := func(before, after []loadResult) float64 {
		return median(p50s(after)) / median(p50s(before))
	}
	b.rep.add(figure{workload: "Change feed window, 10x history", metric: "p50 growth", cdcdb: growth(w1.cdc, w10.cdc), pg: growth(w1.pg, w10.pg),
		unit: "x", goal: absoluteAtMost(1.5)})
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("change feed: %d keys, %dx and %dx updates; the window's %d changes identical on both systems at both sizes",
		b.sz.changeKeys, b.sz.changeRounds, 10*b.sz.changeRounds, 2*b.sz.changeWindowCommits*b.sz.changeWindowKeys))
	if err := large.srv.stop(); err != nil {
		return err
	}
	return small.srv.stop()
}
