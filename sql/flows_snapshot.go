package sql

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"cdcdb/catalog"
	"cdcdb/cdcexec"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/settings"
	"cdcdb/temporal"
	"cdcdb/types"
)

// This file binds and runs AUTO CDC FROM SNAPSHOT flows (spec §7): it
// reads a snapshot (a query's rows, a table's rows, or the rows of one
// VERSION BY label) and hands it with its version to cdcexec.ApplySnapshot,
// which compares it with the snapshot before it. Snapshots are due at
// CREATE FLOW, at REFRESH STREAMING TABLE, and at the commit of a
// transaction that wrote a VERSION BY table or a table a TRIGGER ON UPDATE
// flow reads (txn.commit calls takeDueSnapshots).

// snapshotFlow is what a compiled snapshot flow needs to read snapshots.
type snapshotFlow struct {
	versioning catalog.SnapshotVersioning
	// query is the snapshot query (nil: read table's rows directly);
	// versionQuery the WITH VERSION query.
	query, versionQuery *ast.Select
	table               *catalog.Table
	// dataIdx says where each data column is in a snapshot row: in the
	// query's output, or in the table's stored tuple.
	dataIdx []int
	// versionBy is VERSION BY, bound over the table's stored tuple.
	versionBy eval.Expr
	// versionT is the type of versions; versionCol the WITH VERSION
	// query's column name (last_snapshot_version()'s column).
	versionT   types.T
	versionCol string
	// fits are the data columns whose target column has a modifier
	// (numeric(10,2), varchar(20), ...), applied to each snapshot value
	// as to any row written to a table (compileFlow sets them).
	fits []typmodFit
}

// typmodFit is a data column (by position) and its target column's type.
type typmodFit struct {
	pos int
	t   types.T
}

// snapshotVersionScope makes last_snapshot_version() and
// current_snapshot_version() plannable, inside the one query of a snapshot
// flow where each is allowed.
type snapshotVersionScope struct {
	allowLast, allowCurrent bool
	col                     string
	t                       types.T
	// last is the last version applied (nil: none, and the function has
	// no row); current the version being taken.
	last    []types.Value
	current types.Value
}

const (
	lastSnapshotVersionName    = "last_snapshot_version"
	currentSnapshotVersionName = "current_snapshot_version"
)

// planSnapshotVersionFunc plans last_snapshot_version() or
// current_snapshot_version() in FROM: a relation of one column holding 0 or
// 1 row. Elsewhere they do not exist (42883, as in Lakeflow).
func (pc *planCtx) planSnapshotVersionFunc(t *ast.FuncTable, name string) (plan, []*scopeRel, error) {
	sv := pc.snapshotVersions
	allowed := sv != nil && ((name == lastSnapshotVersionName && sv.allowLast) || (name == currentSnapshotVersionName && sv.allowCurrent))
	if !allowed || len(t.Call.Args) > 0 {
		where := "WITH VERSION (...)"
		if name == currentSnapshotVersionName {
			where = "FROM SNAPSHOT (...) of a flow WITH VERSION"
		}
		return nil, nil, pgerror.New(pgerror.UndefinedFunction, "function %s() does not exist", name).WithPosition(t.Pos+1).
			WithHint("%s() is only allowed inside %s.", name, where)
	}
	cols := []outCol{{name: sv.col, t: sv.t}}
	p := &valuesPlan{cols: cols}
	switch {
	case name == currentSnapshotVersionName:
		p.rows = [][]eval.Expr{{&eval.Const{V: sv.current, T: sv.t}}}
	case sv.last != nil:
		p.rows = [][]eval.Expr{{&eval.Const{V: sv.last[0], T: sv.t}}}
	}
	rel := relFromColumns(name, cols)
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return p, []*scopeRel{rel}, nil
}

// changeOnlyClauses are the clauses of change-event flows that a
// snapshot flow has no use for.
var changeOnlyClauses = []string{"SEQUENCE BY", "SYSTEM SEQUENCE BY", "APPLY AS DELETE WHEN", "APPLY AS TRUNCATE WHEN",
	"IGNORE NULL UPDATES", "COLUMNS TO UPDATE"}

