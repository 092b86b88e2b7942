package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// The system-versioned workload's table and statements, in each system's
// words. cdcdb keeps the commit-time history of every table, so its table
// is a plain one; MariaDB's is declared WITH SYSTEM VERSIONING; PostgreSQL's
// keeps no history at all, and its UPDATEs are the floor of what an update
// costs.
const (
	sysverDDL        = `CREATE TABLE sv (id bigint PRIMARY KEY, v bigint NOT NULL, note text NOT NULL)`
	mariadbSysverDDL = `CREATE TABLE sv (id BIGINT PRIMARY KEY, v BIGINT NOT NULL, note VARCHAR(40) NOT NULL) WITH SYSTEM VERSIONING`

	sysverUpdate        = `UPDATE sv SET v = $1, note = $2 WHERE id = $3`
	mariadbSysverUpdate = `UPDATE sv SET v = ?, note = ? WHERE id = ?`

	sysverPointAsOf        = `SELECT id, v, note FROM sv FOR SYSTEM_TIME AS OF $1 WHERE id = $2`
	mariadbSysverPointAsOf = `SELECT id, v, note FROM sv FOR SYSTEM_TIME AS OF TIMESTAMP ? WHERE id = ?`
	sysverTableAsOf        = `SELECT id, v, note FROM sv FOR SYSTEM_TIME AS OF $1`
	mariadbSysverTableAsOf = `SELECT id, v, note FROM sv FOR SYSTEM_TIME AS OF TIMESTAMP ?`
	sysverCurrent          = `SELECT id, v, note FROM sv`
)

// momentGap is how long before and after a recorded moment no commit
// happens on that side, so that the moment falls strictly between two
// rounds whatever each engine's timestamp of a change is (MariaDB's
// row_start is the statement's time, cdcdb's commit time the moment the
// transaction took the writer's slot; both come before the acknowledgment).
const momentGap = 2 * time.Millisecond

// sysverRoundShape is one kind of round: ops single-row UPDATEs from
// clients connections, batch of them to a transaction.
type sysverRoundShape struct{ batch, clients, ops int }

func (s sysverRoundShape) String() string {
	per := "1 per transaction"
	if s.batch > 1 {
		per = fmt.Sprintf("%d per transaction", s.batch)
	}
	cl := "1 client"
	if s.clients > 1 {
		cl = fmt.Sprintf("%d clients", s.clients)
	}
	return "System-versioned UPDATE, " + per + ", " + cl
}

// sysverOp is one UPDATE: row id gets value v (and the note derived
// from it).
type sysverOp struct{ id, v int64 }

func sysverNote(v int64) string { return "n" + strconv.FormatInt(v, 36) }

// sysverModel is the reference the servers' answers are held to: every
// row's value after each round (states[0] is the table as loaded). Within
// a round each client updates only its own rows (id-1 ≡ client mod
// clients), so a round's outcome does not depend on how the clients
// interleave.
type sysverModel struct {
	rows   int
	states [][]int64 // states[i][id-1]
}

func newSysverModel(rows int) *sysverModel {
	first := make([]int64, rows)
	for i := range first {
		first[i] = int64(i + 1)
	}
	return &sysverModel{rows: rows, states: [][]int64{first}}
}

