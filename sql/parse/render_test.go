package parse

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"cdcdb/sql/ast"
)

// render prints a tree as compact, fully parenthesized SQL, so a table test
// shows at a glance how a statement was understood: every operator gets
// parentheses, casts show how they were written, and canonical keywords
// are upper-case.
func render(n ast.Node) string {
	var r renderer
	r.node(n)
	return r.b.String()
}

type renderer struct{ b strings.Builder }

func (r *renderer) w(s ...string) {
	for _, x := range s {
		r.b.WriteString(x)
	}
}

func ident(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '$')) {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
	}
	return s
}

func qname(q ast.QualifiedName) string {
	parts := make([]string, len(q.Parts))
	for i, p := range q.Parts {
		parts[i] = ident(p)
	}
	return strings.Join(parts, ".")
}

func names(ns []string) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = ident(n)
	}
	return strings.Join(out, ", ")
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func typeName(t ast.TypeName) string {
	s := ident(t.Name)
	if t.Schema != "" {
		s = ident(t.Schema) + "." + s
	}
	if t.IntervalFields != "" {
		s += " " + t.IntervalFields
	}
	if len(t.Args) > 0 {
		a := make([]string, len(t.Args))
		for i, n := range t.Args {
			a[i] = strconv.Itoa(n)
		}
		s += "(" + strings.Join(a, ",") + ")"
	}
	return s + strings.Repeat("[]", t.ArrayDims)
}

func (r *renderer) groupingSet(gs *ast.GroupingSet) {
	r.w(gs.Kind, " (")
	for i, el := range gs.Elems {
		if i > 0 {
			r.w(", ")
		}
		if el.Set != nil {
			r.groupingSet(el.Set)
			continue
		}
		r.w("(")
		r.exprs(el.Exprs)
		r.w(")")
	}
	r.w(")")
}

func (r *renderer) exprs(es []ast.Expr) {
	for i, e := range es {
		if i > 0 {
			r.w(", ")
		}
		r.expr(e)
	}
}

func (r *renderer) node(n ast.Node) {
	switch n := n.(type) {
	case ast.Expr:
		r.expr(n)
	case ast.Statement:
		r.stmt(n)
	default:
		r.w(fmt.Sprintf("<%T>", n))
	}
}

