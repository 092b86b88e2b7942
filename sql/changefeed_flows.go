package sql

import (
	"context"
	"math"
	"time"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Flows that read a change feed: CREATE FLOW f AS AUTO CDC INTO tgt FROM
// stream(cdcdb.table_changes('t', start)) ... A change feed flow takes the
// changes of t since start when it is made (backfillFeed), then, in every
// write transaction that changes t, the transaction's changes of t right
// before it commits (txn.applyFeedFlows): the same transaction, so exactly
// once. Its events are the feed's rows without the update preimages: an
// insert or an update's postimage is an upsert of the row, a delete a
// delete when the flow's APPLY AS DELETE WHEN says so. Feed flows chained
// through their targets (a feeds b, b feeds c) apply in that order at
// commit, and a cycle of them is refused.

// isFeedColumn reports whether a name is one of the change feed's own
// columns.
func isFeedColumn(name string) bool {
	switch name {
	case changeTypeColumn, commitVersionColumn, commitTimestampColumn:
		return true
	}
	return false
}

// feedShape is the table a change feed flow's expressions read: t's
// columns, then the feed's own at the next attnums, as feedEventRow lays
// out its rows.
func feedShape(t *catalog.Table) *catalog.Table {
	shape := t.Clone()
	for _, c := range feedColumns(t)[len(t.LiveColumns()):] {
		shape.Columns = append(shape.Columns, catalog.Column{Name: c.name, Type: c.t, Attnum: shape.NextAttnum})
		shape.NextAttnum++
	}
	return shape
}

// feedEventRow is a change as a change feed flow's source row (feedShape's
// layout), or nil for what is not an event (an update's preimage is
// carried by its postimage).
func feedEventRow(t *catalog.Table, ch history.Change) []types.Value {
	width := int(t.NextAttnum - 1)
	row := make([]types.Value, width+feedColumnCount)
	tuple, kind := ch.After, ChangeInsert
	switch {
	case ch.Before != nil && ch.After != nil:
		kind = ChangeUpdatePostimage
	case ch.After == nil:
		tuple, kind = ch.Before, ChangeDelete
	}
	copy(row[:width], tuple)
	row[width], row[width+1], row[width+2] = string(kind), ch.Commit, time.UnixMicro(ch.Commit).UTC()
	return row
}

// bindFeedSource checks a flow's stream(cdcdb.table_changes('t', start))
// and returns t and the start. A flow being compiled again names t in
// st.Source (by OID, as renamed since).
func (pc *planCtx) bindFeedSource(st *ast.CreateFlow) (*catalog.Table, changeBound, error) {
	feed := st.Feed
	if !pc.isTableChangesCall(feed.Func) {
		return nil, changeBound{}, pgerror.New(pgerror.FeatureNotSupported, "a flow cannot read function %s", joinParts(feed.Func.Parts)).WithPosition(feed.Pos + 1).
			WithHint("A flow reads a table, stream(t), or a table's change feed, stream(cdcdb.table_changes('t', start)).")
	}
	b := pc.binder(newScope(nil))
	var args []eval.Expr
	for _, a := range feed.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, changeBound{}, err
		}
		args = append(args, x)
	}
	if len(args) == 3 {
		return nil, changeBound{}, pgerror.New(pgerror.InvalidObjectDefinition, "a flow reads a change feed from its start on, without an end").WithPosition(feed.Args[2].Position() + 1).
			WithHint("Leave out the end: the flow follows every later change of the table.")
	}
	if len(args) != 2 {
		return nil, changeBound{}, noFunctionError(feed.Func.Name(), args, feed.Pos)
	}
	var t *catalog.Table
	var err error
	if len(st.Source.Parts) > 0 {
		if t, _, err = pc.lookupTable(st.Source); err != nil {
			return nil, changeBound{}, err
		}
	} else if t, err = pc.changeFeedTable(b, args[0], feed.Args[0].Position()); err != nil {
		if err == builtins.ErrNoFunction {
			err = noFunctionError(feed.Func.Name(), args, feed.Pos)
		}
		return nil, changeBound{}, err
	}
	start, err := b.bindChangeBound(args[1])
	if err == builtins.ErrNoFunction {
		return nil, changeBound{}, noFunctionError(feed.Func.Name(), args, feed.Pos)
	}
	if err != nil {
		return nil, changeBound{}, withPos(err, feed.Args[1])
	}
	return t, start, nil
}

// checkFeedSequence holds a change feed flow to SEQUENCE BY _commit_version
// or _commit_timestamp: the feed's order is its commits', and nothing else
// in its rows orders a key's changes.
func checkFeedSequence(st *ast.CreateFlow, pos int) error {
	if len(st.SequenceBy) == 1 && !st.SequenceIsStruct {
		if c, ok := st.SequenceBy[0].(*ast.ColumnRef); ok {
			if n := c.Parts[len(c.Parts)-1]; n == commitVersionColumn || n == commitTimestampColumn {
				return nil
			}
		}
	}
	return pgerror.New(pgerror.InvalidObjectDefinition, "a flow that reads a change feed must SEQUENCE BY %s or %s", commitVersionColumn, commitTimestampColumn).WithPosition(pos).
		WithHint("The feed's changes are ordered by their commits.")
}

