package sql

import (
	"strings"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/storage"
	"cdcdb/types"
)

// tableWriter writes rows of one table inside a statement: it fills
// defaults, checks constraints, maintains indexes and reports written rows
// to the flows that read the table.
type tableWriter struct {
	table    *catalog.Table
	schema   *catalog.Schema
	defaults map[int16]eval.Expr // by attnum
	// constraints are the table's NOT NULL and CHECK constraints (the
	// zero value: none, as for a table CREATE TABLE AS fills).
	constraints rowConstraints
	// modified are the columns whose type has a modifier, which every
	// value written to them is fitted to (see fitColumns).
	modified []modifiedColumn
	width    int // stored tuple width
	// exprIndexes are the table's unique expression and partial indexes
	// (ddl_exprindex.go).
	exprIndexes []boundExprIndex
	// appended collects the tuples inserted into a flow source, applied to
	// its flows at the end of the statement.
	flowSource bool
	appended   [][]types.Value
	// rows writes the table's versions in the transaction rowsTx; both are
	// per execution (a compiled statement runs many times).
	rows   *history.Table
	rowsTx *txn
	// fk enforces the foreign keys of and into the table (nil: none).
	fk *fkState
	// keyBuf holds the last row id key storageKey made.
	keyBuf []byte
	// spool stores the rows on another goroutine during a COPY into a
	// flow source (sourcespool.go); nil otherwise.
	spool *sourceSpool
	// redo marks a COPY that can be redone from its rows, flowsApplied a
	// statement whose flows took some of its rows already: what writing
	// them ahead asks (copyahead.go).
	redo, flowsApplied bool
}

// reset clears what one execution left behind, before the next begins.
func (w *tableWriter) reset() {
	w.abandonSpool()
	w.rows, w.rowsTx, w.appended = nil, nil, nil
	w.redo, w.flowsApplied = false, false
	if w.fk != nil {
		// A failed execution leaves its pending foreign key checks (and
		// its children's writers) behind; they are not the next one's.
		w.fk.pendingChild, w.fk.pendingParent, w.fk.children = nil, nil, nil
	}
}

// store opens the table's rows at the transaction's commit time.
func (w *tableWriter) store(x *execCtx) (*history.Table, error) {
	if w.rowsTx != x.tx {
		w.rows, w.rowsTx = nil, x.tx
	}
	if w.rows != nil && x.tx.commitTS != 0 && w.rows.Now() != x.tx.commitTS {
		w.rows = nil // a detached transaction learnt its commit time (concurrent.go)
	}
	if w.rows == nil {
		r, err := x.tx.rows(w.table)
		if err != nil {
			return nil, err
		}
		w.rows = r
	}
	return w.rows, nil
}

type boundCheck struct {
	name string
	e    eval.Expr
}

// rowConstraints are the NOT NULL and CHECK constraints every complete
// row of a table must meet, whoever writes it: a statement, or a flow
// writing its target.
type rowConstraints struct {
	table   *catalog.Table
	schema  string  // the table's schema, for the errors' fields
	notNull []int16 // attnums of the NOT NULL columns
	checks  []boundCheck
}

// rowConstraintsOf binds t's NOT NULL and CHECK constraints.
func (pc *planCtx) rowConstraintsOf(t *catalog.Table) (*rowConstraints, error) {
	rc := &rowConstraints{table: t}
	if sc, ok := pc.cat.SchemaByOID(t.Schema); ok {
		rc.schema = sc.Name
	}
	for _, c := range t.LiveColumns() {
		if c.NotNull {
			rc.notNull = append(rc.notNull, c.Attnum)
		}
	}
	if len(t.Constraints) == 0 {
		return rc, nil
	}
	rowScope := newScope(nil)
	rowScope.add(tupleRel(t))
	cb := pc.binder(rowScope)
	for _, con := range t.Constraints {
		if con.Kind != "c" {
			continue
		}
		e, err := parse.ParseExpr(con.Check)
		if err != nil {
			return nil, pgerror.New(pgerror.DataCorrupted, "check constraint \"%s\" is unreadable: %v", con.Name, err)
		}
		x, err := cb.bindCondition(e, "CHECK")
		if err != nil {
			return nil, err
		}
		rc.checks = append(rc.checks, boundCheck{name: con.Name, e: x})
	}
	return rc, nil
}

// none reports whether there is nothing to check.
func (rc *rowConstraints) none() bool { return len(rc.notNull) == 0 && len(rc.checks) == 0 }