func (r *renderer) expr(e ast.Expr) {
	switch e := e.(type) {
	case nil:
		r.w("<nil>")
	case *ast.Literal:
		switch e.Kind {
		case ast.LitNull:
			r.w("NULL")
		case ast.LitBool:
			r.w(strings.ToUpper(e.Value))
		case ast.LitInteger, ast.LitNumeric:
			if strings.HasPrefix(e.Value, "-") {
				r.w("(", e.Value, ")")
			} else {
				r.w(e.Value)
			}
			if e.Kind == ast.LitNumeric && !strings.ContainsAny(e.Value, ".eE") {
				r.w("#N") // an integer too large for int64
			}
		case ast.LitString:
			r.w(quote(e.Value))
		case ast.LitBitString:
			r.w(e.Value[:1], quote(e.Value[1:]))
		}
	case *ast.ColumnRef:
		for i, p := range e.Parts {
			if i > 0 {
				r.w(".")
			}
			switch {
			case p == "*" && i == len(e.Parts)-1:
				r.w("*")
			case i == len(e.Parts)-1 && e.Quoted:
				r.w(`"`, strings.ReplaceAll(p, `"`, `""`), `"`)
			default:
				r.w(ident(p))
			}
		}
	case *ast.Param:
		r.w("$", strconv.Itoa(e.Index))
	case *ast.Unary:
		r.w("(", e.Op, " ")
		r.expr(e.X)
		r.w(")")
	case *ast.Binary:
		r.w("(")
		r.expr(e.L)
		r.w(" ", e.Op, " ")
		r.expr(e.R)
		r.w(")")
	case *ast.GroupingSet:
		r.groupingSet(e)
	case *ast.Like:
		r.w("(")
		r.expr(e.X)
		if e.Not {
			r.w(" NOT")
		}
		switch {
		case e.Similar:
			r.w(" SIMILAR TO ")
		case e.ILike:
			r.w(" ILIKE ")
		default:
			r.w(" LIKE ")
		}
		r.expr(e.Pattern)
		if e.Escape != nil {
			r.w(" ESCAPE ")
			r.expr(e.Escape)
		}
		r.w(")")
	case *ast.IsNull:
		r.w("(")
		r.expr(e.X)
		if e.Not {
			r.w(" IS NOT NULL)")
		} else {
			r.w(" IS NULL)")
		}
	case *ast.IsBool:
		r.w("(")
		r.expr(e.X)
		r.w(" IS ")
		if e.Not {
			r.w("NOT ")
		}
		r.w(e.Value, ")")
	case *ast.Between:
		r.w("(")
		r.expr(e.X)
		if e.Not {
			r.w(" NOT")
		}
		r.w(" BETWEEN ")
		if e.Symmetric {
			r.w("SYMMETRIC ")
		}
		r.expr(e.Lo)
		r.w(" AND ")
		r.expr(e.Hi)
		r.w(")")
	case *ast.In:
		r.w("(")
		r.expr(e.X)
		if e.Not {
			r.w(" NOT")
		}
		r.w(" IN (")
		if e.Query != nil {
			r.stmt(e.Query)
		} else {
			r.exprs(e.List)
		}
		r.w("))")
	case *ast.Exists:
		r.w("EXISTS (")
		r.stmt(e.Query)
		r.w(")")
	case *ast.Subquery:
		r.w("(")
		r.stmt(e.Query)
		r.w(")")
	case *ast.AnyAll:
		r.w("(")
		r.expr(e.X)
		r.w(" ", e.Op, " ")
		if e.All {
			r.w("ALL (")
		} else {
			r.w("ANY (")
		}
		if e.Query != nil {
			r.stmt(e.Query)
		} else {
			r.expr(e.Array)
		}
		r.w("))")
	case *ast.FuncCall:
		r.funcCall(e)
	case *ast.Cast:
		switch e.Syntax {
		case "::":
			r.w("(")
			r.expr(e.X)
			r.w(")::", typeName(e.Type))
		case "CAST":
			r.w("CAST(")
			r.expr(e.X)
			r.w(" AS ", typeName(e.Type), ")")
		default:
			r.w(typeName(e.Type), " ")
			r.expr(e.X)
		}
	case *ast.Case:
		r.w("CASE")
		if e.Operand != nil {
			r.w(" ")
			r.expr(e.Operand)
		}
		for _, w := range e.Whens {
			r.w(" WHEN ")
			r.expr(w.Cond)
			r.w(" THEN ")
			r.expr(w.Result)
		}
		if e.Else != nil {
			r.w(" ELSE ")
			r.expr(e.Else)
		}
		r.w(" END")
	case *ast.ArrayExpr:
		r.w("ARRAY")
		r.arrayBody(e)
	case *ast.ArraySubquery:
		r.w("ARRAY(")
		r.stmt(e.Query)
		r.w(")")
	case *ast.Subscript:
		r.w("(")
		r.expr(e.X)
		r.w(")[")
		if e.Slice {
			if e.Lo != nil {
				r.expr(e.Lo)
			}
			r.w(":")
			if e.Hi != nil {
				r.expr(e.Hi)
			}
		} else {
			r.expr(e.Index)
		}
		r.w("]")
	case *ast.FieldAccess:
		r.w("(")
		r.expr(e.X)
		if e.Field == "*" {
			r.w(").*")
		} else {
			r.w(").", ident(e.Field))
		}
	case *ast.Collate:
		r.w("(")
		r.expr(e.X)
		r.w(" COLLATE ", qname(e.Collation), ")")
	case *ast.RowExpr:
		if e.Explicit {
			r.w("ROW")
		}
		r.w("(")
		r.exprs(e.Elems)
		r.w(")")
	case *ast.Default:
		r.w("DEFAULT")
	case *ast.SpecialFunc:
		r.w(e.Name)
		if len(e.Args) > 0 {
			r.w("(")
			r.exprs(e.Args)
			r.w(")")
		}
	default:
		r.w(fmt.Sprintf("<%T>", e))
	}
}

