package sql

import (
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/types"
)

// scope is the set of relations whose columns a name can refer to at one
// query level; parent is the enclosing query, for correlated subqueries.
type scope struct {
	parent *scope
	rels   []*scopeRel
	width  int
	// correlated is set when an expression bound in this scope (or one
	// nested in it) read a column of a parent scope: the subquery then has to
	// be re-run per outer row.
	correlated bool
	// ctes visible at this level, by name.
	ctes map[string]*cteDef
	// probe marks the scope planSubquery puts between a subquery and its
	// outer query to learn whether the subquery is correlated. It holds no
	// relations and has no row at run time, so it is not a level. LIMIT,
	// OFFSET and VALUES rows are bound in such a scope too: they read only
	// the enclosing query's row.
	probe bool
}

// scopeRel is one FROM item: a table, a subquery or a join's side.
type scopeRel struct {
	name   string // alias, or the table's name
	schema string // set for base tables, so schema.table.col resolves
	cols   []scopeCol
	offset int
	table  *catalog.Table
	// relOID is the OID of the table or system catalog the item reads
	// (its tableoid), 0 for a view, a subquery, a function or a join.
	relOID uint32
}

// scopeCol is a column as queries see it.
type scopeCol struct {
	name     string
	t        types.T
	tableOID uint32
	attnum   int16
	// hidden columns (the right side of JOIN USING) are skipped by * and by
	// unqualified name lookup.
	hidden bool
}

func newScope(parent *scope) *scope { return &scope{parent: parent} }

// newProbeScope makes a scope that adds no run-time row level.
func newProbeScope(parent *scope) *scope { return &scope{parent: parent, probe: true} }

// add appends a relation, placing its columns after those already there.
func (s *scope) add(r *scopeRel) {
	r.offset = s.width
	s.width += len(r.cols)
	s.rels = append(s.rels, r)
}

// cte finds a CTE visible from this scope.
func (s *scope) cte(name string) *cteDef {
	for sc := s; sc != nil; sc = sc.parent {
		if d, ok := sc.ctes[name]; ok {
			return d
		}
	}
	return nil
}

// resolveColumn finds a column reference, searching enclosing scopes
// outward. It returns the level (0 = this scope) and the index in that
// scope's row.
func (s *scope) resolveColumn(ref *ast.ColumnRef) (level, idx int, col scopeCol, err error) {
	parts := ref.Parts
	var relName, schemaName, colName string
	switch len(parts) {
	case 1:
		colName = parts[0]
	case 2:
		relName, colName = parts[0], parts[1]
	case 3:
		schemaName, relName, colName = parts[0], parts[1], parts[2]
	default:
		relName, colName = parts[len(parts)-2], parts[len(parts)-1]
		schemaName = parts[len(parts)-3]
	}
	sawRel := false
	for sc, lvl := s, 0; sc != nil; sc = sc.parent {
		if sc.probe {
			continue
		}
		found := -1
		var fcol scopeCol
		for _, r := range sc.rels {
			if relName != "" {
				if r.name != relName || (schemaName != "" && r.schema != schemaName) {
					continue
				}
				sawRel = true
			}
			for i, c := range r.cols {
				if c.name != colName || (relName == "" && c.hidden) {
					continue
				}
				if found >= 0 {
					return 0, 0, scopeCol{}, pgerror.New(pgerror.AmbiguousColumn, "column reference %q is ambiguous", colName).WithPosition(ref.Pos + 1)
				}
				found = r.offset + i
				fcol = c
			}
		}
		if found >= 0 {
			for c := s; c != sc; c = c.parent {
				c.correlated = true
			}
			return lvl, found, fcol, nil
		}
		lvl++
	}
	if relName != "" && !sawRel {
		return 0, 0, scopeCol{}, pgerror.New(pgerror.UndefinedTable, "missing FROM-clause entry for table %q", relName).WithPosition(ref.Pos + 1)
	}
	if relName != "" {
		return 0, 0, scopeCol{}, pgerror.New(pgerror.UndefinedColumn, "column %s.%s does not exist", relName, colName).WithPosition(ref.Pos + 1)
	}
	return 0, 0, scopeCol{}, pgerror.New(pgerror.UndefinedColumn, "column %q does not exist", colName).WithPosition(ref.Pos + 1)
}

// relByName finds a relation of this scope level by its name (for t.*).
func (s *scope) relByName(q *ast.QualifiedName) (*scopeRel, error) {
	name := q.Name()
	for _, r := range s.rels {
		if r.name == name && (q.Schema() == "" || r.schema == q.Schema()) {
			return r, nil
		}
	}
	return nil, pgerror.New(pgerror.UndefinedTable, "missing FROM-clause entry for table %q", name).WithPosition(q.Pos + 1)
}
