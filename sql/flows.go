package sql

import (
	"bytes"
	"strings"
	"sync"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/cdcexec"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/temporal"
	"cdcdb/types"
)

// Period column names of SCD TYPE 2 and BITEMPORAL targets. They are lower
// case so that unquoted __START_AT and __start_at both find them.
const (
	colStartAt       = "__start_at"
	colEndAt         = "__end_at"
	colSystemStartAt = "__system_start_at"
	colSystemEndAt   = "__system_end_at"
)

func isPeriodColumnName(name string) bool {
	switch strings.ToLower(name) {
	case colStartAt, colEndAt, colSystemStartAt, colSystemEndAt:
		return true
	}
	return false
}

// flowCache keeps the flows compiled for one catalog snapshot (by
// identity: an uncommitted snapshot's version number may be reused after a
// rollback, its pointer never is).
type flowCache struct {
	mu    sync.Mutex
	snap  *catalog.Snapshot
	gen   uint64 // snap's Generation: an editor changes its snapshot in place
	flows map[catalog.OID]*compiledFlow
	// states are the flows' executor caches, by flow OID. They outlive
	// compiled flows (any DDL recompiles those); only writers use them.
	states map[catalog.OID]*cdcexec.StateCache
}

// flowState returns a flow's executor cache.
func (e *Engine) flowState(oid catalog.OID) *cdcexec.StateCache {
	e.flows.mu.Lock()
	defer e.flows.mu.Unlock()
	if e.flows.states == nil {
		e.flows.states = map[catalog.OID]*cdcexec.StateCache{}
	}
	c, ok := e.flows.states[oid]
	if !ok {
		c = cdcexec.NewStateCache()
		e.flows.states[oid] = c
	}
	return c
}

// forgetFlowState drops a flow's executor cache, when its state changes
// other than through Apply (a refresh) or it goes away.
func (e *Engine) forgetFlowState(oid catalog.OID) {
	e.flows.mu.Lock()
	defer e.flows.mu.Unlock()
	if c, ok := e.flows.states[oid]; ok {
		c.Clear()
		delete(e.flows.states, oid)
	}
}

// compiledFlow is a flow compiled for one catalog snapshot: the executor's
// part, how source rows become events, and what its target's rows must meet
// (nil: no NOT NULL or CHECK constraint).
type compiledFlow struct {
	flow *cdcexec.Flow
	// snap reads a snapshot flow's snapshots (nil: a change-event flow).
	snap    *snapshotFlow
	extract extractFunc
	target  *rowConstraints
}

// extractFunc reads one source row (a stored tuple) as a change event,
// evaluating the flow's expressions in env (its x set, its row the
// extract's to set) and cutting the event's value slices from *slab, which
// it refills when short: a batch's events share a few allocations.
type extractFunc func(env *eval.Env, src []types.Value, slab *[]types.Value) (cdcexec.Event, error)

func (pc *planCtx) compileFlowStatement(stmt ast.Statement) (*compiled, error) {
	switch st := stmt.(type) {
	case *ast.CreateFlow:
		return &compiled{access: accessWrite, run: createFlowStatement{st}}, nil
	case *ast.RefreshStreamingTable:
		return &compiled{access: accessWrite, run: refreshStreamingTableStatement{st}}, nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "statement %T is not supported", stmt)
}

// createStreamingTable runs CREATE [OR REFRESH] STREAMING TABLE.
func (x *execCtx) createStreamingTable(st *ast.CreateTable) (string, error) {
	pc := x.planCtx()
	schema, err := pc.creationSchema(st.Name)
	if err != nil {
		return "", err
	}
	if err := x.requireCreateIn(schema); err != nil {
		return "", err
	}
	name := truncateIdent(st.Name.Name())
	if existing, ok := pc.cat.Table(schema.OID, name); ok {
		if existing.Kind == catalog.KindStreaming && (st.OrRefresh || st.IfNotExists) {
			return "CREATE STREAMING TABLE", nil
		}
		return "", pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", name)
	}
	if st.AsQuery != nil {
		return "", pgerror.New(pgerror.FeatureNotSupported, "CREATE STREAMING TABLE ... AS query is not supported; define an AUTO CDC flow into the table instead")
	}
	t, err := x.buildTable(pc, st, schema, name, catalog.KindStreaming)
	if err != nil {
		return "", err
	}
	t.SchemaFromFlow = len(st.Columns) == 0
	if len(t.PrimaryKey) > 0 || len(t.Indexes) > 0 {
		return "", pgerror.New(pgerror.FeatureNotSupported, "a streaming table takes its keys from its flow; declare no PRIMARY KEY or UNIQUE constraint")
	}
	return "CREATE STREAMING TABLE", x.storeNewTable(t)
}

