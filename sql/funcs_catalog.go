package sql

import (
	"strconv"
	"strings"
	"sync"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// The system information and catalog functions clients call while
// introspecting (psql's \d family, JDBC's DatabaseMetaData, ODBC's
// SQLTables/SQLColumns, BI tools): names, visibility, object definitions
// as SQL text, comments, privileges and sizes. They read the same catalog
// snapshot as the statement, so a DDL statement earlier in the same
// transaction is seen.

func init() {
	register("pg_get_userbyid", &builtin{resolve: signature(types.Name, types.Oid), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		return roleName(x, a[0].(int64)), nil
	}})
	register("pg_table_is_visible", &builtin{resolve: signature(types.Bool, types.Oid), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		return relationVisible(x, uint32(a[0].(int64))), nil
	}})
	// Types, functions, operators, collations, conversions and the like
	// all live in pg_catalog, which is always searched: they are visible
	// exactly when they exist. User tables' row types follow their tables.
	typeVisible := &builtin{resolve: signature(types.Bool, types.Oid), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		oid := uint32(a[0].(int64))
		for _, t := range x.catalogOf().Tables() {
			if t.RowType == oid {
				return relationVisible(x, t.OID), nil
			}
		}
		return true, nil
	}}
	register("pg_type_is_visible", typeVisible)
	for _, name := range []string{"pg_function_is_visible", "pg_operator_is_visible", "pg_opclass_is_visible",
		"pg_opfamily_is_visible", "pg_collation_is_visible", "pg_conversion_is_visible",
		"pg_ts_config_is_visible", "pg_ts_dict_is_visible", "pg_ts_parser_is_visible", "pg_ts_template_is_visible",
		"pg_statistics_obj_is_visible"} {
		register(name, &builtin{resolve: signature(types.Bool, types.Oid), strict: true, call: func(*execCtx, []types.Value) (types.Value, error) {
			return true, nil
		}})
	}
	register("format_type", &builtin{resolve: signature(types.Text, types.Oid, types.Int4), call: func(x *execCtx, a []types.Value) (types.Value, error) {
		if a[0] == nil {
			return nil, nil
		}
		mod := int32(-1)
		if a[1] != nil {
			mod = int32(a[1].(int64))
		}
		return formatTypeOID(x, uint32(a[0].(int64)), mod), nil
	}})
	// cdcdb keeps expressions (column defaults, CHECK constraints) as SQL
	// text, which is what pg_get_expr prints from PostgreSQL's node trees.
	register("pg_get_expr", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) == 2 {
			return signature(types.Text, types.PgNodeTree, types.Oid)(b, args)
		}
		return signature(types.Text, types.PgNodeTree, types.Oid, types.Bool)(b, args)
	}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		return qualifySerialDefault(x, a[0].(string), uint32(a[1].(int64))), nil // funcs_dump.go
	}})
	register("pg_get_constraintdef", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) == 1 {
			return signature(types.Text, types.Oid)(b, args)
		}
		return signature(types.Text, types.Oid, types.Bool)(b, args)
	}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		return constraintDef(x, uint32(a[0].(int64)), len(a) > 1 && a[1] == true), nil
	}})
	register("pg_get_indexdef", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) == 1 {
			return signature(types.Text, types.Oid)(b, args)
		}
		return signature(types.Text, types.Oid, types.Int4, types.Bool)(b, args)
	}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		col := 0
		if len(a) > 1 {
			col = int(a[1].(int64))
		}
		return indexDef(x, uint32(a[0].(int64)), col), nil
	}})
	register("pg_get_viewdef", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) == 0 || len(args) > 2 {
			return nil, types.T{}, errNoFunction
		}
		out := make([]expr, len(args))
		first := args[0]
		if first.typ().OID == types.Unknown || typeCategory(first.typ().OID) == 'S' {
			// pg_get_viewdef('name'): the view's name, as text.
			c, err := b.coerce(first, textT())
			if err != nil {
				return nil, types.T{}, errNoFunction
			}
			out[0] = c
		} else {
			c, err := b.coerce(first, types.Of(types.Oid))
			if err != nil {
				return nil, types.T{}, errNoFunction
			}
			out[0] = c
		}
		if len(args) == 2 {
			t := types.Bool
			if isIntType(args[1].typ().OID) {
				t = types.Int4 // pg_get_viewdef(oid, wrap_column)
			}
			c, err := b.coerce(args[1], types.Of(t))
			if err != nil {
				return nil, types.T{}, errNoFunction
			}
			out[1] = c
		}
		return out, textT(), nil
	}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		var oid uint32
		switch v := a[0].(type) {
		case int64:
			oid = uint32(v)
		case string:
			r, err := x.sess.parseRegValue(x, types.Regclass, v)
			if err != nil {
				return nil, err
			}
			oid = uint32(r.(int64))
		}
		t, ok := x.catalogOf().TableByOID(oid)
		if !ok || t.Kind != catalog.KindView {
			return nil, nil
		}
		pretty := len(a) > 1 && a[1] != false // true, or a wrap column
		if s, ok := viewDefText(x, t.ViewQuery, pretty); ok {
			return s, nil
		}
		return viewDefinition(t.ViewQuery), nil
	}})
	register("obj_description", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) == 1 {
			return signature(types.Text, types.Oid)(b, args)
		}
		return signature(types.Text, types.Oid, types.Name)(b, args)
	}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		class := ""
		if len(a) > 1 {
			class = a[1].(string)
		}
		return objDescription(x, uint32(a[0].(int64)), class, 0), nil
	}})
	register("col_description", &builtin{resolve: signature(types.Text, types.Oid, types.Int4), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		return objDescription(x, uint32(a[0].(int64)), "pg_class", int32(a[1].(int64))), nil
	}})
	register("shobj_description", &builtin{resolve: signature(types.Text, types.Oid, types.Name), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		return sharedDescription(uint32(a[0].(int64)), a[1].(string)), nil
	}})
	register("pg_encoding_to_char", &builtin{resolve: signature(types.Name, types.Int4), strict: true, call: func(_ *execCtx, a []types.Value) (types.Value, error) {
		n := a[0].(int64)
		if n < 0 || n >= int64(len(pgEncodings)) {
			return "", nil
		}
		return pgEncodings[n], nil
	}})
	register("pg_char_to_encoding", &builtin{resolve: signature(types.Int4, types.Name), strict: true, call: func(_ *execCtx, a []types.Value) (types.Value, error) {
		name := strings.ToUpper(strings.ReplaceAll(a[0].(string), "-", ""))
		if name == "UNICODE" {
			name = "UTF8"
		}
		for i, e := range pgEncodings {
			if e == name {
				return int64(i), nil
			}
		}
		return int64(-1), nil
	}})
	register("pg_is_in_recovery", &builtin{resolve: signature(types.Bool), call: func(*execCtx, []types.Value) (types.Value, error) {
		return false, nil
	}})
	register("pg_my_temp_schema", &builtin{resolve: signature(types.Oid), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		if sc, ok := x.catalogOf().Schema(x.sess.tempSchemaName()); ok {
			return int64(sc.OID), nil
		}
		return int64(0), nil
	}})
	register("pg_is_other_temp_schema", &builtin{resolve: signature(types.Bool, types.Oid), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		sc, ok := x.catalogOf().SchemaByOID(catalog.OID(a[0].(int64)))
		return ok && isTempSchemaName(sc.Name) && sc.Name != x.sess.tempSchemaName(), nil
	}})
	register("pg_relation_is_publishable", &builtin{resolve: signature(types.Bool, types.Regclass), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		t, ok := x.catalogOf().TableByOID(uint32(a[0].(int64)))
		return ok && t.Kind != catalog.KindView, nil
	}})
	register("pg_get_serial_sequence", &builtin{resolve: signature(types.Text, types.Text, types.Text), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		r, err := x.sess.parseRegValue(x, types.Regclass, a[0].(string))
		if err != nil {
			return nil, err
		}
		cat := x.catalogOf()
		t, ok := cat.TableByOID(uint32(r.(int64)))
		if !ok {
			return nil, nil
		}
		c, ok := t.Column(a[1].(string))
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a[1], t.Name)
		}
		if c.Sequence == "" {
			return nil, nil
		}
		sc, _ := cat.SchemaByOID(t.Schema)
		return quoteIdent(sc.Name) + "." + quoteIdent(c.Sequence), nil
	}})
	register("pg_get_partkeydef", &builtin{resolve: signature(types.Text, types.Oid), strict: true, call: func(*execCtx, []types.Value) (types.Value, error) {
		return nil, nil // no relation of cdcdb is partitioned
	}})
	register("pg_get_statisticsobjdef_columns", &builtin{resolve: signature(types.Text, types.Oid), strict: true, call: func(*execCtx, []types.Value) (types.Value, error) {
		return nil, nil // cdcdb has no extended statistics objects
	}})
	register("pg_get_function_arguments", procText(func(r Row, b *catalogRow) string { return procArguments(r, b, true) }))
	// The identity arguments differ from the arguments only by defaults,
	// which cdcdb does not print (see procArguments).
	register("pg_get_function_identity_arguments", procText(func(r Row, b *catalogRow) string { return procArguments(r, b, true) }))
	register("pg_get_functiondef", procText(procDefinition))
	register("pg_get_function_result", procText(procResult))
	register("to_regclass", toReg(types.Regclass))
	register("to_regtype", toReg(types.Regtype))
	register("to_regnamespace", toReg(types.Regnamespace))
	register("pg_size_pretty", &builtin{resolve: signature(types.Text, types.Int8), strict: true, call: func(_ *execCtx, a []types.Value) (types.Value, error) {
		return sizePretty(a[0].(int64)), nil
	}})
	for name, parts := range map[string]relationParts{
		"pg_relation_size":       {data: true},
		"pg_table_size":          {data: true, history: true},
		"pg_indexes_size":        {indexes: true},
		"pg_total_relation_size": {data: true, history: true, indexes: true},
	} {
		parts := parts
		register(name, &builtin{resolve: signature(types.Int8, types.Regclass), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
			return relationSize(x, uint32(a[0].(int64)), parts), nil
		}})
	}
	registerPrivilegeFunctions()
}

