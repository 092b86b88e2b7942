package catalogviews

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"cdcdb/catalog"
	"cdcdb/sql/pgdefs"
	"cdcdb/types"
)

// The pg_catalog relations clients introspect. Every system catalog of
// PostgreSQL 15 exists here with its real columns (names and types in
// order, from postgres.bki through package pgdefs). A catalog's rows are
// PostgreSQL's initial rows (built-in types, functions, access methods,
// operator classes, collations, ...) and, for the catalogs that describe
// user objects, rows made from cdcdb's own catalog: schemas, tables
// (streaming tables are ordinary tables, relkind 'r'), views, columns,
// defaults, constraints, indexes and comments. Catalogs of features cdcdb
// does not have (triggers, rules, publications, ...) are empty, with their
// columns, so that client queries that join them still run.

// Fixed OIDs of PostgreSQL 15 that live rows refer to: catalogs, access
// methods, the default tablespace and roles.
const (
	pgClassOID     = 1259
	pgNamespaceOID = 2615
	pgAttrdefOID   = 2604
	heapAM         = 2
	btreeAM        = 403
	pgDefaultSpace = 1663
	superuserOID   = 10   // the bootstrap superuser: whoever is connected
	dbOwnerRoleOID = 6171 // pg_database_owner, which owns schema public
	cCollation     = 950  // the "C" collation
	// cdcdb has one database. 5 is the OID initdb gives the first
	// database that is not a template.
	DatabaseOID = 5
)

// catalogSource makes a catalog's rows: static are PostgreSQL's initial
// rows (already typed); the result is what queries see.
type catalogSource func(sess Session, static []Row) ([]Row, error)

// liveCatalogs are the catalogs whose rows depend on cdcdb's catalog or on
// the session; the others show their initial rows as they are.
var liveCatalogs = map[string]catalogSource{}

// pgCatalogTable is a system catalog: its definition, its initial rows
// parsed once, and a cache of its live rows for one committed catalog
// snapshot.
type pgCatalogTable struct {
	def    *pgdefs.Catalog
	vt     *Relation
	once   sync.Once
	static []Row
	err    error

	mu       sync.Mutex
	cacheKey *catalog.Snapshot
	cacheFor string // the session user the cached rows were made for
	cached   []Row
}

// pgCatalogTables maps catalog names to their tables, for the live sources
// that read another catalog's initial rows (pg_type reads pg_opclass, ...).
var pgCatalogTables = map[string]*pgCatalogTable{}

func init() {
	for _, def := range pgdefs.Catalogs() {
		cols, ok := catalogColumns(def.Columns)
		if !ok {
			// pg_statistic_ext_data uses types cdcdb has no values for
			// (pg_ndistinct, pg_dependencies, pg_mcv_list), for extended
			// statistics, which cdcdb lacks.
			continue
		}
		ct := &pgCatalogTable{def: def}
		ct.vt = &Relation{schema: "pg_catalog", name: def.Name, oid: def.OID, cols: cols, rows: ct.rows}
		pgCatalogTables[def.Name] = ct
		registerSystemTable(ct.vt)
	}
}

// catalogColumns types a catalog's columns; false when a type is unknown.
func catalogColumns(defs []pgdefs.Column) ([]Column, bool) {
	cols := make([]Column, len(defs))
	for i, c := range defs {
		t, ok := types.ByName(c.Type)
		if !ok {
			return nil, false
		}
		cols[i] = Column{Name: c.Name, Type: t}
	}
	return cols, true
}

// templateRow names the catalogs whose initial rows are templates that
// initdb fills in (pg_database's template1 row has ENCODING, LC_COLLATE,
// ... in place of values); their rows are made live instead.
var templateRow = map[string]bool{"pg_database": true}

