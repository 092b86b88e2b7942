package sql

import (
	"cdcdb/catalog"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// systemTable is a read-only relation computed from the catalog on each
// read: pg_catalog and information_schema relations, and cdcdb's own views.
type systemTable struct {
	schema string
	name   string
	oid    uint32
	cols   []outCol
	rows   func(x *execCtx) ([]eval.Row, error)
	// query, when set, makes this a system view: its defining SQL is
	// planned where it is used, like a user view's (cols and rows unused).
	query string
}

// systemTables holds every system relation by schema, then name.
var systemTables = map[string]map[string]*systemTable{}

// nextSystemOID numbers system relations below FirstUserOID, as
// PostgreSQL's own catalogs are.
var nextSystemOID uint32 = 12000

func registerSystemTable(t *systemTable) {
	if systemTables[t.schema] == nil {
		systemTables[t.schema] = map[string]*systemTable{}
	}
	if t.oid == 0 {
		t.oid = nextSystemOID
		nextSystemOID++
	}
	for i := range t.cols {
		t.cols[i].tableOID = t.oid
		t.cols[i].attnum = int16(i + 1)
	}
	systemTables[t.schema][t.name] = t
}

// lookupSystemTable finds a system relation: by schema when qualified,
// else in pg_catalog (which PostgreSQL searches before search_path).
func (pc *planCtx) lookupSystemTable(q ast.QualifiedName) (*systemTable, bool) {
	if len(q.Parts) == 3 && q.Parts[0] != "main" {
		return nil, false
	}
	schema := q.Schema()
	if schema == "" {
		schema = "pg_catalog"
	}
	t, ok := systemTables[schema][q.Name()]
	return t, ok
}

// systemScan reads a system relation. Its rows end with the hidden system
// column tableoid (see planSystemTable).
type systemScan struct {
	vt *systemTable
	pc *planCtx
}

func (p *systemScan) columns() []outCol {
	return append(append([]outCol(nil), p.vt.cols...), outCol{name: "tableoid", t: types.Of(types.Oid)})
}

func (p *systemScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Function Scan on %s", p.vt.name)
}

func (p *systemScan) open(x *execCtx, _ *eval.Env) (rowIter, error) {
	rows, err := p.vt.rows(x)
	if err != nil {
		return nil, err
	}
	// Rows may be a cache shared by concurrent statements: hand out copies.
	return &copyingIter{rows: rows, width: len(p.vt.cols), tableOID: int64(p.vt.oid)}, nil
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
