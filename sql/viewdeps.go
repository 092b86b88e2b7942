package sql

import (
	"reflect"
	"sort"

	"cdcdb/catalog"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// What pg_dump needs of a view to write a script that restores it: the
// relations its query reads, so that it is written after them, and its
// query with those relations named so that they are found whatever the
// restoring session's search_path (pg_dump sets it empty).
//
// PostgreSQL keeps a view's query as a rewrite rule, "_RETURN", whose
// pg_depend rows name what the query reads; pg_dump orders a view after
// its rule's dependencies. cdcdb keeps the query as text, so each view gets
// such a rule (catalogviews' viewrules.go: pg_rewrite), with pg_depend rows
// found here by resolving the query's table references as the view's own
// planning does (with its ViewSearchPath); and pg_get_viewdef prints the query with each
// relation qualified by its schema when the session's search_path would
// not find that relation by its bare name, as PostgreSQL's ruleutils does.

// viewTableRef is one table reference in a view's query and the relation
// it names (nil for a CTE's name or a name that no longer resolves).
type viewTableRef struct {
	ref *ast.TableRef
	rel *catalog.Table
}

// viewTableRefs parses v's query and resolves its table references.
func viewTableRefs(pc *planCtx, v *catalog.Table) []viewTableRef {
	stmts, err := parse.Parse(v.ViewQuery)
	if err != nil || len(stmts) != 1 {
		return nil
	}
	ctes := map[string]bool{}
	cteNamesIn(reflect.ValueOf(stmts[0]), ctes)
	var out []viewTableRef
	pc.inView++
	outerPath := pc.viewPath
	if len(v.ViewSearchPath) > 0 {
		pc.viewPath = v.ViewSearchPath
	}
	tableRefsIn(reflect.ValueOf(stmts[0]), func(ref *ast.TableRef) {
		r := viewTableRef{ref: ref}
		if !(len(ref.Name.Parts) == 1 && ctes[ref.Name.Name()]) {
			if t, _, err := pc.lookupTable(ref.Name); err == nil {
				r.rel = t
			}
		}
		out = append(out, r)
	})
	pc.viewPath = outerPath
	pc.inView--
	return out
}

var cteType = reflect.TypeOf(ast.CTE{})

// cteNamesIn collects the names of the CTEs anywhere in a syntax tree.
func cteNamesIn(v reflect.Value, names map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cteNamesIn(v.Elem(), names)
		}
	case reflect.Struct:
		if v.Type() == cteType {
			names[v.Interface().(ast.CTE).Name] = true
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				cteNamesIn(v.Field(i), names)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			cteNamesIn(v.Index(i), names)
		}
	}
}

// qualifiedViewQuery is v's query text with each unqualified relation it
// reads prefixed by its schema where the session's search_path would not
// find the same relation by the bare name.
func qualifiedViewQuery(x *execCtx, v *catalog.Table) string {
	view := &planCtx{sess: x.sess, cat: x.catalogOf(), params: &paramSlots{}}
	session := &planCtx{sess: x.sess, cat: x.catalogOf(), params: &paramSlots{}}
	type insertion struct {
		pos  int
		text string
	}
	var ins []insertion
	for _, r := range viewTableRefs(view, v) {
		if r.rel == nil || len(r.ref.Name.Parts) != 1 {
			continue
		}
		if seen, _, err := session.lookupTable(r.ref.Name); err == nil && seen.OID == r.rel.OID {
			continue
		}
		sc, ok := x.catalogOf().SchemaByOID(r.rel.Schema)
		if !ok {
			continue
		}
		ins = append(ins, insertion{pos: r.ref.Name.Pos, text: parse.QuoteIdent(sc.Name) + "."})
	}
	sort.Slice(ins, func(i, j int) bool { return ins[i].pos > ins[j].pos })
	q := v.ViewQuery
	for _, in := range ins {
		if in.pos < 0 || in.pos > len(q) {
			return v.ViewQuery
		}
		q = q[:in.pos] + in.text + q[in.pos:]
	}
	return q
}

// viewReads are the relations v's query reads, each once, as its own
// planning resolves them (what its rewrite rule depends on, for
// catalogviews' pg_depend).
func viewReads(x *execCtx, v *catalog.Table) []catalog.OID {
	pc := &planCtx{sess: x.sess, cat: x.catalogOf(), params: &paramSlots{}}
	seen := map[catalog.OID]bool{}
	var out []catalog.OID
	for _, r := range viewTableRefs(pc, v) {
		if r.rel == nil || seen[r.rel.OID] || r.rel.OID == v.OID {
			continue
		}
		seen[r.rel.OID] = true
		out = append(out, r.rel.OID)
	}
	return out
}