// staticRows parses the initial rows with each column's type.
func (ct *pgCatalogTable) staticRows() ([]Row, error) {
	ct.once.Do(func() {
		for _, fields := range ct.def.Rows() {
			row := make(Row, len(fields))
			for i, f := range fields {
				if f.Null {
					continue
				}
				t := ct.vt.cols[i].Type
				if t.OID == types.Regproc {
					// The generator resolved function names to OIDs.
					t = types.Of(types.Oid)
				}
				v, err := types.ParseText(t, f.Text)
				if err != nil {
					if templateRow[ct.def.Name] {
						row = nil
						break
					}
					ct.err = fmt.Errorf("%s.%s: %q: %v", ct.def.Name, ct.vt.cols[i].Name, f.Text, err)
					return
				}
				row[i] = v
			}
			if row != nil {
				ct.static = append(ct.static, row)
			}
		}
	})
	return ct.static, ct.err
}

// rows is the systemTable row function: initial rows, made live where the
// catalog describes user objects. Live rows are cached per committed
// catalog snapshot (snapshots are immutable once committed; inside a
// transaction that changed the catalog they are rebuilt each time).
func (ct *pgCatalogTable) rows(sess Session) ([]Row, error) {
	static, err := ct.staticRows()
	if err != nil {
		return nil, err
	}
	src, ok := liveCatalogs[ct.def.Name]
	if !ok {
		return static, nil
	}
	snap := sess.Catalog()
	cacheable := sess.CatalogCommitted()
	if cacheable {
		ct.mu.Lock()
		if ct.cacheKey == snap && ct.cacheFor == sess.User() {
			rows := ct.cached
			ct.mu.Unlock()
			return rows, nil
		}
		ct.mu.Unlock()
	}
	rows, err := src(sess, static)
	if err != nil {
		return nil, err
	}
	if cacheable {
		ct.mu.Lock()
		ct.cacheKey, ct.cacheFor, ct.cached = snap, sess.User(), rows
		ct.mu.Unlock()
	}
	return rows, nil
}

// RowBuilder builds rows of one catalog by column name; columns not set are
// NULL. It exists so that the live sources below read as PostgreSQL's
// column lists, and a misspelt column is caught at once.
type RowBuilder struct {
	idx map[string]int
	n   int
	cat string
}

func CatalogRowBuilder(catalogName string) *RowBuilder {
	return NewRowBuilder(catalogName, pgCatalogTables[catalogName].vt.cols)
}

// NewRowBuilder builds rows of any relation with the given columns.
func NewRowBuilder(name string, cols []Column) *RowBuilder {
	b := &RowBuilder{idx: map[string]int{}, n: len(cols), cat: name}
	for i, c := range cols {
		b.idx[c.Name] = i
	}
	return b
}

// Make returns a row with the given column values (name, value pairs).
func (b *RowBuilder) Make(kv ...any) Row {
	r := make(Row, b.n)
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		j, ok := b.idx[name]
		if !ok {
			panic("pg_catalog: " + b.cat + " has no column " + name)
		}
		r[j] = normalizeCatalogValue(kv[i+1])
	}
	return r
}

// Col returns a column's position.
func (b *RowBuilder) Col(name string) int {
	j, ok := b.idx[name]
	if !ok {
		panic("pg_catalog: " + b.cat + " has no column " + name)
	}
	return j
}

// normalizeCatalogValue turns the Go values the live sources use into the
// representations of package types (int64 for every integer and OID).
func normalizeCatalogValue(v any) types.Value {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint32:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}

// int2Vector makes an int2vector value (indkey, indoption).
func int2Vector(vals []int16) types.ArrayValue {
	a := types.ArrayValue{Elem: types.Int2, Elems: make([]types.Value, len(vals))}
	for i, v := range vals {
		a.Elems[i] = int64(v)
	}
	return a
}

// oidVector makes an oidvector value (indclass, indcollation).
func oidVector(vals []uint32) types.ArrayValue {
	a := types.ArrayValue{Elem: types.Oid, Elems: make([]types.Value, len(vals))}
	for i, v := range vals {
		a.Elems[i] = int64(v)
	}
	return a
}

// catalogTextArray makes a text[] value.
func catalogTextArray(vals []string) types.ArrayValue {
	a := types.ArrayValue{Elem: types.Text, Elems: make([]types.Value, len(vals))}
	for i, v := range vals {
		a.Elems[i] = v
	}
	return a
}