// roleName is pg_get_userbyid: the catalog's roles and PostgreSQL's
// predefined ones by name.
func roleName(x *execCtx, oid int64) string {
	if r, ok := x.catalogOf().RoleByOID(uint32(oid)); ok {
		return r.Name
	}
	if ct, ok := pgCatalogTables["pg_authid"]; ok {
		if static, err := ct.staticRows(); err == nil {
			for _, r := range static {
				if r[0] == oid {
					return r[1].(string)
				}
			}
		}
	}
	return "unknown (OID=" + strconv.FormatInt(oid, 10) + ")"
}

// relationVisible is pg_table_is_visible: the relation's schema is on the
// search path and no relation of the same name comes earlier in it.
func relationVisible(x *execCtx, oid uint32) bool {
	cat := x.catalogOf()
	name, schema, ok := relationNameOf(cat, oid)
	if !ok {
		return false
	}
	for _, s := range x.sess.searchPath() {
		sc, ok := cat.Schema(s)
		if !ok {
			continue
		}
		if sc.OID == schema {
			return true
		}
		if _, _, found := relationInSchema(cat, sc, name); found {
			return false
		}
	}
	return false
}

// relationNameOf finds any relation by OID: a table, view, index or system
// relation.
func relationNameOf(cat *catalog.Snapshot, oid uint32) (name string, schema uint32, ok bool) {
	if t, ok := cat.TableByOID(oid); ok {
		return t.Name, t.Schema, true
	}
	for _, t := range cat.Tables() {
		for _, ix := range t.Indexes {
			if ix.OID == oid {
				return ix.Name, t.Schema, true
			}
		}
	}
	if s, ok := sequenceByOID(cat, oid); ok {
		return s.name, s.schema, true
	}
	if ix := systemIndexByOID(oid); ix != nil {
		return ix.def.Name, catalog.PgCatalogNamespace, true
	}
	for _, st := range systemRelations() {
		if st.oid == oid {
			return st.name, schemaOIDByName(cat, st.schema), true
		}
	}
	return "", 0, false
}

