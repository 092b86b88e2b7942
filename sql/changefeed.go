package sql

import (
	"math"
	"strconv"
	"strings"
	"time"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// The change feed: cdcdb.table_changes('t', start [, end]) lists what the
// commits from start through end changed of table t, one row per changed
// row (an update gives two, its preimage and its postimage), read from the
// table's change log (history.Changes), so its cost follows the window's
// changes, not the table's history. See docs/changefeed.md.
//
// A commit's version is its commit time in microseconds since the Unix
// epoch: unique per commit and growing with each (history.NextCommitTime),
// so an integer bound and a time bound name points of the same axis.

// tableChangesName is the change feed function's name.
const tableChangesName = "table_changes"

// ChangeType is a change feed row's _change_type.
type ChangeType string

// The change types, as Delta's change data feed names them.
const (
	ChangeInsert          ChangeType = "insert"
	ChangeDelete          ChangeType = "delete"
	ChangeUpdatePreimage  ChangeType = "update_preimage"
	ChangeUpdatePostimage ChangeType = "update_postimage"
)

// The change feed's own columns, after the table's.
const (
	changeTypeColumn      = "_change_type"
	commitVersionColumn   = "_commit_version"
	commitTimestampColumn = "_commit_timestamp"
)

// feedColumnCount is how many columns the change feed adds.
const feedColumnCount = 3

// isTableChangesCall reports whether a function name in FROM is the change
// feed: cdcdb.table_changes, or table_changes unqualified in the Databricks
// dialect (where Delta's function has that name).
func (pc *planCtx) isTableChangesCall(q ast.QualifiedName) bool {
	if q.Name() != tableChangesName {
		return false
	}
	switch len(q.Parts) {
	case 1:
		return pc.sess != nil && pc.sess.dialect() == parse.DialectDatabricks
	case 2:
		return q.Parts[0] == "cdcdb"
	}
	return false
}

// feedColumns are the columns of a table's change feed: its live columns,
// then _change_type, _commit_version, _commit_timestamp.
func feedColumns(t *catalog.Table) []outCol {
	live := t.LiveColumns()
	cols := make([]outCol, 0, len(live)+feedColumnCount)
	for _, c := range live {
		cols = append(cols, outCol{name: c.Name, t: c.Type})
	}
	return append(cols,
		outCol{name: changeTypeColumn, t: eval.TextT()},
		outCol{name: commitVersionColumn, t: eval.Int8T()},
		outCol{name: commitTimestampColumn, t: types.Of(types.Timestamptz)})
}

// changeFeedTable resolves the table argument of table_changes: a constant
// name (text, or a regclass), as Delta's function takes a literal name, so
// that the result's columns are known when the query is planned.
func (pc *planCtx) changeFeedTable(b *binder, arg eval.Expr, pos int) (*catalog.Table, error) {
	c, ok := arg.(*eval.Const)
	if !ok {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "the table of %s must be a constant name", tableChangesName).WithPosition(pos + 1).
			WithHint("Write the table's name as a string literal; its start and end may be parameters.")
	}
	var t *catalog.Table
	switch v := c.V.(type) {
	case nil:
		return nil, pgerror.New(pgerror.NullValueNotAllowed, "the table of %s must not be null", tableChangesName).WithPosition(pos + 1)
	case string:
		if c.T.OID != types.Unknown && c.T.OID != types.Text && c.T.OID != types.Varchar && c.T.OID != types.Name {
			return nil, builtins.ErrNoFunction
		}
		parts := splitQualifiedName(v)
		found, _, err := pc.lookupTable(ast.QualifiedName{Parts: parts, Pos: c.Pos - 1})
		if err != nil {
			if c.Pos == 0 {
				return nil, pgerror.As(err).WithPosition(pos + 1)
			}
			return nil, err
		}
		t = found
	case int64:
		if c.T.OID != types.Regclass {
			return nil, builtins.ErrNoFunction
		}
		found, ok := pc.cat.TableByOID(catalog.OID(v))
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedTable, "relation with OID %d does not exist", v).WithPosition(pos + 1)
		}
		t = found
	default:
		return nil, builtins.ErrNoFunction
	}
	if t.Kind == catalog.KindView {
		return nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a table", t.Name).WithPosition(pos + 1).
			WithDetail("Only tables have a change feed.")
	}
	// The change feed is the table's history: reading it needs SELECT.
	if err := pc.checkTablePrivilege(t, catalog.PrivSelect); err != nil {
		return nil, err
	}
	if !keepsCommitHistory(t) {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "\"%s\" is a BITEMPORAL target, which has no change feed by commit time", t.Name).WithPosition(pos + 1).
			WithHint("Its system period is its own: read it with FOR SYSTEM_TIME, or ask cdcdb.belief_changes what changed between two system times.")
	}
	return t, nil
}

