package catalogviews

import (
	"sort"

	"cdcdb/catalog"
	"cdcdb/sql/pgdefs"
	"cdcdb/types"
)

// Live rows of the catalogs that describe user objects, made from cdcdb's
// catalog. Everything is owned by the bootstrap superuser (OID 10), which
// is whoever is connected: cdcdb has one role.

func init() {
	liveCatalogs["pg_namespace"] = livePgNamespace
	liveCatalogs["pg_class"] = livePgClass
	liveCatalogs["pg_attribute"] = livePgAttribute
	liveCatalogs["pg_type"] = livePgType
	liveCatalogs["pg_attrdef"] = livePgAttrdef
	liveCatalogs["pg_constraint"] = livePgConstraint
	liveCatalogs["pg_index"] = livePgIndex
	liveCatalogs["pg_description"] = livePgDescription
	liveCatalogs["pg_database"] = livePgDatabase
	liveCatalogs["pg_authid"] = livePgAuthid
	liveCatalogs["pg_proc"] = livePgProc
}

// relkindOf maps cdcdb's relation kinds to pg_class.relkind: a streaming
// table is an ordinary table to clients.
func relkindOf(t *catalog.Table) string {
	if t.Kind == catalog.KindView {
		return "v"
	}
	return "r"
}

func livePgNamespace(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_namespace")
	var rows []Row
	for _, sc := range sess.Catalog().Schemas() {
		owner := superuserOID
		if sc.Owner != 0 {
			owner = int(sc.Owner) // CREATE SCHEMA's role, or ALTER SCHEMA ... OWNER TO's
		}
		var acl types.Value // NULL: the owner's default privileges
		if sc.OID == catalog.PublicNamespace {
			// As in PostgreSQL 15: owned by pg_database_owner, and
			// everyone may use it (pg_dump reads the ACL, and would
			// otherwise dump a REVOKE of that use).
			owner = dbOwnerRoleOID
			acl = types.ArrayValue{Elem: types.Aclitem, Elems: []types.Value{"pg_database_owner=UC/pg_database_owner", "=U/pg_database_owner"}}
		}
		if sc.ACL != nil {
			acl = sess.TableACL(&catalog.Table{ACL: sc.ACL}) // granted on (sql/schemaprivs.go)
		}
		rows = append(rows, b.Make("oid", sc.OID, "nspname", sc.Name, "nspowner", owner, "nspacl", acl))
	}
	return rows, nil
}