// nextRound draws the next round's UPDATEs, per client, and records the
// state they leave.
func (m *sysverModel) nextRound(shape sysverRoundShape) [][]sysverOp {
	round := len(m.states)
	state := slices.Clone(m.states[round-1])
	plan := make([][]sysverOp, shape.clients)
	seq := int64(0)
	for c := range shape.clients {
		rng := rand.New(rand.NewPCG(uint64(round), uint64(c)))
		own := (m.rows - c + shape.clients - 1) / shape.clients // ids c+1, c+1+clients, ...
		n := shape.ops/shape.clients + btoi(c < shape.ops%shape.clients)
		for range n {
			seq++
			op := sysverOp{id: int64(c+1) + int64(shape.clients)*rng.Int64N(int64(own)), v: int64(round)<<32 | seq}
			plan[c] = append(plan[c], op)
			state[op.id-1] = op.v
		}
	}
	m.states = append(m.states, state)
	return plan
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// check compares rows (id, v, note as the server returned them, in any
// order) with state i and says where they first differ.
func (m *sysverModel) check(rows []sysverRow, i int) error {
	if len(rows) != m.rows {
		return fmt.Errorf("%d rows, want %d", len(rows), m.rows)
	}
	slices.SortFunc(rows, func(a, b sysverRow) int { return int(a.id - b.id) })
	for j, r := range rows {
		if err := m.checkRow(r, i, int64(j+1)); err != nil {
			return err
		}
	}
	return nil
}

func (m *sysverModel) checkRow(r sysverRow, i int, id int64) error {
	want := sysverRow{id: id, v: m.states[i][id-1], note: sysverNote(m.states[i][id-1])}
	if r != want {
		return fmt.Errorf("row %+v, want %+v", r, want)
	}
	return nil
}

type sysverRow struct {
	id, v int64
	note  string
}

// sysverSide is one system under the workload: how to open a client that
// updates, read the table as of a moment, and the moments it recorded.
type sysverSide struct {
	name string
	// moments[i] is when round i had finished on this side (0: the load);
	// nil for PostgreSQL, which keeps no history.
	moments []time.Time
	open    func(ctx context.Context) (updater, error)
	// rows reads the table as of a moment (current when the zero time),
	// or one row (id > 0).
	rows func(ctx context.Context, at time.Time, id int64) ([]sysverRow, error)
	// loadPoint and loadTable run the timed read loads.
	loadPoint, loadTable func(ctx context.Context, clients int, d time.Duration, params func(*rand.Rand) (int, int64)) (loadResult, error)
}

// record notes the moment after a round, with momentGap of quiet on
// either side of it, to the microsecond (both engines' precision).
func (s *sysverSide) record() {
	time.Sleep(momentGap)
	s.moments = append(s.moments, time.Now().UTC().Truncate(time.Microsecond))
	time.Sleep(momentGap)
}

// updater is one client connection sending the workload's UPDATEs.
type updater interface {
	begin(ctx context.Context) error
	commit(ctx context.Context) error
	update(ctx context.Context, op sysverOp) error
	close()
}

// sysverWorkload is workload 6: a table of sysverRows rows, single-row
// UPDATEs in transactions of 1 and of 100 from 1 and from 8 clients
// (fixed counts of UPDATEs per round), each round followed by a recorded
// moment; then FOR SYSTEM_TIME AS OF point reads and whole-table reads at
// those moments. MariaDB, with the table WITH SYSTEM VERSIONING, is the
// peer; PostgreSQL runs the same UPDATEs on a table without history, as
// the floor. Before any figure is reported, the whole table as of every
// recorded moment, and a sample of point reads, must equal the model on
// both cdcdb and MariaDB, and PostgreSQL's table the model's last state.
func (b *bench) sysverWorkload(ctx context.Context) error {
	b.logf("starting MariaDB")
	maria, err := startMariaDB(ctx, filepath.Join(b.tmp, "mariadb"))
	if err != nil {
		return err
	}
	defer func() {
		if err := maria.stop(); err != nil {
			b.logf("stopping MariaDB: %v", err)
		}
	}()
	if b.rep.mariadbSettings, err = maria.settings(ctx); err != nil {
		return err
	}
	b.logf("MariaDB settings: %s", b.rep.mariadbSettings)
	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	if err := b.pg.freshDatabase(ctx, "sysver"); err != nil {
		return err
	}
	mdb, err := openMariaDBSysver(ctx, maria)
	if err != nil {
		return err
	}
	defer mdb.Close()

	model := newSysverModel(b.sz.sysverRows)
	cdc := pgxSysverSide("cdcdb", srv.url())
	mar := mariadbSysverSide(mdb)
	pgs := pgxSysverSide("PostgreSQL", b.pg.URL("sysver"))
	pgs.moments = nil
	sides := []*sysverSide{cdc, mar, pgs}

	t0 := time.Now()
	if err := loadSysver(ctx, srv.url(), b.pg.URL("sysver"), mdb, b.sz.sysverRows); err != nil {
		return err
	}
	cdc.record()
	mar.record()
	b.logf("sysver: %d rows loaded into all three in %s", b.sz.sysverRows, time.Since(t0).Round(time.Millisecond))

	var shapes []sysverRoundShape
	for _, batch := range []int{1, 100} {
		for _, clients := range []int{1, 8} {
			ops := b.sz.sysverOps1
			if batch > 1 {
				ops = b.sz.sysverOps100
			}
			shapes = append(shapes, sysverRoundShape{batch: batch, clients: clients, ops: ops})
		}
	}
	rates := map[sysverRoundShape]map[*sysverSide][]float64{}
	updates := 0
	for rep := range b.sz.sysverReps {
		for _, shape := range shapes {
			plan := model.nextRound(shape)
			updates += shape.ops
			order := slices.Clone(sides)
			for range rep % len(order) { // each side goes first in turn
				order = append(order[1:], order[0])
			}
			if rates[shape] == nil {
				rates[shape] = map[*sysverSide][]float64{}
			}
			for _, s := range order {
				wait := func() error { return nil }
				if s == cdc {
					wait = b.profile(srv, fmt.Sprintf("sysver-update-%d-%d", shape.batch, shape.clients), rep)
				}
				d, err := runUpdateRound(ctx, s, shape, plan)
				if err != nil {
					return fmt.Errorf("%s, %s: %v", s.name, shape, err)
				}
				if err := wait(); err != nil {
					return err
				}
				if s.moments != nil {
					s.record()
				}
				rates[shape][s] = append(rates[shape][s], float64(shape.ops)/d.Seconds())
			}
			r := rates[shape]
			b.logf("sysver %s, rep %d: cdcdb %.0f/s, MariaDB %.0f/s, PostgreSQL (no history) %.0f/s",
				shape, rep+1, r[cdc][len(r[cdc])-1], r[mar][len(r[mar])-1], r[pgs][len(r[pgs])-1])
		}
	}

	// Every recorded moment, on both sides with history, and the current
	// table on PostgreSQL, against the model.
	t0 = time.Now()
	for _, s := range []*sysverSide{cdc, mar} {
		for i, at := range s.moments {
			rows, err := s.rows(ctx, at, 0)
			if err != nil {
				return fmt.Errorf("%s, whole table AS OF moment %d (%s): %v", s.name, i, at.Format(time.RFC3339Nano), err)
			}
			if err := model.check(rows, i); err != nil {
				return fmt.Errorf("%s, whole table AS OF moment %d (%s), after round %d: %v", s.name, i, at.Format(time.RFC3339Nano), i, err)
			}
		}
	}
	last := len(model.states) - 1
	rows, err := pgs.rows(ctx, time.Time{}, 0)
	if err != nil {
		return fmt.Errorf("PostgreSQL: %v", err)
	}
	if err := model.check(rows, last); err != nil {
		return fmt.Errorf("PostgreSQL, its table after the last round: %v", err)
	}
	sample := rand.New(rand.NewPCG(99, uint64(b.sz.sysverRows)))
	for range b.sz.readSample {
		i, id := sample.IntN(len(model.states)), 1+sample.Int64N(int64(model.rows))
		for _, s := range []*sysverSide{cdc, mar} {
			rows, err := s.rows(ctx, s.moments[i], id)
			if err == nil && len(rows) != 1 {
				err = fmt.Errorf("%d rows, want 1", len(rows))
			}
			if err == nil {
				err = model.checkRow(rows[0], i, id)
			}
			if err != nil {
				return fmt.Errorf("%s, point AS OF moment %d, id %d: %v", s.name, i, id, err)
			}
		}
	}
	b.logf("sysver: %d moments checked on both sides in %s", len(model.states), time.Since(t0).Round(time.Millisecond))

	// The reads: a moment among those recorded and a key, drawn alike for
	// both sides, each side reading as of its own moment.
	point := func(r *rand.Rand) (int, int64) {
		return r.IntN(len(model.states)), 1 + r.Int64N(int64(model.rows))
	}
	table := func(r *rand.Rand) (int, int64) { return r.IntN(len(model.states)), 0 }
	// cdcdb's results and MariaDB's, per repetition.
	type measuredVsPeer struct{ cdc, peer []loadResult }
	var pt, whole measuredVsPeer
	for rep := range b.sz.sysverReps {
		for _, m := range []struct {
			into  *measuredVsPeer
			what  string
			table bool
		}{{&pt, "point AS OF", false}, {&whole, "whole-table AS OF", true}} {
			order := []*sysverSide{cdc, mar}
			if rep%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for _, s := range order {
				wait := func() error { return nil }
				if s == cdc {
					wait = b.profile(srv, "sysver-"+strings.ReplaceAll(m.what, " ", "-"), rep)
				}
				var r loadResult
				var err error
				if m.table {
					r, err = s.loadTable(ctx, b.sz.readClients, b.sz.sysverTableReadFor, table)
				} else {
					r, err = s.loadPoint(ctx, b.sz.readClients, b.sz.sysverReadFor, point)
				}
				if err != nil {
					return fmt.Errorf("%s, %s: %v", s.name, m.what, err)
				}
				if err := wait(); err != nil {
					return err
				}
				if s == cdc {
					m.into.cdc = append(m.into.cdc, r)
				} else {
					m.into.peer = append(m.into.peer, r)
				}
			}
			c, p := m.into.cdc[len(m.into.cdc)-1], m.into.peer[len(m.into.peer)-1]
			b.logf("sysver %s rep %d: cdcdb %.1f q/s (p50 %s, p99 %s), MariaDB %.1f q/s (p50 %s, p99 %s)",
				m.what, rep+1, c.qps, c.p50, c.p99, p.qps, p.p50, p.p99)
		}
	}

	for _, shape := range shapes {
		r := rates[shape]
		b.rep.add(figure{workload: shape.String(), metric: "updates/s", cdcdb: median(r[cdc]), mariadb: median(r[mar]),
			pg: median(r[pgs]), peer: peerMariaDB, unit: "updates/s", higherBetter: true, goal: ratioAtLeast(1)})
	}
	b.addPeerLoadFigures("System-time point AS OF", "QPS", "q/s", pt.cdc, pt.peer, peerMariaDB, ratioAtLeast(1.5))
	b.addPeerLoadFigures("System-time whole-table AS OF", "reads/s", "reads/s", whole.cdc, whole.peer, peerMariaDB, ratioAtLeast(1.5))
	b.rep.checks = append(b.rep.checks, fmt.Sprintf(
		"sysver: %d rows, %d UPDATEs in %d rounds on each side; the whole table AS OF each of the %d recorded moments, and %d point reads AS OF them, equal the model on cdcdb and on MariaDB; PostgreSQL's table equals the model's last state",
		b.sz.sysverRows, updates, len(model.states)-1, len(model.states), b.sz.readSample))
	if err := maria.stop(); err != nil {
		return err
	}
	return srv.stop()
}

// addPeerLoadFigures reports a concurrent-read measurement against peer:
// throughput judged by g, p50 and p99.
func (b *bench) addPeerLoadFigures(workload, metric, unit string, cdc, other []loadResult, peer peerName, g goal) {
	pick := func(rs []loadResult, f func(loadResult) float64) float64 {
		var out []float64
		for _, r := range rs {
			out = append(out, f(r))
		}
		return median(out)
	}
	qps := func(r loadResult) float64 { return r.qps }
	p50 := func(r loadResult) float64 { return r.p50.Seconds() * 1000 }
	p99 := func(r loadResult) float64 { return r.p99.Seconds() * 1000 }
	w := fmt.Sprintf("%s (%d clients)", workload, b.sz.readClients)
	for _, f := range []figure{
		{workload: w, metric: metric, cdcdb: pick(cdc, qps), mariadb: pick(other, qps), unit: unit, higherBetter: true, goal: g},
		{workload: w, metric: "p50", cdcdb: pick(cdc, p50), mariadb: pick(other, p50), unit: "ms"},
		{workload: w, metric: "p99", cdcdb: pick(cdc, p99), mariadb: pick(other, p99), unit: "ms"},
	} {
		f.peer = peer
		if peer == peerPostgreSQL {
			f.pg, f.mariadb = f.mariadb, 0
		}
		b.rep.add(f)
	}
}

// runUpdateRound runs one round's UPDATEs on s, every client's at once,
// and returns how long the round took from the first statement to the
// last commit (connections are opened and statements prepared before).
func runUpdateRound(ctx context.Context, s *sysverSide, shape sysverRoundShape, plan [][]sysverOp) (time.Duration, error) {
	ups := make([]updater, len(plan))
	defer func() {
		for _, u := range ups {
			if u != nil {
				u.close()
			}
		}
	}()
	for i := range ups {
		u, err := s.open(ctx)
		if err != nil {
			return 0, err
		}
		ups[i] = u
	}
	errs := make([]error, len(plan))
	var wg sync.WaitGroup
	start := time.Now()
	for c, ops := range plan {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[c] = runUpdates(ctx, ups[c], shape.batch, ops)
		}()
	}
	wg.Wait()
	d := time.Since(start)
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return d, nil
}

