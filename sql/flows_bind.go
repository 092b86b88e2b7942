package sql

import (
	"strings"

	"cdcdb/catalog"
	"cdcdb/cdcexec"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/temporal"
	"cdcdb/types"
)

// bindFlow checks a flow definition against its source and target and
// compiles its expressions, in the order PostgreSQL-style errors are
// expected: the clauses among themselves, the source, the target, the
// target's data columns, the column rules, then the expressions.
func (pc *planCtx) bindFlow(st *ast.CreateFlow) (*flowDefinition, error) {
	if st.Snapshot {
		return pc.bindSnapshotFlow(st)
	}
	d := &flowDefinition{st: st}
	clausePos := flowClausePositions(st)
	var err error
	if d.storedAs, err = checkChangeFlowClauses(st, clausePos); err != nil {
		return nil, err
	}
	src, err := pc.bindChangeFlowSource(st, d, clausePos)
	if err != nil {
		return nil, err
	}
	if err := pc.bindFlowTarget(st, d, src); err != nil {
		return nil, err
	}
	col := func(name string, clause string) (*catalog.Column, error) {
		c, ok := src.Column(name)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" named in %s does not exist in source \"%s\"", name, clause, src.Name).WithPosition(clausePos(clause))
		}
		return c, nil
	}
	columnsToUpdate, err := d.bindDataColumns(st, src, col, clausePos)
	if err != nil {
		return nil, err
	}
	dataPos := func(name, clause string) (int, error) {
		if _, err := col(name, clause); err != nil {
			return 0, err
		}
		return d.dataPos(name, clause, clausePos)
	}
	if err := d.bindColumnRules(st, dataPos, clausePos); err != nil {
		return nil, err
	}
	exprs, err := pc.bindFlowExpressions(st, d, src)
	if err != nil {
		return nil, err
	}
	d.rules.Compare = temporal.Lexicographic(compareValues)
	d.rules.CompareSystem = d.rules.Compare
	d.rules.Equal = func(a, b any) bool { return compareValues(a, b) == 0 }
	d.extract = d.eventExtractor(exprs, columnsToUpdate)
	return d, nil
}

// flowClausePositions gives the 1-based position of a flow's clause, by
// its name as written (KEYS, STORED AS, ...), for errors to point at; the
// statement's own when the clause is absent.
func flowClausePositions(st *ast.CreateFlow) func(clause string) int {
	return func(name string) int {
		if p, ok := st.Clauses[name]; ok {
			return p + 1
		}
		return st.Pos + 1
	}
}

// checkChangeFlowClauses reads STORED AS and refuses what the clauses of
// a change-event flow cannot be together: the required KEYS and SEQUENCE
// BY, and the clauses only one target form takes.
func checkChangeFlowClauses(st *ast.CreateFlow, clausePos func(string) int) (catalog.StoredAs, error) {
	storedAs, known := catalog.StoredAsNamed(st.StoredAs)
	if !known {
		return "", pgerror.New(pgerror.SyntaxError, "unknown STORED AS form \"%s\"", st.StoredAs).WithPosition(clausePos("STORED AS"))
	}
	if len(st.Keys) == 0 {
		return "", pgerror.New(pgerror.SyntaxError, "CREATE FLOW requires a KEYS clause").WithPosition(st.Pos + 1).
			WithHint("Name the columns that identify a row: KEYS (id).")
	}
	if len(st.SequenceBy) == 0 {
		return "", pgerror.New(pgerror.SyntaxError, "CREATE FLOW requires a SEQUENCE BY clause").WithPosition(st.Pos + 1).
			WithHint("Name the column that orders the change events: SEQUENCE BY seq.")
	}
	switch {
	case st.TruncateWhen != nil && storedAs != catalog.SCD1:
		return "", pgerror.New(pgerror.FeatureNotSupported, "APPLY AS TRUNCATE WHEN is only allowed with STORED AS SCD TYPE 1").WithPosition(clausePos("APPLY AS TRUNCATE WHEN"))
	case st.TrackHistory != nil && storedAs == catalog.SCD1:
		return "", pgerror.New(pgerror.FeatureNotSupported, "TRACK HISTORY is not allowed with STORED AS SCD TYPE 1").WithPosition(clausePos("TRACK HISTORY ON")).
			WithHint("SCD TYPE 1 keeps no history; use STORED AS SCD TYPE 2.")
	case st.SystemSequenceBy != nil && storedAs != catalog.Bitemporal:
		return "", pgerror.New(pgerror.FeatureNotSupported, "SYSTEM SEQUENCE BY is only allowed with STORED AS BITEMPORAL").WithPosition(clausePos("SYSTEM SEQUENCE BY"))
	case st.SystemSequenceBy == nil && storedAs == catalog.Bitemporal:
		return "", pgerror.New(pgerror.SyntaxError, "STORED AS BITEMPORAL requires a SYSTEM SEQUENCE BY clause").WithPosition(clausePos("STORED AS"))
	}
	return storedAs, nil
}