// flowDefinition is a CREATE FLOW bound against its source.
type flowDefinition struct {
	st       *ast.CreateFlow
	source   *catalog.Table
	target   *catalog.Table
	storedAs catalog.StoredAs
	// data columns of the target, as source columns
	data    []catalog.Column
	keys    []int // positions in data
	seqT    types.T
	sysSeqT types.T
	extract extractFunc
	rules   temporal.Rules
	notices []string
	// snap describes a flow FROM SNAPSHOT (nil for change events); reads
	// lists the tables and views its queries read.
	snap  *snapshotFlow
	reads []catalog.OID
	// feedStart is a change feed flow's start (stream(cdcdb.table_changes('t', start))).
	feedStart changeBound
}

// targetColumns lists the target's columns for a flow: the data columns,
// then the period columns of its form.
func (d *flowDefinition) targetColumns() []catalog.Column {
	var out []catalog.Column
	for i, c := range d.data {
		out = append(out, catalog.Column{Name: c.Name, Type: c.Type, Attnum: int16(i + 1)})
	}
	add := func(name string, t types.T) {
		out = append(out, catalog.Column{Name: name, Type: t, Attnum: int16(len(out) + 1)})
	}
	if d.storedAs != catalog.SCD1 {
		add(colStartAt, d.seqT)
		add(colEndAt, d.seqT)
	}
	if d.storedAs == catalog.Bitemporal {
		add(colSystemStartAt, d.sysSeqT)
		add(colSystemEndAt, d.sysSeqT)
	}
	return out
}