// relationInSchema finds a relation (table, view, index, system relation)
// by name in one schema.
func relationInSchema(cat *catalog.Snapshot, sc *catalog.Schema, name string) (uint32, string, bool) {
	if t, ok := cat.Table(sc.OID, name); ok {
		return t.OID, "table", true
	}
	for _, t := range cat.Tables() {
		if t.Schema != sc.OID {
			continue
		}
		for _, ix := range t.Indexes {
			if ix.Name == name {
				return ix.OID, "index", true
			}
		}
	}
	for _, s := range serialSequences(cat) {
		if s.schema == sc.OID && s.name == name {
			return s.oid, "sequence", true
		}
	}
	if st, ok := systemTables[sc.Name][name]; ok {
		return st.oid, "system", true
	}
	if sc.OID == catalog.PgCatalogNamespace {
		for _, ix := range systemIndexes() {
			if ix.def.Name == name {
				return ix.def.OID, "index", true
			}
		}
	}
	return 0, "", false
}

// qualifiedRelationName prints a relation as regclass does: qualified only
// when it is not visible.
func qualifiedRelationName(x *execCtx, oid uint32) string {
	cat := x.catalogOf()
	name, schema, ok := relationNameOf(cat, oid)
	if !ok {
		return strconv.FormatUint(uint64(oid), 10)
	}
	if relationVisible(x, oid) {
		return quoteIdent(name)
	}
	sc, _ := cat.SchemaByOID(schema)
	return quoteIdent(sc.Name) + "." + quoteIdent(name)
}

// formatTypeOID is format_type: built-in types by their SQL names, a
// table's row type by the table's (qualified when not visible).
func formatTypeOID(x *execCtx, oid uint32, mod int32) string {
	if _, ok := types.Lookup(types.OID(oid)); ok {
		return types.FormatType(types.T{OID: types.OID(oid), Typmod: mod})
	}
	for _, t := range x.catalogOf().Tables() {
		if t.RowType == oid {
			return qualifiedRelationName(x, t.OID)
		}
	}
	if d := infoDomainByOID(oid); d != nil {
		return domainTypeName(x, d)
	}
	// A built-in type cdcdb has no values for: its pg_type name.
	if ct, ok := pgCatalogTables["pg_type"]; ok {
		if static, err := ct.staticRows(); err == nil {
			for _, r := range static {
				if r[0] == int64(oid) {
					return r[1].(string)
				}
			}
		}
	}
	return "???"
}