// runUpdates sends ops on u, batch to a transaction (the last one may be
// shorter); with batch 1 each UPDATE commits on its own.
func runUpdates(ctx context.Context, u updater, batch int, ops []sysverOp) error {
	for len(ops) > 0 {
		n := min(batch, len(ops))
		if batch > 1 {
			if err := u.begin(ctx); err != nil {
				return err
			}
		}
		for _, op := range ops[:n] {
			if err := u.update(ctx, op); err != nil {
				return err
			}
		}
		if batch > 1 {
			if err := u.commit(ctx); err != nil {
				return err
			}
		}
		ops = ops[n:]
	}
	return nil
}

// loadSysver creates the table on all three systems and loads rows rows,
// row id holding value id.
func loadSysver(ctx context.Context, cdcURL, pgURL string, mdb *sql.DB, rows int) error {
	var copyRows bytes.Buffer
	for id := 1; id <= rows; id++ {
		fmt.Fprintf(&copyRows, "%d\t%d\t%s\n", id, id, sysverNote(int64(id)))
	}
	for _, url := range []string{cdcURL, pgURL} {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		err = execScript(ctx, conn, sysverDDL)
		if err == nil {
			_, err = conn.PgConn().CopyFrom(ctx, bytes.NewReader(copyRows.Bytes()), "COPY sv FROM STDIN")
		}
		conn.Close(ctx)
		if err != nil {
			return fmt.Errorf("loading %s: %v", url, err)
		}
	}
	if _, err := mdb.ExecContext(ctx, mariadbSysverDDL); err != nil {
		return fmt.Errorf("MariaDB: %v", err)
	}
	const perInsert = 1000
	for first := 1; first <= rows; first += perInsert {
		var q strings.Builder
		q.WriteString("INSERT INTO sv (id, v, note) VALUES ")
		for id := first; id < first+perInsert && id <= rows; id++ {
			if id > first {
				q.WriteByte(',')
			}
			fmt.Fprintf(&q, "(%d,%d,'%s')", id, id, sysverNote(int64(id)))
		}
		if _, err := mdb.ExecContext(ctx, q.String()); err != nil {
			return fmt.Errorf("MariaDB: loading: %v", err)
		}
	}
	return nil
}