// createFlow runs CREATE FLOW: it checks the definition, gives a
// column-less target its columns, records the flow and applies the rows the
// source already holds.
func (x *execCtx) createFlow(st *ast.CreateFlow) error {
	pc := x.planCtx()
	d, err := pc.bindFlow(st)
	if err != nil {
		return err
	}
	// A flow is applied by whichever session writes its source, so its
	// tables must be everyone's.
	if d.source != nil && isTempTable(pc.cat, d.source) {
		return pgerror.New(pgerror.FeatureNotSupported, "AUTO CDC flows cannot read temporary tables").WithPosition(st.Source.Pos + 1)
	}
	for _, r := range d.reads {
		if t, ok := pc.cat.TableByOID(r); ok && isTempTable(pc.cat, t) {
			return pgerror.New(pgerror.FeatureNotSupported, "AUTO CDC flows cannot read temporary tables").WithPosition(st.Source.Pos + 1)
		}
	}
	if isTempTable(pc.cat, d.target) {
		return pgerror.New(pgerror.FeatureNotSupported, "AUTO CDC flows cannot write temporary tables").WithPosition(st.Target.Pos + 1)
	}
	for _, n := range d.notices {
		x.notice("%s", n)
	}
	schema, err := pc.creationSchema(ast.QualifiedName{Parts: flowSchemaParts(st), Pos: st.Pos})
	if err != nil {
		return err
	}
	if err := x.requireCreateIn(schema); err != nil {
		return err
	}
	if err := x.checkFlowRights(d); err != nil {
		return err
	}
	name := st.Name
	if name == "" {
		name = d.target.Name
	}
	// Checked here, not in bindFlow, which also recompiles existing flows:
	// a source that got such a key before the check existed keeps feeding
	// its flow, and the action itself is refused when it would run.
	if d.source != nil && d.snap == nil {
		if err := refuseFlowOverWritingForeignKey(name, d.source, "read"); err != nil {
			return err.WithPosition(st.Source.Pos + 1)
		}
	}
	if err := refuseFlowOverWritingForeignKey(name, d.target, "write"); err != nil {
		return err.WithPosition(st.Target.Pos + 1)
	}
	if _, exists := pc.cat.Flow(schema.OID, name); exists {
		return pgerror.New(pgerror.DuplicateObject, "flow \"%s\" already exists", name)
	}
	if others := pc.cat.FlowsInto(d.target.OID); len(others) > 0 {
		return pgerror.New(pgerror.FeatureNotSupported, "streaming table \"%s\" already has flow \"%s\"", d.target.Name, others[0].Name).
			WithHint("cdcdb applies one AUTO CDC flow per target; drop the other flow or write to another streaming table.")
	}
	want := d.targetColumns()
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	tgt := d.target.Clone()
	if tgt.SchemaFromFlow {
		tgt.Columns = want
		tgt.NextAttnum = int16(len(want) + 1)
		tgt.SchemaFromFlow = false
	} else if err := matchTargetColumns(tgt, want, name); err != nil {
		return err
	}
	tgt.StoredAs = d.storedAs
	tgt.KeyColumns = nil
	for _, k := range d.keys {
		c, _ := tgt.Column(d.data[k].Name)
		tgt.KeyColumns = append(tgt.KeyColumns, c.Attnum)
	}
	if err := ed.PutTable(tgt); err != nil {
		return err
	}
	oid, err := ed.NewOID()
	if err != nil {
		return err
	}
	seqText := ""
	for i, e := range st.SequenceBy {
		if i > 0 {
			seqText += ", "
		}
		seqText += deparseExpr(e)
	}
	if st.SequenceIsStruct {
		seqText = "STRUCT(" + seqText + ")"
	}
	f := &catalog.Flow{OID: oid, Schema: schema.OID, Name: name, Target: tgt.OID, Owner: x.sess.currentRoleOID(x.tx.catalog()),
		Definition: st.Text, Dialect: x.sess.dialect().String(), StoredAs: d.storedAs, Keys: st.Keys,
		SequenceBy: seqText, Once: st.Once, Comment: st.Comment, CreatedAt: x.now.UnixMicro()}
	if d.snap != nil {
		f.Kind, f.Versioning, f.TriggerOnUpdate, f.Reads = catalog.FlowSnapshot, d.snap.versioning, st.TriggerOnUpdate, d.reads
		if st.SnapshotQuery == nil {
			// The named relation, a table or a view: compileFlow finds it
			// by OID.
			src, _, err := pc.lookupTable(st.Source)
			if err != nil {
				return err
			}
			f.Source = src.OID
		}
		switch d.snap.versioning {
		case catalog.VersionByColumn:
			f.SequenceBy = deparseExpr(st.VersionBy)
		default:
			f.SequenceBy = string(d.snap.versioning)
		}
	} else {
		f.Source = d.source.OID
		if st.Feed != nil {
			f.Kind = catalog.FlowChangeFeed
			if f.FeedStart, err = x.feedFlowStart(d, name); err != nil {
				return err
			}
		}
	}
	if err := ed.PutFlow(f); err != nil {
		return err
	}
	compiled, err := x.sess.engine.compileFlow(x, f, ed.Snapshot())
	if err != nil {
		return err
	}
	if err := cdcexec.Prepare(x.tx.st, compiled.flow); err != nil {
		return err
	}
	if compiled.snap != nil {
		return x.takeSnapshots(compiled, f)
	}
	if f.Kind == catalog.FlowChangeFeed {
		return x.backfillFeed(compiled, f, d.source)
	}
	return x.backfill(compiled, f, d.source)
}

func flowSchemaParts(st *ast.CreateFlow) []string {
	if len(st.Target.Parts) >= 2 {
		return append(append([]string(nil), st.Target.Parts[:len(st.Target.Parts)-1]...), "flow")
	}
	return []string{"flow"}
}

// matchTargetColumns checks a declared streaming table against a flow.
func matchTargetColumns(t *catalog.Table, want []catalog.Column, flow string) error {
	have := t.LiveColumns()
	mismatch := func(detail string, args ...any) error {
		return pgerror.New(pgerror.InvalidTableDefinition, "streaming table \"%s\" does not match flow \"%s\"", t.Name, flow).WithDetail(detail, args...)
	}
	if len(have) != len(want) {
		names := make([]string, len(want))
		for i, c := range want {
			names[i] = c.Name + " " + eval.TypeName(c.Type)
		}
		return mismatch("The flow writes %d columns (%s); the table has %d.", len(want), strings.Join(names, ", "), len(have))
	}
	for i := range want {
		if have[i].Name != want[i].Name {
			return mismatch("Column %d is \"%s\" in the table but \"%s\" in the flow.", i+1, have[i].Name, want[i].Name)
		}
		if have[i].Type.OID != want[i].Type.OID {
			return mismatch("Column \"%s\" is %s in the table but %s in the flow.", want[i].Name, eval.TypeName(have[i].Type), eval.TypeName(want[i].Type))
		}
	}
	return nil
}