func (r *renderer) arrayBody(e *ast.ArrayExpr) {
	r.w("[")
	for i, x := range e.Elems {
		if i > 0 {
			r.w(", ")
		}
		if inner, ok := x.(*ast.ArrayExpr); ok {
			r.arrayBody(inner)
		} else {
			r.expr(x)
		}
	}
	r.w("]")
}

func (r *renderer) funcCall(e *ast.FuncCall) {
	r.w(qname(e.Name), "(")
	if e.Star {
		r.w("*")
	}
	if e.Distinct {
		r.w("DISTINCT ")
	}
	for i, a := range e.Args {
		if i > 0 {
			r.w(", ")
		}
		if e.Variadic && i == len(e.Args)-1 {
			r.w("VARIADIC ")
		}
		r.expr(a)
	}
	if len(e.OrderBy) > 0 && !e.WithinGroup {
		r.w(" ")
		r.orderBy(e.OrderBy)
	}
	r.w(")")
	if e.WithinGroup {
		r.w(" WITHIN GROUP (")
		r.orderBy(e.OrderBy)
		r.w(")")
	}
	if e.Filter != nil {
		r.w(" FILTER (WHERE ")
		r.expr(e.Filter)
		r.w(")")
	}
	if e.Over != nil {
		r.w(" OVER ")
		r.window(e.Over)
	}
}

func (r *renderer) window(w *ast.WindowSpec) {
	if w.Ref != "" && w.PartitionBy == nil && w.OrderBy == nil && w.Frame == nil {
		r.w(ident(w.Ref))
		return
	}
	r.w("(")
	var parts []string
	if w.Ref != "" {
		parts = append(parts, ident(w.Ref))
	}
	sub := func(f func()) string {
		var rr renderer
		saved := *r
		*r = rr
		f()
		s := r.b.String()
		*r = saved
		return s
	}
	if w.PartitionBy != nil {
		parts = append(parts, "PARTITION BY "+sub(func() { r.exprs(w.PartitionBy) }))
	}
	if w.OrderBy != nil {
		parts = append(parts, sub(func() { r.orderBy(w.OrderBy) }))
	}
	if f := w.Frame; f != nil {
		s := f.Mode + " "
		bound := func(b ast.FrameBound) string {
			if b.Offset != nil {
				return sub(func() { r.expr(b.Offset) }) + " " + b.Kind
			}
			return b.Kind
		}
		if f.End.Kind != "" {
			s += "BETWEEN " + bound(f.Start) + " AND " + bound(f.End)
		} else {
			s += bound(f.Start)
		}
		if f.Exclude != "" {
			s += " EXCLUDE " + f.Exclude
		}
		parts = append(parts, s)
	}
	r.w(strings.Join(parts, " "), ")")
}

func (r *renderer) orderBy(items []ast.OrderItem) {
	r.w("ORDER BY ")
	for i, it := range items {
		if i > 0 {
			r.w(", ")
		}
		r.expr(it.Expr)
		if it.Desc {
			r.w(" DESC")
		}
		if it.Using != "" {
			r.w(" USING ", it.Using)
		}
		if it.Nulls != "" {
			r.w(" NULLS ", it.Nulls)
		}
	}
}

func (r *renderer) targets(ts []ast.Target) {
	for i, t := range ts {
		if i > 0 {
			r.w(", ")
		}
		switch {
		case t.Star && t.Table != nil:
			r.w(qname(*t.Table), ".*")
		case t.Star:
			r.w("*")
		default:
			r.expr(t.Expr)
		}
		if t.Alias != "" {
			r.w(" AS ", ident(t.Alias))
		}
	}
}

func (r *renderer) alias(a *ast.Alias) {
	if a == nil {
		return
	}
	r.w(" AS ", ident(a.Name))
	if a.Columns != nil {
		r.w("(", names(a.Columns), ")")
	}
}