// openMariaDBSysver creates the workload's database on MariaDB and returns
// a pool of connections to it.
func openMariaDBSysver(ctx context.Context, s *mariadbServer) (*sql.DB, error) {
	db, err := s.open("")
	if err != nil {
		return nil, err
	}
	_, err = db.ExecContext(ctx, "CREATE DATABASE sysver")
	db.Close()
	if err != nil {
		return nil, err
	}
	return s.open("sysver")
}

// ---------------------------------------------------------------------------
// The sides: cdcdb and PostgreSQL through pgx, MariaDB through
// database/sql and go-sql-driver/mysql (server-side prepared statements,
// as pgx's are).
// ---------------------------------------------------------------------------

func pgxSysverSide(name, url string) *sysverSide {
	s := &sysverSide{name: name, moments: []time.Time{}}
	s.open = func(ctx context.Context) (updater, error) {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return nil, err
		}
		if _, err := conn.Prepare(ctx, "upd", sysverUpdate); err != nil {
			conn.Close(ctx)
			return nil, err
		}
		return pgxUpdater{conn}, nil
	}
	s.rows = func(ctx context.Context, at time.Time, id int64) ([]sysverRow, error) {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return nil, err
		}
		defer conn.Close(ctx)
		var rows pgx.Rows
		switch {
		case at.IsZero():
			rows, err = conn.Query(ctx, sysverCurrent)
		case id > 0:
			rows, err = conn.Query(ctx, sysverPointAsOf, at, id)
		default:
			rows, err = conn.Query(ctx, sysverTableAsOf, at)
		}
		if err != nil {
			return nil, err
		}
		var out []sysverRow
		var r sysverRow
		_, err = pgx.ForEachRow(rows, []any{&r.id, &r.v, &r.note}, func() error {
			out = append(out, r)
			return nil
		})
		return out, err
	}
	load := func(query string) func(context.Context, int, time.Duration, func(*rand.Rand) (int, int64)) (loadResult, error) {
		return func(ctx context.Context, clients int, d time.Duration, params func(*rand.Rand) (int, int64)) (loadResult, error) {
			return runLoad(ctx, url, clients, d, query, func(r *rand.Rand) []any {
				i, id := params(r)
				if id == 0 {
					return []any{s.moments[i]}
				}
				return []any{s.moments[i], id}
			})
		}
	}
	s.loadPoint, s.loadTable = load(sysverPointAsOf), load(sysverTableAsOf)
	return s
}