// compileFlow builds the executor's form of a flow for one catalog.
func (e *Engine) compileFlow(x *execCtx, f *catalog.Flow, cat *catalog.Snapshot) (*compiledFlow, error) {
	if c := e.cachedFlow(f.OID, cat); c != nil {
		return c, nil
	}
	// Checked once per catalog: a GRANT or REVOKE makes a new one.
	if err := flowOwnerMayApply(cat, f); err != nil {
		return nil, err
	}
	// A flow recorded before its dialect was is PostgreSQL's.
	dialect, _ := parse.DialectNamed(f.Dialect)
	stmts, err := parse.ParseWithOptions(f.Definition, parse.Options{Dialect: dialect})
	if err != nil || len(stmts) != 1 {
		return nil, pgerror.New(pgerror.DataCorrupted, "definition of flow \"%s\" is unreadable: %v", f.Name, err)
	}
	st, ok := stmts[0].(*ast.CreateFlow)
	if !ok {
		return nil, pgerror.New(pgerror.DataCorrupted, "definition of flow \"%s\" is not a CREATE FLOW", f.Name)
	}
	// Resolve source and target by OID: the names in the text may have
	// been renamed since.
	src, ok1 := cat.TableByOID(f.Source)
	tgt, ok2 := cat.TableByOID(f.Target)
	if f.Kind == catalog.FlowSnapshot && st.SnapshotQuery != nil {
		ok1 = true // a snapshot query's tables are found by name
	}
	if !ok1 || !ok2 {
		return nil, pgerror.New(pgerror.DataCorrupted, "flow \"%s\" lost its source or target", f.Name)
	}
	pc := &planCtx{sess: x.sess, cat: cat, params: &paramSlots{}}
	st2 := *st
	if src != nil {
		st2.Source = qualifiedNameOf(cat, src)
	}
	st2.Target = qualifiedNameOf(cat, tgt)
	d, err := pc.bindFlow(&st2)
	if err != nil {
		return nil, err
	}
	cf := &cdcexec.Flow{OID: f.OID, Name: f.Name, StoredAs: d.storedAs, Target: tgt, Rules: d.rules,
		KeyPositions: d.keys, KeyNames: f.Keys, SeqType: d.seqT, SysSeqType: d.sysSeqT,
		FastPathsOff: e.opts.FastPathsOff.Flows}
	for _, c := range d.data {
		tc, ok := tgt.Column(c.Name)
		if !ok {
			return nil, pgerror.New(pgerror.DataCorrupted, "target of flow \"%s\" lost column \"%s\"", f.Name, c.Name)
		}
		cf.DataAttnums = append(cf.DataAttnums, tc.Attnum)
	}
	attnum := func(name string) int16 {
		if c, ok := tgt.Column(name); ok {
			return c.Attnum
		}
		return 0
	}
	if d.storedAs != catalog.SCD1 {
		cf.StartAttnum, cf.EndAttnum = attnum(colStartAt), attnum(colEndAt)
	}
	if d.storedAs == catalog.Bitemporal {
		cf.SysStartAttnum, cf.SysEndAttnum = attnum(colSystemStartAt), attnum(colSystemEndAt)
	}
	seqT := d.seqT
	cf.FormatSeq = func(seq []types.Value) string {
		parts := make([]string, len(seq))
		for i, v := range seq {
			if v == nil {
				parts[i] = "NULL"
				continue
			}
			t := seqT
			if len(seq) > 1 {
				t = types.Of(types.Unknown)
			}
			parts[i] = formatAny(t, v)
		}
		if len(parts) == 1 {
			return parts[0]
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	compiled := &compiledFlow{flow: cf, snap: d.snap}
	if d.snap == nil {
		compiled.extract = fitToTarget(d, tgt, d.extract)
	} else {
		for i, c := range d.data {
			if tc, ok := tgt.Column(c.Name); ok && tc.Type.Typmod >= 0 && tc.Type.OID != types.Record {
				d.snap.fits = append(d.snap.fits, typmodFit{pos: i, t: tc.Type})
			}
		}
	}
	rc, err := pc.rowConstraintsOf(tgt)
	if err != nil {
		return nil, err
	}
	if !rc.none() {
		compiled.target = rc
	}
	e.flows.mu.Lock()
	if e.flows.snap != cat || e.flows.gen != cat.Generation() {
		e.flows.snap, e.flows.gen = cat, cat.Generation()
		e.flows.flows = map[catalog.OID]*compiledFlow{}
	}
	e.flows.flows[f.OID] = compiled
	e.flows.mu.Unlock()
	return compiled, nil
}

// fitToTarget makes extract's events carry their target's column values:
// the modifiers of the target's columns (a streaming table declared with
// numeric(10,2), varchar(20), timestamp(0), ...) apply to an event's KEYS
// and data values and to the sequence values its period columns will hold,
// as they apply to any row written to a table (see fitColumns). They apply
// when the event is made, before the flow compares or stores anything, so
// the flow's log, its change detection (SCD TYPE 2's new versions) and its
// keys all see the values the target holds. A target whose columns carry no
// modifier beyond its source's keeps extract as it is.
func fitToTarget(d *flowDefinition, tgt *catalog.Table, extract extractFunc) extractFunc {
	type fit struct {
		pos int
		t   types.T
	}
	modifier := func(name string) (types.T, bool) {
		c, ok := tgt.Column(name)
		if !ok || c.Type.Typmod < 0 || c.Type.OID == types.Record {
			return types.T{}, false
		}
		return c.Type, true
	}
	var data, keys []fit
	for i, c := range d.data {
		if t, ok := modifier(c.Name); ok {
			data = append(data, fit{i, t})
		}
	}
	for i, p := range d.keys {
		if t, ok := modifier(d.data[p].Name); ok {
			keys = append(keys, fit{i, t})
		}
	}
	var seq, sysSeq []fit
	if d.storedAs != catalog.SCD1 && d.seqT.OID != types.Record {
		if t, ok := modifier(colStartAt); ok {
			seq = append(seq, fit{0, t})
		}
	}
	if d.storedAs == catalog.Bitemporal && d.sysSeqT.OID != types.Record {
		if t, ok := modifier(colSystemStartAt); ok {
			sysSeq = append(sysSeq, fit{0, t})
		}
	}
	if len(data)+len(seq)+len(sysSeq) == 0 {
		return extract
	}
	apply := func(vals []types.Value, fits []fit) error {
		for _, f := range fits {
			if f.pos >= len(vals) || vals[f.pos] == nil {
				continue
			}
			v, err := types.ApplyTypmod(vals[f.pos], f.t, false)
			if err != nil {
				return err
			}
			vals[f.pos] = v
		}
		return nil
	}
	return func(env *eval.Env, src []types.Value, slab *[]types.Value) (cdcexec.Event, error) {
		ev, err := extract(env, src, slab)
		if err != nil {
			return ev, err
		}
		// The event's slices are its own (cut from the slab), not the
		// source row's, so fitting them in place changes nothing stored.
		if err := apply(ev.Key, keys); err != nil {
			return ev, err
		}
		if err := apply(ev.Values, data); err != nil {
			return ev, err
		}
		if err := apply(ev.Seq, seq); err != nil {
			return ev, err
		}
		return ev, apply(ev.SysSeq, sysSeq)
	}
}

// cachedFlow returns a flow compiled for this catalog version (nil: none).
func (e *Engine) cachedFlow(oid catalog.OID, cat *catalog.Snapshot) *compiledFlow {
	e.flows.mu.Lock()
	defer e.flows.mu.Unlock()
	if e.flows.snap != cat || e.flows.gen != cat.Generation() {
		return nil
	}
	return e.flows.flows[oid]
}

func qualifiedNameOf(cat *catalog.Snapshot, t *catalog.Table) ast.QualifiedName {
	sc, _ := cat.SchemaByOID(t.Schema)
	return ast.QualifiedName{Parts: []string{sc.Name, t.Name}}
}

// applyFlows applies rows just written to a source table to every flow that
// reads it, in the same storage transaction.
func (e *Engine) applyFlows(x *execCtx, source *catalog.Table, rows [][]types.Value) error {
	cat := x.tx.catalog()
	for _, f := range cat.FlowsFrom(source.OID) {
		if f.Once || f.Kind == catalog.FlowChangeFeed {
			continue // a feed flow takes the commit's changes (applyFeedFlows)
		}
		if f.Kind == catalog.FlowSnapshot && f.Versioning != catalog.VersionByColumn {
			continue // its snapshots are taken at commit or refresh
		}
		compiled, err := e.compileFlow(x, f, cat)
		if err != nil {
			return err
		}
		if compiled.snap != nil {
			if err := x.noteLabelledRows(compiled, f, rows); err != nil {
				return err
			}
			continue
		}
		if err := x.applyFlow(compiled, f, rows); err != nil {
			return err
		}
	}
	return nil
}

// applyFlow turns a batch of source rows into events, runs them through
// the executor and records the flow's statistics.
func (x *execCtx) applyFlow(compiled *compiledFlow, f *catalog.Flow, rows [][]types.Value) error {
	cf := compiled.flow
	events := make([]cdcexec.Event, len(rows))
	env := &eval.Env{X: x}
	var slab []types.Value
	for i, r := range rows {
		ev, err := compiled.extract(env, r, &slab)
		if err != nil {
			return err
		}
		events[i] = ev
	}
	target, err := x.tx.rows(cf.Target)
	if err != nil {
		return err
	}
	var check cdcexec.RowCheck
	if rc := compiled.target; rc != nil {
		check = func(tuple []types.Value) error { return rc.check(x, tuple) }
	}
	st, err := cdcexec.Apply(x.ctx, x.tx.st, cf, target, events, x.sess.engine.flowState(f.OID), check)
	if err != nil {
		if x.ctx.Err() != nil {
			return cancelError(x.ctx)
		}
		return err
	}
	x.sess.fastPaths.encodedSCD2Keys += int(st.EncodedSCD2Keys)
	x.sess.fastPaths.sharedBatches += int(st.SharedBatches)
	stats := catalog.ReadFlowStats(x.tx.st, f.OID)
	stats.EventsApplied += st.Events
	stats.RowsUpserted += st.RowsUpserted
	stats.RowsDeleted += st.RowsDeleted
	if st.MaxSeq != nil && bytes.Compare(st.MaxSeqKey, stats.LastSequenceKey) > 0 {
		stats.LastSequence = cf.FormatSeq(st.MaxSeq)
		stats.LastSequenceKey = st.MaxSeqKey
	}
	stats.LastAppliedAt = x.sess.engine.storedNow().UnixMicro()
	return catalog.WriteFlowStats(x.tx.st, f.OID, stats)
}

// backfill applies the source's existing rows to a new flow, reporting
// progress on long ones.
func (x *execCtx) backfill(compiled *compiledFlow, f *catalog.Flow, src *catalog.Table) error {
	sp := x.tx.st.Space(catalog.DataSpace(src.OID))
	total := sp.Count()
	if total == 0 {
		return nil
	}
	cur := sp.Cursor()
	var batch [][]types.Value
	done := 0
	const progressEvery = 100000
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		vals, err := decodeTuple(src, v)
		if err != nil {
			return err
		}
		batch = append(batch, vals)
		if len(batch) >= flowBatchSize {
			if err := x.applyFlow(compiled, f, batch); err != nil {
				return err
			}
			done += len(batch)
			if done/progressEvery != (done-len(batch))/progressEvery {
				x.notice("flow \"%s\": applied %d of %d source rows", f.Name, done, total)
			}
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		if err := x.applyFlow(compiled, f, batch); err != nil {
			return err
		}
		done += len(batch)
	}
	if total >= progressEvery {
		x.notice("flow \"%s\": applied all %d source rows", f.Name, done)
	}
	return nil
}

// refreshStreamingTable rebuilds a target from its sources' full history.
func (x *execCtx) refreshStreamingTable(st *ast.RefreshStreamingTable) error {
	pc := x.planCtx()
	t, _, err := pc.lookupTable(st.Name)
	if err != nil {
		return err
	}
	if err := x.checkOwner(t); err != nil {
		return err
	}
	if t.Kind != catalog.KindStreaming {
		return pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a streaming table", t.Name)
	}
	for _, f := range x.tx.catalog().FlowsInto(t.OID) {
		if err := x.refreshFlow(f, st.Full); err != nil {
			return err
		}
	}
	return nil
}

// refreshFlow applies again what a flow's source holds (REFRESH STREAMING
// TABLE, and with full also a source whose initial snapshot starts over):
// it empties the target and the flow's state and replays the source, the
// change feed from the flow's start, or a snapshot; without full, a
// snapshot flow only takes the snapshots now due (spec §7).
func (x *execCtx) refreshFlow(f *catalog.Flow, full bool) error {
	cat := x.tx.catalog()
	compiled, err := x.sess.engine.compileFlow(x, f, cat)
	if err != nil {
		return err
	}
	if compiled.snap != nil && !full {
		if f.Once {
			return nil // ONCE took its one snapshot at creation
		}
		return x.takeSnapshots(compiled, f)
	}
	target, err := x.tx.rows(compiled.flow.Target)
	if err != nil {
		return err
	}
	x.sess.engine.forgetFlowState(f.OID)
	if err := cdcexec.Reset(x.tx.st, compiled.flow, target); err != nil {
		return err
	}
	if err := catalog.WriteFlowStats(x.tx.st, f.OID, catalog.FlowStats{}); err != nil {
		return err
	}
	if compiled.snap != nil {
		return x.takeSnapshots(compiled, f)
	}
	src, _ := cat.TableByOID(f.Source)
	if f.Kind == catalog.FlowChangeFeed {
		if err := checkFeedStart(x, src, f.FeedStart); err != nil {
			return err
		}
		return x.backfillFeed(compiled, f, src)
	}
	return x.backfill(compiled, f, src)
}

// dropFlow runs DROP FLOW.
func (x *execCtx) dropFlow(pc *planCtx, name ast.QualifiedName, st *ast.Drop) error {
	var found *catalog.Flow
	for _, f := range x.tx.catalog().Flows() {
		if f.Name == name.Name() {
			sc, _ := x.tx.catalog().SchemaByOID(f.Schema)
			if name.Schema() == "" || sc.Name == name.Schema() {
				found = f
				break
			}
		}
	}
	if found == nil {
		if st.IfExists {
			x.notice("flow \"%s\" does not exist, skipping", name.Name())
			return nil
		}
		return pgerror.New(pgerror.UndefinedObject, "flow \"%s\" does not exist", name.Name())
	}
	if r, ok := x.sess.sessionRole(x.tx.catalog()); !ok || !r.Superuser && acl.FlowOwner(found) != r.OID {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be owner of flow %s", found.Name)
	}
	return x.removeFlow(found)
}

// removeFlow deletes a flow and its private state; its target keeps the
// rows the flow wrote.
func (x *execCtx) removeFlow(f *catalog.Flow) error {
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	x.sess.engine.forgetFlowState(f.OID)
	if err := cdcexec.Drop(x.tx.st, f.OID); err != nil {
		return err
	}
	return ed.DropFlow(f.OID)
}

// dataPos is the position of column name in a flow's data columns, which
// clause named; a name the flow does not write is 42P10 at the clause.
func (d *flowDefinition) dataPos(name, clause string, clausePos func(string) int) (int, error) {
	for i, c := range d.data {
		if c.Name == name {
			return i, nil
		}
	}
	return 0, pgerror.New(pgerror.InvalidColumnReference, "column \"%s\" named in %s is not a column of the target", name, clause).WithPosition(clausePos(clause))
}

// bindKeys resolves a flow's KEYS to positions in its data columns through
// dataPos, refusing a key named twice.
func bindKeys(keys []string, dataPos func(name, clause string) (int, error), clausePos func(string) int) ([]int, error) {
	seen := map[string]bool{}
	var out []int
	for _, k := range keys {
		if seen[k] {
			return nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" appears twice in KEYS", k).WithPosition(clausePos("KEYS"))
		}
		seen[k] = true
		p, err := dataPos(k, "KEYS")
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