// bindSnapshotFlow checks a FROM SNAPSHOT definition and works out its
// data columns, keys and version type.
func (pc *planCtx) bindSnapshotFlow(st *ast.CreateFlow) (*flowDefinition, error) {
	d := &flowDefinition{st: st}
	clausePos := flowClausePositions(st)
	for _, c := range changeOnlyClauses {
		if _, ok := st.Clauses[c]; ok {
			return nil, pgerror.New(pgerror.SyntaxError, "%s is not allowed in a flow FROM SNAPSHOT", c).WithPosition(clausePos(c)).
				WithHint("A snapshot flow finds its changes by comparing each snapshot with the one before it.")
		}
	}
	switch d.storedAs, _ = catalog.StoredAsNamed(st.StoredAs); d.storedAs {
	case catalog.SCD1, catalog.SCD2:
	default:
		return nil, pgerror.New(pgerror.FeatureNotSupported, "STORED AS %s is not supported for a flow FROM SNAPSHOT", st.StoredAs).WithPosition(clausePos("STORED AS")).
			WithHint("Use STORED AS SCD TYPE 1 or SCD TYPE 2.")
	}
	if len(st.Keys) == 0 {
		return nil, pgerror.New(pgerror.SyntaxError, "CREATE FLOW requires a KEYS clause").WithPosition(st.Pos + 1).
			WithHint("Name the columns that identify a row: KEYS (id).")
	}
	if st.TrackHistory != nil && d.storedAs == catalog.SCD1 {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "TRACK HISTORY is not allowed with STORED AS SCD TYPE 1").WithPosition(clausePos("TRACK HISTORY ON")).
			WithHint("SCD TYPE 1 keeps no history; use STORED AS SCD TYPE 2.")
	}
	sf := &snapshotFlow{versioning: catalog.VersionByCommitTime, query: st.SnapshotQuery, versionQuery: st.VersionQuery}
	switch {
	case st.VersionQuery != nil:
		sf.versioning = catalog.VersionByQuery
	case st.VersionBy != nil:
		sf.versioning = catalog.VersionByColumn
		if st.SnapshotQuery != nil {
			return nil, pgerror.New(pgerror.SyntaxError, "VERSION BY needs FROM SNAPSHOT table, not a query").WithPosition(clausePos("VERSION BY")).
				WithHint("The table holds the labelled snapshots: FROM SNAPSHOT table VERSION BY column.")
		}
	}
	reads := map[catalog.OID]bool{}
	if sf.versionQuery != nil {
		if err := pc.bindVersionQuery(sf, reads); err != nil {
			return nil, err
		}
	}
	// The columns a snapshot row offers, with Attnum-1 their position in
	// it.
	var offered []catalog.Column
	if sf.query == nil {
		src, _, err := pc.lookupTable(st.Source)
		if err != nil {
			return nil, err
		}
		switch src.Kind {
		case catalog.KindTable:
			sf.table = src
			d.source = src
			reads[src.OID] = true
			offered = src.LiveColumns()
		case catalog.KindView:
			if sf.versioning == catalog.VersionByColumn {
				return nil, pgerror.New(pgerror.WrongObjectType, "VERSION BY needs a table; \"%s\" is a view", src.Name).WithPosition(st.Source.Pos + 1)
			}
			sf.query = &ast.Select{Body: &ast.SelectCore{Targets: []ast.Target{{Star: true}},
				From: []ast.TableExpr{&ast.TableRef{Name: st.Source, Pos: st.Source.Pos}}}, Pos: st.Source.Pos}
		default:
			return nil, pgerror.New(pgerror.WrongObjectType, "the source of a flow must be a table or a view; \"%s\" is a %s", src.Name, src.Kind).WithPosition(st.Source.Pos + 1)
		}
	}
	if sf.query != nil {
		qpc := pc.snapshotPlanCtx(reads, &snapshotVersionScope{allowCurrent: sf.versioning == catalog.VersionByQuery, col: sf.versionCol, t: sf.versionT})
		p, err := qpc.planQuery(sf.query, nil)
		if err != nil {
			return nil, err
		}
		for i, c := range p.columns() {
			offered = append(offered, catalog.Column{Name: c.name, Type: c.t, Attnum: int16(i + 1)})
		}
	}
	offeredCol := func(name, clause string) (catalog.Column, error) {
		for _, c := range offered {
			if c.Name == name {
				return c, nil
			}
		}
		return catalog.Column{}, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" named in %s is not a column of the snapshot", name, clause).WithPosition(clausePos(clause))
	}
	switch sf.versioning {
	case catalog.VersionByCommitTime:
		sf.versionT = types.Of(types.Timestamptz)
	case catalog.VersionByColumn:
		sc := newScope(nil)
		sc.add(tupleRel(sf.table))
		vpc := &planCtx{sess: pc.sess, cat: pc.cat, params: &paramSlots{}}
		b := vpc.binder(sc)
		x, err := b.bind(st.VersionBy)
		if err != nil {
			return nil, err
		}
		sf.versionBy = b.resolveUnknown(x)
		sf.versionT = sf.versionBy.Type()
	}
	if err := orderableVersion(sf.versionT, clausePos("FROM")); err != nil {
		return nil, err
	}
	// A VERSION BY column labels rows; it is not data unless COLUMNS asks.
	labelColumn := ""
	if ref, ok := st.VersionBy.(*ast.ColumnRef); ok && len(ref.Parts) == 1 {
		labelColumn = ref.Parts[0]
	}
	if st.Columns == nil || st.Columns.All {
		except := map[string]bool{}
		if st.Columns != nil {
			for _, n := range st.Columns.Columns {
				if _, err := offeredCol(n, "COLUMNS"); err != nil {
					return nil, err
				}
				except[n] = true
			}
		} else if labelColumn != "" {
			except[labelColumn] = true
		}
		for _, c := range offered {
			if !except[c.Name] {
				d.data = append(d.data, c)
			}
		}
	} else {
		for _, n := range st.Columns.Columns {
			c, err := offeredCol(n, "COLUMNS")
			if err != nil {
				return nil, err
			}
			d.data = append(d.data, c)
		}
	}
	if d.storedAs != catalog.SCD1 {
		for _, c := range d.data {
			if isPeriodColumnName(c.Name) {
				return nil, pgerror.New(pgerror.DuplicateColumn, "snapshot column \"%s\" has the name of a period column of the target", c.Name).
					WithHint("Rename the column: %s and %s are reserved for the target's periods.", colStartAt, colEndAt)
			}
		}
	}
	dataPos := func(name, clause string) (int, error) {
		if _, err := offeredCol(name, clause); err != nil {
			return 0, err
		}
		return d.dataPos(name, clause, clausePos)
	}
	keys, err := bindKeys(st.Keys, dataPos, clausePos)
	if err != nil {
		return nil, err
	}
	d.keys = keys
	if sel := st.TrackHistory; sel != nil {
		set := make(temporal.ColumnSet, len(d.data))
		for i := range set {
			set[i] = sel.All
		}
		for _, n := range sel.Columns {
			p, err := dataPos(n, "TRACK HISTORY ON")
			if err != nil {
				return nil, err
			}
			set[p] = !sel.All
		}
		d.rules.TrackHistory = set
	}
	d.rules.KeyColumns = temporal.ColumnsAt(d.keys...)
	d.rules.Compare = temporal.Lexicographic(compareValues)
	d.rules.CompareSystem = d.rules.Compare
	d.rules.Equal = func(a, b any) bool { return compareValues(a, b) == 0 }
	d.seqT = sf.versionT
	for _, c := range d.data {
		sf.dataIdx = append(sf.dataIdx, int(c.Attnum-1))
	}
	tgt, err := pc.flowTarget(st)
	if err != nil {
		return nil, err
	}
	d.target = tgt
	d.snap = sf
	for oid := range reads {
		d.reads = append(d.reads, oid)
	}
	slices.Sort(d.reads)
	return d, nil
}