type pgxUpdater struct{ conn *pgx.Conn }

func (u pgxUpdater) begin(ctx context.Context) error {
	_, err := u.conn.Exec(ctx, "BEGIN")
	return err
}

func (u pgxUpdater) commit(ctx context.Context) error {
	_, err := u.conn.Exec(ctx, "COMMIT")
	return err
}

func (u pgxUpdater) update(ctx context.Context, op sysverOp) error {
	tag, err := u.conn.Exec(ctx, "upd", op.v, sysverNote(op.v), op.id)
	if err == nil && tag.RowsAffected() != 1 {
		err = fmt.Errorf("UPDATE of id %d changed %d rows", op.id, tag.RowsAffected())
	}
	return err
}

func (u pgxUpdater) close() { u.conn.Close(context.Background()) }

func mariadbSysverSide(db *sql.DB) *sysverSide {
	s := &sysverSide{name: "MariaDB", moments: []time.Time{}}
	s.open = func(ctx context.Context) (updater, error) {
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		stmt, err := conn.PrepareContext(ctx, mariadbSysverUpdate)
		if err != nil {
			conn.Close()
			return nil, err
		}
		return mariadbUpdater{conn, stmt}, nil
	}
	s.rows = func(ctx context.Context, at time.Time, id int64) ([]sysverRow, error) {
		var rows *sql.Rows
		var err error
		switch {
		case at.IsZero():
			rows, err = db.QueryContext(ctx, sysverCurrent)
		case id > 0:
			rows, err = db.QueryContext(ctx, mariadbSysverPointAsOf, at, id)
		default:
			rows, err = db.QueryContext(ctx, mariadbSysverTableAsOf, at)
		}
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []sysverRow
		for rows.Next() {
			var r sysverRow
			if err := rows.Scan(&r.id, &r.v, &r.note); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, rows.Err()
	}
	load := func(query string) func(context.Context, int, time.Duration, func(*rand.Rand) (int, int64)) (loadResult, error) {
		return func(ctx context.Context, clients int, d time.Duration, params func(*rand.Rand) (int, int64)) (loadResult, error) {
			return runMariaDBLoad(ctx, db, clients, d, query, func(r *rand.Rand) []any {
				i, id := params(r)
				if id == 0 {
					return []any{s.moments[i]}
				}
				return []any{s.moments[i], id}
			})
		}
	}
	s.loadPoint, s.loadTable = load(mariadbSysverPointAsOf), load(mariadbSysverTableAsOf)
	return s
}

type mariadbUpdater struct {
	conn *sql.Conn
	stmt *sql.Stmt
}

// begin and commit are plain statements on the connection: without
// arguments the driver sends them as text, one round trip each, as pgx
// does.
func (u mariadbUpdater) begin(ctx context.Context) error {
	_, err := u.conn.ExecContext(ctx, "BEGIN")
	return err
}

func (u mariadbUpdater) commit(ctx context.Context) error {
	_, err := u.conn.ExecContext(ctx, "COMMIT")
	return err
}

func (u mariadbUpdater) update(ctx context.Context, op sysverOp) error {
	res, err := u.stmt.ExecContext(ctx, op.v, sysverNote(op.v), op.id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("UPDATE of id %d changed %d rows (%v)", op.id, n, err)
	}
	return nil
}

func (u mariadbUpdater) close() {
	u.stmt.Close()
	u.conn.Close()
}

// runMariaDBLoad is runLoad for MariaDB: clients connections, each with
// the query prepared before the clock starts, every row of every result
// read.
func runMariaDBLoad(ctx context.Context, db *sql.DB, clients int, d time.Duration, query string, params func(*rand.Rand) []any) (loadResult, error) {
	stmts := make([]*sql.Stmt, clients)
	conns := make([]*sql.Conn, clients)
	defer func() {
		for i := range conns {
			if stmts[i] != nil {
				stmts[i].Close()
			}
			if conns[i] != nil {
				conns[i].Close()
			}
		}
	}()
	read := func(stmt *sql.Stmt, args []any) error {
		rows, err := stmt.QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var id, v, note sql.RawBytes
		for rows.Next() {
			if err := rows.Scan(&id, &v, &note); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	for i := range conns {
		c, err := db.Conn(ctx)
		if err != nil {
			return loadResult{}, err
		}
		conns[i] = c
		if stmts[i], err = c.PrepareContext(ctx, query); err != nil {
			return loadResult{}, err
		}
		for j := range 3 {
			if err := read(stmts[i], params(rand.New(rand.NewPCG(uint64(i), uint64(j))))); err != nil {
				return loadResult{}, fmt.Errorf("warm-up: %v", err)
			}
		}
	}
	return timeClients(ctx, clients, d, func(i int, rng *rand.Rand) error {
		return read(stmts[i], params(rng))
	})
}