// changeBound is how a bound of table_changes reads.
type changeBound struct {
	x eval.Expr
	// text bounds are read when the query runs: an integer is a version,
	// anything else a timestamptz.
	text bool
}

// bindChangeBound checks a start or end argument: an integer (a version),
// a timestamptz, timestamp or date (a time), or text or an untyped literal
// or parameter (a version if it reads as an integer, else a time).
func (b *binder) bindChangeBound(x eval.Expr) (changeBound, error) {
	xt := x.Type()
	switch {
	case xt.OID == types.Unknown || xt.OID == types.Text || xt.OID == types.Varchar:
		c, err := b.coerce(x, eval.TextT())
		if err != nil {
			return changeBound{}, err
		}
		return changeBound{x: c, text: true}, nil
	case eval.IsIntType(xt.OID):
		c, err := b.coerce(x, eval.Int8T())
		return changeBound{x: c}, err
	case xt.OID == types.Timestamptz || xt.OID == types.Timestamp || xt.OID == types.Date:
		c, err := b.assign(x, types.Of(types.Timestamptz), "table_changes")
		return changeBound{x: c}, err
	}
	return changeBound{}, builtins.ErrNoFunction
}

// eval reads the bound as a commit version (microseconds); what names it
// (start or end) is for the errors.
func (cb changeBound) eval(env *eval.Env, what string) (int64, error) {
	v, err := cb.x.Eval(env)
	if err != nil {
		return 0, err
	}
	switch v := v.(type) {
	case nil:
		return 0, pgerror.New(pgerror.NullValueNotAllowed, "the %s of %s must not be null", what, tableChangesName)
	case int64:
		return v, nil
	case time.Time:
		return v.UnixMicro(), nil
	case string:
		s := strings.TrimSpace(v)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
		var in types.Input
		if x, ok := env.X.(*execCtx); ok && x.sess != nil {
			in = x.sess.textInput()
		}
		t, err := types.ParseTextWith(types.Of(types.Timestamptz), s, in)
		if err != nil {
			return 0, pgerror.New(pgerror.InvalidParameterValue, "invalid %s of %s: \"%s\"", what, tableChangesName, v).
				WithHint("Give a commit version (an integer) or a time (a timestamptz).")
		}
		return t.(time.Time).UnixMicro(), nil
	}
	return 0, pgerror.New(pgerror.InternalError, "unexpected %s bound %T", tableChangesName, v)
}

// planTableChanges plans cdcdb.table_changes('t', start [, end]) in FROM.
func (pc *planCtx) planTableChanges(t *ast.FuncTable, b *binder, args []eval.Expr) (plan, []*scopeRel, error) {
	name := t.Call.Name.Name()
	if len(args) < 2 || len(args) > 3 || t.WithOrdinality {
		if t.WithOrdinality && len(args) >= 2 && len(args) <= 3 {
			return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "%s does not take WITH ORDINALITY", tableChangesName).WithPosition(t.Pos + 1)
		}
		return nil, nil, noFunctionError(name, args, t.Pos)
	}
	tbl, err := pc.changeFeedTable(b, args[0], t.Call.Pos)
	if err == builtins.ErrNoFunction {
		return nil, nil, noFunctionError(name, args, t.Pos)
	}
	if err != nil {
		return nil, nil, err
	}
	p := &tableChangesScan{table: tbl, cols: feedColumns(tbl)}
	for i, a := range args[1:] {
		cb, err := b.bindChangeBound(a)
		if err == builtins.ErrNoFunction {
			return nil, nil, noFunctionError(name, args, t.Pos)
		}
		if err != nil {
			return nil, nil, withPos(err, t.Call.Args[i+1])
		}
		p.bounds = append(p.bounds, cb)
	}
	rel := relFromColumns(tableChangesName, p.cols)
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return p, []*scopeRel{rel}, nil
}

// tableChangesScan reads a window of a table's change feed.
type tableChangesScan struct {
	table  *catalog.Table
	bounds []changeBound // start, and the end if given
	cols   []outCol
}