// quoteColumns prints attnums as a column list.
func quoteColumns(t *catalog.Table, attnums []int16) string {
	names := make([]string, len(attnums))
	for i, a := range attnums {
		if c := t.ColumnByAttnum(a); c != nil {
			names[i] = quoteIdent(c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// constraintDef is pg_get_constraintdef.
func constraintDef(x *execCtx, oid uint32, pretty bool) types.Value {
	cat := x.catalogOf()
	for _, t := range cat.Tables() {
		if len(t.PrimaryKey) > 0 && t.PrimaryKeyOID == oid {
			return "PRIMARY KEY (" + quoteColumns(t, t.PrimaryKey) + ")"
		}
		for _, c := range t.Constraints {
			if c.OID != oid {
				continue
			}
			switch c.Kind {
			case "u":
				return "UNIQUE (" + quoteColumns(t, c.Columns) + ")"
			case "c":
				return "CHECK (" + checkExprText(t, c.Check, pretty) + ")"
			case "f":
				s := "FOREIGN KEY (" + quoteColumns(t, c.Columns) + ") REFERENCES "
				if ref, ok := cat.TableByOID(c.RefTable); ok {
					s += qualifiedRelationName(x, ref.OID) + "(" + quoteColumns(ref, c.RefColumns) + ")"
				}
				if a := fkAction(c.OnUpdate); a != "a" {
					s += " ON UPDATE " + strings.ToUpper(c.OnUpdate)
				}
				if a := fkAction(c.OnDelete); a != "a" {
					s += " ON DELETE " + strings.ToUpper(c.OnDelete)
				}
				if c.Deferrable {
					s += " DEFERRABLE"
				}
				if c.InitiallyDeferred {
					s += " INITIALLY DEFERRED"
				}
				return s
			}
		}
	}
	if ix := systemIndexByOID(oid); ix != nil && ix.def.Constraint != "" {
		return systemConstraintDef(ix)
	}
	for _, d := range infoDomains() {
		if d.conOID == oid && d.def.CheckName != "" {
			return domainConstraintDef(d, pretty)
		}
	}
	return nil
}

// indexDef is pg_get_indexdef: the CREATE INDEX statement, or with col > 0
// that key column's name.
func indexDef(x *execCtx, oid uint32, col int) types.Value {
	cat := x.catalogOf()
	for _, t := range cat.Tables() {
		for _, ix := range t.Indexes {
			if ix.OID != oid {
				continue
			}
			if col > 0 {
				if col > len(ix.Columns) {
					return ""
				}
				if c := t.ColumnByAttnum(ix.Columns[col-1]); c != nil {
					return quoteIdent(c.Name)
				}
				return ""
			}
			keys := make([]string, len(ix.Columns))
			for i, a := range ix.Columns {
				if c := t.ColumnByAttnum(a); c != nil {
					keys[i] = quoteIdent(c.Name)
				}
				if i < len(ix.Desc) && ix.Desc[i] {
					keys[i] += " DESC"
				}
			}
			sc, _ := cat.SchemaByOID(t.Schema)
			unique := ""
			if ix.Unique {
				unique = "UNIQUE "
			}
			return "CREATE " + unique + "INDEX " + quoteIdent(ix.Name) + " ON " + quoteIdent(sc.Name) + "." +
				quoteIdent(t.Name) + " USING btree (" + strings.Join(keys, ", ") + ")"
		}
	}
	if ix := systemIndexByOID(oid); ix != nil {
		return systemIndexDef(ix, col)
	}
	return nil
}

// objDescription is obj_description and col_description: the comment on
// an object of the named catalog ("" for any catalog).
func objDescription(x *execCtx, oid uint32, class string, sub int32) types.Value {
	cat := x.catalogOf()
	if class == "" || class == "pg_class" {
		if t, ok := cat.TableByOID(oid); ok {
			if sub == 0 {
				return nilIfEmpty(t.Comment)
			}
			if c := t.ColumnByAttnum(int16(sub)); c != nil && !c.Dropped {
				return nilIfEmpty(c.Comment)
			}
			return nil
		}
	}
	if class == "" || class == "pg_namespace" {
		if sc, ok := cat.SchemaByOID(oid); ok {
			return nilIfEmpty(sc.Comment)
		}
	}
	classOID := int64(0)
	if class != "" {
		ct, ok := pgCatalogTables[class]
		if !ok {
			return nil
		}
		classOID = int64(ct.def.OID)
	}
	ct := pgCatalogTables["pg_description"]
	static, err := ct.staticRows()
	if err != nil {
		return nil
	}
	for _, r := range static {
		if r[0] == int64(oid) && (classOID == 0 || r[1] == classOID) && r[2] == int64(sub) {
			return r[3]
		}
	}
	return nil
}

// sharedDescription is shobj_description, over PostgreSQL's comments on
// shared objects (cdcdb adds none).
func sharedDescription(oid uint32, class string) types.Value {
	cls, ok := pgCatalogTables[class]
	if !ok {
		return nil
	}
	ct, ok := pgCatalogTables["pg_shdescription"]
	if !ok {
		return nil
	}
	static, err := ct.staticRows()
	if err != nil {
		return nil
	}
	for _, r := range static {
		if r[0] == int64(oid) && r[1] == int64(cls.def.OID) {
			return r[2]
		}
	}
	return nil
}

func nilIfEmpty(s string) types.Value {
	if s == "" {
		return nil
	}
	return s
}

// pgEncodings are PostgreSQL's encoding names by their numbers
// (pg_database.encoding, pg_conversion.conforencoding).
var pgEncodings = []string{"SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8",
	"MULE_INTERNAL", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9",
	"LATIN10", "WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252", "ISO_8859_5",
	"ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U",
	"SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004"}

// viewDefinition prints a view's query as written, ended by a semicolon,
// for the queries viewDefText cannot print as PostgreSQL would.
func viewDefinition(query string) string {
	q := strings.TrimSuffix(strings.TrimSpace(query), ";")
	return " " + q + ";"
}

// procText makes a function of a pg_proc OID that prints something of the
// function from PostgreSQL's pg_proc rows.
func procText(f func(r Row, b *catalogRow) string) *builtin {
	return &builtin{resolve: signature(types.Text, types.Oid), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		ct := pgCatalogTables["pg_proc"]
		static, err := ct.staticRows()
		if err != nil {
			return nil, err
		}
		b := rowBuilder("pg_proc")
		for _, r := range static {
			if r[0] == a[0] {
				return f(r, b), nil
			}
		}
		return nil, nil
	}}
}

// procArguments is pg_get_function_arguments (withOut: the OUT arguments
// too, marked OUT) and pg_get_function_identity_arguments: "name type, ..."
// of the arguments. Defaults are not shown: PostgreSQL's initial rows keep
// them as node trees, which cdcdb does not read.
func procArguments(r Row, b *catalogRow, withOut bool) string {
	var parts []string
	names, _ := r[b.col("proargnames")].(types.ArrayValue)
	if all, ok := r[b.col("proallargtypes")].(types.ArrayValue); ok {
		modes, _ := r[b.col("proargmodes")].(types.ArrayValue)
		for i, t := range all.Elems {
			mode := "i"
			if i < len(modes.Elems) {
				mode, _ = modes.Elems[i].(string)
			}
			if mode == "t" || (mode == "o" && !withOut) {
				continue
			}
			parts = append(parts, argText(names, i, mode, t.(int64)))
		}
		return strings.Join(parts, ", ")
	}
	in, _ := r[b.col("proargtypes")].(types.ArrayValue)
	for i, t := range in.Elems {
		parts = append(parts, argText(names, i, "i", t.(int64)))
	}
	return strings.Join(parts, ", ")
}

func argText(names types.ArrayValue, i int, mode string, t int64) string {
	s := ""
	switch mode {
	case "o":
		s = "OUT "
	case "b":
		s = "INOUT "
	case "v":
		s = "VARIADIC "
	}
	if i < len(names.Elems) {
		if n, _ := names.Elems[i].(string); n != "" {
			s += quoteIdent(n) + " "
		}
	}
	return s + builtinTypeName(uint32(t))
}

// builtinTypeName prints a built-in type as format_type does: by its SQL
// name when cdcdb has the type, else by its pg_type name (anyrange, ...).
func builtinTypeName(oid uint32) string {
	if _, ok := types.Lookup(types.OID(oid)); ok {
		return types.FormatType(types.Of(types.OID(oid)))
	}
	if r := staticRowByOID("pg_type", int64(oid)); r != nil {
		return quoteIdent(r[1].(string))
	}
	return "???"
}

// procResult is pg_get_function_result: TABLE(...) for functions with
// TABLE columns, else the result type, SETOF for set-returning functions
// (record for those with OUT arguments).
func procResult(r Row, b *catalogRow) string {
	if all, ok := r[b.col("proallargtypes")].(types.ArrayValue); ok {
		names, _ := r[b.col("proargnames")].(types.ArrayValue)
		modes, _ := r[b.col("proargmodes")].(types.ArrayValue)
		var cols []string
		for i, t := range all.Elems {
			if i < len(modes.Elems) && modes.Elems[i] == "t" {
				cols = append(cols, argText(names, i, "i", t.(int64)))
			}
		}
		if len(cols) > 0 {
			return "TABLE(" + strings.Join(cols, ", ") + ")"
		}
	}
	s := builtinTypeName(uint32(r[b.col("prorettype")].(int64)))
	if r[b.col("proretset")] == true {
		return "SETOF " + s
	}
	return s
}

// toReg makes to_regclass and friends: the OID, or NULL when no object
// has that name.
func toReg(oid types.OID) *builtin {
	return &builtin{resolve: signature(oid, types.Text), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		v, err := x.sess.parseRegValue(x, oid, a[0].(string))
		if err != nil {
			return nil, nil
		}
		return v, nil
	}}
}

// sizePretty is pg_size_pretty, as PostgreSQL 15 computes it: bytes below
// 10 kB, then kB, MB, GB, TB, PB each below 20 * 1024 - 1 of it, halves
// rounded away from zero.
func sizePretty(size int64) string {
	units := []struct {
		name  string
		limit int64
		round bool
		bits  uint
	}{{"bytes", 10 * 1024, false, 0}, {"kB", 20*1024 - 1, true, 10}, {"MB", 20*1024 - 1, true, 20},
		{"GB", 20*1024 - 1, true, 30}, {"TB", 20*1024 - 1, true, 40}, {"PB", 20*1024 - 1, true, 50}}
	for i, u := range units {
		abs := size
		if abs < 0 {
			abs = -abs
		}
		if i == len(units)-1 || abs < u.limit {
			if u.round {
				if size < 0 {
					size = (size - 1) / 2
				} else {
					size = (size + 1) / 2
				}
			}
			return strconv.FormatInt(size, 10) + " " + u.name
		}
		bits := units[i+1].bits - u.bits
		if units[i+1].round {
			bits--
		}
		if u.round {
			bits++
		}
		size /= int64(1) << bits
	}
	return ""
}

// relationParts says which storage spaces a size function counts.
type relationParts struct{ data, history, indexes bool }

// relationSize counts the bytes a relation's keys and values take in
// storage: cdcdb's measure of what PostgreSQL counts in pages.
func relationSize(x *execCtx, oid uint32, parts relationParts) int64 {
	cat := x.catalogOf()
	spaceBytes := func(name string) int64 {
		sp := x.tx.st.Space(name)
		if sp == nil {
			return 0
		}
		var n int64
		c := sp.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			n += int64(len(k) + len(v))
		}
		return n
	}
	t, ok := cat.TableByOID(oid)
	if !ok {
		for _, tt := range cat.Tables() {
			for _, ix := range tt.Indexes {
				if ix.OID == oid && !ix.Primary {
					return spaceBytes(catalog.IndexSpace(ix.OID))
				}
			}
		}
		return 0
	}
	var n int64
	if parts.data {
		n += spaceBytes(catalog.DataSpace(t.OID))
	}
	if parts.history {
		n += spaceBytes(catalog.HistorySpace(t.OID))
	}
	if parts.indexes {
		for _, ix := range t.Indexes {
			if !ix.Primary {
				n += spaceBytes(catalog.IndexSpace(ix.OID))
			}
		}
	}
	return n
}

// privilegeWords are the privilege names each has_*_privilege accepts.
var privilegeWords = map[string][]string{
	"table":    {"select", "insert", "update", "delete", "truncate", "references", "trigger"},
	"column":   {"select", "insert", "update", "references"},
	"schema":   {"create", "usage"},
	"database": {"create", "connect", "temporary", "temp"},
	"function": {"execute"},
	"sequence": {"usage", "select", "update"},
	"type":     {"usage"},
	"role":     {"member", "usage", "set"},
	"other":    {"usage", "create"},
}

// registerPrivilegeFunctions registers has_*_privilege and pg_has_role.
// cdcdb has one role, a superuser, so every privilege is held; what these
// check is what PostgreSQL checks before answering: that the privilege
// names are valid and that an object named by text exists.
func registerPrivilegeFunctions() {
	kinds := map[string]string{
		"has_table_privilege": "table", "has_any_column_privilege": "column", "has_column_privilege": "column",
		"has_schema_privilege": "schema", "has_database_privilege": "database", "has_function_privilege": "function",
		"has_sequence_privilege": "sequence", "has_type_privilege": "type", "pg_has_role": "role",
		"has_tablespace_privilege": "other", "has_language_privilege": "other", "has_server_privilege": "other",
		"has_foreign_data_wrapper_privilege": "other",
	}
	for name, kind := range kinds {
		name, kind := name, kind
		minArgs, maxArgs := 2, 3
		if name == "has_column_privilege" {
			minArgs, maxArgs = 3, 4
		}
		register(name, &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
			if len(args) < minArgs || len(args) > maxArgs {
				return nil, types.T{}, errNoFunction
			}
			out := make([]expr, len(args))
			for i, a := range args {
				if a.typ().OID == types.Unknown || i == len(args)-1 {
					c, err := b.coerce(a, textT())
					if err != nil {
						return nil, types.T{}, errNoFunction
					}
					out[i] = c
					continue
				}
				out[i] = a
			}
			return out, boolT(), nil
		}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
			if err := checkPrivilegeWords(kind, a[len(a)-1].(string)); err != nil {
				return nil, err
			}
			// The object is the argument before the privilege (or before
			// the column, for has_column_privilege).
			obj := a[len(a)-2]
			if name == "has_column_privilege" {
				obj = a[len(a)-3]
			}
			if name == "has_table_privilege" {
				return hasTablePrivilegeCall(x, a)
			}
			if s, ok := obj.(string); ok {
				switch kind {
				case "table", "column", "sequence":
					if _, err := x.sess.parseRegValue(x, types.Regclass, s); err != nil {
						return nil, err
					}
				case "schema":
					if _, ok := x.catalogOf().Schema(s); !ok {
						return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", s)
					}
				}
			}
			return true, nil
		}})
	}
}

