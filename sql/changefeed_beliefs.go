package sql

import (
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// cdcdb.belief_changes('t', s1, s2): the auditor's question of a BITEMPORAL
// target, which business-time rows the system's belief changed between two
// system times. It is the difference of the target FOR SYSTEM_TIME AS OF
// s1 and AS OF s2: the rows believed at s2 and not at s1 (_belief
// 'added'), and those believed at s1 and not at s2 ('withdrawn'). A
// BITEMPORAL target has no change feed by commit time (its system period
// is its own, and history does not keep its commit-time versions), so this
// reads its rows, each a belief with its system period; the cost is a scan
// of the target.

// beliefChangesName is the function's name.
const beliefChangesName = "belief_changes"

// beliefColumn is the column belief_changes adds.
const beliefColumn = "_belief"

// The values of _belief.
const (
	beliefAdded     = "added"
	beliefWithdrawn = "withdrawn"
)

// isBeliefChangesCall reports whether a function name in FROM is
// cdcdb.belief_changes.
func isBeliefChangesCall(q ast.QualifiedName) bool {
	return len(q.Parts) == 2 && q.Parts[0] == "cdcdb" && q.Parts[1] == beliefChangesName
}

// planBeliefChanges plans cdcdb.belief_changes('t', s1, s2) in FROM.
func (pc *planCtx) planBeliefChanges(t *ast.FuncTable, b *binder, args []eval.Expr) (plan, []*scopeRel, error) {
	name := t.Call.Name.Name()
	if len(args) != 3 || t.WithOrdinality {
		return nil, nil, noFunctionError(name, args, t.Pos)
	}
	c, ok := args[0].(*eval.Const)
	if !ok {
		return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "the table of %s must be a constant name", beliefChangesName).WithPosition(t.Call.Pos + 1)
	}
	text, ok := c.V.(string)
	if !ok {
		return nil, nil, noFunctionError(name, args, t.Pos)
	}
	tbl, _, err := pc.lookupTable(ast.QualifiedName{Parts: splitQualifiedName(text), Pos: c.Pos - 1})
	if err != nil {
		return nil, nil, err
	}
	if err := pc.checkTablePrivilege(tbl, catalog.PrivSelect); err != nil {
		return nil, nil, err
	}
	if tbl.StoredAs != catalog.Bitemporal {
		return nil, nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a BITEMPORAL target", tbl.Name).WithPosition(t.Call.Pos + 1).
			WithHint("Ask cdcdb.table_changes what changed of other tables.")
	}
	start, ok1 := tbl.Column(colSystemStartAt)
	end, ok2 := tbl.Column(colSystemEndAt)
	if !ok1 || !ok2 {
		return nil, nil, pgerror.New(pgerror.DataCorrupted, "BITEMPORAL target \"%s\" has no system period", tbl.Name)
	}
	p := &beliefChangesScan{table: tbl, start: start.Attnum - 1, end: end.Attnum - 1}
	for i, a := range args[1:] {
		x, err := b.assign(a, start.Type, colSystemStartAt)
		if err != nil {
			return nil, nil, withPos(err, t.Call.Args[i+1])
		}
		p.bounds = append(p.bounds, x)
	}
	for _, col := range tbl.LiveColumns() {
		p.cols = append(p.cols, outCol{name: col.Name, t: col.Type})
	}
	p.cols = append(p.cols, outCol{name: beliefColumn, t: eval.TextT()})
	rel := relFromColumns(beliefChangesName, p.cols)
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return p, []*scopeRel{rel}, nil
}

// beliefChangesScan reads the rows whose belief changed between two system
// times.
type beliefChangesScan struct {
	table      *catalog.Table
	start, end int16 // stored positions of the system period's columns
	bounds     []eval.Expr
	cols       []outCol
}

func (p *beliefChangesScan) columns() []outCol { return p.cols }

func (p *beliefChangesScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Belief Changes Scan on %s", p.table.Name)
}

func (p *beliefChangesScan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	env := &eval.Env{Outer: outer, X: x}
	var at [2]types.Value
	for i, b := range p.bounds {
		v, err := b.Eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, pgerror.New(pgerror.NullValueNotAllowed, "the system times of %s must not be null", beliefChangesName)
		}
		at[i] = v
	}
	// believedAt: the row's system period [start, end) holds the moment.
	believedAt := func(tuple []types.Value, moment types.Value) bool {
		s, e := tuple[p.start], tuple[p.end]
		return s != nil && compareValues(s, moment) <= 0 && (e == nil || compareValues(moment, e) < 0)
	}
	sp := x.tx.st.Space(catalog.DataSpace(p.table.OID))
	if sp == nil {
		return &sliceIter{}, nil
	}
	var rows []eval.Row
	c := sp.Cursor()
	for k, raw := c.First(); k != nil; k, raw = c.Next() {
		if err := x.CheckCancel(); err != nil {
			return nil, err
		}
		tuple, err := decodeTuple(p.table, raw)
		if err != nil {
			return nil, err
		}
		then, now := believedAt(tuple, at[0]), believedAt(tuple, at[1])
		if then == now {
			continue
		}
		belief := beliefAdded
		if then {
			belief = beliefWithdrawn
		}
		row := make(eval.Row, 0, len(p.cols))
		for _, col := range p.table.Columns {
			if !col.Dropped {
				row = append(row, tuple[col.Attnum-1])
			}
		}
		rows = append(rows, append(row, belief))
	}
	return &sliceIter{rows: rows}, nil
}