// feedFlowStart evaluates a new change feed flow's start, checks that the
// table's changes are kept from then on, and that the flow makes no cycle
// of change feeds.
func (x *execCtx) feedFlowStart(d *flowDefinition, name string) (int64, error) {
	start, err := d.feedStart.eval(&eval.Env{X: x}, "start")
	if err != nil {
		return 0, err
	}
	if err := checkFeedStart(x, d.source, start); err != nil {
		return 0, err
	}
	cat := x.tx.catalog()
	seen := map[catalog.OID]bool{}
	next := []catalog.OID{d.target.OID}
	for len(next) > 0 {
		t := next[len(next)-1]
		next = next[:len(next)-1]
		if t == d.source.OID {
			return 0, pgerror.New(pgerror.InvalidObjectDefinition, "flow \"%s\" would make a cycle of change feeds", name).
				WithDetail("The changes of \"%s\" reach \"%s\" through change feed flows.", d.target.Name, d.source.Name)
		}
		if seen[t] {
			continue
		}
		seen[t] = true
		for _, f := range cat.FlowsFromOfKind(t, catalog.FlowChangeFeed) {
			next = append(next, f.Target)
		}
	}
	return start, nil
}

// backfillFeed applies to a change feed flow the changes its source's
// commits since the flow's start made. (This transaction's own changes
// come at its commit, with any other's.)
func (x *execCtx) backfillFeed(compiled *compiledFlow, f *catalog.Flow, src *catalog.Table) error {
	var rows [][]types.Value
	err := history.Changes(x.tx.st, src.OID, f.FeedStart, math.MaxInt64, func(ch history.Change) error {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		rows = append(rows, feedEventRow(src, ch))
		return nil
	})
	if err != nil {
		return err
	}
	return x.applyFeedRows(compiled, f, rows)
}

// applyFeedRows applies feed rows to a flow in batches.
func (x *execCtx) applyFeedRows(compiled *compiledFlow, f *catalog.Flow, rows [][]types.Value) error {
	for len(rows) > 0 {
		n := min(len(rows), flowBatchSize)
		if err := x.applyFlow(compiled, f, rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// feedFlowsInOrder lists the change feed flows so that a flow comes after
// every feed flow that writes its source (CREATE FLOW refuses cycles).
func feedFlowsInOrder(cat *catalog.Snapshot) []*catalog.Flow {
	var feeds []*catalog.Flow
	for _, f := range cat.Flows() {
		if f.Kind == catalog.FlowChangeFeed {
			feeds = append(feeds, f)
		}
	}
	if len(feeds) < 2 {
		return feeds
	}
	writers := map[catalog.OID]int{} // feed flows writing each table
	for _, f := range feeds {
		writers[f.Target]++
	}
	// Kahn's algorithm over tables: a flow is ready once no pending feed
	// flow writes its source.
	var out []*catalog.Flow
	done := make([]bool, len(feeds))
	for len(out) < len(feeds) {
		progressed := false
		for i, f := range feeds {
			if done[i] || writers[f.Source] > 0 {
				continue
			}
			done[i], progressed = true, true
			out = append(out, f)
			writers[f.Target]--
		}
		if !progressed { // a cycle, which CREATE FLOW refuses: keep OID order
			for i, f := range feeds {
				if !done[i] {
					out = append(out, f)
				}
			}
			break
		}
	}
	return out
}

// applyFeedFlows applies, just before the transaction commits, its changes
// of each table a change feed flow reads to that flow, in chain order, so
// that a flow's writes reach the feed flows reading its target in the same
// commit.
func (t *txn) applyFeedFlows() error {
	if len(t.written) == 0 {
		return nil
	}
	cat := t.catalog()
	var x *execCtx
	for _, f := range feedFlowsInOrder(cat) {
		if f.Once {
			continue
		}
		if _, wrote := t.written[f.Source]; !wrote {
			continue
		}
		src, ok := cat.TableByOID(f.Source)
		if !ok {
			continue
		}
		if x == nil {
			if t.sess == nil {
				return pgerror.New(pgerror.InternalError, "a transaction without a session changed the source of change feed flow \"%s\"", f.Name)
			}
			x = internalExecCtx(context.Background(), t.sess, t)
		}
		var rows [][]types.Value
		err := history.PendingChanges(t.st, src.OID, t.commitTS, func(ch history.Change) error {
			rows = append(rows, feedEventRow(src, ch))
			return nil
		})
		if err != nil || len(rows) == 0 {
			if err != nil {
				return err
			}
			continue
		}
		compiled, err := t.engine.compileFlow(x, f, cat)
		if err != nil {
			return err
		}
		if err := x.applyFeedRows(compiled, f, rows); err != nil {
			return err
		}
	}
	return nil
}