// checkPrivilegeWords validates a privilege list such as 'SELECT, INSERT'
// (each optionally WITH GRANT OPTION).
func checkPrivilegeWords(kind, list string) error {
	for _, p := range strings.Split(list, ",") {
		w := strings.ToLower(strings.TrimSpace(p))
		w = strings.TrimSpace(strings.TrimSuffix(w, "with grant option"))
		w = strings.TrimSpace(strings.TrimSuffix(w, "with admin option"))
		ok := false
		for _, allowed := range privilegeWords[kind] {
			if w == allowed {
				ok = true
			}
		}
		if !ok {
			return pgerror.New(pgerror.InvalidParameterValue, "unrecognized privilege type: \"%s\"", strings.TrimSpace(p))
		}
	}
	return nil
}

func init() {
	// array_to_string(anyarray, delimiter [, null_string]): psql's \l and
	// \dp print ACLs with it. NULL elements are skipped unless a
	// null_string is given.
	register("array_to_string", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) < 2 || len(args) > 3 || types.ElemOf(args[0].typ().OID) == 0 {
			return nil, types.T{}, errNoFunction
		}
		out := []expr{args[0]}
		for _, a := range args[1:] {
			c, err := b.coerce(a, textT())
			if err != nil {
				return nil, types.T{}, errNoFunction
			}
			out = append(out, c)
		}
		return out, textT(), nil
	}, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		if a[0] == nil || a[1] == nil {
			return nil, nil
		}
		arr := a[0].(types.ArrayValue)
		sep := a[1].(string)
		var parts []string
		for _, e := range arr.Elems {
			if e == nil {
				if len(a) == 3 && a[2] != nil {
					parts = append(parts, a[2].(string))
				}
				continue
			}
			parts = append(parts, types.FormatTextIn(types.Of(arr.Elem), e, x.location()))
		}
		return strings.Join(parts, sep), nil
	}})
}