func orderableVersion(t types.T, pos int) error {
	switch t.OID {
	case types.JSON, types.JSONB, types.Xml, types.Unknown:
		return pgerror.New(pgerror.DatatypeMismatch, "snapshot versions of type %s cannot be ordered", eval.TypeName(t)).WithPosition(pos).
			WithHint("Version snapshots by a number, a timestamp, a date or text.")
	}
	return nil
}

// snapshotPlanCtx is a planning context for a snapshot flow's queries:
// it records the tables they read and knows the version functions.
func (pc *planCtx) snapshotPlanCtx(reads map[catalog.OID]bool, sv *snapshotVersionScope) *planCtx {
	return &planCtx{sess: pc.sess, cat: pc.cat, params: &paramSlots{}, tablesRead: reads, snapshotVersions: sv}
}

// versionTypeCandidates are the types bindVersionQuery tries for
// last_snapshot_version()'s column.
var versionTypeCandidates = []types.OID{types.Unknown, types.Int4, types.Int8, types.Numeric, types.Timestamptz,
	types.Timestamp, types.Date, types.Text, types.Float8, types.Record}

// bindVersionQuery plans the WITH VERSION query, whose one column gives
// last_snapshot_version() its name and type. Its name is read from the
// query's first select item, and its type from a first planning in which
// last_snapshot_version()'s column is of unknown type.
func (pc *planCtx) bindVersionQuery(sf *snapshotFlow, reads map[catalog.OID]bool) error {
	name := "?column?"
	if core, ok := sf.versionQuery.Body.(*ast.SelectCore); ok && len(core.Targets) > 0 {
		t := core.Targets[0]
		switch {
		case t.Alias != "":
			name = t.Alias
		case t.Expr != nil:
			if ref, ok := t.Expr.(*ast.ColumnRef); ok {
				name = ref.Parts[len(ref.Parts)-1]
			} else if fc, ok := t.Expr.(*ast.FuncCall); ok {
				name = fc.Name.Name()
			}
		}
	}
	// The column's type is the query's own: try the common version types
	// until one gives a query of that type (unknown first: a query that
	// never compares with last_snapshot_version() takes any).
	var p plan
	var err error
	for _, oid := range versionTypeCandidates {
		first := pc.snapshotPlanCtx(map[catalog.OID]bool{}, &snapshotVersionScope{allowLast: true, col: name, t: types.Of(oid)})
		q, qerr := first.planQuery(sf.versionQuery, nil)
		if qerr != nil {
			if err == nil {
				err = qerr
			}
			continue
		}
		if cols := q.columns(); oid == types.Unknown || (len(cols) == 1 && cols[0].t.OID == oid) {
			p, err = q, nil
			break
		}
	}
	if p == nil {
		return err
	}
	cols := p.columns()
	if len(cols) != 1 {
		return pgerror.New(pgerror.SyntaxError, "the WITH VERSION query must return one column, not %d", len(cols)).WithPosition(sf.versionQuery.Pos + 1)
	}
	sf.versionCol, sf.versionT = cols[0].name, cols[0].t
	second := pc.snapshotPlanCtx(reads, &snapshotVersionScope{allowLast: true, col: sf.versionCol, t: sf.versionT})
	_, err = second.planQuery(sf.versionQuery, nil)
	return err
}

