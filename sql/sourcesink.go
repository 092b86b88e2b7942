package sql

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/source"
	"cdcdb/types"
)

// sourceSink is the source.Sink of one source: it writes each Batch into
// the source's tables, and the Batch's Checkpoint beside them, in one
// storage transaction, through the same table writers as INSERT, so the
// flows that read the tables apply the new rows in that transaction too.
type sourceSink struct {
	e    *Engine
	oid  catalog.OID
	name string
	// sess is the session the writes run in (an internal one, seen in
	// pg_stat_activity as the source's).
	sess *Session
	// final, once set, is what Checkpoint answers: DROP SOURCE sets it to
	// the checkpoint it read, so that the follower's Drop knows which slot
	// to drop.
	final *source.Checkpoint
}

// errSourceDropped stops a follower whose source is gone.
var errSourceDropped = errors.New("the source was dropped")

// Checkpoint implements source.Sink.
func (k *sourceSink) Checkpoint(ctx context.Context) (source.Checkpoint, error) {
	if k.final != nil {
		return *k.final, nil
	}
	tx, err := k.e.beginTxn(ctx, k.sess, false)
	if err != nil {
		return source.Checkpoint{}, err
	}
	defer tx.rollback()
	return k.readCheckpoint(tx)
}

func (k *sourceSink) readCheckpoint(tx *txn) (source.Checkpoint, error) {
	var cp source.Checkpoint
	if _, ok := tx.catalog().SourceByOID(k.oid); !ok {
		return cp, source.Permanent(errSourceDropped)
	}
	b := catalog.ReadSourceCheckpoint(tx.st, k.oid)
	if b == nil {
		return cp, nil
	}
	if err := cp.UnmarshalBinary(b); err != nil {
		return cp, source.Permanent(err)
	}
	return cp, nil
}

