package sql_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"cdcdb/cdcexec"
	"cdcdb/pgerror"
	"cdcdb/sql"
	"cdcdb/sql/sqltest"
	"cdcdb/storage"
)

// The differential tests of the engine's fast paths (fastpaths.go): one
// random workload, drawn from a printed seed, run on an engine with every
// fast path and on engines with one or all of them off, must give every
// statement the same answer (rows as the client receives them, in text
// and binary, tags, notices, errors with their SQLSTATE, message, detail
// and position) and leave the same file: every keyspace, the tables, the
// flows' targets with their commit-time history and the flows' logs, byte
// for byte. The engines' clock is fixed, so commit times are the same
// counter on both sides.

// fastPathSchema makes a flow source that every fast path of a COPY can
// take (no primary key, index or foreign key), four flows over it (an SCD
// TYPE 2 flow of the encoded continuation, one with TRACK HISTORY that
// continues on decoded values, SCD TYPE 1 and BITEMPORAL), and a table
// with a primary key for point reads.
var fastPathSchema = []string{
	"CREATE TABLE ev (id bigint, name text, city text, amount numeric, flag boolean, op text, seq bigint, st bigint)",
	"CREATE STREAMING TABLE scd2",
	`CREATE FLOW f2 AS AUTO CDC INTO scd2 FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
		COLUMNS * EXCEPT (op, seq, st) STORED AS SCD TYPE 2`,
	"CREATE STREAMING TABLE tracked",
	`CREATE FLOW ft AS AUTO CDC INTO tracked FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
		COLUMNS * EXCEPT (op, seq, st) STORED AS SCD TYPE 2 TRACK HISTORY ON (city)`,
	"CREATE STREAMING TABLE scd1",
	`CREATE FLOW f1 AS AUTO CDC INTO scd1 FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
		COLUMNS * EXCEPT (op, seq, st) STORED AS SCD TYPE 1`,
	"CREATE STREAMING TABLE bt",
	`CREATE FLOW fb AS AUTO CDC INTO bt FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq SYSTEM SEQUENCE BY st
		COLUMNS * EXCEPT (op, seq, st) STORED AS BITEMPORAL`,
	"CREATE TABLE kv (id int PRIMARY KEY, v text, n bigint, b boolean, x numeric, d date)",
}

// fastPathRun is what one run of the workload left.
type fastPathRun struct {
	transcript []string
	keyspaces  map[string][]string
	// What took the fast paths: commits covered by rows written ahead,
	// COPYs stored through a spool, statements through a generic plan of
	// their numbers, scans that sent stored encodings.
	covered, spools, numbered, storedScans, encodedKeys, sharedBatches int64
}

// fastPathWorkload draws the workload's steps and runs them.
type fastPathWorkload struct {
	t          *testing.T
	rng        *rand.Rand
	conn       *sqltest.Conn
	run        *fastPathRun
	seq, st    int64
	keys       int64
	kvKeys     int
	transcript []string
}

func runFastPathWorkload(t *testing.T, seed uint64, off sql.FastPathsOff) *fastPathRun {
	t.Helper()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	db := sqltest.OpenWith(t, sql.Options{FastPathsOff: off, Clock: func() time.Time { return clock }})
	conn := db.Conn()
	run := &fastPathRun{}
	w := &fastPathWorkload{t: t, rng: rand.New(rand.NewPCG(seed, 41)), conn: conn, run: run, keys: 300}
	for _, q := range fastPathSchema {
		conn.MustExec(q)
	}
	coveredBefore, spoolsBefore := coveredCommits(t, conn), sql.SpoolsJoined()
	for range 60 {
		w.step()
	}
	// Every query shape at least twice (a generic plan serves a shape's
	// second text) in each format, whatever the steps drew.
	for _, formats := range [][]int16{nil, {1}} {
		w.conn.ResultFormats = formats
		for range 2 {
			for _, q := range fastPathQueries {
				w.query(q)
			}
		}
	}
	conn.ResultFormats = nil
	run.covered = coveredCommits(t, conn) - coveredBefore
	run.spools = sql.SpoolsJoined() - spoolsBefore
	numbered, stored, encoded, shared := conn.Session().(*sql.Session).FastPathsTaken()
	run.numbered, run.storedScans, run.encodedKeys, run.sharedBatches = int64(numbered), int64(stored), int64(encoded), int64(shared)
	// The tables as read at the end, then the file.
	for _, q := range []string{
		"SELECT * FROM ev", "SELECT * FROM scd2", "SELECT * FROM tracked", "SELECT * FROM scd1",
		"SELECT * FROM bt", "SELECT * FROM kv ORDER BY id",
		"SELECT flow_name, events_applied, rows_upserted, rows_deleted, last_sequence FROM cdcdb.flows ORDER BY flow_name",
	} {
		w.exec(q)
	}
	run.transcript = w.transcript
	run.keyspaces = allKeyspaces(t, db.Store)
	return run
}