func (pc *planCtx) newTableWriter(t *catalog.Table, sc *catalog.Schema) (*tableWriter, error) {
	rc, err := pc.rowConstraintsOf(t)
	if err != nil {
		return nil, err
	}
	w := &tableWriter{table: t, schema: sc, defaults: map[int16]eval.Expr{}, constraints: *rc, width: int(t.NextAttnum - 1), modified: modifiedColumns(t)}
	b := pc.binder(newScope(nil))
	for _, c := range t.LiveColumns() {
		if c.Default == "" || c.Sequence != "" {
			continue
		}
		e, err := parse.ParseExpr(c.Default)
		if err != nil {
			return nil, pgerror.New(pgerror.DataCorrupted, "default of column \"%s\" is unreadable: %v", c.Name, err)
		}
		x, err := b.bind(e)
		if err != nil {
			return nil, err
		}
		if x, err = b.assign(x, c.Type, c.Name); err != nil {
			return nil, err
		}
		w.defaults[c.Attnum] = x
	}
	if w.exprIndexes, err = pc.bindExprIndexes(t); err != nil {
		return nil, err
	}
	w.flowSource = takesRowsAsWritten(pc.cat, t.OID)
	w.fk = pc.foreignKeys(t)
	return w, nil
}

// tupleRel is a scope relation over a stored tuple (positions by attnum),
// for CHECK constraints.
func tupleRel(t *catalog.Table) *scopeRel {
	r := &scopeRel{name: t.Name}
	cols := make([]scopeCol, t.NextAttnum-1)
	for i := range cols {
		cols[i] = scopeCol{name: "", t: types.Of(types.Unknown), hidden: true}
	}
	for _, c := range t.LiveColumns() {
		cols[c.Attnum-1] = scopeCol{name: c.Name, t: c.Type, tableOID: t.OID, attnum: c.Attnum}
	}
	r.cols = cols
	return r
}

// defaultValue evaluates a column's default (NULL when it has none).
func (w *tableWriter) defaultValue(x *execCtx, attnum int16) (types.Value, error) {
	if c := w.table.ColumnByAttnum(attnum); c != nil && c.Sequence != "" {
		return nextSerial(x, w.table, c)
	}
	e, ok := w.defaults[attnum]
	if !ok {
		return nil, nil
	}
	return e.Eval(&eval.Env{X: x})
}

// modifiedColumn is a column whose type carries a modifier: a length
// (varchar(n), char(n)), a precision and scale (numeric(p,s)), a time
// precision (timestamp(p), time(p), interval(p)) or interval fields, or one
// of those on an array's elements.
type modifiedColumn struct {
	attnum int16
	t      types.T
}

// modifiedColumns lists t's live columns whose types carry a modifier.
func modifiedColumns(t *catalog.Table) []modifiedColumn {
	var out []modifiedColumn
	for _, c := range t.LiveColumns() {
		if c.Type.Typmod >= 0 && c.Type.OID != types.Record {
			out = append(out, modifiedColumn{attnum: c.Attnum, t: c.Type})
		}
	}
	return out
}

// fitColumns makes each value of a tuple its column's value, in place:
// numeric(p,s) rounds to s digits and refuses what overflows p (22003),
// varchar(n) and char(n) refuse a longer string unless only spaces go
// (22001) and char(n) pads, times round to their precision, intervals keep
// their fields. This is PostgreSQL's assignment to a column, and the one
// place where a value becomes a column's value: every row a statement stores
// (INSERT, UPDATE, ON CONFLICT, COPY in any format, defaults) and every row
// a flow derives for its target passes here, so no wire format or path can
// store a value its column could not hold. Applying a modifier to a value
// that already fits gives it back unchanged, and costs little.
func fitColumns(cols []modifiedColumn, tuple []types.Value) error {
	for _, c := range cols {
		v := tuple[c.attnum-1]
		if v == nil {
			continue
		}
		v, err := types.ApplyTypmod(v, c.t, false)
		if err != nil {
			return err
		}
		tuple[c.attnum-1] = v
	}
	return nil
}

