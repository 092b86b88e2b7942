package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Columns of a grouped query that are not grouped. PostgreSQL accepts a
// column of a table whose primary key is in GROUP BY: every row of a group
// then has the same value for it (it is functionally dependent on the
// key). Such a column is read through a hidden aggregate that keeps the
// group's value; any other ungrouped column is an error naming the column
// with its relation.

// ungroupedColumn binds a column reference found outside GROUP BY in a
// grouped query level; idx is its position in the level's input row.
func (b *binder) ungroupedColumn(e *ast.ColumnRef, idx int, col scopeCol) (eval.Expr, error) {
	// The same column grouped under another spelling (GROUP BY b, SELECT
	// s2.b) is grouped: groups are matched by what they read, not by how.
	for i, g := range b.agg.groupExprs {
		if c, ok := g.(*eval.ColRef); ok && c.Level == 0 && c.Idx == idx {
			return &eval.ColRef{Idx: i, T: g.Type(), Name: col.name}, nil
		}
	}
	rel := relAt(b.sc, idx)
	if rel != nil && b.groupedByPrimaryKey(rel) {
		fp := "functionally dependent:" + fingerprint(e)
		for i, s := range b.agg.aggs {
			if s.fp == fp {
				return &eval.ColRef{Idx: len(b.agg.groupExprs) + i, T: s.t}, nil
			}
		}
		spec := &aggSpec{
			fn:   &aggregateFunc{name: col.name, newState: func() builtins.AggState { return &groupValueState{} }},
			args: []eval.Expr{&eval.ColRef{Idx: idx, T: col.t, Name: col.name}},
			fp:   fp,
			t:    col.t,
		}
		b.agg.aggs = append(b.agg.aggs, spec)
		return &eval.ColRef{Idx: len(b.agg.groupExprs) + len(b.agg.aggs) - 1, T: col.t, Name: col.name}, nil
	}
	name := col.name
	if rel != nil && rel.name != "" {
		name = rel.name + "." + col.name
	}
	return nil, pgerror.New(pgerror.GroupingError, "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function", name).WithPosition(e.Pos + 1)
}

// relAt finds the relation holding column idx of a scope's row.
func relAt(sc *scope, idx int) *scopeRel {
	for _, r := range sc.rels {
		if idx >= r.offset && idx < r.offset+len(r.cols) {
			return r
		}
	}
	return nil
}

// groupedByPrimaryKey reports whether GROUP BY lists every primary key
// column of a base table relation.
func (b *binder) groupedByPrimaryKey(rel *scopeRel) bool {
	if rel.table == nil || len(rel.table.PrimaryKey) == 0 {
		return false
	}
	for _, attnum := range rel.table.PrimaryKey {
		found := false
		for i, c := range rel.cols {
			if c.attnum != attnum || c.tableOID != rel.table.OID {
				continue
			}
			for _, g := range b.agg.groupExprs {
				if ref, ok := g.(*eval.ColRef); ok && ref.Level == 0 && ref.Idx == rel.offset+i {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// groupValueState keeps the value every row of a group shares.
type groupValueState struct {
	v    types.Value
	seen bool
}

func (s *groupValueState) Add(_ eval.Context, args []types.Value) error {
	if !s.seen {
		s.v, s.seen = args[0], true
	}
	return nil
}

func (s *groupValueState) Result(eval.Context) (types.Value, error) { return s.v, nil }