func (w *fastPathWorkload) step() {
	switch n := w.rng.IntN(20); {
	case n < 7:
		w.copyEvents(true)
	case n < 9:
		w.copyEvents(false)
	case n < 10:
		w.insertEvents()
	case n < 12:
		w.writeKV()
	default:
		w.queries()
	}
}

// copyEvents COPYs a batch of change events: as the whole of its
// transaction (sole) or inside a block that commits or rolls back. Some
// arrive late, some are deletes; now and then a row is malformed or two
// events of one key and sequence value conflict, failing the COPY.
func (w *fastPathWorkload) copyEvents(sole bool) {
	rows := 1 + w.rng.IntN(500)
	var b strings.Builder
	var batch []string
	for range rows {
		w.seq += 1 + w.rng.Int64N(3)
		w.st++
		seq := w.seq
		if w.rng.IntN(5) == 0 {
			seq = max(1, seq-w.rng.Int64N(2000)) // late
		}
		batch = append(batch, w.event(w.rng.Int64N(w.keys), seq, w.st))
	}
	switch w.rng.IntN(12) {
	case 0: // a malformed row
		batch[w.rng.IntN(len(batch))] = "1\tbad\tLeon\t1.5\tt\tUPSERT\tnot-a-number\t1"
	case 1: // a conflicting event, the same key and sequence value as another's
		i := w.rng.IntN(len(batch))
		f := strings.Split(batch[i], "\t")
		f[1], f[5] = "conflicting", "UPSERT"
		batch = append(batch, strings.Join(f, "\t"))
	}
	for _, r := range batch {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	if sole {
		w.copy(b.String())
		return
	}
	w.exec("BEGIN")
	w.exec("INSERT INTO kv VALUES (" + fmt.Sprint(1000+w.kvKeys) + ", 'in a block', 1, true, 0.5, '2026-01-01') ON CONFLICT (id) DO NOTHING")
	w.kvKeys++
	w.copy(b.String())
	if w.rng.IntN(3) == 0 {
		w.exec("ROLLBACK")
	} else {
		w.exec("COMMIT")
	}
}

// event is one COPY text row of ev.
func (w *fastPathWorkload) event(id, seq, st int64) string {
	op := "UPSERT"
	if w.rng.IntN(8) == 0 {
		op = "DELETE"
	}
	name, city, amount, flag := `\N`, `\N`, `\N`, `\N`
	if w.rng.IntN(6) > 0 {
		name = fmt.Sprintf("name%d", w.rng.IntN(5))
	}
	if w.rng.IntN(6) > 0 {
		city = []string{"Oaxaca", "León", "Puebla", "tab\\there"}[w.rng.IntN(4)]
	}
	if w.rng.IntN(6) > 0 {
		// The same amount at different scales: equal values, unequal
		// encodings.
		amount = []string{"1", "1.0", "1.00", "-0", "2.5", "12345678901234567890.5"}[w.rng.IntN(6)]
	}
	if w.rng.IntN(6) > 0 {
		flag = []string{"t", "f"}[w.rng.IntN(2)]
	}
	return fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d", id, name, city, amount, flag, op, seq, st)
}

// insertEvents INSERTs a few events, sometimes two statements in one
// Query.
func (w *fastPathWorkload) insertEvents() {
	var vals []string
	for range 1 + w.rng.IntN(4) {
		w.seq++
		w.st++
		vals = append(vals, fmt.Sprintf("(%d, 'ins%d', 'Leon', %d.5, true, 'UPSERT', %d, %d)", w.rng.Int64N(w.keys), w.seq%3, w.seq%4, w.seq, w.st))
	}
	q := "INSERT INTO ev VALUES " + strings.Join(vals, ", ")
	if w.rng.IntN(3) == 0 {
		q += "; SELECT count(*) FROM ev"
	}
	w.exec(q)
}

// writeKV inserts, updates or deletes rows of kv, with literal numbers.
func (w *fastPathWorkload) writeKV() {
	id := w.rng.IntN(60)
	switch w.rng.IntN(4) {
	case 0, 1:
		w.exec(fmt.Sprintf("INSERT INTO kv VALUES (%d, 'v%d', %d, %t, %d.%d, DATE '2026-01-01' + %d)",
			id, w.rng.IntN(9), w.rng.Int64N(1<<40)-1<<39, w.rng.IntN(2) == 0, w.rng.IntN(100), w.rng.IntN(100), w.rng.IntN(400)))
	case 2:
		w.exec(fmt.Sprintf("UPDATE kv SET n = n + %d, v = NULL WHERE id = %d", w.rng.IntN(10), id))
	default:
		w.exec(fmt.Sprintf("DELETE FROM kv WHERE id = %d", id))
	}
}

// fastPathQueries are texts that differ from call to call in their
// numbers (%d), in the shapes the benchmarks send and some that a generic
// plan must not serve (a number in ORDER BY), and whole-table reads of
// plain columns.
var fastPathQueries = []string{
	"SELECT v FROM kv WHERE id = %d",
	"SELECT id, v, n, b, x, d FROM kv WHERE id = %d",
	"SELECT * FROM kv WHERE id >= %d ORDER BY id LIMIT 5",
	"SELECT id, n FROM kv WHERE x > %d.5 ORDER BY 1",
	"SELECT count(*), sum(n) FROM kv WHERE id < %d",
	"SELECT 100 / (%d %% 3)",
	"SELECT %d + 2147483647",
	"SELECT name, city, amount FROM scd1 WHERE id = %d",
	"SELECT * FROM scd2 FOR BUSINESS_TIME AS OF %d WHERE id = %d",
	"SELECT id, name, __start_at, __end_at FROM scd2 WHERE id = %d ORDER BY __start_at",
	"SELECT * FROM bt FOR BUSINESS_TIME AS OF %d WHERE id = %d",
	"SELECT id, name, city FROM scd2 FOR BUSINESS_TIME AS OF %d",
	"SELECT id, name FROM scd2 FOR BUSINESS_TIME FROM %d TO %d WHERE id > 5",
	"SELECT * FROM bt FOR BUSINESS_TIME AS OF %d",
	"SELECT id, name, city, amount, flag FROM scd2",
	"SELECT id, city FROM tracked WHERE __end_at IS NULL",
	"SELECT id, v, n, b, x, d FROM kv",
	"SELECT * FROM scd1",
}

// queries runs a few reads, in text or binary results.
func (w *fastPathWorkload) queries() {
	w.conn.ResultFormats = nil
	if w.rng.IntN(3) == 0 {
		w.conn.ResultFormats = []int16{1}
	}
	for range 1 + w.rng.IntN(6) {
		w.query(fastPathQueries[w.rng.IntN(len(fastPathQueries))])
	}
	w.conn.ResultFormats = nil
}

// query runs one of fastPathQueries with numbers drawn for its %d.
func (w *fastPathWorkload) query(q string) {
	var args []any
	for range strings.Count(q, "%d") {
		args = append(args, w.rng.Int64N(w.seq+60)-3)
	}
	w.exec(fmt.Sprintf(q, args...))
}

func (w *fastPathWorkload) exec(q string) {
	res, err := w.conn.Exec(q)
	w.note(q, res, err)
}

func (w *fastPathWorkload) copy(data string) {
	res, err := w.conn.Copy("COPY ev FROM STDIN", data)
	w.note(fmt.Sprintf("COPY ev FROM STDIN (%d bytes)", len(data)), res, err)
}

// note adds a statement's outcome to the transcript.
func (w *fastPathWorkload) note(q string, res sqltest.Result, err error) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [formats %v]\n", q, w.conn.ResultFormats)
	if err != nil {
		pe := pgerror.As(err)
		fmt.Fprintf(&b, "ERROR %s %q detail %q hint %q position %d\n", pe.Code, pe.Message, pe.Detail, pe.Hint, pe.Position)
	} else {
		fmt.Fprintf(&b, "%q %q %q\n", res.Columns, res.Tag, res.Notices)
		for _, row := range res.Rows {
			fmt.Fprintf(&b, "%q\n", row)
		}
	}
	w.transcript = append(w.transcript, b.String())
}