// flowTarget resolves a flow's target, which must be a streaming table.
func (pc *planCtx) flowTarget(st *ast.CreateFlow) (*catalog.Table, error) {
	tgt, _, err := pc.lookupTable(st.Target)
	if err != nil {
		if pgerror.CodeOf(err) == pgerror.UndefinedTable {
			return nil, pgerror.As(err).WithHint("Declare the target first: CREATE STREAMING TABLE %s;", st.Target.Name())
		}
		return nil, err
	}
	if tgt.Kind != catalog.KindStreaming {
		return nil, pgerror.New(pgerror.WrongObjectType, "the target of a flow must be a streaming table; \"%s\" is a %s", tgt.Name, tgt.Kind).WithPosition(st.Target.Pos+1).
			WithHint("Declare it with CREATE STREAMING TABLE %s;", tgt.Name)
	}
	return tgt, nil
}

// ---------------------------------------------------------------- running

// snapshotRows reads a snapshot: the rows of the snapshot query (with
// current_snapshot_version() = version), or of the table (only those
// labelled version, for VERSION BY), as data values, streaming them into
// the executor's sorter. The caller closes what it returns.
func (x *execCtx) snapshotRows(c *compiledFlow, f *catalog.Flow, version []types.Value) (*cdcexec.SnapshotRows, error) {
	sf := c.snap
	out := c.flow.NewSnapshotRows(version, x.sess.engine.opts.SnapshotMemory, filepath.Dir(x.sess.engine.db.Path()))
	if sf.versioning == catalog.VersionByColumn {
		out.CollapseIdentical() // a loader's retry of a version
	}
	picked := make([]types.Value, len(sf.dataIdx))
	add := func(r []types.Value) error {
		for i, p := range sf.dataIdx {
			picked[i] = nil
			if p < len(r) {
				picked[i] = r[p]
			}
		}
		for _, fit := range sf.fits {
			if picked[fit.pos] != nil {
				v, err := types.ApplyTypmod(picked[fit.pos], fit.t, false)
				if err != nil {
					return err
				}
				picked[fit.pos] = v
			}
		}
		return out.Add(picked)
	}
	if sf.query != nil {
		sv := &snapshotVersionScope{allowCurrent: sf.versioning == catalog.VersionByQuery, col: sf.versionCol, t: sf.versionT}
		if version != nil {
			sv.current = version[0]
		}
		pc := x.snapshotQueryCtx(sv)
		p, err := pc.planQuery(sf.query, nil)
		if err != nil {
			return nil, err
		}
		it, err := p.open(x, nil)
		if err != nil {
			return nil, err
		}
		defer it.close()
		for {
			r, err := it.next()
			if err == nil && r != nil {
				err = add(r)
			}
			if err != nil {
				out.Close()
				return nil, err
			}
			if r == nil {
				return out, nil
			}
		}
	}
	if sf.versionBy == nil && len(sf.fits) == 0 && sf.wholeTuple() {
		if err := x.scanStoredTuples(c, sf.table, out, add); err != nil {
			out.Close()
			return nil, err
		}
		return out, nil
	}
	env := &eval.Env{X: x}
	err := x.scanTuples(sf.table, func(tuple []types.Value) error {
		if sf.versionBy != nil {
			env.Row = tuple
			v, err := sf.versionBy.Eval(env)
			if err != nil {
				return err
			}
			if v == nil || compareValues(v, version[0]) != 0 {
				return nil
			}
		}
		return add(tuple)
	})
	if err != nil {
		out.Close()
		return nil, err
	}
	return out, nil
}

