package catalogviews

import (
	"strings"
	"sync"

	"cdcdb/catalog"
	"cdcdb/sql/parse"
	"cdcdb/sql/pgdefs"
	"cdcdb/types"
)

// The system catalogs' own indexes (pg_class_oid_index, ...) and the primary
// key and unique constraints they back, from postgres.bki and
// system_constraints.sql, so that \d pg_class lists them as PostgreSQL does
// and a tool reading pg_index finds the catalogs' keys.

// systemIndex is one catalog index, resolved against its catalog.
type systemIndex struct {
	def     pgdefs.Index
	table   *pgCatalogTable
	attnums []int16
	types   []types.T
	classes []uint32
	colls   []uint32
}

var (
	systemIndexesOnce sync.Once
	systemIndexList   []*systemIndex
)

// systemIndexes lists the catalog indexes whose catalogs cdcdb serves.
func systemIndexes() []*systemIndex {
	systemIndexesOnce.Do(func() {
		opclasses := map[string]uint32{}
		if ct, ok := pgCatalogTables["pg_opclass"]; ok {
			if static, err := ct.staticRows(); err == nil {
				b := CatalogRowBuilder("pg_opclass")
				for _, r := range static {
					if r[b.Col("opcmethod")] == int64(btreeAM) {
						opclasses[r[b.Col("opcname")].(string)] = uint32(r[b.Col("oid")].(int64))
					}
				}
			}
		}
		for _, def := range pgdefs.CatalogIndexes() {
			ct, ok := pgCatalogTables[def.Table]
			if !ok {
				continue
			}
			ix := &systemIndex{def: def, table: ct}
			for i, name := range def.Columns {
				for j, c := range ct.vt.cols {
					if c.Name == name {
						ix.attnums = append(ix.attnums, int16(j+1))
						ix.types = append(ix.types, c.Type)
						coll := uint32(0)
						if typeFactsOf(c.Type.OID).collation != 0 {
							coll = cCollation
						}
						ix.colls = append(ix.colls, coll)
					}
				}
				ix.classes = append(ix.classes, opclasses[def.Opclasses[i]])
			}
			if len(ix.attnums) == len(def.Columns) {
				systemIndexList = append(systemIndexList, ix)
			}
		}
	})
	return systemIndexList
}

// systemIndexByOID finds a catalog index.
func systemIndexByOID(oid uint32) *systemIndex {
	for _, ix := range systemIndexes() {
		if ix.def.OID == oid {
			return ix
		}
	}
	return nil
}

// catalogHasIndexes reports whether a catalog has indexes (relhasindex).
func catalogHasIndexes(name string) bool {
	for _, ix := range systemIndexes() {
		if ix.def.Table == name {
			return true
		}
	}
	return false
}

// systemIndexRows adds the catalog indexes' rows to a live catalog.
func systemIndexRows(catalogName string) []Row {
	var rows []Row
	switch catalogName {
	case "pg_class":
		b := CatalogRowBuilder("pg_class")
		for _, ix := range systemIndexes() {
			rows = append(rows, classRow(b, ix.def.OID, ix.def.Name, catalog.PgCatalogNamespace, 0, "i", len(ix.attnums),
				"relam", btreeAM, "relisshared", ix.table.def.Shared))
		}
	case "pg_attribute":
		b := CatalogRowBuilder("pg_attribute")
		for _, ix := range systemIndexes() {
			for i, name := range ix.def.Columns {
				r := attributeRow(b, ix.def.OID, name, indexKeyType(ix.classes[i], ix.types[i]), int16(i+1), false, false, false)
				r[b.Col("attcollation")] = int64(ix.colls[i])
				rows = append(rows, r)
			}
		}
	case "pg_index":
		b := CatalogRowBuilder("pg_index")
		for _, ix := range systemIndexes() {
			n := len(ix.attnums)
			rows = append(rows, b.Make("indexrelid", ix.def.OID, "indrelid", ix.table.def.OID, "indnatts", n, "indnkeyatts", n,
				"indisunique", ix.def.Unique, "indnullsnotdistinct", false, "indisprimary", ix.def.Constraint == "p",
				"indisexclusion", false, "indimmediate", true, "indisclustered", false, "indisvalid", true,
				"indcheckxmin", false, "indisready", true, "indislive", true, "indisreplident", false,
				"indkey", int2Vector(ix.attnums), "indcollation", oidVector(ix.colls), "indclass", oidVector(ix.classes),
				"indoption", int2Vector(make([]int16, n))))
		}
	case "pg_constraint":
		b := CatalogRowBuilder("pg_constraint")
		for _, ix := range systemIndexes() {
			if ix.def.Constraint == "" {
				continue
			}
			// As for user tables, the constraint shares its index's OID.
			rows = append(rows, b.Make("oid", ix.def.OID, "conname", ix.def.Name, "connamespace", catalog.PgCatalogNamespace,
				"contype", ix.def.Constraint, "condeferrable", false, "condeferred", false, "convalidated", true,
				"conrelid", ix.table.def.OID, "contypid", 0, "conindid", ix.def.OID, "conparentid", 0, "confrelid", 0,
				"confupdtype", " ", "confdeltype", " ", "confmatchtype", " ", "conislocal", true, "coninhcount", 0,
				"connoinherit", true, "conkey", int2Vector(ix.attnums)))
		}
	}
	return rows
}

// systemIndexDef is pg_get_indexdef of a catalog index (col > 0: that key
// column's name).
func systemIndexDef(ix *systemIndex, col int) string {
	if col > 0 {
		if col > len(ix.def.Columns) {
			return ""
		}
		return parse.QuoteIdent(ix.def.Columns[col-1])
	}
	unique := ""
	if ix.def.Unique {
		unique = "UNIQUE "
	}
	return "CREATE " + unique + "INDEX " + ix.def.Name + " ON pg_catalog." + ix.def.Table + " USING btree (" +
		strings.Join(quoteAll(ix.def.Columns), ", ") + ")"
}

// systemConstraintDef is pg_get_constraintdef of a catalog's key.
func systemConstraintDef(ix *systemIndex) string {
	kind := "UNIQUE"
	if ix.def.Constraint == "p" {
		kind = "PRIMARY KEY"
	}
	return kind + " (" + strings.Join(quoteAll(ix.def.Columns), ", ") + ")"
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = parse.QuoteIdent(n)
	}
	return out
}

// indexKeyType is the type an index stores a column as: its operator
// class's key type where it has one (name_ops stores cstring), else the
// column's type.
func indexKeyType(class uint32, t types.T) types.T {
	if r := StaticRowByOID("pg_opclass", int64(class)); r != nil {
		b := CatalogRowBuilder("pg_opclass")
		if k, ok := r[b.Col("opckeytype")].(int64); ok && k != 0 {
			return types.Of(types.OID(k))
		}
	}
	return t
}
