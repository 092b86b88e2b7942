package sql

import (
	"strconv"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// cteDef is a WITH query visible to the query it belongs to. Its rows are
// computed once per execution and shared by every reference.
type cteDef struct {
	name string
	plan plan
	cols []outCol
}

// planQuery plans a full query expression at a new query level nested in
// parent (nil at the top level).
func (pc *planCtx) planQuery(sel *ast.Select, parent *scope) (plan, error) {
	sc := newScope(parent)
	if err := pc.planWith(sel.With, sc); err != nil {
		return nil, err
	}
	var p plan
	var err error
	switch body := sel.Body.(type) {
	case *ast.SelectCore:
		return pc.planCore(body, sc, sel)
	default:
		p, err = pc.planSetExpr(body, sc)
	}
	if err != nil {
		return nil, err
	}
	// ORDER BY / LIMIT over a set operation, VALUES or parenthesized query
	// refer to its output columns.
	var keys []sortKey
	if len(sel.OrderBy) > 0 {
		// The sort reads the set operation's output row, whose enclosing
		// row is the parent query's: sc itself has no row level.
		outScope := newScope(sc.parent)
		outScope.ctes = sc.ctes
		outScope.add(relFromColumns("", p.columns()))
		b := pc.binder(outScope)
		for _, o := range sel.OrderBy {
			var e eval.Expr
			if idx, ok, err := outputOrdinal(o.Expr, len(p.columns())); err != nil {
				return nil, err
			} else if ok {
				c := p.columns()[idx]
				e = &eval.ColRef{Idx: idx, T: c.t}
			} else if e, err = b.bind(o.Expr); err != nil {
				return nil, err
			}
			keys = append(keys, sortKey{e: b.resolveUnknown(e), desc: o.Desc, nullsFirst: nullsFirst(o)})
		}
		p = &sortPlan{input: p, keys: keys}
	}
	return pc.planLimit(p, sel, sc, keys)
}

// planWith plans a WITH clause's queries into sc, where the query they
// head (and the later ones of the clause) find them.
func (pc *planCtx) planWith(with *ast.With, sc *scope) error {
	if with == nil {
		return nil
	}
	sc.ctes = map[string]*cteDef{}
	for _, c := range with.CTEs {
		q, ok := c.Query.(*ast.Select)
		if !ok {
			return pgerror.New(pgerror.FeatureNotSupported, "data-modifying statements in WITH are not supported").WithPosition(c.Pos + 1)
		}
		var p plan
		var err error
		if with.Recursive && selectReferences(q, c.Name) {
			p, err = pc.planRecursiveCTE(c, q, sc)
		} else {
			p, err = pc.planQuery(q, sc)
		}
		if err != nil {
			return err
		}
		cols := append([]outCol(nil), p.columns()...)
		if len(c.Columns) > 0 {
			if len(c.Columns) > len(cols) {
				return pgerror.New(pgerror.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified", c.Name, len(cols), len(c.Columns)).WithPosition(c.Pos + 1)
			}
			for i, n := range c.Columns {
				cols[i].name = n
			}
		}
		sc.ctes[c.Name] = &cteDef{name: c.Name, plan: p, cols: cols}
	}
	return nil
}

// withScope plans the WITH clause of an INSERT, UPDATE or DELETE into a
// scope of its own (no row level: the statement's queries see only its
// CTEs through it).
func (pc *planCtx) withScope(with *ast.With) (*scope, error) {
	if with == nil {
		return nil, nil
	}
	sc := newProbeScope(nil)
	return sc, pc.planWith(with, sc)
}

// planLimit applies LIMIT/OFFSET/FETCH to p, whose rows are sorted by keys
// (ORDER BY), which WITH TIES compares rows under.
func (pc *planCtx) planLimit(p plan, sel *ast.Select, sc *scope, keys []sortKey) (plan, error) {
	if sel.Limit == nil && sel.Offset == nil {
		return p, nil
	}
	b := pc.binder(newProbeScope(sc))
	lp := &limitPlan{input: p}
	if sel.WithTies {
		if len(keys) == 0 {
			return nil, pgerror.New(pgerror.SyntaxError, "WITH TIES cannot be specified without ORDER BY clause")
		}
		lp.ties = keys
	}
	var err error
	if sel.Limit != nil {
		if lp.limit, err = b.bindAs(sel.Limit, eval.Int8T(), "LIMIT"); err != nil {
			return nil, err
		}
	}
	if sel.Offset != nil {
		if lp.offset, err = b.bindAs(sel.Offset, eval.Int8T(), "OFFSET"); err != nil {
			return nil, err
		}
	}
	return lp, nil
}

// outputOrdinal recognizes ORDER BY / GROUP BY n.
func outputOrdinal(e ast.Expr, n int) (int, bool, error) {
	lit, ok := e.(*ast.Literal)
	if !ok || lit.Kind != ast.LitInteger {
		return 0, false, nil
	}
	i, err := strconv.Atoi(lit.Value)
	if err != nil || i < 1 || i > n {
		return 0, false, pgerror.New(pgerror.InvalidColumnReference, "ORDER BY position %s is not in select list", lit.Value).WithPosition(lit.Pos + 1)
	}
	return i - 1, true, nil
}

func relFromColumns(name string, cols []outCol) *scopeRel {
	r := &scopeRel{name: name}
	for _, c := range cols {
		r.cols = append(r.cols, scopeCol{name: c.name, t: c.t, tableOID: c.tableOID, attnum: c.attnum})
	}
	return r
}

// planSetExpr plans VALUES, a set operation or a parenthesized query.
func (pc *planCtx) planSetExpr(body ast.SetExpr, sc *scope) (plan, error) {
	switch body := body.(type) {
	case *ast.Select:
		return pc.planQuery(body, sc.parent)
	case *ast.SelectCore:
		return pc.planCore(body, newScope(sc.parent), &ast.Select{Body: body})
	case *ast.Values:
		return pc.planValues(body, sc)
	case *ast.SetOp:
		return pc.planSetOp(body, sc)
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "query form %T is not supported", body)
}

func (pc *planCtx) planValues(v *ast.Values, sc *scope) (plan, error) {
	b := pc.binder(newProbeScope(sc))
	rows := make([][]eval.Expr, len(v.Rows))
	width := -1
	for i, r := range v.Rows {
		if width >= 0 && len(r) != width {
			at := v.Pos
			if len(r) > 0 {
				at = r[0].Position() // PostgreSQL points at the odd list
			}
			return nil, pgerror.New(pgerror.SyntaxError, "VALUES lists must all be the same length").WithPosition(at + 1)
		}
		width = len(r)
		for _, e := range r {
			x, err := b.bind(e)
			if err != nil {
				return nil, err
			}
			rows[i] = append(rows[i], x)
		}
	}
	cols := make([]outCol, width)
	for j := 0; j < width; j++ {
		column := make([]eval.Expr, len(rows))
		for i := range rows {
			column[i] = rows[i][j]
		}
		t, err := eval.CommonType(column, "VALUES")
		if err != nil {
			return nil, withPos(err, v.Rows[0][j])
		}
		if t.OID == types.Unknown {
			t = eval.TextT()
		}
		for i := range rows {
			if rows[i][j], err = b.coerce(rows[i][j], t); err != nil {
				return nil, withPos(err, v.Rows[i][j])
			}
		}
		// PostgreSQL names VALUES columns column1..; Databricks col1...
		prefix := "column"
		if pc.sess.dialect() == parse.DialectDatabricks {
			prefix = "col"
		}
		cols[j] = outCol{name: prefix + strconv.Itoa(j+1), t: t}
	}
	return &valuesPlan{rows: rows, cols: cols}, nil
}

// strongColumnName reports whether an expression's name is one that an
// enclosing cast or CASE keeps (PostgreSQL's strength 2): anything named
// except CASE, literals and casts of them, whose names are fallbacks.
func strongColumnName(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Cast:
		return strongColumnName(e.X)
	case *ast.Case:
		return e.Else != nil && strongColumnName(e.Else)
	case *ast.Literal:
		return false
	}
	return columnName(e) != "?column?"
}

// sameOutputExpr reports whether two select-list entries compute the same
// thing: the same column, or the same expression as written.
func sameOutputExpr(a, b eval.Expr, astA, astB ast.Expr) bool {
	if ca, ok := a.(*eval.ColRef); ok {
		if cb, ok := b.(*eval.ColRef); ok {
			return ca.Level == cb.Level && ca.Idx == cb.Idx
		}
	}
	return fingerprint(astA) == fingerprint(astB)
}

// columnName is the output name PostgreSQL gives an unaliased select-list
// expression.
func columnName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.ColumnRef:
		return e.Parts[len(e.Parts)-1]
	case *ast.FuncCall:
		return e.Name.Name()
	case *ast.Cast:
		// As PostgreSQL's FigureColname: a strong name of the operand (a
		// column, a function) wins, else the cast's type names the column,
		// so 'x'::oid::regtype is "regtype".
		if strongColumnName(e.X) {
			return columnName(e.X)
		}
		return castColumnName(e.Type)
	case *ast.Case:
		// The ELSE result names a CASE when its name is strong.
		if e.Else != nil && strongColumnName(e.Else) {
			return columnName(e.Else)
		}
		return "case"
	case *ast.ArrayExpr, *ast.ArraySubquery:
		return "array"
	case *ast.Exists:
		return "exists"
	case *ast.RowExpr:
		return "row"
	case *ast.Subquery:
		if core, ok := e.Query.Body.(*ast.SelectCore); ok && len(core.Targets) == 1 && !core.Targets[0].Star {
			if core.Targets[0].Alias != "" {
				return core.Targets[0].Alias
			}
			return columnName(core.Targets[0].Expr)
		}
	case *ast.SpecialFunc:
		switch e.Name {
		case "USER":
			return "current_user"
		}
		return lower(e.Name)
	case *ast.Collate:
		return columnName(e.X)
	case *ast.Subscript:
		return columnName(e.X)
	case *ast.FieldAccess:
		return e.Field
	case *ast.Literal:
		if e.Kind == ast.LitBool {
			return "bool"
		}
	}
	return "?column?"
}