// wholeTuple reports whether a snapshot row is the table's stored tuple as
// it is: every column, in order, none dropped.
func (sf *snapshotFlow) wholeTuple() bool {
	if sf.table == nil || len(sf.dataIdx) != int(sf.table.NextAttnum-1) {
		return false
	}
	for i, p := range sf.dataIdx {
		if p != i {
			return false
		}
	}
	return true
}

// scanStoredTuples hands a table's rows to the sorter as they are stored,
// decoding only their keys: the common case of a snapshot flow reading a
// whole table. A row in another shape (written before a column was added)
// or holding a value whose encoding is not the only one of its value goes
// through add, decoded, so that it compares with the flow's log as every
// other row does.
func (x *execCtx) scanStoredTuples(c *compiledFlow, t *catalog.Table, out *cdcexec.SnapshotRows, add func([]types.Value) error) error {
	sp := x.tx.st.Space(catalog.DataSpace(t.OID))
	if sp == nil {
		return nil
	}
	width := len(c.snap.dataIdx)
	key := make([]types.Value, len(c.flow.KeyPositions))
	var parts [][]byte
	cur := sp.Cursor()
	n := 0
	for k, raw := cur.First(); k != nil; k, raw = cur.Next() {
		if n++; n%4096 == 0 {
			if err := x.CheckCancel(); err != nil {
				return err
			}
		}
		tuple, ok := history.Tuple(raw)
		if !ok {
			return pgerror.New(pgerror.DataCorrupted, "corrupt row in table \"%s\"", t.Name)
		}
		parts, ok = rowcodec.SplitRow(parts[:0], tuple)
		fast := ok && len(parts) == width
		for i := 0; fast && i < len(parts); i++ {
			fast = rowcodec.RowValueCanonical(parts[i])
		}
		if !fast {
			vals, err := decodeTuple(t, raw)
			if err != nil {
				return err
			}
			if err := add(vals); err != nil {
				return err
			}
			continue
		}
		for i, p := range c.flow.KeyPositions {
			v, err := rowcodec.DecodeRowValue(parts[p])
			if err != nil {
				return err
			}
			key[i] = v
		}
		if err := out.AddEncoded(key, tuple); err != nil {
			return err
		}
	}
	return nil
}