// typeFacts are the pg_type columns that pg_attribute copies for a column.
type typeFacts struct {
	len       int16
	byVal     bool
	align     string
	storage   string
	collation uint32
	typtype   string
}

var (
	typeFactsOnce sync.Once
	typeFactsMap  map[uint32]typeFacts
)

// typeFactsOf reads a built-in type's facts from PostgreSQL's pg_type rows.
func typeFactsOf(oid types.OID) typeFacts {
	typeFactsOnce.Do(func() {
		typeFactsMap = map[uint32]typeFacts{}
		ct := pgCatalogTables["pg_type"]
		static, err := ct.staticRows()
		if err != nil {
			return
		}
		b := CatalogRowBuilder("pg_type")
		for _, r := range static {
			typeFactsMap[uint32(r[b.Col("oid")].(int64))] = typeFacts{
				len:       int16(r[b.Col("typlen")].(int64)),
				byVal:     r[b.Col("typbyval")].(bool),
				align:     r[b.Col("typalign")].(string),
				storage:   r[b.Col("typstorage")].(string),
				collation: uint32(r[b.Col("typcollation")].(int64)),
				typtype:   r[b.Col("typtype")].(string),
			}
		}
	})
	if f, ok := typeFactsMap[uint32(oid)]; ok {
		return f
	}
	return typeFacts{len: -1, align: "i", storage: "x", typtype: "b"}
}

// defaultOpclass finds the default btree operator class for a type, from
// PostgreSQL's pg_opclass rows (text_ops for text, int4_ops for integer,
// ...), so pg_index.indclass reads as PostgreSQL's would. Array types use
// array_ops; a type with no class of its own gets 0.
func defaultOpclass(t types.OID) uint32 {
	ct := pgCatalogTables["pg_opclass"]
	static, err := ct.staticRows()
	if err != nil {
		return 0
	}
	b := CatalogRowBuilder("pg_opclass")
	want := int64(t)
	if types.IsArray(t) && t != types.Int2Vector && t != types.OidVector {
		want = int64(types.AnyArray)
	}
	if t == types.Varchar {
		want = int64(types.Text) // varchar uses text_ops, as in PostgreSQL
	}
	for _, r := range static {
		if r[b.Col("opcmethod")] == int64(btreeAM) && r[b.Col("opcintype")] == want && r[b.Col("opcdefault")] == true {
			return uint32(r[b.Col("oid")].(int64))
		}
	}
	return 0
}

// equalityOperator finds the = operator of a type in PostgreSQL's
// pg_operator rows (for pg_constraint's conpfeqop and friends).
func equalityOperator(t types.OID) uint32 {
	ct := pgCatalogTables["pg_operator"]
	static, err := ct.staticRows()
	if err != nil {
		return 0
	}
	b := CatalogRowBuilder("pg_operator")
	for _, r := range static {
		if r[b.Col("oprname")] == "=" && r[b.Col("oprleft")] == int64(t) && r[b.Col("oprright")] == int64(t) {
			return uint32(r[b.Col("oid")].(int64))
		}
	}
	return 0
}

// schemaOIDByName finds a schema's OID, for system relations.
func schemaOIDByName(cat *catalog.Snapshot, name string) uint32 {
	if sc, ok := cat.Schema(name); ok {
		return sc.OID
	}
	return 0
}

// aclOwnerName replaces PostgreSQL's bootstrap superuser placeholder in
// initial rows with the connected user's name.
func aclOwnerName(v types.Value, user string) types.Value {
	s, ok := v.(string)
	if !ok || !strings.Contains(s, "POSTGRES") {
		return v
	}
	return strings.ReplaceAll(s, "POSTGRES", user)
}

// attDroppedName is the name PostgreSQL gives a dropped column.
func attDroppedName(attnum int16) string {
	return "........pg.dropped." + strconv.Itoa(int(attnum)) + "........"
}