func (r *renderer) tableExpr(t ast.TableExpr) {
	switch t := t.(type) {
	case *ast.TableRef:
		if t.Only {
			r.w("ONLY ")
		}
		r.w(qname(t.Name))
		for _, pc := range t.Periods {
			r.w(" FOR ", string(pc.Axis), " ")
			switch pc.Op {
			case ast.PeriodAsOf:
				r.w("AS OF ")
				r.expr(pc.A)
			case ast.PeriodFromTo:
				r.w("FROM ")
				r.expr(pc.A)
				r.w(" TO ")
				r.expr(pc.B)
			case ast.PeriodBetween:
				r.w("BETWEEN ")
				r.expr(pc.A)
				r.w(" AND ")
				r.expr(pc.B)
			case ast.PeriodAll:
				r.w("ALL")
			}
		}
		r.alias(t.Alias)
	case *ast.SubqueryTable:
		if t.Lateral {
			r.w("LATERAL ")
		}
		r.w("(")
		r.stmt(t.Query)
		r.w(")")
		r.alias(t.Alias)
	case *ast.FuncTable:
		if t.Lateral {
			r.w("LATERAL ")
		}
		r.funcCall(t.Call)
		if t.WithOrdinality {
			r.w(" WITH ORDINALITY")
		}
		r.alias(t.Alias)
	case *ast.Join:
		r.w("(")
		r.tableExpr(t.Left)
		r.w(" ")
		if t.Natural {
			r.w("NATURAL ")
		}
		r.w(string(t.Kind), " JOIN ")
		r.tableExpr(t.Right)
		if t.On != nil {
			r.w(" ON ")
			r.expr(t.On)
		}
		if t.Using != nil {
			r.w(" USING (", names(t.Using), ")")
		}
		r.w(")")
		r.alias(t.Alias)
	default:
		r.w(fmt.Sprintf("<%T>", t))
	}
}

func (r *renderer) from(ts []ast.TableExpr) {
	for i, t := range ts {
		if i > 0 {
			r.w(", ")
		}
		r.tableExpr(t)
	}
}

func (r *renderer) setExpr(s ast.SetExpr) {
	switch s := s.(type) {
	case *ast.SelectCore:
		r.w("SELECT")
		if s.Distinct {
			r.w(" DISTINCT")
			if s.DistinctOn != nil {
				r.w(" ON (")
				r.exprs(s.DistinctOn)
				r.w(")")
			}
		}
		if s.Targets != nil {
			r.w(" ")
			r.targets(s.Targets)
		}
		if s.From != nil {
			r.w(" FROM ")
			r.from(s.From)
		}
		if s.Where != nil {
			r.w(" WHERE ")
			r.expr(s.Where)
		}
		if s.GroupBy != nil {
			r.w(" GROUP BY ")
			r.exprs(s.GroupBy)
		}
		if s.Having != nil {
			r.w(" HAVING ")
			r.expr(s.Having)
		}
		for i, w := range s.Windows {
			if i == 0 {
				r.w(" WINDOW ")
			} else {
				r.w(", ")
			}
			r.w(ident(w.Name), " AS ")
			r.window(w.Spec)
		}
	case *ast.SetOp:
		r.setOperand(s.Left)
		r.w(" ", s.Op)
		if s.All {
			r.w(" ALL")
		}
		r.w(" ")
		r.setOperand(s.Right)
	case *ast.Values:
		r.w("VALUES ")
		for i, row := range s.Rows {
			if i > 0 {
				r.w(", ")
			}
			r.w("(")
			r.exprs(row)
			r.w(")")
		}
	case *ast.Select:
		r.w("(")
		r.stmt(s)
		r.w(")")
	default:
		r.w(fmt.Sprintf("<%T>", s))
	}
}

func (r *renderer) setOperand(s ast.SetExpr) {
	if _, ok := s.(*ast.SetOp); ok {
		r.w("(")
		r.setExpr(s)
		r.w(")")
		return
	}
	r.setExpr(s)
}