func init() {
	// array_lower, array_upper, array_length and cardinality of a
	// one-dimensional array (all cdcdb's arrays start at 1); psql's \d
	// walks pg_publication_rel.prattrs with array_upper.
	dimFn := func(f func(n int64) types.Value) *builtin {
		return &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
			if len(args) != 2 || types.ElemOf(args[0].typ().OID) == 0 {
				return nil, types.T{}, errNoFunction
			}
			d, err := b.coerce(args[1], int4T())
			if err != nil {
				return nil, types.T{}, errNoFunction
			}
			return []expr{args[0], d}, int4T(), nil
		}, strict: true, call: func(_ *execCtx, a []types.Value) (types.Value, error) {
			arr := a[0].(types.ArrayValue)
			dim := a[1].(int64)
			dims := arr.Dims
			if dims == nil {
				dims = []int{len(arr.Elems)}
			}
			if dim < 1 || dim > int64(len(dims)) || dims[dim-1] == 0 {
				return nil, nil
			}
			return f(int64(dims[dim-1])), nil
		}}
	}
	register("array_lower", dimFn(func(int64) types.Value { return int64(1) }))
	register("array_upper", dimFn(func(n int64) types.Value { return n }))
	register("array_length", dimFn(func(n int64) types.Value { return n }))
	register("cardinality", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) != 1 || types.ElemOf(args[0].typ().OID) == 0 {
			return nil, types.T{}, errNoFunction
		}
		return args, int4T(), nil
	}, strict: true, call: func(_ *execCtx, a []types.Value) (types.Value, error) {
		return int64(len(a[0].(types.ArrayValue).Elems)), nil
	}})
}