func (p *tableChangesScan) columns() []outCol { return p.cols }

func (p *tableChangesScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Change Feed Scan on %s", p.table.Name)
}

func (p *tableChangesScan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	env := &eval.Env{Outer: outer, X: x}
	from, err := p.bounds[0].eval(env, "start")
	if err != nil {
		return nil, err
	}
	to := int64(math.MaxInt64)
	if len(p.bounds) > 1 {
		if to, err = p.bounds[1].eval(env, "end"); err != nil {
			return nil, err
		}
	}
	if err := checkFeedStart(x, p.table, from); err != nil {
		return nil, err
	}
	var rows []eval.Row
	err = history.Changes(x.tx.st, p.table.OID, from, to, func(ch history.Change) error {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		rows = appendChangeRows(rows, p.table, ch)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A transaction that changed the table sees its own changes, at the
	// version it will commit at, as it sees its own rows: a detached one
	// fixes that version now (concurrent.go).
	if err := x.tx.fixCommitTime(x.ctx, p.table.OID); err != nil {
		return nil, err
	}
	if t := x.tx; t.writer && t.commitTS != 0 && from <= t.commitTS && t.commitTS <= to {
		if _, wrote := t.written[p.table.OID]; wrote {
			err := history.PendingChanges(t.st, p.table.OID, t.commitTS, func(ch history.Change) error {
				rows = appendChangeRows(rows, p.table, ch)
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return &sliceIter{rows: rows}, nil
}

// checkFeedStart refuses a start before what the table's change log and
// retention keep, saying how far back the table goes.
func checkFeedStart(x *execCtx, t *catalog.Table, from int64) error {
	kept, ok := history.ChangesFrom(x.tx.st, t.OID)
	if !ok {
		return pgerror.New(pgerror.InvalidParameterValue, "table \"%s\" has no change feed yet", t.Name).
			WithDetail("The table was made before cdcdb kept change feeds; its changes are kept from its next write on.")
	}
	if from >= kept {
		return nil
	}
	return pgerror.New(pgerror.InvalidParameterValue, "the start of %s is before the changes table \"%s\" keeps", tableChangesName, t.Name).
		WithDetail("Its changes are kept from commit version %d (%s) on.", kept, formatCommitTime(kept)).
		WithHint("Start at or after that version, or keep more history with ALTER TABLE ... SET (history_retention = ...).")
}

// formatCommitTime prints a commit time as a timestamptz in UTC.
func formatCommitTime(micros int64) string {
	return time.UnixMicro(micros).UTC().Format("2006-01-02 15:04:05.999999Z07:00")
}

// changeTypeValues are the change types boxed once, as rows hold them.
var changeTypeValues = map[ChangeType]types.Value{
	ChangeInsert: string(ChangeInsert), ChangeDelete: string(ChangeDelete),
	ChangeUpdatePreimage: string(ChangeUpdatePreimage), ChangeUpdatePostimage: string(ChangeUpdatePostimage),
}

// appendChangeRows appends a change's feed rows: an insert, a delete, or
// an update's preimage and postimage (sharing the commit's values).
func appendChangeRows(rows []eval.Row, t *catalog.Table, ch history.Change) []eval.Row {
	var commit, at types.Value = ch.Commit, time.UnixMicro(ch.Commit).UTC()
	switch {
	case ch.Before != nil && ch.After != nil:
		rows = append(rows, feedRow(t, ch.Before, ChangeUpdatePreimage, commit, at))
		return append(rows, feedRow(t, ch.After, ChangeUpdatePostimage, commit, at))
	case ch.After != nil:
		return append(rows, feedRow(t, ch.After, ChangeInsert, commit, at))
	default:
		return append(rows, feedRow(t, ch.Before, ChangeDelete, commit, at))
	}
}

// feedRow is one row of the feed: the table's live columns from a stored
// tuple (laid out by attnum), then the change's own columns.
func feedRow(t *catalog.Table, stored []types.Value, kind ChangeType, commit, at types.Value) eval.Row {
	row := make(eval.Row, 0, len(t.Columns)+feedColumnCount)
	for _, c := range t.Columns {
		if c.Dropped {
			continue
		}
		var v types.Value
		if i := int(c.Attnum) - 1; i < len(stored) {
			v = stored[i]
		}
		row = append(row, v)
	}
	return append(row, changeTypeValues[kind], commit, at)
}
