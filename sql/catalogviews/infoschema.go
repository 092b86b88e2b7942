package catalogviews

import (
	"strconv"

	"cdcdb/catalog"
	"cdcdb/sql/parse"
	"cdcdb/sql/pgdefs"
	"cdcdb/types"
)

// information_schema: every view of PostgreSQL 15's information_schema.sql
// exists with its columns (from package pgdefs; the information_schema
// domains are their base types, as PostgreSQL reports them to clients).
// The views about objects cdcdb has are filled from its catalog, with the
// values PostgreSQL's view definitions compute; the others (routines,
// domains, foreign data, privileges granted to other roles, ...) are
// empty, as they are in a PostgreSQL database with no such objects.

// infoSchemaSources fill the views about objects cdcdb has.
var infoSchemaSources = map[string]func(sess Session, b *RowBuilder) ([]Row, error){
	"information_schema_catalog_name": func(_ Session, b *RowBuilder) ([]Row, error) {
		return []Row{b.Make("catalog_name", "main")}, nil
	},
	"schemata":                isSchemata,
	"tables":                  isTables,
	"views":                   isViews,
	"columns":                 isColumns,
	"table_constraints":       isTableConstraints,
	"key_column_usage":        isKeyColumnUsage,
	"referential_constraints": isReferentialConstraints,
	"check_constraints":       isCheckConstraints,
	"constraint_column_usage": isConstraintColumnUsage,
	"constraint_table_usage":  isConstraintTableUsage,
	"table_privileges":        tablePrivileges(true),
	"role_table_grants":       tablePrivileges(false),
}

func init() {
	for _, v := range pgdefs.InfoSchemaViews() {
		cols, ok := catalogColumns(v.Columns)
		if !ok {
			panic("information_schema." + v.Name + ": a column type cdcdb does not know")
		}
		src := infoSchemaSources[v.Name]
		infoSchemaColumnDefs[v.Name] = v.Columns
		b := NewRowBuilder("information_schema."+v.Name, cols)
		registerSystemTable(&Relation{schema: "information_schema", name: v.Name, cols: cols,
			rows: func(sess Session) ([]Row, error) {
				if src == nil {
					return nil, nil
				}
				return src(sess, b)
			}})
	}
}

// tablePrivileges is table_privileges (all) or role_table_grants, which
// the session's privilege rules make (Session.TablePrivilegeRows).
func tablePrivileges(all bool) func(sess Session, b *RowBuilder) ([]Row, error) {
	return func(sess Session, b *RowBuilder) ([]Row, error) { return sess.TablePrivilegeRows(all, b) }
}

// YesNo is the information_schema's yes_or_no.
func YesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// userRelations lists cdcdb's tables and views with their schema names.
func userRelations(cat *catalog.Snapshot) []struct {
	t      *catalog.Table
	schema string
} {
	var out []struct {
		t      *catalog.Table
		schema string
	}
	for _, t := range cat.Tables() {
		sc, ok := cat.SchemaByOID(t.Schema)
		if !ok {
			continue
		}
		out = append(out, struct {
			t      *catalog.Table
			schema string
		}{t, sc.Name})
	}
	return out
}

func isSchemata(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	for _, sc := range sess.Catalog().Schemas() {
		owner := RoleName(sess, superuserOID)
		if sc.OID == catalog.PublicNamespace {
			owner = RoleName(sess, dbOwnerRoleOID)
		}
		rows = append(rows, b.Make("catalog_name", "main", "schema_name", sc.Name, "schema_owner", owner))
	}
	return rows, nil
}

func isTables(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	cat := sess.Catalog()
	for _, st := range systemRelations() {
		kind := "VIEW"
		if ct, ok := pgCatalogTables[st.name]; ok && ct.vt == st {
			kind = "BASE TABLE"
		}
		rows = append(rows, b.Make("table_catalog", "main", "table_schema", st.schema, "table_name", st.name,
			"table_type", kind, "is_insertable_into", YesNo(kind == "BASE TABLE"), "is_typed", "NO"))
	}
	for _, r := range userRelations(cat) {
		kind := "BASE TABLE"
		if r.t.Kind == catalog.KindView {
			kind = "VIEW"
		} else if sess.IsTempSchema(r.t.Schema) {
			if r.schema != sess.TempSchemaName() {
				continue // as PostgreSQL's view leaves out other sessions' temporary tables
			}
			kind = "LOCAL TEMPORARY"
		}
		// Streaming tables are written only by their flows, yet are tables:
		// PostgreSQL calls a table insertable whatever its triggers do.
		rows = append(rows, b.Make("table_catalog", "main", "table_schema", r.schema, "table_name", r.t.Name,
			"table_type", kind, "is_insertable_into", YesNo(r.t.Kind != catalog.KindView), "is_typed", "NO"))
	}
	return rows, nil
}