// flowCreatedAt is the field of a flow's catalog entry that holds its
// CREATE FLOW's now(): the wall clock's, whatever the engine's Clock.
var flowCreatedAt = regexp.MustCompile(`"created_at":[0-9]+`)

// allKeyspaces lists every keyspace of db, each entry as "key=value" in
// hex, in key order, with the catalog's flows' creation times left out.
func allKeyspaces(t *testing.T, db *storage.DB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := db.View(func(tx *storage.Tx) error {
		for _, name := range tx.Spaces("") {
			c := tx.Space(name).Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				if name == "catalog" {
					v = flowCreatedAt.ReplaceAll(v, []byte(`"created_at":0`))
				}
				out[name] = append(out[name], fmt.Sprintf("%x=%x", k, v))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameRun fails the test where two runs of the workload differ.
func sameRun(t *testing.T, what string, fast, general *fastPathRun) {
	t.Helper()
	for i := range min(len(fast.transcript), len(general.transcript)) {
		if fast.transcript[i] != general.transcript[i] {
			t.Fatalf("%s: statement %d answered differently\nfast paths:\n%s\ngeneral paths:\n%s", what, i, fast.transcript[i], general.transcript[i])
		}
	}
	if len(fast.transcript) != len(general.transcript) {
		t.Fatalf("%s: %d statements with the fast paths, %d on the general ones", what, len(fast.transcript), len(general.transcript))
	}
	names := func(m map[string][]string) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	if a, b := names(fast.keyspaces), names(general.keyspaces); !slices.Equal(a, b) {
		t.Fatalf("%s: keyspaces %v with the fast paths, %v on the general ones", what, a, b)
	}
	for name, entries := range general.keyspaces {
		got := fast.keyspaces[name]
		for i := range min(len(got), len(entries)) {
			if got[i] != entries[i] {
				t.Fatalf("%s: keyspace %s differs at entry %d:\nfast paths:    %s\ngeneral paths: %s", what, name, i, got[i], entries[i])
			}
		}
		if len(got) != len(entries) {
			t.Fatalf("%s: keyspace %s holds %d entries with the fast paths, %d on the general ones", what, name, len(got), len(entries))
		}
	}
}

// TestFastPathsMatchTheGeneralPaths runs the workload with every fast path,
// then with each of the engine's fast paths off in turn and with all of
// them off, and holds every run to the first: the same answers and the same
// file. The run with every fast path must have taken each of them, and a
// run with one off must not have taken it.
func TestFastPathsMatchTheGeneralPaths(t *testing.T) {
	// The spool and the helper goroutine need a second processor to run
	// on; a machine with one still runs them, interleaved.
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	fast := runFastPathWorkload(t, seed, sql.FastPathsOff{})
	errs := 0
	for _, s := range fast.transcript {
		if strings.Contains(s, "\nERROR ") {
			errs++
		}
	}
	t.Logf("with every fast path: %d statements (%d failed), %d covered commits, %d spooled COPYs, %d generic plans of numbers used, %d scans sent from stored encodings, %d keys continued on encodings, %d batches shared with a helper",
		len(fast.transcript), errs, fast.covered, fast.spools, fast.numbered, fast.storedScans, fast.encodedKeys, fast.sharedBatches)
	if fast.covered == 0 || fast.spools == 0 || fast.numbered == 0 || fast.storedScans == 0 || fast.encodedKeys == 0 || fast.sharedBatches == 0 {
		t.Fatal("the workload did not take every fast path")
	}
	for _, c := range []struct {
		name string
		off  sql.FastPathsOff
		took func(r *fastPathRun) int64
	}{
		{"copy-ahead", sql.FastPathsOff{CopyAhead: true}, func(r *fastPathRun) int64 { return r.covered }},
		{"source-spool", sql.FastPathsOff{SourceSpool: true}, func(r *fastPathRun) int64 { return r.spools }},
		{"numbered-plans", sql.FastPathsOff{NumberedPlans: true}, func(r *fastPathRun) int64 { return r.numbered }},
		{"stored-row-scans", sql.FastPathsOff{StoredRowScans: true}, func(r *fastPathRun) int64 { return r.storedScans }},
		{"encoded-scd2", sql.FastPathsOff{Flows: cdcexec.FastPathsOff{EncodedSCD2: true}}, func(r *fastPathRun) int64 { return r.encodedKeys }},
		{"shared-apply", sql.FastPathsOff{Flows: cdcexec.FastPathsOff{SharedApply: true}}, func(r *fastPathRun) int64 { return r.sharedBatches }},
		{"all", sql.FastPathsOff{CopyAhead: true, SourceSpool: true, NumberedPlans: true, StoredRowScans: true,
			Flows: cdcexec.FastPathsOff{EncodedSCD2: true, SharedApply: true}},
			func(r *fastPathRun) int64 {
				return r.covered + r.spools + r.numbered + r.storedScans + r.encodedKeys + r.sharedBatches
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			general := runFastPathWorkload(t, seed, c.off)
			if c.took != nil && c.took(general) != 0 {
				t.Fatalf("with %s off the workload still took it %d times", c.name, c.took(general))
			}
			sameRun(t, c.name+" off", fast, general)
		})
	}
}