// scanTuples calls fn with every stored row of a table.
func (x *execCtx) scanTuples(t *catalog.Table, fn func([]types.Value) error) error {
	sp := x.tx.st.Space(catalog.DataSpace(t.OID))
	if sp == nil {
		return nil
	}
	c := sp.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		if err := fn(tuple); err != nil {
			return err
		}
	}
	return nil
}

// snapshotQueryCtx plans a snapshot flow's query when a snapshot is taken,
// with the version functions sv allows.
func (x *execCtx) snapshotQueryCtx(sv *snapshotVersionScope) *planCtx {
	return &planCtx{sess: x.sess, cat: x.tx.catalog(), params: &paramSlots{}, snapshotVersions: sv}
}

// takeSnapshot reads the snapshot at version and applies it.
func (x *execCtx) takeSnapshot(c *compiledFlow, f *catalog.Flow, version []types.Value) error {
	rows, err := x.snapshotRows(c, f, version)
	if err != nil {
		return err
	}
	defer rows.Close()
	return x.applySnapshot(c, f, rows)
}

// applySnapshot applies one snapshot and records the flow's statistics.
func (x *execCtx) applySnapshot(c *compiledFlow, f *catalog.Flow, rows *cdcexec.SnapshotRows) error {
	target, err := x.tx.rows(c.flow.Target)
	if err != nil {
		return err
	}
	var check cdcexec.RowCheck
	if rc := c.target; rc != nil {
		check = func(tuple []types.Value) error { return rc.check(x, tuple) }
	}
	st, err := cdcexec.ApplySnapshot(x.ctx, x.tx.st, c.flow, target, rows, x.sess.engine.flowState(f.OID), check)
	if err != nil {
		if x.ctx.Err() != nil {
			return cancelError(x.ctx)
		}
		return err
	}
	if st.Repeat {
		return nil
	}
	stats := catalog.ReadFlowStats(x.tx.st, f.OID)
	stats.EventsApplied += st.Events
	stats.RowsUpserted += st.RowsUpserted
	stats.RowsDeleted += st.RowsDeleted
	stats.SnapshotInserted, stats.SnapshotUpdated, stats.SnapshotDeleted = st.Inserted, st.Updated, st.Deleted
	last, err := cdcexec.LastVersion(x.tx.st, f.OID)
	if err != nil {
		return err
	}
	if last != nil {
		stats.LastVersion = c.flow.FormatSeq(last)
		stats.LastSequence = stats.LastVersion
	}
	stats.LastAppliedAt = time.Now().UnixMicro()
	return catalog.WriteFlowStats(x.tx.st, f.OID, stats)
}

// takeSnapshots takes what is due of a snapshot flow now (CREATE FLOW,
// REFRESH, a commit that wrote what it reads): one snapshot at this
// transaction's commit time; WITH VERSION's pull loop; or, for VERSION BY,
// every version the table holds that the flow has not applied.
func (x *execCtx) takeSnapshots(c *compiledFlow, f *catalog.Flow) error {
	sf := c.snap
	switch sf.versioning {
	case catalog.VersionByCommitTime:
		version, err := x.commitTimeVersion(f)
		if err != nil {
			return err
		}
		return x.takeSnapshot(c, f, version)
	case catalog.VersionByQuery:
		return x.pullVersions(c, f)
	default:
		versions, err := x.labelledVersions(c)
		if err != nil {
			return err
		}
		var due [][]types.Value
		for _, v := range versions {
			has, err := cdcexec.HasVersion(x.tx.st, f.OID, v)
			if err != nil {
				return err
			}
			if !has {
				due = append(due, v)
			}
		}
		return x.applyLabelledVersions(c, f, due)
	}
}