func isViews(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	for _, r := range userRelations(sess.Catalog()) {
		if r.t.Kind != catalog.KindView {
			continue
		}
		def, ok := ViewDefText(sess, r.t.ViewQuery, false)
		if !ok {
			def = ViewDefinition(r.t.ViewQuery)
		}
		rows = append(rows, b.Make("table_catalog", "main", "table_schema", r.schema, "table_name", r.t.Name,
			"view_definition", def, "check_option", "NONE", "is_updatable", "NO",
			"is_insertable_into", "NO", "is_trigger_updatable", "NO", "is_trigger_deletable", "NO",
			"is_trigger_insertable_into", "NO"))
	}
	for _, st := range systemRelations() {
		if st.query != "" {
			rows = append(rows, b.Make("table_catalog", "main", "table_schema", st.schema, "table_name", st.name,
				"view_definition", " "+st.query+";", "check_option", "NONE", "is_updatable", "NO",
				"is_insertable_into", "NO", "is_trigger_updatable", "NO", "is_trigger_deletable", "NO",
				"is_trigger_insertable_into", "NO"))
		}
	}
	return rows, nil
}

func isColumns(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	add := func(schema, table string, view bool, c catalog.Column) {
		kv := []any{"table_catalog", "main", "table_schema", schema, "table_name", table, "column_name", c.Name,
			"ordinal_position", int(c.Attnum), "is_nullable", YesNo(!c.NotNull), "udt_catalog", "main",
			"udt_schema", "pg_catalog",
			"dtd_identifier", strconv.Itoa(int(c.Attnum)), "is_self_referencing", "NO", "is_identity", "NO",
			"identity_cycle", "NO", "is_generated", "NEVER", "is_updatable", YesNo(!view)}
		if info, ok := types.Lookup(c.Type.OID); ok {
			kv = append(kv, "udt_name", info.Name)
		}
		if c.Default != "" && c.Identity == "" {
			kv = append(kv, "column_default", StoredExprText(c.Type, c.Default))
		}
		kv = append(kv, columnTypeFacts(c.Type)...)
		rows = append(rows, b.Make(kv...))
	}
	cat := sess.Catalog()
	addIdentity := func(t *catalog.Table, c catalog.Column) { // sequences_free.go
		if facts := identityColumnFacts(cat, t, c); facts != nil {
			r := rows[len(rows)-1]
			for i := 0; i < len(facts); i += 2 {
				r[b.Col(facts[i].(string))] = facts[i+1]
			}
		}
	}
	for _, st := range systemRelations() {
		cols := st.cols
		if st.query != "" {
			var err error
			if cols, err = sess.ViewColumns(st); err != nil {
				return nil, err
			}
		}
		for i, c := range cols {
			add(st.schema, st.name, true, catalog.Column{Name: c.Name, Type: c.Type, Attnum: int16(i + 1)})
		}
	}
	for _, r := range userRelations(cat) {
		for _, c := range r.t.LiveColumns() {
			add(r.schema, r.t.Name, r.t.Kind == catalog.KindView, c)
			addIdentity(r.t, c)
		}
	}
	return rows, nil
}