// Commit implements source.Sink.
func (k *sourceSink) Commit(ctx context.Context, b *source.Batch) error {
	tx, err := k.e.beginTxn(ctx, k.sess, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	x := internalExecCtx(ctx, k.sess, tx)
	w, err := newBatchWriter(x, k.oid, b)
	if err != nil {
		return err
	}
	if err := w.write(b); err != nil {
		return err
	}
	enc, err := b.Checkpoint.MarshalBinary()
	if err != nil {
		return source.Permanent(err)
	}
	if err := catalog.WriteSourceCheckpoint(tx.st, k.oid, enc); err != nil {
		return err
	}
	return tx.commit()
}

// batchWriter writes one Batch into a source's tables.
type batchWriter struct {
	x   *execCtx
	src *catalog.Source
	// tables are the source's tables by their name in the batch
	// (source.Table.Name), with what the batch's checkpoint says of them.
	tables map[string]*sourceTableState
	// written are the tables this batch appends to, in the order first
	// written: their writers finish (and their flows apply) in that order.
	written []*sourceTableState
}

type sourceTableState struct {
	table    *catalog.Table
	upstream source.Table
	// attnums has, for each upstream column, its column's attnum.
	attnums []int16
	// key has the indexes (in upstream order) of the columns that identify
	// a row: the key columns, or every column of a table without one.
	key    []int
	writer *tableWriter
}

func newBatchWriter(x *execCtx, oid catalog.OID, b *source.Batch) (*batchWriter, error) {
	cat := x.tx.catalog()
	src, ok := cat.SourceByOID(oid)
	if !ok {
		return nil, source.Permanent(errSourceDropped)
	}
	w := &batchWriter{x: x, src: src, tables: map[string]*sourceTableState{}}
	for _, ut := range b.Checkpoint.Tables {
		t, err := w.sourceTable(ut.Upstream)
		if err != nil {
			return nil, err
		}
		w.tables[ut.Name] = &sourceTableState{table: t, upstream: ut}
	}
	return w, nil
}

// sourceTable finds the table an upstream table becomes.
func (w *batchWriter) sourceTable(name source.TableName) (*catalog.Table, error) {
	for _, st := range w.src.Tables {
		if st.UpstreamSchema == name.Schema && st.UpstreamName == name.Name {
			if t, ok := w.x.tx.catalog().TableByOID(st.Table); ok {
				return t, nil
			}
		}
	}
	return nil, source.Permanent(fmt.Errorf("source %s has no table for upstream table %s", w.src.Name, name))
}

func (w *batchWriter) write(b *source.Batch) error {
	if b.Reset {
		if err := w.reset(); err != nil {
			return err
		}
	}
	for _, nt := range b.NewTables {
		if err := w.checkNewTable(nt); err != nil {
			return err
		}
	}
	for _, ac := range b.AddedColumns {
		if err := w.addColumns(ac); err != nil {
			return err
		}
	}
	commitTime := b.CommitTime.UTC().Truncate(time.Microsecond)
	for i := range b.Changes {
		c := &b.Changes[i]
		st, ok := w.tables[c.Table]
		if !ok {
			return source.Permanent(fmt.Errorf("a change of unknown table %q", c.Table))
		}
		if st.writer == nil {
			if err := w.prepare(st); err != nil {
				return err
			}
			w.written = append(w.written, st)
		}
		if c.Op == source.OpTruncate {
			if err := w.truncate(st, c.Seq, commitTime); err != nil {
				return err
			}
			continue
		}
		if err := w.append(st, c, commitTime); err != nil {
			return err
		}
	}
	for _, st := range w.written {
		if err := st.writer.finish(w.x); err != nil {
			return err
		}
	}
	return nil
}

// reset empties the source's tables: a snapshot that did not finish is
// starting over. The flows that read them start over too, from the
// emptied tables (as REFRESH STREAMING TABLE ... FULL), and take the new
// snapshot's rows as they come.
func (w *batchWriter) reset() error {
	cat := w.x.tx.catalog()
	for _, st := range w.src.Tables {
		t, ok := cat.TableByOID(st.Table)
		if !ok {
			continue
		}
		if err := w.x.truncateTable(t); err != nil {
			return err
		}
		for _, f := range cat.FlowsFrom(t.OID) {
			if err := w.x.refreshFlow(f, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkNewTable checks that the table CREATE SOURCE made from upstream's
// description matches the one the snapshot reads.
func (w *batchWriter) checkNewTable(nt source.Table) error {
	t, err := w.sourceTable(nt.Upstream)
	if err != nil {
		return err
	}
	for _, c := range nt.Columns {
		col, ok := t.Column(c.Name)
		if !ok || col.Type != sourceColumnType(c) {
			return source.Permanent(fmt.Errorf("upstream table %s changed between CREATE SOURCE and its snapshot (column %q); drop the source and create it again", nt.Upstream, c.Name))
		}
	}
	return nil
}

// addColumns appends columns added upstream, the rows already there taking
// the value upstream's rows took.
func (w *batchWriter) addColumns(ac source.AddedColumns) error {
	st, ok := w.tables[ac.Table]
	if !ok {
		return source.Permanent(fmt.Errorf("columns added to unknown table %q", ac.Table))
	}
	// A flow is compiled against its source's columns (ALTER TABLE ADD
	// COLUMN is refused under one too). The source waits, retrying, until
	// the flow is dropped; created again, it rebuilds its target.
	if flows := w.x.tx.catalog().FlowsFrom(st.table.OID); len(flows) > 0 {
		return pgerror.New(pgerror.ObjectInUse, "upstream table %s has a new column %q, and flow \"%s\" reads source table \"%s\", whose columns cannot change under it",
			st.upstream.Upstream, ac.Columns[0].Name, flows[0].Name, st.table.Name).
			WithHint("Drop the flow: the source then takes the new column, and the flow, created again, rebuilds its target.")
	}
	t := st.table.Clone()
	var added []catalog.Column
	for _, c := range ac.Columns {
		if _, dup := t.Column(c.Name); dup {
			return source.Permanent(fmt.Errorf("upstream table %s: column %q was added, and the source table has a column of that name", st.upstream.Upstream, c.Name))
		}
		col := catalog.Column{Name: c.Name, Type: sourceColumnType(c), Attnum: t.NextAttnum}
		t.Columns = append(t.Columns, col)
		t.NextAttnum++
		added = append(added, col)
	}
	ed, err := w.x.tx.edit()
	if err != nil {
		return err
	}
	if err := ed.PutTable(t); err != nil {
		return err
	}
	st.table = t
	fill := false
	values := make([]types.Value, len(added))
	for i, v := range ac.ExistingValues {
		if i < len(values) && v.Kind == source.ValueText {
			pv, err := parseSourceValue(added[i].Type, v.Text)
			if err != nil {
				return source.Permanent(fmt.Errorf("upstream table %s column %q: %w", st.upstream.Upstream, added[i].Name, err))
			}
			values[i], fill = pv, true
		}
	}
	if !fill {
		return nil
	}
	// Adding a column does not start a new version of the rows.
	data := w.x.tx.st.Space(catalog.DataSpace(t.OID))
	type update struct{ k, v []byte }
	var updates []update
	cur := data.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		for i, c := range added {
			tuple[c.Attnum-1] = values[i]
		}
		enc, err := history.WithTuple(v, tuple)
		if err != nil {
			return err
		}
		updates = append(updates, update{append([]byte(nil), k...), enc})
	}
	for _, u := range updates {
		if err := data.Put(u.k, u.v); err != nil {
			return err
		}
	}
	return nil
}

// prepare maps a table's upstream columns to its attnums and opens its
// writer, when the batch first writes the table (after its columns were
// added, if any).
func (w *batchWriter) prepare(st *sourceTableState) error {
	st.attnums = st.attnums[:0]
	st.key = st.key[:0]
	for i, c := range st.upstream.Columns {
		col, ok := st.table.Column(c.Name)
		if !ok {
			return source.Permanent(fmt.Errorf("source table %s has no column %q", st.table.Name, c.Name))
		}
		st.attnums = append(st.attnums, col.Attnum)
		if c.Key {
			st.key = append(st.key, i)
		}
	}
	if len(st.key) == 0 {
		for i := range st.upstream.Columns {
			st.key = append(st.key, i)
		}
	}
	sc, _ := w.x.tx.catalog().SchemaByOID(st.table.Schema)
	pc := w.x.planCtx()
	tw, err := pc.newTableWriter(st.table, sc)
	if err != nil {
		return err
	}
	st.writer = tw
	return nil
}

func parseSourceValue(t types.T, text string) (types.Value, error) {
	return types.ParseTextWith(t, text, types.Input{Loc: time.UTC})
}

// append writes one change as a row.
func (w *batchWriter) append(st *sourceTableState, c *source.Change, commitTime time.Time) error {
	t := st.table
	tuple := make([]types.Value, int(t.NextAttnum-1))
	if len(c.Values) != len(st.attnums) {
		return source.Permanent(fmt.Errorf("a change of %d values for upstream table %s of %d columns", len(c.Values), st.upstream.Upstream, len(st.attnums)))
	}
	var previous []types.Value // the row an unchanged TOAST value comes from
	for i, v := range c.Values {
		a := st.attnums[i]
		col := t.ColumnByAttnum(a)
		switch v.Kind {
		case source.ValueNull:
		case source.ValueText:
			pv, err := parseSourceValue(col.Type, v.Text)
			if err != nil {
				return source.Permanent(fmt.Errorf("upstream table %s column %q: %w", st.upstream.Upstream, col.Name, err))
			}
			tuple[a-1] = pv
		case source.ValueUnchanged:
			if previous == nil {
				row, err := w.latestRow(st, c.Identity)
				if err != nil {
					return err
				}
				previous = row
			}
			tuple[a-1] = previous[a-1]
		}
	}
	w.setMeta(st, tuple, c.Op, c.Seq, commitTime)
	_, err := st.writer.insert(w.x, tuple)
	return err
}

func (w *batchWriter) setMeta(st *sourceTableState, tuple []types.Value, op source.Op, seq int64, commitTime time.Time) {
	t := st.table
	opCol, _ := t.Column(sourceColumnOp)
	lsnCol, _ := t.Column(sourceColumnLSN)
	tsCol, _ := t.Column(sourceColumnCommitTS)
	tuple[opCol.Attnum-1] = string(rune(op))
	tuple[lsnCol.Attnum-1] = seq
	tuple[tsCol.Attnum-1] = commitTime
}

// rowKey is the text of a row's identifying values, to compare keys by.
func (st *sourceTableState) rowKey(tuple []types.Value) (string, error) {
	var key []byte
	var err error
	for _, i := range st.key {
		if key, err = rowcodec.AppendKey(key, tuple[st.attnums[i]-1]); err != nil {
			return "", err
		}
	}
	return string(key), nil
}

// scanRows calls fn with every row of the table in the order they were
// appended, this transaction's included.
func (w *batchWriter) scanRows(st *sourceTableState, fn func(tuple []types.Value) error) error {
	sp := w.x.tx.st.Space(catalog.DataSpace(st.table.OID))
	if sp == nil {
		return nil
	}
	cur := sp.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		tuple, err := decodeTuple(st.table, v)
		if err != nil {
			return err
		}
		if err := fn(tuple); err != nil {
			return err
		}
	}
	return nil
}

// latestRow is the latest 'r', 'c' or 'u' row whose key is identity: where
// a TOASTed value an update did not send is taken from. It reads the table
// backwards from its last row (row ids grow with every append), so a key
// changed lately is found at once.
func (w *batchWriter) latestRow(st *sourceTableState, identity []source.Value) ([]types.Value, error) {
	want := make([]types.Value, int(st.table.NextAttnum-1))
	for n, i := range st.key {
		if n >= len(identity) {
			return nil, source.Permanent(fmt.Errorf("upstream table %s: an unchanged value without the row's key", st.upstream.Upstream))
		}
		a := st.attnums[i]
		if identity[n].Kind == source.ValueText {
			v, err := parseSourceValue(st.table.ColumnByAttnum(a).Type, identity[n].Text)
			if err != nil {
				return nil, source.Permanent(err)
			}
			want[a-1] = v
		}
	}
	wantKey, err := st.rowKey(want)
	if err != nil {
		return nil, err
	}
	opCol, _ := st.table.Column(sourceColumnOp)
	if sp := w.x.tx.st.Space(catalog.DataSpace(st.table.OID)); sp != nil {
		cur := sp.Cursor()
		for k, v := cur.Last(); k != nil; k, v = cur.Prev() {
			tuple, err := decodeTuple(st.table, v)
			if err != nil {
				return nil, err
			}
			if key, err := st.rowKey(tuple); err != nil || key != wantKey {
				continue
			}
			// A key-changing update is a 'd' of the old key before the
			// 'c' of the new one, in the same batch: deletes are passed.
			if op, _ := tuple[opCol.Attnum-1].(string); op != string(source.OpDelete) {
				return tuple, nil
			}
		}
	}
	return nil, source.Permanent(fmt.Errorf("upstream table %s: an update left a value unsent (TOAST) and the source holds no earlier row of its key", st.upstream.Upstream))
}

// truncate writes a delete of every key the table holds, all with the
// truncate's _lsn.
func (w *batchWriter) truncate(st *sourceTableState, seq int64, commitTime time.Time) error {
	opCol, _ := st.table.Column(sourceColumnOp)
	type keyRow struct {
		live  bool
		tuple []types.Value
	}
	state := map[string]*keyRow{}
	var order []string
	err := w.scanRows(st, func(tuple []types.Value) error {
		k, err := st.rowKey(tuple)
		if err != nil {
			return err
		}
		kr, ok := state[k]
		if !ok {
			kr = &keyRow{}
			state[k] = kr
			order = append(order, k)
		}
		op, _ := tuple[opCol.Attnum-1].(string)
		kr.live, kr.tuple = op != "d", tuple
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range order {
		kr := state[k]
		if !kr.live {
			continue
		}
		tuple := make([]types.Value, int(st.table.NextAttnum-1))
		for _, i := range st.key {
			a := st.attnums[i]
			tuple[a-1] = kr.tuple[a-1]
		}
		w.setMeta(st, tuple, source.OpDelete, seq, commitTime)
		if _, err := st.writer.insert(w.x, tuple); err != nil {
			return err
		}
	}
	return nil
}
