package sql

import (
	"reflect"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// Views depend on the relations their queries read: DROP of such a
// relation fails unless CASCADE, which drops the views too, as in
// PostgreSQL. cdcdb keeps a view's query as text, so the dependencies are
// found by reading the views' queries when a relation is dropped.

// viewsReading lists the views whose queries name relation t.
func viewsReading(pc *planCtx, t *catalog.Table) []*catalog.Table {
	var out []*catalog.Table
	for _, v := range pc.cat.Tables() {
		if v.Kind != catalog.KindView || v.OID == t.OID {
			continue
		}
		stmts, err := parse.Parse(v.ViewQuery)
		if err != nil || len(stmts) != 1 {
			continue
		}
		reads := false
		tableRefsIn(reflect.ValueOf(stmts[0]), func(ref *ast.TableRef) {
			if ref.Name.Name() != t.Name {
				return
			}
			if s := ref.Name.Schema(); s != "" {
				if sc, ok := pc.cat.Schema(s); ok && sc.OID == t.Schema {
					reads = true
				}
				return
			}
			pc.inView++
			outerPath := pc.viewPath
			if len(v.ViewSearchPath) > 0 {
				pc.viewPath = v.ViewSearchPath
			}
			if found, _, err := pc.lookupTable(ref.Name); err == nil && found.OID == t.OID {
				reads = true
			}
			pc.viewPath = outerPath
			pc.inView--
		})
		if reads {
			out = append(out, v)
		}
	}
	return out
}

var tableRefType = reflect.TypeOf(&ast.TableRef{})

// tableRefsIn calls fn for every table reference in a syntax tree,
// subqueries and CTEs included.
func tableRefsIn(v reflect.Value, fn func(*ast.TableRef)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Type() == tableRefType {
			fn(v.Interface().(*ast.TableRef))
		}
		tableRefsIn(v.Elem(), fn)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				tableRefsIn(v.Field(i), fn)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			tableRefsIn(v.Index(i), fn)
		}
	}
}

// dropDependentViews refuses to drop t while views read it, or with
// CASCADE drops those views (and the views reading them) first. Views
// dropped by the same statement do not count.
func (x *execCtx) dropDependentViews(pc *planCtx, t *catalog.Table, st *ast.Drop) error {
	dropping := map[catalog.OID]bool{}
	for _, n := range st.Names {
		if other, _, err := pc.lookupTable(n); err == nil {
			dropping[other.OID] = true
		}
	}
	for _, v := range viewsReading(pc, t) {
		if dropping[v.OID] {
			continue
		}
		if !st.Cascade {
			what := "table"
			if t.Kind == catalog.KindView {
				what = "view"
			}
			return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop %s %s because other objects depend on it", what, t.Name).
				WithDetail("view %s depends on %s %s", v.Name, what, t.Name).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		if err := x.dropDependentViews(pc, v, st); err != nil {
			return err
		}
		if err := x.removeTable(v); err != nil {
			return err
		}
		pc.cat = x.tx.catalog()
		x.notice("drop cascades to view %s", v.Name)
	}
	return nil
}
