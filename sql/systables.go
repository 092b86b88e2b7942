package sql

import (
	"sync"

	"cdcdb/catalog"
	"cdcdb/sql/ast"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The system relations (pg_catalog, information_schema, cdcdb.*) are
// package catalogviews'; here they are planned: a system table as a scan
// of the rows catalogviews makes, a system view from its defining SQL like
// a user view (catalogviews_session.go is what they read of the session).

// lookupSystemTable finds a system relation: by schema when qualified,
// else in pg_catalog (which PostgreSQL searches before search_path).
func (pc *planCtx) lookupSystemTable(q ast.QualifiedName) (*catalogviews.Relation, bool) {
	if len(q.Parts) == 3 && q.Parts[0] != "main" {
		return nil, false
	}
	schema := q.Schema()
	if schema == "" {
		schema = "pg_catalog"
	}
	return catalogviews.Lookup(schema, q.Name())
}

// systemScan reads a system relation. Its rows end with the hidden system
// column tableoid (see planSystemTable).
type systemScan struct {
	vt *catalogviews.Relation
	pc *planCtx
}

func (p *systemScan) columns() []outCol {
	return append(relationColumns(p.vt, p.vt.Columns()), outCol{name: "tableoid", t: types.Of(types.Oid)})
}

func (p *systemScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Function Scan on %s", p.vt.Name())
}

func (p *systemScan) open(x *execCtx, _ *eval.Env) (rowIter, error) {
	rows, err := p.vt.Rows(catalogViewSession{x})
	if err != nil {
		return nil, err
	}
	// Rows may be a cache shared by concurrent statements: hand out copies.
	return &copyingIter{rows: rows, width: len(p.vt.Columns()), tableOID: int64(p.vt.OID())}, nil
}

// copyingIter returns a copy of each row with its tableoid, so no later
// operator can change the rows it iterates.
type copyingIter struct {
	rows     []eval.Row
	i        int
	width    int // the relation's columns; tableoid follows them
	tableOID int64
}

func (it *copyingIter) next() (eval.Row, error) {
	if it.i >= len(it.rows) {
		return nil, nil
	}
	r := make(eval.Row, it.width+1)
	copy(r[:it.width], it.rows[it.i])
	r[it.width] = it.tableOID
	it.i++
	return r, nil
}

func (it *copyingIter) close() {}

// catalogOf is the catalog a running statement reads.
func (x *execCtx) catalogOf() *catalog.Snapshot { return x.tx.catalog() }

// systemViewCols caches each system view's output columns, which depend
// only on the catalogs' column types.
var systemViewCols sync.Map // *catalogviews.Relation -> []outCol

// planSystemView plans a reference to a system view.
func (pc *planCtx) planSystemView(vt *catalogviews.Relation, t *ast.TableRef) (plan, []*scopeRel, error) {
	if vt.Name() == "pg_shadow" && pc.inSystemView == 0 {
		if err := pc.requireSuperuser("permission denied for view pg_shadow"); err != nil {
			return nil, nil, err
		}
	}
	q, err := catalogviews.ViewSelect(vt)
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
	rel := relFromColumns(vt.Name(), cols)
	rel.schema = vt.Schema()
	rel.relOID = vt.OID()
	for i := range rel.cols {
		rel.cols[i].tableOID = vt.OID()
		rel.cols[i].attnum = int16(i + 1)
	}
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return p, []*scopeRel{rel}, nil
}

// systemViewColumns returns a system view's columns, planning it once if
// no query has used it yet.
func systemViewColumns(x *execCtx, vt *catalogviews.Relation) ([]outCol, error) {
	if cols, ok := systemViewCols.Load(vt); ok {
		return cols.([]outCol), nil
	}
	pc := &planCtx{sess: x.sess, cat: x.catalogOf(), params: &paramSlots{}}
	q, err := catalogviews.ViewSelect(vt)
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
func (pc *planCtx) planSystemTable(vt *catalogviews.Relation, t *ast.TableRef) (plan, []*scopeRel, error) {
	if vt.Name() == "pg_authid" && pc.inSystemView == 0 {
		// It holds the password verifiers; pg_roles shows it without them.
		if err := pc.requireSuperuser("permission denied for table pg_authid"); err != nil {
			return nil, nil, err
		}
	}
	scan := &systemScan{vt: vt, pc: pc}
	rel := relFromColumns(t.Name.Name(), scan.columns())
	rel.schema = vt.Schema()
	rel.relOID = vt.OID()
	for i := range rel.cols {
		rel.cols[i].tableOID = vt.OID()
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