// columnTypeFacts are the type columns of information_schema.columns, as
// PostgreSQL's _pg_char_max_length, _pg_numeric_precision and friends
// compute them.
func columnTypeFacts(t types.T) []any {
	oid := t.OID
	var kv []any
	switch {
	case types.IsArray(oid) && oid != types.Int2Vector && oid != types.OidVector:
		kv = append(kv, "data_type", "ARRAY")
	default:
		kv = append(kv, "data_type", types.FormatType(types.Of(oid)))
	}
	switch oid {
	case types.Varchar, types.Bpchar:
		if n, ok := types.CharLength(t.Typmod); ok {
			kv = append(kv, "character_maximum_length", n, "character_octet_length", n*4)
		} else {
			kv = append(kv, "character_octet_length", 1073741824)
		}
	case types.Text:
		kv = append(kv, "character_octet_length", 1073741824)
	case types.Int2:
		kv = append(kv, "numeric_precision", 16, "numeric_precision_radix", 2, "numeric_scale", 0)
	case types.Int4:
		kv = append(kv, "numeric_precision", 32, "numeric_precision_radix", 2, "numeric_scale", 0)
	case types.Int8:
		kv = append(kv, "numeric_precision", 64, "numeric_precision_radix", 2, "numeric_scale", 0)
	case types.Float4:
		kv = append(kv, "numeric_precision", 24, "numeric_precision_radix", 2)
	case types.Float8:
		kv = append(kv, "numeric_precision", 53, "numeric_precision_radix", 2)
	case types.Numeric:
		kv = append(kv, "numeric_precision_radix", 10)
		if p, s, ok := types.NumericPrecisionScale(t.Typmod); ok {
			kv = append(kv, "numeric_precision", p, "numeric_scale", s)
		}
	case types.Date:
		kv = append(kv, "datetime_precision", 0)
	case types.Time, types.Timestamp, types.Timestamptz:
		p := 6
		if t.Typmod >= 0 {
			p = int(t.Typmod)
		}
		kv = append(kv, "datetime_precision", p)
	case types.Interval:
		p := 6
		if n, ok := types.TimePrecision(t); ok {
			p = n
		}
		kv = append(kv, "datetime_precision", p)
	}
	return kv
}

// tableConstraint is one constraint of a user table, as the
// information_schema lists them (primary keys included).
type tableConstraint struct {
	t      *catalog.Table
	schema string
	c      catalog.Constraint
}

// userConstraints lists the constraints of every user table, the primary
// key first.
func userConstraints(cat *catalog.Snapshot) []tableConstraint {
	var out []tableConstraint
	for _, r := range userRelations(cat) {
		if len(r.t.PrimaryKey) > 0 {
			out = append(out, tableConstraint{r.t, r.schema, catalog.Constraint{OID: r.t.PrimaryKeyOID,
				Name: r.t.PrimaryKeyName, Kind: "p", Columns: r.t.PrimaryKey, Index: r.t.PrimaryKeyOID}})
		}
		for _, c := range r.t.Constraints {
			out = append(out, tableConstraint{r.t, r.schema, c})
		}
	}
	return out
}

var constraintTypeNames = map[string]string{"p": "PRIMARY KEY", "u": "UNIQUE", "c": "CHECK", "f": "FOREIGN KEY"}

// notNullConstraintName is the name PostgreSQL's information_schema gives
// a NOT NULL column: schema OID, table OID, attnum.
func notNullConstraintName(t *catalog.Table, attnum int16) string {
	return strconv.FormatUint(uint64(t.Schema), 10) + "_" + strconv.FormatUint(uint64(t.OID), 10) + "_" +
		strconv.Itoa(int(attnum)) + "_not_null"
}

func isTableConstraints(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	cat := sess.Catalog()
	for _, tc := range userConstraints(cat) {
		var nullsDistinct any
		if tc.c.Kind == "p" || tc.c.Kind == "u" {
			nullsDistinct = "YES"
		}
		rows = append(rows, b.Make("constraint_catalog", "main", "constraint_schema", tc.schema,
			"constraint_name", tc.c.Name, "table_catalog", "main", "table_schema", tc.schema, "table_name", tc.t.Name,
			"constraint_type", constraintTypeNames[tc.c.Kind], "is_deferrable", YesNo(tc.c.Deferrable), "initially_deferred", YesNo(tc.c.InitiallyDeferred),
			"enforced", "YES", "nulls_distinct", nullsDistinct))
	}
	for _, r := range userRelations(cat) {
		if r.t.Kind == catalog.KindView {
			continue
		}
		for _, c := range r.t.LiveColumns() {
			if c.NotNull {
				rows = append(rows, b.Make("constraint_catalog", "main", "constraint_schema", r.schema,
					"constraint_name", notNullConstraintName(r.t, c.Attnum), "table_catalog", "main",
					"table_schema", r.schema, "table_name", r.t.Name, "constraint_type", "CHECK",
					"is_deferrable", "NO", "initially_deferred", "NO", "enforced", "YES"))
			}
		}
	}
	return rows, nil
}