func init() {
	// cdcdb has no rewrite rules or triggers (pg_rewrite and pg_trigger are
	// empty; a view is planned from its query), so no OID names one and,
	// as in PostgreSQL for an OID that is not a rule or trigger, the
	// definition is NULL.
	noObject := &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) == 1 {
			return signature(types.Text, types.Oid)(b, args)
		}
		return signature(types.Text, types.Oid, types.Bool)(b, args)
	}, strict: true, call: func(*execCtx, []types.Value) (types.Value, error) {
		return nil, nil
	}}
	register("pg_get_ruledef", noObject)
	register("pg_get_triggerdef", noObject)
}

var (
	quoteKeywordsOnce sync.Once
	quoteKeywords     map[string]bool
)

// keywordsToQuote are the keywords quote_ident and the reg* types put in
// double quotes, as PostgreSQL does: all but the unreserved ones, from the
// front end's keyword table.
func keywordsToQuote() map[string]bool {
	quoteKeywordsOnce.Do(func() {
		quoteKeywords = map[string]bool{}
		for _, k := range parse.Keywords() {
			if k.CatCode != 'U' {
				quoteKeywords[k.Word] = true
			}
		}
	})
	return quoteKeywords
}

func init() {
	register("getdatabaseencoding", &builtin{resolve: signature(types.Name), call: func(*execCtx, []types.Value) (types.Value, error) {
		return "UTF8", nil
	}})
	// The built-in tablespaces have no directory of their own: PostgreSQL
	// answers the empty string for them, and cdcdb has no other.
	register("pg_tablespace_location", &builtin{resolve: signature(types.Text, types.Oid), strict: true, call: func(*execCtx, []types.Value) (types.Value, error) {
		return "", nil
	}})
	// The database's size: the bytes of every relation's data, history and
	// indexes (see relationSize).
	register("pg_database_size", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, errNoFunction
		}
		if t := args[0].typ().OID; t == types.Unknown || typeCategory(t) == 'S' {
			return signature(types.Int8, types.Name)(b, args)
		}
		return signature(types.Int8, types.Oid)(b, args)
	}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		if n, ok := a[0].(string); ok && n != "main" {
			return nil, pgerror.New("3D000", "database \"%s\" does not exist", n) // invalid_catalog_name
		}
		if o, ok := a[0].(int64); ok && o != databaseOID {
			return nil, nil
		}
		var total int64
		for _, t := range x.catalogOf().Tables() {
			total += relationSize(x, t.OID, relationParts{data: true, history: true, indexes: true})
		}
		return total, nil
	}})
	// Built-in functions have no SQL-standard body (LANGUAGE internal).
	register("pg_get_function_sqlbody", &builtin{resolve: signature(types.Text, types.Oid), strict: true, call: func(*execCtx, []types.Value) (types.Value, error) {
		return nil, nil
	}})
}