func livePgClass(sess Session, _ []Row) ([]Row, error) {
	cat := sess.Catalog()
	b := CatalogRowBuilder("pg_class")
	var rows []Row
	for _, st := range systemRelations() {
		kind := "v"
		rowType := uint32(0)
		if ct, ok := pgCatalogTables[st.name]; ok && ct.vt == st {
			kind = "r"
			rowType = ct.def.RowType
		}
		natts := len(st.cols)
		if st.query != "" {
			cols, err := sess.ViewColumns(st)
			if err != nil {
				return nil, err
			}
			natts = len(cols)
		}
		shared := false
		if ct, ok := pgCatalogTables[st.name]; ok && ct.vt == st {
			shared = ct.def.Shared
		}
		rows = append(rows, classRow(b, st.oid, st.name, schemaOIDByName(cat, st.schema), rowType, kind, natts,
			"relam", amFor(kind), "relisshared", shared, "relhasrules", kind == "v", "relhasindex", kind == "r" && catalogHasIndexes(st.name)))
	}
	rows = append(rows, systemIndexRows("pg_class")...)
	// PostgreSQL enforces a foreign key with triggers on both tables, so
	// both have relhastriggers (psql lists foreign keys only then).
	fkTables := map[uint32]bool{}
	for _, t := range cat.Tables() {
		for _, c := range t.Constraints {
			if c.Kind == "f" {
				fkTables[t.OID], fkTables[c.RefTable] = true, true
			}
		}
	}
	for _, t := range cat.Tables() {
		kind := relkindOf(t)
		var opts types.Value
		if len(t.Options) > 0 {
			keys := make([]string, 0, len(t.Options))
			for k := range t.Options {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			vals := make([]string, len(keys))
			for i, k := range keys {
				vals[i] = k + "=" + t.Options[k]
			}
			opts = catalogTextArray(vals)
		}
		checks := 0
		for _, c := range t.Constraints {
			if c.Kind == "c" {
				checks++
			}
		}
		persistence := "p"
		if sess.IsTempSchema(t.Schema) {
			persistence = "t"
		}
		rows = append(rows, classRow(b, t.OID, t.Name, t.Schema, t.RowType, kind, int(t.NextAttnum-1),
			"relam", amFor(kind), "relhasindex", len(t.Indexes)+len(t.ExprIndexes) > 0, "relchecks", checks,
			"relhasrules", kind == "v", "reloptions", opts, "relhastriggers", fkTables[t.OID], "relpersistence", persistence,
			"relowner", sess.TableOwner(t), "relacl", sess.TableACL(t)))
		// An index is owned by its table's owner, as in PostgreSQL.
		for _, ix := range t.Indexes {
			rows = append(rows, classRow(b, ix.OID, ix.Name, t.Schema, 0, "i", len(ix.Columns),
				"relam", btreeAM, "relhasindex", false, "relpersistence", persistence, "relowner", sess.TableOwner(t)))
		}
		for _, ix := range t.ExprIndexes { // exprindex.go
			rows = append(rows, classRow(b, ix.OID, ix.Name, t.Schema, 0, "i", len(ix.Keys),
				"relam", btreeAM, "relhasindex", false, "relpersistence", persistence, "relowner", sess.TableOwner(t)))
		}
	}
	for _, s := range SerialSequences(cat) {
		persistence := "p"
		if sess.IsTempSchema(s.Schema) {
			persistence = "t"
		}
		rows = append(rows, classRow(b, s.OID, s.Name, s.Schema, 0, "S", len(SequenceColumns), "relpersistence", persistence,
			"relowner", s.owner(sess))) // sequences_free.go
	}
	return rows, nil
}

// amFor is a relation's access method: heap for tables, none for views.
func amFor(kind string) uint32 {
	switch kind {
	case "r":
		return heapAM
	case "i":
		return btreeAM
	}
	return 0
}

// classRow is a pg_class row with PostgreSQL's values for a relation that
// has never been vacuumed or analyzed (reltuples -1), plus overrides.
func classRow(b *RowBuilder, oid uint32, name string, ns uint32, rowType uint32, kind string, natts int, more ...any) Row {
	replident, frozen, minmxid := "n", int64(0), int64(0)
	if kind == "r" {
		replident, frozen, minmxid = "d", 3, 1 // FirstNormalTransactionId, FirstMultiXactId
	}
	kv := []any{
		"oid", oid, "relname", name, "relnamespace", ns, "reltype", rowType, "reloftype", 0,
		"relowner", superuserOID, "relam", 0, "relfilenode", filenodeOf(oid, kind), "reltablespace", 0,
		"relpages", 0, "reltuples", float64(-1), "relallvisible", 0, "reltoastrelid", 0,
		"relhasindex", false, "relisshared", false, "relpersistence", "p", "relkind", kind,
		"relnatts", natts, "relchecks", 0, "relhasrules", false, "relhastriggers", false,
		"relhassubclass", false, "relrowsecurity", false, "relforcerowsecurity", false,
		"relispopulated", true, "relreplident", replident, "relispartition", false, "relrewrite", 0,
		"relfrozenxid", frozen, "relminmxid", minmxid,
	}
	r := b.Make(kv...)
	for i := 0; i+1 < len(more); i += 2 {
		r[b.Col(more[i].(string))] = normalizeCatalogValue(more[i+1])
	}
	return r
}

// filenodeOf: views have no storage, so no file node.
func filenodeOf(oid uint32, kind string) uint32 {
	if kind == "v" {
		return 0
	}
	return oid
}

func livePgAttribute(sess Session, _ []Row) ([]Row, error) {
	cat := sess.Catalog()
	b := CatalogRowBuilder("pg_attribute")
	var rows []Row
	for _, st := range systemRelations() {
		cols := st.cols
		if st.query != "" {
			var err error
			if cols, err = sess.ViewColumns(st); err != nil {
				return nil, err
			}
		}
		var defs []pgdefs.Column
		if ct, ok := pgCatalogTables[st.name]; ok && ct.vt == st {
			defs = ct.def.Columns
		}
		var infoDefs []pgdefs.Column
		if st.schema == "information_schema" {
			infoDefs = infoSchemaColumnDefs[st.name]
		}
		for i, c := range cols {
			notNull := i < len(defs) && defs[i].NotNull
			if i < len(infoDefs) && infoDefs[i].Domain != "" {
				if d := infoDomainByName(sess, infoDefs[i].Domain); d != nil {
					// A column of a domain: the domain's OID, no modifier of
					// its own, the domain's collation.
					r := attributeRow(b, st.oid, c.Name, types.T{OID: types.OID(d.oid), Typmod: -1}, int16(i+1), false, false, false)
					f := typeFactsOf(d.base.OID)
					r[b.Col("attlen")], r[b.Col("attalign")], r[b.Col("attstorage")] = int64(f.len), f.align, f.storage
					r[b.Col("attbyval")], r[b.Col("attcollation")] = f.byVal, int64(d.collation)
					rows = append(rows, r)
					continue
				}
			}
			r := attributeRow(b, st.oid, c.Name, c.Type, int16(i+1), notNull, false, false)
			fromCatalog := defs != nil || (c.TableOID != 0 && c.TableOID < catalog.FirstUserOID)
			if fromCatalog && r[b.Col("attcollation")] != int64(0) {
				// Collatable catalog columns use the C collation, and a view
				// column that is one keeps it.
				r[b.Col("attcollation")] = int64(cCollation)
			}
			rows = append(rows, r)
		}
	}
	for _, t := range cat.Tables() {
		for _, c := range t.Columns {
			if c.Dropped {
				r := attributeRow(b, t.OID, attDroppedName(c.Attnum), types.T{Typmod: -1}, c.Attnum, false, false, true)
				rows = append(rows, r)
				continue
			}
			// An identity column's default is its sequence, not a pg_attrdef
			// row (ddl_identity.go).
			r := attributeRow(b, t.OID, c.Name, c.Type, c.Attnum, c.NotNull, c.Default != "" && c.Identity == "", false)
			r[b.Col("attidentity")] = c.Identity
			rows = append(rows, r)
		}
		for _, ix := range t.Indexes {
			for i, attnum := range ix.Columns {
				c := t.ColumnByAttnum(attnum)
				if c == nil {
					continue
				}
				rows = append(rows, attributeRow(b, ix.OID, c.Name, indexKeyType(defaultOpclass(c.Type.OID), c.Type), int16(i+1), false, false, false))
			}
		}
	}
	for _, s := range SerialSequences(cat) {
		for i, c := range SequenceColumns {
			rows = append(rows, attributeRow(b, s.OID, c.Name, c.Type, int16(i+1), true, false, false))
		}
	}
	rows = append(rows, systemIndexRows("pg_attribute")...)
	return rows, nil
}

func attributeRow(b *RowBuilder, rel uint32, name string, t types.T, attnum int16, notNull, hasDef, dropped bool) Row {
	f := typeFactsOf(t.OID)
	ndims := 0
	if types.IsArray(t.OID) && t.OID != types.Int2Vector && t.OID != types.OidVector {
		ndims = 1
	}
	if dropped {
		f = typeFacts{len: -1, align: "i", storage: "x"}
	}
	return b.Make("attrelid", rel, "attname", name, "atttypid", uint32(t.OID), "attstattarget", -1,
		"attlen", f.len, "attnum", attnum, "attndims", ndims, "attcacheoff", -1, "atttypmod", t.Typmod,
		"attbyval", f.byVal, "attalign", f.align, "attstorage", f.storage, "attcompression", "",
		"attnotnull", notNull, "atthasdef", hasDef, "atthasmissing", false, "attidentity", "",
		"attgenerated", "", "attisdropped", dropped, "attislocal", true, "attinhcount", 0,
		"attcollation", f.collation)
}

// livePgType adds each table's and view's composite row type to
// PostgreSQL's built-in types.
func livePgType(sess Session, static []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_type")
	rows := append([]Row(nil), static...)
	rows = append(rows, domainTypeRows(sess, b)...)
	for _, t := range sess.Catalog().Tables() {
		if t.RowType == 0 {
			continue
		}
		rows = append(rows, b.Make("oid", t.RowType, "typname", t.Name, "typnamespace", t.Schema,
			"typowner", superuserOID, "typlen", -1, "typbyval", false, "typtype", "c", "typcategory", "C",
			"typispreferred", false, "typisdefined", true, "typdelim", ",", "typrelid", t.OID,
			"typsubscript", 0, "typelem", 0, "typarray", 0,
			"typinput", 2290, "typoutput", 2291, "typreceive", 2402, "typsend", 2403, // record_in/out/recv/send
			"typmodin", 0, "typmodout", 0, "typanalyze", 0, "typalign", "d", "typstorage", "x",
			"typnotnull", false, "typbasetype", 0, "typtypmod", -1, "typndims", 0, "typcollation", 0))
	}
	return rows, nil
}

// attrdefOID gives a column default its pg_attrdef OID. cdcdb keeps a
// default on its column, not as an object of its own; the OID is derived
// from the table and column so that it is stable across queries, and lies
// in the top half of the OID space, which cdcdb's catalog never reaches.
func attrdefOID(table uint32, attnum int16) uint32 {
	return 0x80000000 | (table<<11 | uint32(attnum)&0x7ff)
}

func livePgAttrdef(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_attrdef")
	var rows []Row
	for _, t := range sess.Catalog().Tables() {
		for _, c := range t.Columns {
			if c.Dropped || c.Default == "" || c.Identity != "" {
				continue
			}
			rows = append(rows, b.Make("oid", attrdefOID(t.OID, c.Attnum), "adrelid", t.OID, "adnum", c.Attnum,
				"adbin", StoredExprText(c.Type, c.Default)))
		}
	}
	return rows, nil
}

// fkAction maps a referential action to pg_constraint's letter.
func fkAction(a string) string {
	switch a {
	case "CASCADE", "cascade":
		return "c"
	case "RESTRICT", "restrict":
		return "r"
	case "SET NULL", "set null":
		return "n"
	case "SET DEFAULT", "set default":
		return "d"
	}
	return "a"
}

func livePgConstraint(sess Session, _ []Row) ([]Row, error) {
	cat := sess.Catalog()
	b := CatalogRowBuilder("pg_constraint")
	rows := append(systemIndexRows("pg_constraint"), domainConstraintRows(sess, b)...)
	base := func(oid uint32, name string, t *catalog.Table, kind string, cols []int16, index uint32) []any {
		return []any{"oid", oid, "conname", name, "connamespace", t.Schema, "contype", kind,
			"condeferrable", false, "condeferred", false, "convalidated", true, "conrelid", t.OID,
			"contypid", 0, "conindid", index, "conparentid", 0, "confrelid", 0,
			"confupdtype", " ", "confdeltype", " ", "confmatchtype", " ", "conislocal", true,
			"coninhcount", 0, "connoinherit", false, "conkey", int2Vector(cols)}
	}
	for _, t := range cat.Tables() {
		if len(t.PrimaryKey) > 0 {
			// The primary key constraint shares its OID with the index that
			// enforces it: cdcdb's catalog gives the pair one OID.
			rows = append(rows, b.Make(base(t.PrimaryKeyOID, t.PrimaryKeyName, t, "p", t.PrimaryKey, t.PrimaryKeyOID)...))
		}
		for _, c := range t.Constraints {
			kv := base(c.OID, c.Name, t, c.Kind, c.Columns, c.Index)
			switch c.Kind {
			case "c":
				kv = append(kv, "conbin", c.Check)
				if cols := checkColumns(sess, t, c.Check); len(cols) > 0 {
					kv = append(kv, "conkey", int2Vector(cols))
				} else {
					kv = append(kv, "conkey", nil)
				}
			case "f":
				ops := make([]uint32, len(c.Columns))
				for i, a := range c.Columns {
					if col := t.ColumnByAttnum(a); col != nil {
						ops[i] = equalityOperator(col.Type.OID)
					}
				}
				opArr := oidArray(ops)
				kv = append(kv, "confrelid", c.RefTable, "confupdtype", fkAction(c.OnUpdate),
					"confdeltype", fkAction(c.OnDelete), "confmatchtype", "s", "confkey", int2Vector(c.RefColumns),
					"conpfeqop", opArr, "conppeqop", opArr, "conffeqop", opArr,
					"condeferrable", c.Deferrable, "condeferred", c.InitiallyDeferred)
				if ref, ok := cat.TableByOID(c.RefTable); ok {
					kv = append(kv, "conindid", referencedIndex(ref, c.RefColumns))
				}
			}
			rows = append(rows, b.Make(kv...))
		}
	}
	return rows, nil
}

// referencedIndex is the unique index of ref on exactly cols, which a
// foreign key depends on (pg_constraint.conindid).
func referencedIndex(ref *catalog.Table, cols []int16) uint32 {
	for _, ix := range ref.Indexes {
		if ix.Unique && sameInt16s(ix.Columns, cols) {
			return ix.OID
		}
	}
	return 0
}

func sameInt16s(a, b []int16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// oidArray makes an oid[] value; arrays and vectors share a representation.
func oidArray(vals []uint32) types.ArrayValue { return oidVector(vals) }

func livePgIndex(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_index")
	rows := systemIndexRows("pg_index")
	for _, t := range sess.Catalog().Tables() {
		for _, ix := range t.Indexes {
			n := len(ix.Columns)
			classes := make([]uint32, n)
			colls := make([]uint32, n)
			opts := make([]int16, n)
			for i, a := range ix.Columns {
				if c := t.ColumnByAttnum(a); c != nil {
					classes[i] = defaultOpclass(c.Type.OID)
					colls[i] = typeFactsOf(c.Type.OID).collation
				}
				if i < len(ix.Desc) && ix.Desc[i] {
					opts[i] = 3 // INDOPTION_DESC | INDOPTION_NULLS_FIRST, DESC's default
				}
			}
			rows = append(rows, b.Make("indexrelid", ix.OID, "indrelid", t.OID, "indnatts", n, "indnkeyatts", n,
				"indisunique", ix.Unique, "indnullsnotdistinct", false, "indisprimary", ix.Primary,
				"indisexclusion", false, "indimmediate", true, "indisclustered", false, "indisvalid", true,
				"indcheckxmin", false, "indisready", true, "indislive", true, "indisreplident", false,
				"indkey", int2Vector(ix.Columns), "indcollation", oidVector(colls), "indclass", oidVector(classes),
				"indoption", int2Vector(opts)))
		}
	}
	return append(rows, exprIndexRows(sess.Catalog(), b)...), nil // exprindex.go
}

// livePgDescription adds the comments on schemas, tables and columns to
// PostgreSQL's descriptions of built-in objects.
func livePgDescription(sess Session, static []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_description")
	// Schemas' comments are cdcdb's (the built-in schemas carry
	// PostgreSQL's), so PostgreSQL's rows for namespaces give way to them.
	var rows []Row
	for _, r := range static {
		if r[1] != int64(pgNamespaceOID) {
			rows = append(rows, r)
		}
	}
	cat := sess.Catalog()
	for _, sc := range cat.Schemas() {
		if sc.Comment != "" {
			rows = append(rows, b.Make("objoid", sc.OID, "classoid", pgNamespaceOID, "objsubid", 0, "description", sc.Comment))
		}
	}
	for _, t := range cat.Tables() {
		if t.Comment != "" {
			rows = append(rows, b.Make("objoid", t.OID, "classoid", pgClassOID, "objsubid", 0, "description", t.Comment))
		}
		for _, c := range t.Columns {
			if !c.Dropped && c.Comment != "" {
				rows = append(rows, b.Make("objoid", t.OID, "classoid", pgClassOID, "objsubid", c.Attnum, "description", c.Comment))
			}
		}
	}
	for _, q := range cat.Sequences() { // sequences_free.go
		if q.Comment != "" {
			rows = append(rows, b.Make("objoid", q.OID, "classoid", pgClassOID, "objsubid", 0, "description", q.Comment))
		}
	}
	return rows, nil
}

func livePgDatabase(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_database")
	return []Row{b.Make("oid", DatabaseOID, "datname", "main", "datdba", superuserOID, "encoding", 6, // PG_UTF8
		"datlocprovider", "c", "datistemplate", false, "datallowconn", true, "datconnlimit", -1,
		"datfrozenxid", 3, "datminmxid", 1, "dattablespace", pgDefaultSpace, "datcollate", "C", "datctype", "C")}, nil
}

// livePgAuthid is PostgreSQL's predefined roles (pg_read_all_data and
// the like) and the catalog's roles, the bootstrap superuser among them.
func livePgAuthid(sess Session, static []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_authid")
	cat := sess.Catalog()
	var template Row
	rows := make([]Row, 0, len(static))
	for _, r := range static {
		if r[b.Col("oid")] == int64(superuserOID) {
			template = r
			continue
		}
		rows = append(rows, r)
	}
	for _, role := range cat.Roles() {
		r := append(Row(nil), template...)
		var password types.Value
		if role.Password != "" {
			password = role.Password
		}
		r[b.Col("oid")] = int64(role.OID)
		r[b.Col("rolname")] = role.Name
		r[b.Col("rolsuper")] = role.Superuser
		r[b.Col("rolinherit")] = !role.NoInherit
		r[b.Col("rolcreaterole")] = role.Superuser || role.CreateRole
		r[b.Col("rolcreatedb")] = role.Superuser
		r[b.Col("rolcanlogin")] = role.Login
		r[b.Col("rolreplication")] = role.Superuser
		r[b.Col("rolbypassrls")] = role.Superuser
		r[b.Col("rolpassword")] = password
		rows = append(rows, r)
	}
	return rows, nil
}

// livePgProc shows the owner's name in function ACLs.
func livePgProc(sess Session, static []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_proc")
	acl := b.Col("proacl")
	rows := make([]Row, len(static))
	for i, r := range static {
		if r[acl] != nil {
			r = append(Row(nil), r...)
			if a, ok := r[acl].(types.ArrayValue); ok {
				elems := make([]types.Value, len(a.Elems))
				for j, e := range a.Elems {
					elems[j] = aclOwnerName(e, sess.User())
				}
				a.Elems = elems
				r[acl] = a
			}
		}
		rows[i] = r
	}
	return rows, nil
}