// castColumnName is the column name of a cast of a constant: the type's
// name as PostgreSQL's FigureColname gives it (int4, text, timestamptz...).
func castColumnName(tn ast.TypeName) string {
	switch tn.Name {
	case "serial", "serial4":
		return "int4"
	case "bigserial", "serial8":
		return "int8"
	}
	if t, ok := types.ByName(tn.Name); ok {
		if info, ok := types.Lookup(t.OID); ok {
			if tn.ArrayDims > 0 {
				return info.Name
			}
			return info.Name
		}
	}
	return tn.Name
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// pushFilter adds a WHERE condition above input, letting a table scan turn
// equalities on its primary key into a direct lookup.
func pushFilter(input plan, cond eval.Expr) plan {
	if p := reorderCrossJoins(input, cond); p != nil {
		return p // a FROM list: see joinorder.go
	}
	if scan, ok := input.(*tableScan); ok {
		p := scan.withFilter(cond)
		if s, ok := p.(*tableScan); ok {
			if ix := chooseIndexScan(s); ix != nil {
				return ix
			}
		}
		return p
	}
	if j, ok := input.(*joinPlan); ok {
		return pushIntoJoin(j, cond)
	}
	return &filterPlan{input: input, cond: cond}
}

// planSubquery plans a subquery in an expression, nested in the binder's
// scope; it reports whether the subquery reads the outer row.
func (b *binder) planSubquery(sel *ast.Select) (plan, bool, error) {
	probe := newScope(b.sc)
	probe.probe = true
	p, err := b.pc.planQuery(sel, probe)
	if err != nil {
		return nil, false, err
	}
	return p, probe.correlated || scopeTreeCorrelated(probe), nil
}

// scopeTreeCorrelated is true when a query planned under s resolved a name
// above s; resolveColumn marks every scope it passes.
func scopeTreeCorrelated(s *scope) bool { return s.correlated }

// selectReferences reports whether a query names a table called name
// (a recursive CTE's reference to itself).
func selectReferences(sel *ast.Select, name string) bool {
	found := false
	var visitTable func(t ast.TableExpr)
	var visitSet func(s ast.SetExpr)
	visitTable = func(t ast.TableExpr) {
		switch t := t.(type) {
		case *ast.TableRef:
			if len(t.Name.Parts) == 1 && t.Name.Parts[0] == name {
				found = true
			}
		case *ast.Join:
			visitTable(t.Left)
			visitTable(t.Right)
		case *ast.SubqueryTable:
			visitSet(t.Query.Body)
		}
	}
	visitSet = func(s ast.SetExpr) {
		switch s := s.(type) {
		case *ast.SelectCore:
			for _, f := range s.From {
				visitTable(f)
			}
		case *ast.SetOp:
			visitSet(s.Left)
			visitSet(s.Right)
		case *ast.Select:
			visitSet(s.Body)
		}
	}
	visitSet(sel.Body)
	return found
}