func (r *renderer) with(w *ast.With) {
	if w == nil {
		return
	}
	r.w("WITH ")
	if w.Recursive {
		r.w("RECURSIVE ")
	}
	for i, c := range w.CTEs {
		if i > 0 {
			r.w(", ")
		}
		r.w(ident(c.Name))
		if c.Columns != nil {
			r.w("(", names(c.Columns), ")")
		}
		r.w(" AS (")
		r.stmt(c.Query)
		r.w(")")
	}
	r.w(" ")
}

func (r *renderer) returning(ts []ast.Target) {
	if ts != nil {
		r.w(" RETURNING ")
		r.targets(ts)
	}
}

func (r *renderer) setClauses(sc []ast.SetClause) {
	for i, s := range sc {
		if i > 0 {
			r.w(", ")
		}
		r.w(ident(s.Column), " = ")
		r.expr(s.Value)
	}
}

func sortedOptions(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + quote(m[k])
	}
	return strings.Join(parts, ", ")
}

func (r *renderer) columnDef(c ast.ColumnDef) {
	r.w(ident(c.Name))
	if c.Type.Name != "" {
		r.w(" ", typeName(c.Type))
	}
	if c.Collate != "" {
		r.w(" COLLATE ", c.Collate)
	}
	if c.PrimaryKey {
		r.w(" PRIMARY KEY")
	}
	if c.NotNull {
		r.w(" NOT NULL")
	}
	if c.Null {
		r.w(" NULL")
	}
	if c.Unique {
		r.w(" UNIQUE")
	}
	if c.Default != nil {
		r.w(" DEFAULT ")
		r.expr(c.Default)
	}
	if c.Check != nil {
		r.w(" CHECK (")
		r.expr(c.Check)
		r.w(")")
	}
	if c.References != nil {
		r.w(" ")
		r.ref(c.References)
	}
	for _, tc := range c.Constraints {
		r.w(" ")
		r.constraint(tc)
	}
}

func (r *renderer) ref(f *ast.ForeignKeyRef) {
	r.w("REFERENCES ", qname(f.Table))
	if f.Columns != nil {
		r.w("(", names(f.Columns), ")")
	}
	if f.OnDelete != "" {
		r.w(" ON DELETE ", f.OnDelete)
	}
	if f.OnUpdate != "" {
		r.w(" ON UPDATE ", f.OnUpdate)
	}
}

func (r *renderer) constraint(tc ast.TableConstraint) {
	if tc.Name != "" {
		r.w("CONSTRAINT ", ident(tc.Name), " ")
	}
	r.w(string(tc.Kind))
	if tc.Columns != nil {
		r.w(" (", names(tc.Columns), ")")
	}
	if tc.Check != nil {
		r.w(" (")
		r.expr(tc.Check)
		r.w(")")
	}
	if tc.Ref != nil {
		r.w(" ")
		r.ref(tc.Ref)
	}
}

func colSel(c *ast.ColumnSelection) string {
	if c == nil {
		return "<nil>"
	}
	if c.All {
		return "* EXCEPT (" + names(c.Columns) + ")"
	}
	return "(" + names(c.Columns) + ")"
}