// check validates a complete tuple against NOT NULL and CHECK constraints.
func (rc *rowConstraints) check(x *execCtx, tuple []types.Value) error {
	for _, attnum := range rc.notNull {
		if tuple[attnum-1] == nil {
			c := rc.table.ColumnByAttnum(attnum)
			e := pgerror.New(pgerror.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", c.Name, rc.table.Name).
				WithDetail("Failing row contains %s.", rc.describeTuple(x, tuple))
			e.Schema, e.Table, e.Column = rc.schema, rc.table.Name, c.Name
			return e
		}
	}
	for _, ck := range rc.checks {
		v, err := ck.e.Eval(&eval.Env{Row: tuple, X: x})
		if err != nil {
			return err
		}
		if v == false {
			e := pgerror.New(pgerror.CheckViolation, "new row for relation \"%s\" violates check constraint \"%s\"", rc.table.Name, ck.name).
				WithDetail("Failing row contains %s.", rc.describeTuple(x, tuple))
			e.Schema, e.Table, e.Constraint = rc.schema, rc.table.Name, ck.name
			return e
		}
	}
	return nil
}

// describeTuple renders a row as PostgreSQL's "Failing row contains (...)".
func (rc *rowConstraints) describeTuple(x *execCtx, tuple []types.Value) string {
	var parts []string
	for _, c := range rc.table.LiveColumns() {
		v := tuple[c.Attnum-1]
		if v == nil {
			parts = append(parts, "null")
		} else {
			parts = append(parts, x.sess.formatValue(x, c.Type, v))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// storageKey computes a tuple's key: its primary key, or a new row number
// (in a buffer the next call reuses).
func (w *tableWriter) storageKey(sp *storage.Space, tuple []types.Value) ([]byte, error) {
	if len(w.table.PrimaryKey) == 0 {
		n, err := sp.NextSequence()
		if err != nil {
			return nil, err
		}
		w.keyBuf = rowcodec.AppendKeyInt(w.keyBuf[:0], int64(n))
		return w.keyBuf, nil
	}
	return primaryKey(w.table, tuple)
}

func primaryKey(t *catalog.Table, tuple []types.Value) ([]byte, error) {
	var key []byte
	var err error
	for _, a := range t.PrimaryKey {
		if key, err = rowcodec.AppendKey(key, tuple[a-1]); err != nil {
			return nil, err
		}
	}
	return key, nil
}

func (w *tableWriter) duplicateKey(x *execCtx, cols []int16, tuple []types.Value, constraint string) error {
	var names, vals []string
	for _, a := range cols {
		c := w.table.ColumnByAttnum(a)
		names = append(names, c.Name)
		v := tuple[a-1]
		if v == nil {
			vals = append(vals, "null")
		} else {
			vals = append(vals, x.sess.formatValue(x, c.Type, v))
		}
	}
	e := pgerror.New(pgerror.UniqueViolation, "duplicate key value violates unique constraint \"%s\"", constraint).
		WithDetail("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))
	e.Table, e.Constraint, e.Schema = w.table.Name, constraint, w.schema.Name
	return e
}

// insert stores a new tuple, fitted to its columns in place (so a
// RETURNING list reading it shows what was stored), and returns its key,
// valid until the next insert. It fails with 23505 if the key exists,
// unless the caller checked for that (ON CONFLICT).
func (w *tableWriter) insert(x *execCtx, tuple []types.Value) ([]byte, error) {
	if err := x.escalateIfMany(); err != nil {
		return nil, err
	}
	if err := fitColumns(w.modified, tuple); err != nil {
		return nil, err
	}
	if err := w.constraints.check(x, tuple); err != nil {
		return nil, err
	}
	rows, err := w.store(x)
	if err != nil {
		return nil, err
	}
	sp := rows.Data()
	key, err := w.storageKey(sp, tuple)
	if err != nil {
		return nil, err
	}
	if len(w.table.PrimaryKey) > 0 {
		if err := w.claimKey(x, sp.Name(), key, w.table.PrimaryKey, tuple, pkIndexName(w.table)); err != nil {
			return nil, err
		}
		if sp.Get(key) != nil {
			return nil, w.duplicateKey(x, w.table.PrimaryKey, tuple, pkIndexName(w.table))
		}
	}
	if err := w.addIndexEntries(x, key, tuple); err != nil {
		return nil, err
	}
	// The key has no current row: a fresh row id, or a primary key just
	// looked up.
	if w.spool != nil {
		w.spool.add(key, tuple)
	} else if err := rows.Insert(key, tuple); err != nil {
		return nil, err
	}
	w.fk.written(nil, tuple)
	if w.flowSource {
		w.appended = append(w.appended, tuple)
		// Apply long statements' events in batches so memory stays flat;
		// within one transaction the batching does not change the result.
		if len(w.appended) >= flowBatchSize {
			if err := w.flushFlows(x); err != nil {
				return nil, err
			}
		}
	}
	return key, nil
}

// replace rewrites the tuple stored under oldKey (UPDATE), fitting tuple to
// its columns in place.
func (w *tableWriter) replace(x *execCtx, oldKey []byte, oldTuple, tuple []types.Value) error {
	if err := x.escalateIfMany(); err != nil {
		return err
	}
	if err := fitColumns(w.modified, tuple); err != nil {
		return err
	}
	if err := w.constraints.check(x, tuple); err != nil {
		return err
	}
	rows, err := w.store(x)
	if err != nil {
		return err
	}
	sp := rows.Data()
	if err := x.rowConflict(sp.Name(), oldKey); err != nil {
		return err
	}
	newKey := oldKey
	if len(w.table.PrimaryKey) > 0 {
		var err error
		if newKey, err = primaryKey(w.table, tuple); err != nil {
			return err
		}
	}
	if err := w.removeIndexEntries(x, oldKey, oldTuple); err != nil {
		return err
	}
	if string(newKey) != string(oldKey) {
		if err := w.claimKey(x, sp.Name(), newKey, w.table.PrimaryKey, tuple, pkIndexName(w.table)); err != nil {
			return err
		}
		if sp.Get(newKey) != nil {
			return w.duplicateKey(x, w.table.PrimaryKey, tuple, pkIndexName(w.table))
		}
		if err := rows.Delete(oldKey); err != nil {
			return err
		}
	}
	if err := w.addIndexEntries(x, newKey, tuple); err != nil {
		return err
	}
	if err := rows.Put(newKey, tuple); err != nil {
		return err
	}
	w.fk.written(oldTuple, tuple)
	return w.fk.parentChanged(x, oldTuple, tuple)
}

// remove deletes the tuple stored under key.
func (w *tableWriter) remove(x *execCtx, key []byte, tuple []types.Value) error {
	if err := x.escalateIfMany(); err != nil {
		return err
	}
	if err := w.removeIndexEntries(x, key, tuple); err != nil {
		return err
	}
	rows, err := w.store(x)
	if err != nil {
		return err
	}
	if err := x.rowConflict(rows.Data().Name(), key); err != nil {
		return err
	}
	if err := rows.Delete(key); err != nil {
		return err
	}
	return w.fk.parentChanged(x, tuple, nil)
}

// indexKey is an index entry's key: the indexed values, then (for a
// non-unique index) the row's storage key to keep entries distinct. ok is
// false for a unique index entry with a NULL, which PostgreSQL does not
// consider equal to anything.
func indexKey(ix *catalog.Index, rowKey []byte, tuple []types.Value) (key []byte, ok bool, err error) {
	for i, a := range ix.Columns {
		v := tuple[a-1]
		if v == nil && ix.Unique {
			return nil, false, nil
		}
		if len(ix.Desc) > i && ix.Desc[i] {
			key, err = rowcodec.AppendKeyDesc(key, v)
		} else {
			key, err = rowcodec.AppendKey(key, v)
		}
		if err != nil {
			return nil, false, err
		}
	}
	if !ix.Unique {
		key = append(key, rowKey...)
	}
	return key, true, nil
}

func (w *tableWriter) addIndexEntries(x *execCtx, rowKey []byte, tuple []types.Value) error {
	for i := range w.table.Indexes {
		ix := &w.table.Indexes[i]
		if ix.Primary {
			continue
		}
		sp := x.tx.st.Space(catalog.IndexSpace(ix.OID))
		if sp == nil {
			return pgerror.New(pgerror.DataCorrupted, "storage for index \"%s\" is missing", ix.Name)
		}
		k, ok, err := indexKey(ix, rowKey, tuple)
		if err != nil {
			return err
		}
		if !ok {
			continue // a NULL in a unique key: not in this index, but in the next
		}
		if ix.Unique {
			if err := w.claimKey(x, sp.Name(), k, ix.Columns, tuple, ix.Name); err != nil {
				return err
			}
			if sp.Get(k) != nil {
				return w.duplicateKey(x, ix.Columns, tuple, ix.Name)
			}
		}
		if err := sp.Put(k, rowKey); err != nil {
			return err
		}
	}
	return w.addExprIndexEntries(x, rowKey, tuple) // ddl_exprindex.go
}

func (w *tableWriter) removeIndexEntries(x *execCtx, rowKey []byte, tuple []types.Value) error {
	for i := range w.table.Indexes {
		ix := &w.table.Indexes[i]
		if ix.Primary {
			continue
		}
		sp := x.tx.st.Space(catalog.IndexSpace(ix.OID))
		if sp == nil {
			continue
		}
		k, ok, err := indexKey(ix, rowKey, tuple)
		if err != nil {
			return err
		}
		if ok {
			if ix.Unique && x.tx.st.Detached() {
				// Held so that an INSERT of the value waits for this
				// transaction's outcome, as in PostgreSQL.
				if _, _, err := x.lockRow(sp.Name(), k); err != nil {
					return err
				}
			}
			if err := sp.Delete(k); err != nil {
				return err
			}
		}
	}
	return w.removeExprIndexEntries(x, tuple) // ddl_exprindex.go
}

// flowBatchSize is how many source rows a statement buffers before applying
// them to the flows that read the table.
const flowBatchSize = 4096

// finish runs the end-of-statement work: applying appended source rows to
// the flows that read the table.
func (w *tableWriter) finish(x *execCtx) error {
	if err := w.fk.endStatement(x); err != nil {
		return err
	}
	if err := w.putRowsAhead(x); err != nil {
		return err
	}
	// The flows take the last rows while the spool, if any, stores them.
	if err := w.flushFlows(x); err != nil {
		return err
	}
	return w.joinSpool(x)
}

// flushFlows applies the source rows buffered so far to the table's flows.
// Long statements call it every flowBatchSize rows; it must not run the
// end-of-statement checks (a foreign key's parent may come later in the
// statement).
func (w *tableWriter) flushFlows(x *execCtx) error {
	if len(w.appended) == 0 {
		return nil
	}
	rows := w.appended
	w.appended = nil
	w.flowsApplied = true
	return x.sess.engine.applyFlows(x, w.table, rows)
}

// refuseDirectWrite rejects INSERT/UPDATE/DELETE that would bypass the
// change-data-capture contract.
func (pc *planCtx) refuseDirectWrite(t *catalog.Table, verb string, pos int) error {
	if t.Kind == catalog.KindStreaming {
		return pgerror.New(pgerror.WrongObjectType, "cannot %s streaming table \"%s\"", verb, t.Name).WithPosition(pos + 1).
			WithHint("A streaming table is written only by its AUTO CDC flows; write change events to the flow's source instead.")
	}
	if t.Kind == catalog.KindView {
		// cdcdb's views are not updatable; PostgreSQL reports the same for
		// the views it cannot update automatically.
		return pgerror.New(pgerror.ObjectNotInPrerequisiteState, "cannot %s view \"%s\"", verb, t.Name).
			WithDetail("Views that do not select from a single table or view are not automatically updatable.")
	}
	if err := refuseSourceTableChange(pc.cat, t, verb); err != nil {
		return err.WithPosition(pos + 1)
	}
	// INSERT and COPY append change events; nothing else may touch a source.
	// (A snapshot flow's table is a copy its loader may empty and refill.)
	if verb != "insert into" && verb != "copy to" {
		if flows := pc.cat.FlowsFromOfKind(t.OID, catalog.FlowChanges); len(flows) > 0 {
			return pgerror.New(pgerror.WrongObjectType, "cannot %s table \"%s\" because flow \"%s\" reads it", verb, t.Name, flows[0].Name).WithPosition(pos + 1).
				WithHint("The source of an AUTO CDC flow is an append-only change log: insert new change events instead.")
		}
	}
	return nil
}

// tableColumnsScope makes a scope exposing a table's live columns in scan
// order (the layout tableScan produces), under the given name.
func tableColumnsScope(parent *scope, t *catalog.Table, name, schema string) *scope {
	sc := newScope(parent)
	r := &scopeRel{name: name, schema: schema, table: t}
	for _, c := range t.LiveColumns() {
		r.cols = append(r.cols, scopeCol{name: c.Name, t: c.Type, tableOID: t.OID, attnum: c.Attnum})
	}
	sc.add(r)
	return sc
}

// targetColumns resolves an INSERT or COPY column list (or every column);
// errors point at the column where positions are given (INSERT).
func targetColumns(t *catalog.Table, names []string, positions []int) ([]catalog.Column, error) {
	if len(names) == 0 {
		return t.LiveColumns(), nil
	}
	seen := map[string]bool{}
	var out []catalog.Column
	for i, n := range names {
		pos := 0
		if i < len(positions) {
			pos = positions[i] + 1
		}
		c, ok := t.Column(n)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", n, t.Name).WithPosition(pos)
		}
		if seen[n] {
			return nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" specified more than once", n).WithPosition(pos)
		}
		seen[n] = true
		out = append(out, *c)
	}
	return out, nil
}

// returningPlan binds a RETURNING list over a table's columns.
type returning struct {
	exprs []eval.Expr
	cols  []outCol
}

func (pc *planCtx) bindReturning(targets []ast.Target, sc *scope) (*returning, error) {
	if len(targets) == 0 {
		return nil, nil
	}
	b := pc.binder(sc)
	r := &returning{}
	for _, t := range targets {
		if t.Star {
			for _, rel := range sc.rels {
				if t.Table != nil && rel.name != t.Table.Name() {
					continue
				}
				for i, c := range rel.cols {
					if c.hidden {
						continue
					}
					r.exprs = append(r.exprs, &eval.ColRef{Idx: rel.offset + i, T: c.t})
					r.cols = append(r.cols, outCol{name: c.name, t: c.t, tableOID: c.tableOID, attnum: c.attnum})
				}
			}
			continue
		}
		x, err := b.bind(t.Expr)
		if err != nil {
			return nil, err
		}
		x = b.resolveUnknown(x)
		name := t.Alias
		if name == "" {
			name = columnName(t.Expr)
		}
		col := outCol{name: name, t: x.Type()}
		if ref, ok := x.(*eval.ColRef); ok && ref.Level == 0 {
			if c := scopeColumnAt(sc, ref.Idx); c != nil {
				col.tableOID, col.attnum = c.tableOID, c.attnum
			}
		}
		r.exprs = append(r.exprs, x)
		r.cols = append(r.cols, col)
	}
	return r, nil
}

func scopeColumnAt(sc *scope, idx int) *scopeCol {
	for _, r := range sc.rels {
		if idx >= r.offset && idx < r.offset+len(r.cols) {
			return &r.cols[idx-r.offset]
		}
	}
	return nil
}

// emit evaluates RETURNING for one row and sends it.
func (r *returning) emit(x *execCtx, out *resultSink, row eval.Row) error {
	if r == nil {
		return nil
	}
	env := &eval.Env{Row: row, X: x}
	vals := make(eval.Row, len(r.exprs))
	for i, e := range r.exprs {
		v, err := e.Eval(env)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	return out.row(x, vals)
}

// scanRow converts a stored tuple to the scan layout (live columns).
func scanRow(t *catalog.Table, tuple []types.Value) eval.Row {
	live := t.LiveColumns()
	row := make(eval.Row, len(live))
	for i, c := range live {
		if int(c.Attnum-1) < len(tuple) {
			row[i] = tuple[c.Attnum-1]
		}
	}
	return row
}

// storedTuple widens a decoded tuple to the table's current width (rows
// written before ADD COLUMN are shorter).
func storedTuple(t *catalog.Table, vals []types.Value) []types.Value {
	w := int(t.NextAttnum - 1)
	if len(vals) >= w {
		return vals
	}
	out := make([]types.Value, w)
	copy(out, vals)
	return out
}

// nextSerial draws the next value of a serial column's sequence.
func nextSerial(x *execCtx, t *catalog.Table, c *catalog.Column) (types.Value, error) {
	name := sequenceSpace(t.OID, c.Attnum)
	sp := x.tx.st.Space(name)
	if sp == nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "sequence of column \"%s\" is missing", c.Name)
	}
	n, err := sp.NextSequence()
	if err != nil {
		return nil, err
	}
	x.tx.noteSequence(name, n)
	v := int64(n)
	if !eval.IntFits(c.Type.OID, v) {
		return nil, pgerror.New("2200H", "nextval: reached maximum value of sequence \"%s\" (%d)", c.Sequence, serialMax(c.Type.OID))
	}
	x.noteSerialDrawn(t, c, v)
	return v, nil
}

// takesRowsAsWritten reports whether a flow takes the rows written to table
// as they are written (applyFlows): an AUTO CDC flow of its change events,
// or a FROM SNAPSHOT flow whose VERSION BY labels them. Other snapshot
// flows read the table when a snapshot is due, and change feed flows read
// its commit's changes.
func takesRowsAsWritten(cat *catalog.Snapshot, table catalog.OID) bool {
	for _, f := range cat.FlowsFrom(table) {
		if f.Kind == catalog.FlowChanges || f.Kind == catalog.FlowSnapshot && f.Versioning == catalog.VersionByColumn {
			return true
		}
	}
	return false
}