// bindChangeFlowSource finds what a change-event flow reads: a table, or
// a table's change feed (stream(cdcdb.table_changes(...))). It sets
// d.source (and d.feedStart) and returns the shape of the rows the flow's
// expressions read: the table's, or the feed's (the table's columns, then
// the feed's own).
func (pc *planCtx) bindChangeFlowSource(st *ast.CreateFlow, d *flowDefinition, clausePos func(string) int) (*catalog.Table, error) {
	if st.Feed != nil {
		feedTable, start, err := pc.bindFeedSource(st)
		if err != nil {
			return nil, err
		}
		d.source, d.feedStart = feedTable, start
		if err := checkFeedSequence(st, clausePos("SEQUENCE BY")); err != nil {
			return nil, err
		}
		return feedShape(feedTable), nil
	}
	found, _, err := pc.lookupTable(st.Source)
	if err != nil {
		return nil, err
	}
	if found.Kind != catalog.KindTable {
		return nil, pgerror.New(pgerror.WrongObjectType, "the source of a flow must be a table; \"%s\" is a %s", found.Name, found.Kind).WithPosition(st.Source.Pos + 1)
	}
	d.source = found
	return found, nil
}

// bindFlowTarget finds the streaming table a flow writes (d.target), and
// refuses a source column named like a period column of a target that
// keeps history.
func (pc *planCtx) bindFlowTarget(st *ast.CreateFlow, d *flowDefinition, src *catalog.Table) error {
	tgt, _, err := pc.lookupTable(st.Target)
	if err != nil {
		if pgerror.CodeOf(err) == pgerror.UndefinedTable {
			return pgerror.As(err).WithHint("Declare the target first: CREATE STREAMING TABLE %s;", st.Target.Name())
		}
		return err
	}
	if tgt.Kind != catalog.KindStreaming {
		return pgerror.New(pgerror.WrongObjectType, "the target of a flow must be a streaming table; \"%s\" is a %s", tgt.Name, tgt.Kind).WithPosition(st.Target.Pos+1).
			WithHint("Declare it with CREATE STREAMING TABLE %s;", tgt.Name)
	}
	d.target = tgt
	if d.storedAs != catalog.SCD1 {
		for _, c := range src.LiveColumns() {
			if isPeriodColumnName(c.Name) {
				return pgerror.New(pgerror.DuplicateColumn, "source column \"%s\" has the name of a period column of the target", c.Name).
					WithHint("Rename the column: %s, %s, %s and %s are reserved for the target's periods.", colStartAt, colEndAt, colSystemStartAt, colSystemEndAt)
			}
		}
	}
	return nil
}

// bindDataColumns chooses the source columns the target gets (d.data):
// COLUMNS list, or COLUMNS * [EXCEPT (...)] (the default), which leaves
// out the COLUMNS TO UPDATE column and a feed's own columns. It returns
// the COLUMNS TO UPDATE column, nil without that clause.
func (d *flowDefinition) bindDataColumns(st *ast.CreateFlow, src *catalog.Table, col func(name, clause string) (*catalog.Column, error), clausePos func(string) int) (columnsToUpdate *catalog.Column, err error) {
	if st.ColumnsToUpdate != "" {
		if columnsToUpdate, err = col(st.ColumnsToUpdate, "COLUMNS TO UPDATE"); err != nil {
			return nil, err
		}
		if columnsToUpdate.Type.OID != types.TextArray && columnsToUpdate.Type.OID != types.VarcharArray {
			return nil, pgerror.New(pgerror.DatatypeMismatch, "COLUMNS TO UPDATE column \"%s\" must be of type text[], not %s", columnsToUpdate.Name, eval.TypeName(columnsToUpdate.Type)).WithPosition(clausePos("COLUMNS TO UPDATE"))
		}
	}
	if st.Columns != nil && !st.Columns.All {
		for _, n := range st.Columns.Columns {
			c, err := col(n, "COLUMNS")
			if err != nil {
				return nil, err
			}
			d.data = append(d.data, *c)
		}
		return columnsToUpdate, nil
	}
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
	return columnsToUpdate, nil
}

// bindColumnRules resolves the clauses that name data columns: KEYS
// (d.keys), IGNORE NULL UPDATES and TRACK HISTORY ON (d.rules).
func (d *flowDefinition) bindColumnRules(st *ast.CreateFlow, dataPos func(name, clause string) (int, error), clausePos func(string) int) error {
	var err error
	if d.keys, err = bindKeys(st.Keys, dataPos, clausePos); err != nil {
		return err
	}
	if d.rules.IgnoreNullUpdates, err = d.columnSet(st.IgnoreNullUpdates, "IGNORE NULL UPDATES", true, dataPos); err != nil {
		return err
	}
	if d.rules.TrackHistory, err = d.columnSet(st.TrackHistory, "TRACK HISTORY ON", false, dataPos); err != nil {
		return err
	}
	d.rules.KeyColumns = temporal.ColumnsAt(d.keys...)
	return nil
}