func (r *renderer) stmt(s ast.Statement) {
	switch s := s.(type) {
	case *ast.Select:
		r.with(s.With)
		r.setExpr(s.Body)
		if s.OrderBy != nil {
			r.w(" ")
			r.orderBy(s.OrderBy)
		}
		if s.Limit != nil {
			r.w(" LIMIT ")
			r.expr(s.Limit)
		}
		if s.WithTies {
			r.w(" WITH TIES")
		}
		if s.Offset != nil {
			r.w(" OFFSET ")
			r.expr(s.Offset)
		}
		if s.Locking != "" {
			r.w(" {", s.Locking, "}")
		}
	case *ast.Insert:
		r.with(s.With)
		r.w("INSERT INTO ", qname(s.Table))
		if s.Alias != "" {
			r.w(" AS ", ident(s.Alias))
		}
		if s.Columns != nil {
			r.w(" (", names(s.Columns), ")")
		}
		if s.Source == nil {
			r.w(" DEFAULT VALUES")
		} else {
			r.w(" ")
			r.stmt(s.Source)
		}
		if oc := s.OnConflict; oc != nil {
			r.w(" ON CONFLICT")
			if oc.Columns != nil {
				r.w(" (", names(oc.Columns), ")")
			}
			if oc.Constraint != "" {
				r.w(" ON CONSTRAINT ", ident(oc.Constraint))
			}
			if oc.DoNothing {
				r.w(" DO NOTHING")
			} else {
				r.w(" DO UPDATE SET ")
				r.setClauses(oc.Set)
				if oc.Where != nil {
					r.w(" WHERE ")
					r.expr(oc.Where)
				}
			}
		}
		r.returning(s.Returning)
	case *ast.Update:
		r.with(s.With)
		r.w("UPDATE ", qname(s.Table))
		if s.Alias != "" {
			r.w(" AS ", ident(s.Alias))
		}
		r.w(" SET ")
		r.setClauses(s.Set)
		if s.From != nil {
			r.w(" FROM ")
			r.from(s.From)
		}
		if s.Where != nil {
			r.w(" WHERE ")
			r.expr(s.Where)
		}
		r.returning(s.Returning)
	case *ast.Delete:
		r.with(s.With)
		r.w("DELETE FROM ", qname(s.Table))
		if s.Alias != "" {
			r.w(" AS ", ident(s.Alias))
		}
		if s.Using != nil {
			r.w(" USING ")
			r.from(s.Using)
		}
		if s.Where != nil {
			r.w(" WHERE ")
			r.expr(s.Where)
		}
		r.returning(s.Returning)
	case *ast.Copy:
		r.w("COPY ")
		if s.Query != nil {
			r.w("(")
			r.stmt(s.Query)
			r.w(")")
		} else {
			r.w(qname(*s.Table))
			if s.Columns != nil {
				r.w(" (", names(s.Columns), ")")
			}
		}
		if s.From {
			r.w(" FROM STDIN")
		} else {
			r.w(" TO STDOUT")
		}
		if len(s.Options) > 0 {
			r.w(" (", sortedOptions(s.Options), ")")
		}
	case *ast.Truncate:
		r.w("TRUNCATE ")
		for i, t := range s.Tables {
			if i > 0 {
				r.w(", ")
			}
			r.w(qname(t))
		}
		if s.RestartIdentity {
			r.w(" RESTART IDENTITY")
		}
		if s.Cascade {
			r.w(" CASCADE")
		}
	case *ast.CreateSchema:
		r.w("CREATE SCHEMA ")
		if s.IfNotExists {
			r.w("IF NOT EXISTS ")
		}
		r.w(ident(s.Name))
	case *ast.CreateTable:
		r.w("CREATE ")
		if s.OrRefresh {
			r.w("OR REFRESH ")
		}
		if s.Temporary {
			r.w("TEMP ")
		}
		if s.Streaming {
			r.w("STREAMING ")
		}
		r.w("TABLE ")
		if s.IfNotExists {
			r.w("IF NOT EXISTS ")
		}
		r.w(qname(s.Name))
		if s.Columns != nil || s.Constraints != nil || s.AsQuery == nil {
			r.w(" (")
			for i, c := range s.Columns {
				if i > 0 {
					r.w(", ")
				}
				r.columnDef(c)
			}
			for i, c := range s.Constraints {
				if i > 0 || len(s.Columns) > 0 {
					r.w(", ")
				}
				r.constraint(c)
			}
			r.w(")")
		}
		if s.Options != nil {
			r.w(" WITH (", sortedOptions(s.Options), ")")
		}
		if s.OnCommit != "" {
			r.w(" ON COMMIT ", s.OnCommit)
		}
		if s.Comment != "" {
			r.w(" COMMENT ", quote(s.Comment))
		}
		if s.AsQuery != nil {
			r.w(" AS ")
			r.stmt(s.AsQuery)
			if s.WithNoData {
				r.w(" WITH NO DATA")
			}
		}
	case *ast.Drop:
		r.w("DROP ", string(s.Kind), " ")
		if s.IfExists {
			r.w("IF EXISTS ")
		}
		for i, n := range s.Names {
			if i > 0 {
				r.w(", ")
			}
			r.w(qname(n))
		}
		if s.Cascade {
			r.w(" CASCADE")
		}
	case *ast.CreateIndex:
		r.w("CREATE ")
		if s.Unique {
			r.w("UNIQUE ")
		}
		r.w("INDEX ")
		if s.IfNotExists {
			r.w("IF NOT EXISTS ")
		}
		if s.Name != "" {
			r.w(ident(s.Name), " ")
		}
		r.w("ON ", qname(s.Table))
		if s.Using != "" {
			r.w(" USING ", s.Using)
		}
		r.w(" (")
		var rr renderer
		rr.orderBy(s.Columns)
		r.w(strings.TrimPrefix(rr.b.String(), "ORDER BY "), ")")
		if s.Where != nil {
			r.w(" WHERE ")
			r.expr(s.Where)
		}
	case *ast.CreateView:
		r.w("CREATE ")
		if s.OrReplace {
			r.w("OR REPLACE ")
		}
		r.w("VIEW ", qname(s.Name))
		if s.Columns != nil {
			r.w(" (", names(s.Columns), ")")
		}
		r.w(" AS ")
		r.stmt(s.Query)
		r.w(" {", s.Text, "}")
	case *ast.AlterTable:
		r.w("ALTER TABLE ")
		if s.IfExists {
			r.w("IF EXISTS ")
		}
		r.w(qname(s.Name))
		for i, a := range s.Actions {
			if i > 0 {
				r.w(",")
			}
			r.w(" ")
			r.alterAction(a)
		}
	case *ast.CommentOn:
		r.w("COMMENT ON ", string(s.Kind), " ", qname(s.Name), " IS ")
		if s.Comment == nil {
			r.w("NULL")
		} else {
			r.w(quote(*s.Comment))
		}
	case *ast.CreateFlow:
		r.w("CREATE FLOW ", ident(s.Name))
		if s.Comment != "" {
			r.w(" COMMENT ", quote(s.Comment))
		}
		r.w(" AS AUTO CDC ")
		if s.Once {
			r.w("ONCE ")
		}
		r.w("INTO ", qname(s.Target), " FROM ")
		switch {
		case s.SnapshotQuery != nil:
			r.w("SNAPSHOT (")
			r.stmt(s.SnapshotQuery)
			r.w(")")
		case s.Snapshot:
			r.w("SNAPSHOT ", qname(s.Source))
		default:
			r.w(qname(s.Source))
		}
		if s.VersionQuery != nil {
			r.w(" WITH VERSION (")
			r.stmt(s.VersionQuery)
			r.w(")")
		}
		if s.VersionBy != nil {
			r.w(" VERSION BY ")
			r.expr(s.VersionBy)
		}
		if s.TriggerOnUpdate {
			r.w(" TRIGGER ON UPDATE")
		}
		if s.Keys != nil {
			r.w(" KEYS (", names(s.Keys), ")")
		}
		if s.IgnoreNullUpdates != nil {
			r.w(" IGNORE NULL UPDATES ON ", colSel(s.IgnoreNullUpdates))
		}
		if s.DeleteWhen != nil {
			r.w(" APPLY AS DELETE WHEN ")
			r.expr(s.DeleteWhen)
		}
		if s.TruncateWhen != nil {
			r.w(" APPLY AS TRUNCATE WHEN ")
			r.expr(s.TruncateWhen)
		}
		if s.SequenceBy != nil {
			r.w(" SEQUENCE BY ")
			if s.SequenceIsStruct {
				r.w("STRUCT(")
				r.exprs(s.SequenceBy)
				r.w(")")
			} else {
				r.exprs(s.SequenceBy)
			}
		}
		if s.SystemSequenceBy != nil {
			r.w(" SYSTEM SEQUENCE BY ")
			r.expr(s.SystemSequenceBy)
		}
		if s.Columns != nil {
			r.w(" COLUMNS ", colSel(s.Columns))
		}
		if s.StoredAs != "" {
			r.w(" STORED AS ", s.StoredAs)
		}
		if s.TrackHistory != nil {
			r.w(" TRACK HISTORY ON ", colSel(s.TrackHistory))
		}
		if s.ColumnsToUpdate != "" {
			r.w(" COLUMNS TO UPDATE ", ident(s.ColumnsToUpdate))
		}
	case *ast.RefreshStreamingTable:
		r.w("REFRESH STREAMING TABLE ", qname(s.Name))
		if s.Full {
			r.w(" FULL")
		}
	case *ast.Transaction:
		r.w(string(s.Kind))
		if s.Savepoint != "" {
			r.w(" ", ident(s.Savepoint))
		}
		if len(s.Modes) > 0 {
			modes := make([]string, len(s.Modes))
			for i, m := range s.Modes {
				modes[i] = string(m)
			}
			r.w(" ", strings.Join(modes, ", "))
		}
		r.w(" {", s.Verb, "}")
	case *ast.Set:
		r.w("SET ")
		if s.Local {
			r.w("LOCAL ")
		}
		r.w(s.Name, " = ")
		if s.Default {
			r.w("DEFAULT")
		} else {
			r.exprs(s.Values)
		}
	case *ast.Show:
		r.w("SHOW ", s.Name)
	case *ast.Reset:
		r.w("RESET ", s.Name)
	case *ast.Discard:
		r.w("DISCARD ", s.What)
	case *ast.LockTable:
		r.w("LOCK TABLE ")
		for i, t := range s.Tables {
			if i > 0 {
				r.w(", ")
			}
			r.w(strings.Join(t.Parts, "."))
		}
		r.w(" IN ", s.Mode, " MODE")
		if s.NoWait {
			r.w(" NOWAIT")
		}
	case *ast.Deallocate:
		r.w("DEALLOCATE ")
		if s.Name == "" {
			r.w("ALL")
		} else {
			r.w(ident(s.Name))
		}
	case *ast.Explain:
		r.w("EXPLAIN ")
		if len(s.Options) > 0 {
			r.w("(", sortedOptions(s.Options), ") ")
		}
		r.stmt(s.Stmt)
	default:
		r.w(fmt.Sprintf("<%T>", s))
	}
}

