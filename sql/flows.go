package sql

import (
	"bytes"
	"strings"
	"sync"

	"cdcdb/catalog"
	"cdcdb/cdcexec"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
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
type extractFunc func(env *evalEnv, src []types.Value, slab *[]types.Value) (cdcexec.Event, error)

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

// bindFlow checks a flow definition against its source and target and
// compiles its expressions.
func (pc *planCtx) bindFlow(st *ast.CreateFlow, checkOnly bool) (*flowDefinition, error) {
	if st.Snapshot {
		return pc.bindSnapshotFlow(st)
	}
	d := &flowDefinition{st: st}
	clausePos := func(name string) int {
		if p, ok := st.Clauses[name]; ok {
			return p + 1
		}
		return st.Pos + 1
	}
	var known bool
	if d.storedAs, known = catalog.StoredAsNamed(st.StoredAs); !known {
		return nil, pgerror.New(pgerror.SyntaxError, "unknown STORED AS form \"%s\"", st.StoredAs).WithPosition(clausePos("STORED AS"))
	}
	if len(st.Keys) == 0 {
		return nil, pgerror.New(pgerror.SyntaxError, "CREATE FLOW requires a KEYS clause").WithPosition(st.Pos + 1).
			WithHint("Name the columns that identify a row: KEYS (id).")
	}
	if len(st.SequenceBy) == 0 {
		return nil, pgerror.New(pgerror.SyntaxError, "CREATE FLOW requires a SEQUENCE BY clause").WithPosition(st.Pos + 1).
			WithHint("Name the column that orders the change events: SEQUENCE BY seq.")
	}
	if st.TruncateWhen != nil && d.storedAs != catalog.SCD1 {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "APPLY AS TRUNCATE WHEN is only allowed with STORED AS SCD TYPE 1").WithPosition(clausePos("APPLY AS TRUNCATE WHEN"))
	}
	if st.TrackHistory != nil && d.storedAs == catalog.SCD1 {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "TRACK HISTORY is not allowed with STORED AS SCD TYPE 1").WithPosition(clausePos("TRACK HISTORY ON")).
			WithHint("SCD TYPE 1 keeps no history; use STORED AS SCD TYPE 2.")
	}
	if st.SystemSequenceBy != nil && d.storedAs != catalog.Bitemporal {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "SYSTEM SEQUENCE BY is only allowed with STORED AS BITEMPORAL").WithPosition(clausePos("SYSTEM SEQUENCE BY"))
	}
	if st.SystemSequenceBy == nil && d.storedAs == catalog.Bitemporal {
		return nil, pgerror.New(pgerror.SyntaxError, "STORED AS BITEMPORAL requires a SYSTEM SEQUENCE BY clause").WithPosition(clausePos("STORED AS"))
	}
	var src *catalog.Table
	if st.Feed != nil {
		feedTable, start, err := pc.bindFeedSource(st)
		if err != nil {
			return nil, err
		}
		d.source, d.feedStart = feedTable, start
		// The flow's expressions read the feed's rows: the table's
		// columns, then the feed's own.
		src = feedShape(feedTable)
		if err := checkFeedSequence(st, clausePos("SEQUENCE BY")); err != nil {
			return nil, err
		}
	} else {
		found, _, err := pc.lookupTable(st.Source)
		if err != nil {
			return nil, err
		}
		if found.Kind != catalog.KindTable {
			return nil, pgerror.New(pgerror.WrongObjectType, "the source of a flow must be a table; \"%s\" is a %s", found.Name, found.Kind).WithPosition(st.Source.Pos + 1)
		}
		src, d.source = found, found
	}
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
	d.target = tgt
	if d.storedAs != catalog.SCD1 {
		for _, c := range src.LiveColumns() {
			if isPeriodColumnName(c.Name) {
				return nil, pgerror.New(pgerror.DuplicateColumn, "source column \"%s\" has the name of a period column of the target", c.Name).
					WithHint("Rename the column: %s, %s, %s and %s are reserved for the target's periods.", colStartAt, colEndAt, colSystemStartAt, colSystemEndAt)
			}
		}
	}
	col := func(name string, clause string) (*catalog.Column, error) {
		c, ok := src.Column(name)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" named in %s does not exist in source \"%s\"", name, clause, src.Name).WithPosition(clausePos(clause))
		}
		return c, nil
	}
	// Target data columns.
	var columnsToUpdate *catalog.Column
	if st.ColumnsToUpdate != "" {
		if columnsToUpdate, err = col(st.ColumnsToUpdate, "COLUMNS TO UPDATE"); err != nil {
			return nil, err
		}
		if columnsToUpdate.Type.OID != types.TextArray && columnsToUpdate.Type.OID != types.VarcharArray {
			return nil, pgerror.New(pgerror.DatatypeMismatch, "COLUMNS TO UPDATE column \"%s\" must be of type text[], not %s", columnsToUpdate.Name, typeName(columnsToUpdate.Type)).WithPosition(clausePos("COLUMNS TO UPDATE"))
		}
	}
	if st.Columns == nil || st.Columns.All {
		except := map[string]bool{}
		if st.Columns != nil {
			for _, n := range st.Columns.Columns {
				if _, err := col(n, "COLUMNS"); err != nil {
					return nil, err
				}
				except[n] = true
			}
		}
		for _, c := range src.LiveColumns() {
			if st.Feed != nil && isFeedColumn(c.Name) {
				continue // COLUMNS * is the table's columns, not the feed's
			}
			if !except[c.Name] && (columnsToUpdate == nil || c.Name != columnsToUpdate.Name) {
				d.data = append(d.data, c)
			}
		}
	} else {
		for _, n := range st.Columns.Columns {
			c, err := col(n, "COLUMNS")
			if err != nil {
				return nil, err
			}
			d.data = append(d.data, *c)
		}
	}
	dataPos := func(name, clause string) (int, error) {
		if _, err := col(name, clause); err != nil {
			return 0, err
		}
		return d.dataPos(name, clause, clausePos)
	}
	if d.keys, err = bindKeys(st.Keys, dataPos, clausePos); err != nil {
		return nil, err
	}
	columnSet := func(sel *ast.ColumnSelection, clause string, bareMeansNonKeys bool) (temporal.ColumnSet, error) {
		if sel == nil {
			return nil, nil
		}
		set := make(temporal.ColumnSet, len(d.data))
		if sel.All {
			for i := range set {
				set[i] = true
			}
			if bareMeansNonKeys {
				for _, k := range d.keys {
					set[k] = false
				}
			}
			for _, n := range sel.Columns {
				p, err := dataPos(n, clause)
				if err != nil {
					return nil, err
				}
				set[p] = false
			}
			return set, nil
		}
		for _, n := range sel.Columns {
			p, err := dataPos(n, clause)
			if err != nil {
				return nil, err
			}
			set[p] = true
		}
		return set, nil
	}
	if d.rules.IgnoreNullUpdates, err = columnSet(st.IgnoreNullUpdates, "IGNORE NULL UPDATES", true); err != nil {
		return nil, err
	}
	if d.rules.TrackHistory, err = columnSet(st.TrackHistory, "TRACK HISTORY ON", false); err != nil {
		return nil, err
	}
	d.rules.KeyColumns = temporal.ColumnsAt(d.keys...)

	// Expressions over the source row (stored tuple layout).
	sc := newScope(nil)
	sc.add(tupleRel(src))
	fpc := &planCtx{sess: pc.sess, cat: pc.cat, params: &paramSlots{}, flowStrings: true}
	b := fpc.binder(sc)
	orderable := func(t types.T, e ast.Expr) error {
		switch t.OID {
		case types.JSON, types.JSONB, types.Xml, types.Unknown, types.Record:
			return pgerror.New(pgerror.DatatypeMismatch, "SEQUENCE BY values of type %s cannot be ordered", typeName(t)).WithPosition(e.Position() + 1).
				WithHint("Sequence by a number, a timestamp, a date, text, or a STRUCT of those.")
		}
		return nil
	}
	var seqExprs []expr
	for _, e := range st.SequenceBy {
		x, err := b.bind(e)
		if err != nil {
			return nil, err
		}
		x = b.resolveUnknown(x)
		if err := orderable(x.typ(), e); err != nil {
			return nil, err
		}
		seqExprs = append(seqExprs, x)
	}
	if len(seqExprs) == 1 && !st.SequenceIsStruct {
		d.seqT = seqExprs[0].typ()
	} else {
		d.seqT = types.Of(types.Record)
	}
	var sysExpr expr
	if st.SystemSequenceBy != nil {
		if sysExpr, err = b.bind(st.SystemSequenceBy); err != nil {
			return nil, err
		}
		sysExpr = b.resolveUnknown(sysExpr)
		if err := orderable(sysExpr.typ(), st.SystemSequenceBy); err != nil {
			return nil, err
		}
		d.sysSeqT = sysExpr.typ()
	}
	var deleteWhen, truncateWhen expr
	if st.DeleteWhen != nil {
		if deleteWhen, err = b.bindCondition(st.DeleteWhen, "APPLY AS DELETE WHEN"); err != nil {
			return nil, err
		}
	}
	if st.TruncateWhen != nil {
		if truncateWhen, err = b.bindCondition(st.TruncateWhen, "APPLY AS TRUNCATE WHEN"); err != nil {
			return nil, err
		}
	}
	d.notices = fpc.notices
	d.rules.Compare = temporal.Lexicographic(compareValues)
	d.rules.CompareSystem = d.rules.Compare
	d.rules.Equal = func(a, b any) bool { return compareValues(a, b) == 0 }

	dataIdx := make([]int, len(d.data))
	for i, c := range d.data {
		dataIdx[i] = int(c.Attnum - 1)
	}
	keyIdx := make([]int, len(d.keys))
	for i, k := range d.keys {
		keyIdx[i] = dataIdx[k]
	}
	dataNames := map[string]int{}
	for i, c := range d.data {
		dataNames[c.Name] = i
	}
	ctuIdx := -1
	if columnsToUpdate != nil {
		ctuIdx = int(columnsToUpdate.Attnum - 1)
	}
	// An event's values: its sequence values (and system sequence value),
	// then its key's, then its data values.
	width := len(seqExprs) + 1 + len(keyIdx) + len(dataIdx)
	d.extract = func(env *evalEnv, src []types.Value, slab *[]types.Value) (cdcexec.Event, error) {
		env.row = src
		ev := cdcexec.Event{Kind: cdcexec.Upsert}
		if truncateWhen != nil {
			v, err := truncateWhen.eval(env)
			if err != nil {
				return ev, err
			}
			if v == true {
				ev.Kind = cdcexec.Truncate
			}
		}
		if ev.Kind == cdcexec.Upsert && deleteWhen != nil {
			v, err := deleteWhen.eval(env)
			if err != nil {
				return ev, err
			}
			if v == true {
				ev.Kind = cdcexec.Delete
			}
		}
		if len(*slab) < width {
			*slab = make([]types.Value, width*64)
		}
		vals := (*slab)[:width:width]
		*slab = (*slab)[width:]
		seqs := vals[:len(seqExprs)+1]
		for i, e := range seqExprs {
			v, err := e.eval(env)
			if err != nil {
				return ev, err
			}
			seqs[i] = v
		}
		ev.Seq = seqs[:len(seqExprs):len(seqExprs)]
		if sysExpr != nil {
			v, err := sysExpr.eval(env)
			if err != nil {
				return ev, err
			}
			ev.SysSeq = append(seqs[len(seqExprs):len(seqExprs):len(seqExprs)+1], v)
		}
		row := vals[len(seqExprs)+1:]
		ev.Key = row[:len(keyIdx):len(keyIdx)]
		for i, p := range keyIdx {
			if p < len(src) {
				ev.Key[i] = src[p]
			}
		}
		ev.Values = row[len(keyIdx):]
		for i, p := range dataIdx {
			if p < len(src) {
				ev.Values[i] = src[p]
			}
		}
		if ctuIdx >= 0 && ctuIdx < len(src) && src[ctuIdx] != nil {
			set := make(temporal.ColumnSet, len(dataIdx))
			for _, n := range src[ctuIdx].(types.ArrayValue).Elems {
				name, _ := n.(string)
				p, ok := dataNames[name]
				if !ok {
					p, ok = dataNames[strings.ToLower(name)]
				}
				if !ok {
					return ev, pgerror.New(pgerror.UndefinedColumn, "COLUMNS TO UPDATE names \"%s\", which is not a column of the target", name)
				}
				set[p] = true
			}
			ev.Writes = set
		}
		return ev, nil
	}
	return d, nil
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
	d, err := pc.bindFlow(st, false)
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
			names[i] = c.Name + " " + typeName(c.Type)
		}
		return mismatch("The flow writes %d columns (%s); the table has %d.", len(want), strings.Join(names, ", "), len(have))
	}
	for i := range want {
		if have[i].Name != want[i].Name {
			return mismatch("Column %d is \"%s\" in the table but \"%s\" in the flow.", i+1, have[i].Name, want[i].Name)
		}
		if have[i].Type.OID != want[i].Type.OID {
			return mismatch("Column \"%s\" is %s in the table but %s in the flow.", want[i].Name, typeName(have[i].Type), typeName(want[i].Type))
		}
	}
	return nil
}

// compileFlow builds the executor's form of a flow for one catalog.
func (e *Engine) compileFlow(x *execCtx, f *catalog.Flow, cat *catalog.Snapshot) (*compiledFlow, error) {
	if c := e.cachedFlow(f.OID, cat); c != nil {
		return c, nil
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
	d, err := pc.bindFlow(&st2, false)
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
	return func(env *evalEnv, src []types.Value, slab *[]types.Value) (cdcexec.Event, error) {
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
	env := &evalEnv{x: x}
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
	if r, ok := x.sess.sessionRole(x.tx.catalog()); !ok || !r.Superuser && flowOwner(found) != r.OID {
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