// procDefinition is pg_get_functiondef for PostgreSQL's built-in functions,
// laid out as ruleutils lays it out: header, RETURNS, LANGUAGE, the options
// that differ from the defaults, and the body (for internal functions, the
// C symbol).
func procDefinition(r Row, b *catalogRow) string {
	get := func(col string) types.Value { return r[b.col(col)] }
	var sb strings.Builder
	sb.WriteString("CREATE OR REPLACE FUNCTION pg_catalog." + quoteIdent(get("proname").(string)) + "(" + procArguments(r, b, true) + ")\n")
	sb.WriteString(" RETURNS " + procReturns(r, b) + "\n")
	lang := "internal"
	if l := staticRowByOID("pg_language", get("prolang").(int64)); l != nil {
		lang = l[1].(string)
	}
	sb.WriteString(" LANGUAGE " + lang + "\n")
	var opts strings.Builder
	if get("prokind") == "w" {
		opts.WriteString(" WINDOW")
	}
	switch get("provolatile") {
	case "i":
		opts.WriteString(" IMMUTABLE")
	case "s":
		opts.WriteString(" STABLE")
	}
	switch get("proparallel") {
	case "s":
		opts.WriteString(" PARALLEL SAFE")
	case "r":
		opts.WriteString(" PARALLEL RESTRICTED")
	}
	if get("proisstrict") == true {
		opts.WriteString(" STRICT")
	}
	if get("prosecdef") == true {
		opts.WriteString(" SECURITY DEFINER")
	}
	if get("proleakproof") == true {
		opts.WriteString(" LEAKPROOF")
	}
	defaultCost := 100.0
	if lang == "internal" || lang == "c" {
		defaultCost = 1
	}
	if c, ok := get("procost").(float64); ok && c != defaultCost {
		opts.WriteString(" COST " + strconv.FormatFloat(c, 'g', -1, 64))
	}
	if n, ok := get("prorows").(float64); ok && n > 0 && n != 1000 {
		opts.WriteString(" ROWS " + strconv.FormatFloat(n, 'g', -1, 64))
	}
	if s, ok := get("prosupport").(int64); ok && s != 0 {
		if sr := staticRowByOID("pg_proc", s); sr != nil {
			opts.WriteString(" SUPPORT " + quoteIdent(sr[1].(string)))
		}
	}
	if opts.Len() > 0 {
		sb.WriteString(opts.String() + "\n")
	}
	sb.WriteString("AS ")
	if bin, ok := get("probin").(string); ok {
		sb.WriteString(quoteLiteral(bin) + ", ")
	}
	src, _ := get("prosrc").(string)
	sb.WriteString("$function$" + src + "$function$\n")
	return sb.String()
}

// procReturns is a function definition's RETURNS clause, which is
// pg_get_function_result's.
func procReturns(r Row, b *catalogRow) string { return procResult(r, b) }
