package sql

import (
	"sync"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
	"cdcdb/sql/pgdefs"
)

// System views are planned from PostgreSQL's own definitions in
// system_views.sql (pg_tables, pg_roles, pg_settings, ...), over the
// catalogs above, exactly as a user view is planned from its query: their
// columns and behaviour are then PostgreSQL's, not a copy of them.

// systemViewQueries caches each system view's parsed query.
var systemViewQueries sync.Map // *systemTable -> *ast.Select

// systemViewCols caches each system view's output columns, which depend
// only on the catalogs' column types.
var systemViewCols sync.Map // *systemTable -> []outCol

func init() {
	for _, v := range pgdefs.SystemViews() {
		registerSystemTable(&systemTable{schema: "pg_catalog", name: v.Name, query: v.SQL})
	}
}

// systemViewSelect parses a system view's query once.
func systemViewSelect(vt *systemTable) (*ast.Select, error) {
	if q, ok := systemViewQueries.Load(vt); ok {
		return q.(*ast.Select), nil
	}
	stmts, err := parse.Parse(vt.query)
	if err != nil {
		return nil, pgerror.New(pgerror.InternalError, "system view %s.%s: %v", vt.schema, vt.name, err)
	}
	q, ok := stmts[0].(*ast.Select)
	if len(stmts) != 1 || !ok {
		return nil, pgerror.New(pgerror.InternalError, "system view %s.%s is not a query", vt.schema, vt.name)
	}
	systemViewQueries.Store(vt, q)
	return q, nil
}

// planSystemView plans a reference to a system view.
func (pc *planCtx) planSystemView(vt *systemTable, t *ast.TableRef) (plan, []*scopeRel, error) {
	if vt.name == "pg_shadow" && pc.inSystemView == 0 {
		if err := pc.requireSuperuser("permission denied for view pg_shadow"); err != nil {
			return nil, nil, err
		}
	}
	q, err := systemViewSelect(vt)
	if err != nil {
		return nil, nil, err
	}
	pc.inSystemView++
	p, err := pc.planQuery(q, nil)
	pc.inSystemView--
	if err != nil {
		return nil, nil, err
	}
	cols := p.columns()
	systemViewCols.LoadOrStore(vt, cols)
	rel := relFromColumns(vt.name, cols)
	rel.schema = vt.schema
	rel.relOID = vt.oid
	for i := range rel.cols {
		rel.cols[i].tableOID = vt.oid
		rel.cols[i].attnum = int16(i + 1)
	}
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return p, []*scopeRel{rel}, nil
}

// systemViewColumns returns a system view's columns, planning it once if
// no query has used it yet.
func systemViewColumns(x *execCtx, vt *systemTable) ([]outCol, error) {
	if cols, ok := systemViewCols.Load(vt); ok {
		return cols.([]outCol), nil
	}
	pc := &planCtx{sess: x.sess, cat: x.catalogOf(), params: &paramSlots{}}
	q, err := systemViewSelect(vt)
	if err != nil {
		return nil, err
	}
	p, err := pc.planQuery(q, nil)
	if err != nil {
		return nil, err
	}
	cols := p.columns()
	systemViewCols.Store(vt, cols)
	return cols, nil
}

// planSystemTable plans a reference to a system table. Its rows carry
// PostgreSQL's system column tableoid (the relation's OID), which psql's
// \dd and \dL join pg_description on; like the right side of JOIN USING
// it is hidden from * and found only by a qualified name (l.tableoid).
func (pc *planCtx) planSystemTable(vt *systemTable, t *ast.TableRef) (plan, []*scopeRel, error) {
	if vt.name == "pg_authid" && pc.inSystemView == 0 {
		// It holds the password verifiers; pg_roles shows it without them.
		if err := pc.requireSuperuser("permission denied for table pg_authid"); err != nil {
			return nil, nil, err
		}
	}
	scan := &systemScan{vt: vt, pc: pc}
	rel := relFromColumns(t.Name.Name(), scan.columns())
	rel.schema = vt.schema
	rel.relOID = vt.oid
	for i := range rel.cols {
		rel.cols[i].tableOID = vt.oid
		rel.cols[i].attnum = int16(i + 1)
	}
	last := len(rel.cols) - 1
	rel.cols[last].hidden = true
	rel.cols[last].attnum = -6 // TableOidAttributeNumber
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return scan, []*scopeRel{rel}, nil
}