func (r *renderer) alterAction(a ast.AlterAction) {
	switch a := a.(type) {
	case *ast.AddColumn:
		r.w("ADD COLUMN ")
		if a.IfNotExists {
			r.w("IF NOT EXISTS ")
		}
		r.columnDef(a.Column)
	case *ast.DropColumn:
		r.w("DROP COLUMN ")
		if a.IfExists {
			r.w("IF EXISTS ")
		}
		r.w(ident(a.Name))
		if a.Cascade {
			r.w(" CASCADE")
		}
	case *ast.RenameColumn:
		r.w("RENAME COLUMN ", ident(a.Old), " TO ", ident(a.New))
	case *ast.RenameTable:
		r.w("RENAME TO ", ident(a.New))
	case *ast.AddConstraint:
		r.w("ADD ")
		r.constraint(a.Constraint)
	case *ast.DropConstraint:
		r.w("DROP CONSTRAINT ")
		if a.IfExists {
			r.w("IF EXISTS ")
		}
		r.w(ident(a.Name))
		if a.Cascade {
			r.w(" CASCADE")
		}
	case *ast.AlterColumn:
		r.w("ALTER COLUMN ", ident(a.Column))
		switch {
		case a.SetDefault != nil:
			r.w(" SET DEFAULT ")
			r.expr(a.SetDefault)
		case a.DropDefault:
			r.w(" DROP DEFAULT")
		case a.SetNotNull:
			r.w(" SET NOT NULL")
		case a.DropNotNull:
			r.w(" DROP NOT NULL")
		case a.Type != nil:
			r.w(" TYPE ", typeName(*a.Type))
			if a.Using != nil {
				r.w(" USING ")
				r.expr(a.Using)
			}
		}
	case *ast.SetTableOptions:
		r.w("SET (", sortedOptions(a.Options), ")")
	default:
		r.w(fmt.Sprintf("<%T>", a))
	}
}