// commitTimeVersion is the version of a snapshot taken now: this
// transaction's commit time, or just after the last version applied when a
// snapshot was already taken in this transaction.
func (x *execCtx) commitTimeVersion(f *catalog.Flow) ([]types.Value, error) {
	ts, err := x.tx.commitTime()
	if err != nil {
		return nil, err
	}
	last, err := cdcexec.LastVersion(x.tx.st, f.OID)
	if err != nil {
		return nil, err
	}
	if len(last) == 1 {
		if lt, ok := last[0].(time.Time); ok && lt.UnixMicro() >= ts {
			ts = lt.UnixMicro() + 1
		}
	}
	return []types.Value{time.UnixMicro(ts).UTC()}, nil
}

// pullVersions runs Lakeflow's loop: evaluate the version query; no row
// ends it; otherwise take the snapshot at that version and repeat.
func (x *execCtx) pullVersions(c *compiledFlow, f *catalog.Flow) error {
	sf := c.snap
	for {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		last, err := cdcexec.LastVersion(x.tx.st, f.OID)
		if err != nil {
			return err
		}
		pc := x.snapshotQueryCtx(&snapshotVersionScope{allowLast: true, col: sf.versionCol, t: sf.versionT, last: last})
		p, err := pc.planQuery(sf.versionQuery, nil)
		if err != nil {
			return err
		}
		rows, err := drain(x, p, nil)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return nil
		}
		if len(rows) > 1 {
			return pgerror.New(pgerror.CardinalityViolation, "the WITH VERSION query of flow \"%s\" returned %d rows", f.Name, len(rows)).
				WithHint("It must return the next version to take, or no row: end it with ORDER BY ... LIMIT 1.")
		}
		v := rows[0][0]
		if v == nil {
			return pgerror.New(pgerror.NotNullViolation, "the WITH VERSION query of flow \"%s\" returned a NULL version", f.Name).
				WithHint("Lakeflow's NULL_SNAPSHOT_VERSION: a snapshot version is never NULL; nothing was applied.")
		}
		version := []types.Value{v}
		if last != nil && compareValues(v, last[0]) <= 0 {
			return pgerror.New(pgerror.DataException, "snapshot version %s of flow \"%s\" is not after the last version applied, %s",
				c.flow.FormatSeq(version), f.Name, c.flow.FormatSeq(last)).
				WithHint("Lakeflow's OUT_OF_ORDER_SNAPSHOT_VERSION: snapshots are taken in version order; filter the version query with > (SELECT ... FROM last_snapshot_version()).")
		}
		if err := x.takeSnapshot(c, f, version); err != nil {
			return err
		}
	}
}

// labelledVersions lists the distinct VERSION BY values of the table, in
// ascending order, refusing a NULL.
func (x *execCtx) labelledVersions(c *compiledFlow) ([][]types.Value, error) {
	seen := map[string][]types.Value{}
	env := &eval.Env{X: x}
	err := x.scanTuples(c.snap.table, func(tuple []types.Value) error {
		env.Row = tuple
		v, err := c.snap.versionBy.Eval(env)
		if err != nil {
			return err
		}
		return x.noteLabel(c, seen, v)
	})
	return sortedVersions(seen), err
}