func isKeyColumnUsage(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	cat := sess.Catalog()
	for _, tc := range userConstraints(cat) {
		if tc.c.Kind == "c" {
			continue
		}
		for i, a := range tc.c.Columns {
			col := tc.t.ColumnByAttnum(a)
			if col == nil {
				continue
			}
			var pos any
			if tc.c.Kind == "f" && i < len(tc.c.RefColumns) {
				// The referenced column's position in the referenced key.
				if ref, ok := cat.TableByOID(tc.c.RefTable); ok {
					for _, ix := range ref.Indexes {
						if ix.Unique && sameInt16s(ix.Columns, tc.c.RefColumns) {
							for j, rc := range ix.Columns {
								if rc == tc.c.RefColumns[i] {
									pos = j + 1
								}
							}
						}
					}
				}
			}
			rows = append(rows, b.Make("constraint_catalog", "main", "constraint_schema", tc.schema,
				"constraint_name", tc.c.Name, "table_catalog", "main", "table_schema", tc.schema,
				"table_name", tc.t.Name, "column_name", col.Name, "ordinal_position", i+1,
				"position_in_unique_constraint", pos))
		}
	}
	return rows, nil
}

// ruleNames are the referential actions as the information_schema spells
// them.
var ruleNames = map[string]string{"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}

func isReferentialConstraints(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	cat := sess.Catalog()
	for _, tc := range userConstraints(cat) {
		if tc.c.Kind != "f" {
			continue
		}
		var uSchema, uName any
		if ref, ok := cat.TableByOID(tc.c.RefTable); ok {
			if sc, ok := cat.SchemaByOID(ref.Schema); ok {
				uSchema = sc.Name
			}
			ix := referencedIndex(ref, tc.c.RefColumns)
			for _, rc := range userConstraints(cat) {
				if rc.t == ref && rc.c.Index == ix && ix != 0 {
					uName = rc.c.Name
				}
			}
		}
		rows = append(rows, b.Make("constraint_catalog", "main", "constraint_schema", tc.schema,
			"constraint_name", tc.c.Name, "unique_constraint_catalog", "main", "unique_constraint_schema", uSchema,
			"unique_constraint_name", uName, "match_option", "NONE",
			"update_rule", ruleNames[fkAction(tc.c.OnUpdate)], "delete_rule", ruleNames[fkAction(tc.c.OnDelete)]))
	}
	return rows, nil
}

func isCheckConstraints(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	cat := sess.Catalog()
	for _, tc := range userConstraints(cat) {
		if tc.c.Kind == "c" {
			rows = append(rows, b.Make("constraint_catalog", "main", "constraint_schema", tc.schema,
				"constraint_name", tc.c.Name, "check_clause", "("+CheckExprText(tc.t, tc.c.Check, false)+")"))
		}
	}
	for _, r := range userRelations(cat) {
		if r.t.Kind == catalog.KindView {
			continue
		}
		for _, c := range r.t.LiveColumns() {
			if c.NotNull {
				rows = append(rows, b.Make("constraint_catalog", "main", "constraint_schema", r.schema,
					"constraint_name", notNullConstraintName(r.t, c.Attnum), "check_clause", parse.QuoteIdent(c.Name)+" IS NOT NULL"))
			}
		}
	}
	return rows, nil
}

// isConstraintColumnUsage lists the columns each constraint uses: on its
// own table or, for a foreign key, on the referenced one.
func isConstraintColumnUsage(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	cat := sess.Catalog()
	for _, tc := range userConstraints(cat) {
		t, schema, cols := tc.t, tc.schema, tc.c.Columns
		if tc.c.Kind == "f" {
			ref, ok := cat.TableByOID(tc.c.RefTable)
			if !ok {
				continue
			}
			sc, _ := cat.SchemaByOID(ref.Schema)
			t, schema, cols = ref, sc.Name, tc.c.RefColumns
		}
		for _, a := range cols {
			col := t.ColumnByAttnum(a)
			if col == nil {
				continue
			}
			rows = append(rows, b.Make("table_catalog", "main", "table_schema", schema, "table_name", t.Name,
				"column_name", col.Name, "constraint_catalog", "main", "constraint_schema", tc.schema,
				"constraint_name", tc.c.Name))
		}
	}
	return rows, nil
}

func isConstraintTableUsage(sess Session, b *RowBuilder) ([]Row, error) {
	var rows []Row
	cat := sess.Catalog()
	for _, tc := range userConstraints(cat) {
		t, schema := tc.t, tc.schema
		if tc.c.Kind == "f" {
			ref, ok := cat.TableByOID(tc.c.RefTable)
			if !ok {
				continue
			}
			sc, _ := cat.SchemaByOID(ref.Schema)
			t, schema = ref, sc.Name
		}
		rows = append(rows, b.Make("table_catalog", "main", "table_schema", schema, "table_name", t.Name,
			"constraint_catalog", "main", "constraint_schema", tc.schema, "constraint_name", tc.c.Name))
	}
	return rows, nil
}