// columnSet turns a column selection of clause into a set over the data
// columns (nil: no clause). * [EXCEPT (...)] is every column but those
// listed, and with bareMeansNonKeys (IGNORE NULL UPDATES) but the keys
// too.
func (d *flowDefinition) columnSet(sel *ast.ColumnSelection, clause string, bareMeansNonKeys bool, dataPos func(name, clause string) (int, error)) (temporal.ColumnSet, error) {
	if sel == nil {
		return nil, nil
	}
	set := make(temporal.ColumnSet, len(d.data))
	if !sel.All {
		for _, n := range sel.Columns {
			p, err := dataPos(n, clause)
			if err != nil {
				return nil, err
			}
			set[p] = true
		}
		return set, nil
	}
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

// flowExpressions are a change-event flow's expressions, bound over the
// source row (the stored tuple's layout).
type flowExpressions struct {
	seq          []eval.Expr // SEQUENCE BY: one expression, or a STRUCT's fields
	sysSeq       eval.Expr   // SYSTEM SEQUENCE BY (nil: none)
	deleteWhen   eval.Expr   // APPLY AS DELETE WHEN (nil: none)
	truncateWhen eval.Expr   // APPLY AS TRUNCATE WHEN (nil: none)
}

// bindFlowExpressions binds the flow's expressions over src's rows and
// records the sequences' types (d.seqT, d.sysSeqT) and the notices
// binding raised (d.notices).
func (pc *planCtx) bindFlowExpressions(st *ast.CreateFlow, d *flowDefinition, src *catalog.Table) (flowExpressions, error) {
	var out flowExpressions
	sc := newScope(nil)
	sc.add(tupleRel(src))
	fpc := &planCtx{sess: pc.sess, cat: pc.cat, params: &paramSlots{}, flowStrings: true}
	b := fpc.binder(sc)
	for _, e := range st.SequenceBy {
		x, err := bindSequenceValue(b, e)
		if err != nil {
			return out, err
		}
		out.seq = append(out.seq, x)
	}
	if len(out.seq) == 1 && !st.SequenceIsStruct {
		d.seqT = out.seq[0].Type()
	} else {
		d.seqT = types.Of(types.Record)
	}
	var err error
	if st.SystemSequenceBy != nil {
		if out.sysSeq, err = bindSequenceValue(b, st.SystemSequenceBy); err != nil {
			return out, err
		}
		d.sysSeqT = out.sysSeq.Type()
	}
	if st.DeleteWhen != nil {
		if out.deleteWhen, err = b.bindCondition(st.DeleteWhen, "APPLY AS DELETE WHEN"); err != nil {
			return out, err
		}
	}
	if st.TruncateWhen != nil {
		if out.truncateWhen, err = b.bindCondition(st.TruncateWhen, "APPLY AS TRUNCATE WHEN"); err != nil {
			return out, err
		}
	}
	d.notices = fpc.notices
	return out, nil
}

// bindSequenceValue binds a SEQUENCE BY (or SYSTEM SEQUENCE BY) value,
// refusing a type whose values have no order to replay changes in.
func bindSequenceValue(b *binder, e ast.Expr) (eval.Expr, error) {
	x, err := b.bind(e)
	if err != nil {
		return nil, err
	}
	x = b.resolveUnknown(x)
	switch t := x.Type(); t.OID {
	case types.JSON, types.JSONB, types.Xml, types.Unknown, types.Record:
		return nil, pgerror.New(pgerror.DatatypeMismatch, "SEQUENCE BY values of type %s cannot be ordered", eval.TypeName(t)).WithPosition(e.Position() + 1).
			WithHint("Sequence by a number, a timestamp, a date, text, or a STRUCT of those.")
	}
	return x, nil
}

// eventExtractor makes the function that reads one source row as a
// change event: its kind (APPLY AS TRUNCATE WHEN first, then DELETE
// WHEN), its sequence values, its key and data values by the data
// columns' positions in the row, and, under COLUMNS TO UPDATE, the data
// columns the event writes.
func (d *flowDefinition) eventExtractor(exprs flowExpressions, columnsToUpdate *catalog.Column) extractFunc {
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
	seqExprs, sysExpr, deleteWhen, truncateWhen := exprs.seq, exprs.sysSeq, exprs.deleteWhen, exprs.truncateWhen
	// An event's values: its sequence values (and system sequence value),
	// then its key's, then its data values.
	width := len(seqExprs) + 1 + len(keyIdx) + len(dataIdx)
	return func(env *eval.Env, src []types.Value, slab *[]types.Value) (cdcexec.Event, error) {
		env.Row = src
		ev := cdcexec.Event{Kind: cdcexec.Upsert}
		if truncateWhen != nil {
			v, err := truncateWhen.Eval(env)
			if err != nil {
				return ev, err
			}
			if v == true {
				ev.Kind = cdcexec.Truncate
			}
		}
		if ev.Kind == cdcexec.Upsert && deleteWhen != nil {
			v, err := deleteWhen.Eval(env)
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
			v, err := e.Eval(env)
			if err != nil {
				return ev, err
			}
			seqs[i] = v
		}
		ev.Seq = seqs[:len(seqExprs):len(seqExprs)]
		if sysExpr != nil {
			v, err := sysExpr.Eval(env)
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
}