// noteLabel adds a VERSION BY value to a set of versions (by encoding).
func (x *execCtx) noteLabel(c *compiledFlow, seen map[string][]types.Value, v types.Value) error {
	if v == nil {
		return pgerror.New(pgerror.NotNullViolation, "VERSION BY value is NULL in a row of \"%s\" for flow \"%s\"", c.snap.table.Name, c.flow.Name).
			WithHint("Every row of a labelled snapshot needs its version; the statement was not applied.")
	}
	enc, err := rowcodec.AppendKey(nil, v)
	if err != nil {
		return err
	}
	if _, ok := seen[string(enc)]; !ok {
		seen[string(enc)] = []types.Value{v}
	}
	return nil
}

func sortedVersions(seen map[string][]types.Value) [][]types.Value {
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]types.Value, len(keys))
	for i, k := range keys {
		out[i] = seen[k]
	}
	return out
}

// applyLabelledVersions applies VERSION BY versions, each the table's rows
// with that label. A label with no row left (its rows were deleted, or
// rolled back to a savepoint) is no snapshot: it changes nothing.
func (x *execCtx) applyLabelledVersions(c *compiledFlow, f *catalog.Flow, versions [][]types.Value) error {
	for _, v := range versions {
		rows, err := x.snapshotRows(c, f, v)
		if err != nil {
			return err
		}
		if rows.Len() > 0 {
			err = x.applySnapshot(c, f, rows)
		}
		rows.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// noteLabelledRows records, in the transaction, the VERSION BY values of
// rows just written to a flow's table: those versions are due at commit.
func (x *execCtx) noteLabelledRows(c *compiledFlow, f *catalog.Flow, rows [][]types.Value) error {
	if x.tx.snapshotsDue == nil {
		x.tx.snapshotsDue = map[catalog.OID]map[string][]types.Value{}
	}
	seen := x.tx.snapshotsDue[f.OID]
	if seen == nil {
		seen = map[string][]types.Value{}
		x.tx.snapshotsDue[f.OID] = seen
	}
	x.tx.snapshotSession = x.sess
	env := &eval.Env{X: x}
	for _, r := range rows {
		env.Row = r
		v, err := c.snap.versionBy.Eval(env)
		if err != nil {
			return err
		}
		if err := x.noteLabel(c, seen, v); err != nil {
			return err
		}
	}
	return nil
}

// snapshotSession is a session with every setting at its default, which
// no client sees (it is not in pg_stat_activity).
func snapshotSession(e *Engine) *Session {
	s := &Session{engine: e, user: "cdcdb", settings: map[string]string{}, loc: time.UTC}
	for k, d := range settings.All() {
		s.settings[k] = d.Default
	}
	s.settings["session_authorization"] = s.user
	return s
}

// takeDueSnapshots runs, in a write transaction about to commit, the
// snapshots its writes made due: the VERSION BY versions it wrote, and one
// snapshot of every TRIGGER ON UPDATE flow reading a table it wrote.
func (t *txn) takeDueSnapshots() error {
	if len(t.snapshotsDue) == 0 && len(t.written) == 0 {
		return nil
	}
	cat := t.catalog()
	var flows []*catalog.Flow
	for _, f := range cat.Flows() {
		if f.Kind != catalog.FlowSnapshot || f.Once {
			continue
		}
		if len(t.snapshotsDue[f.OID]) > 0 {
			flows = append(flows, f)
			continue
		}
		if f.TriggerOnUpdate && f.Versioning != catalog.VersionByColumn {
			for _, r := range f.Reads {
				if _, ok := t.written[r]; ok {
					flows = append(flows, f)
					break
				}
			}
		}
	}
	if len(flows) == 0 {
		return nil
	}
	s := t.snapshotSession
	if s == nil {
		// No session wrote a VERSION BY table: plan the flows' queries as a
		// new session would.
		s = snapshotSession(t.engine)
	}
	x := internalExecCtx(context.Background(), s, t)
	for _, f := range flows {
		c, err := t.engine.compileFlow(x, f, cat)
		if err != nil {
			return err
		}
		if due := t.snapshotsDue[f.OID]; len(due) > 0 {
			if err := x.applyLabelledVersions(c, f, sortedVersions(due)); err != nil {
				return err
			}
			continue
		}
		if err := x.takeSnapshots(c, f); err != nil {
			return err
		}
	}
	t.snapshotsDue = nil
	return nil
}
