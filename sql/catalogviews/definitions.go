package catalogviews

import (
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// What the system information and catalog functions print (funcs*.go
// registers the functions): names and their visibility, object
// definitions as SQL text, comments, built-in functions' signatures. They
// read the statement's catalog snapshot, so a DDL statement earlier in the
// same transaction is seen.

// RoleName is pg_get_userbyid: the catalog's roles and PostgreSQL's
// predefined ones by name.
func RoleName(sess Session, oid int64) string {
	if r, ok := sess.Catalog().RoleByOID(uint32(oid)); ok {
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

// RelationVisible is pg_table_is_visible: the relation's schema is on the
// search path and no relation of the same name comes earlier in it.
func RelationVisible(sess Session, oid uint32) bool {
	cat := sess.Catalog()
	name, schema, ok := RelationNameOf(cat, oid)
	if !ok {
		return false
	}
	for _, s := range sess.SearchPath() {
		sc, ok := cat.Schema(s)
		if !ok {
			continue
		}
		if sc.OID == schema {
			return true
		}
		if _, _, found := RelationInSchema(cat, sc, name); found {
			return false
		}
	}
	return false
}

// RelationNameOf finds any relation by OID: a table, view, index or system
// relation.
func RelationNameOf(cat *catalog.Snapshot, oid uint32) (name string, schema uint32, ok bool) {
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
	if s, ok := SequenceByOID(cat, oid); ok {
		return s.Name, s.Schema, true
	}
	if name, schema, ok := exprIndexByOID(cat, oid); ok { // exprindex.go
		return name, schema, true
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

// RelationInSchema finds a relation (table, view, index, system relation)
// by name in one schema.
func RelationInSchema(cat *catalog.Snapshot, sc *catalog.Schema, name string) (uint32, string, bool) {
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
	for _, s := range SerialSequences(cat) {
		if s.Schema == sc.OID && s.Name == name {
			return s.OID, "sequence", true
		}
	}
	if oid, ok := exprIndexNamed(cat, sc.OID, name); ok { // exprindex.go
		return oid, "index", true
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

// QualifiedRelationName prints a relation as regclass does: qualified only
// when it is not visible.
func QualifiedRelationName(sess Session, oid uint32) string {
	cat := sess.Catalog()
	name, schema, ok := RelationNameOf(cat, oid)
	if !ok {
		return strconv.FormatUint(uint64(oid), 10)
	}
	if RelationVisible(sess, oid) {
		return parse.QuoteIdent(name)
	}
	sc, _ := cat.SchemaByOID(schema)
	return parse.QuoteIdent(sc.Name) + "." + parse.QuoteIdent(name)
}

// FormatType is format_type: built-in types by their SQL names, a
// table's row type by the table's (qualified when not visible).
func FormatType(sess Session, oid uint32, mod int32) string {
	if _, ok := types.Lookup(types.OID(oid)); ok {
		return types.FormatType(types.T{OID: types.OID(oid), Typmod: mod})
	}
	for _, t := range sess.Catalog().Tables() {
		if t.RowType == oid {
			return QualifiedRelationName(sess, t.OID)
		}
	}
	if d := infoDomainByOID(sess, oid); d != nil {
		return domainTypeName(sess, d)
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
			names[i] = parse.QuoteIdent(c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// ConstraintDef is pg_get_constraintdef.
func ConstraintDef(sess Session, oid uint32, pretty bool) types.Value {
	cat := sess.Catalog()
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
				return "CHECK (" + CheckExprText(t, c.Check, pretty) + ")"
			case "f":
				s := "FOREIGN KEY (" + quoteColumns(t, c.Columns) + ") REFERENCES "
				if ref, ok := cat.TableByOID(c.RefTable); ok {
					s += QualifiedRelationName(sess, ref.OID) + "(" + quoteColumns(ref, c.RefColumns) + ")"
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
	for _, d := range infoDomains(sess) {
		if d.conOID == oid && d.def.CheckName != "" {
			return domainConstraintDef(d, pretty)
		}
	}
	return nil
}

// IndexDef is pg_get_indexdef: the CREATE INDEX statement, or with col > 0
// that key column's name.
func IndexDef(sess Session, oid uint32, col int) types.Value {
	cat := sess.Catalog()
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
					return parse.QuoteIdent(c.Name)
				}
				return ""
			}
			keys := make([]string, len(ix.Columns))
			for i, a := range ix.Columns {
				if c := t.ColumnByAttnum(a); c != nil {
					keys[i] = parse.QuoteIdent(c.Name)
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
			return "CREATE " + unique + "INDEX " + parse.QuoteIdent(ix.Name) + " ON " + parse.QuoteIdent(sc.Name) + "." +
				parse.QuoteIdent(t.Name) + " USING btree (" + strings.Join(keys, ", ") + ")"
		}
	}
	if def, ok := exprIndexDef(cat, oid, col); ok { // exprindex.go
		return def
	}
	if ix := systemIndexByOID(oid); ix != nil {
		return systemIndexDef(ix, col)
	}
	return nil
}

// ObjDescription is obj_description and col_description: the comment on
// an object of the named catalog ("" for any catalog).
func ObjDescription(sess Session, oid uint32, class string, sub int32) types.Value {
	cat := sess.Catalog()
	if class == "" || class == "pg_class" {
		if t, ok := cat.TableByOID(oid); ok {
			if sub == 0 {
				return NilIfEmpty(t.Comment)
			}
			if c := t.ColumnByAttnum(int16(sub)); c != nil && !c.Dropped {
				return NilIfEmpty(c.Comment)
			}
			return nil
		}
		if q, ok := cat.SequenceByOID(oid); ok && sub == 0 { // a free-standing sequence
			return NilIfEmpty(q.Comment)
		}
	}
	if class == "" || class == "pg_namespace" {
		if sc, ok := cat.SchemaByOID(oid); ok {
			return NilIfEmpty(sc.Comment)
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

// SharedDescription is shobj_description, over PostgreSQL's comments on
// shared objects (cdcdb adds none).
func SharedDescription(oid uint32, class string) types.Value {
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

// NilIfEmpty is a text value, NULL when empty (a comment never set).
func NilIfEmpty(s string) types.Value {
	if s == "" {
		return nil
	}
	return s
}

// ViewDefinition prints a view's query as written, ended by a semicolon,
// for the queries ViewDefText cannot print as PostgreSQL would.
func ViewDefinition(query string) string {
	q := strings.TrimSuffix(strings.TrimSpace(query), ";")
	return " " + q + ";"
}

// ProcArguments is pg_get_function_arguments (withOut: the OUT arguments
// too, marked OUT) and pg_get_function_identity_arguments: "name type, ..."
// of the arguments. Defaults are not shown: PostgreSQL's initial rows keep
// them as node trees, which cdcdb does not read.
func ProcArguments(r Row, b *RowBuilder, withOut bool) string {
	var parts []string
	names, _ := r[b.Col("proargnames")].(types.ArrayValue)
	if all, ok := r[b.Col("proallargtypes")].(types.ArrayValue); ok {
		modes, _ := r[b.Col("proargmodes")].(types.ArrayValue)
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
	in, _ := r[b.Col("proargtypes")].(types.ArrayValue)
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
			s += parse.QuoteIdent(n) + " "
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
	if r := StaticRowByOID("pg_type", int64(oid)); r != nil {
		return parse.QuoteIdent(r[1].(string))
	}
	return "???"
}

// ProcResult is pg_get_function_result: TABLE(...) for functions with
// TABLE columns, else the result type, SETOF for set-returning functions
// (record for those with OUT arguments).
func ProcResult(r Row, b *RowBuilder) string {
	if all, ok := r[b.Col("proallargtypes")].(types.ArrayValue); ok {
		names, _ := r[b.Col("proargnames")].(types.ArrayValue)
		modes, _ := r[b.Col("proargmodes")].(types.ArrayValue)
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
	s := builtinTypeName(uint32(r[b.Col("prorettype")].(int64)))
	if r[b.Col("proretset")] == true {
		return "SETOF " + s
	}
	return s
}

// ProcDefinition is pg_get_functiondef for PostgreSQL's built-in functions,
// laid out as ruleutils lays it out: header, RETURNS, LANGUAGE, the options
// that differ from the defaults, and the body (for internal functions, the
// C symbol).
func ProcDefinition(r Row, b *RowBuilder) string {
	get := func(col string) types.Value { return r[b.Col(col)] }
	var sb strings.Builder
	sb.WriteString("CREATE OR REPLACE FUNCTION pg_catalog." + parse.QuoteIdent(get("proname").(string)) + "(" + ProcArguments(r, b, true) + ")\n")
	sb.WriteString(" RETURNS " + procReturns(r, b) + "\n")
	lang := "internal"
	if l := StaticRowByOID("pg_language", get("prolang").(int64)); l != nil {
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
		if sr := StaticRowByOID("pg_proc", s); sr != nil {
			opts.WriteString(" SUPPORT " + parse.QuoteIdent(sr[1].(string)))
		}
	}
	if opts.Len() > 0 {
		sb.WriteString(opts.String() + "\n")
	}
	sb.WriteString("AS ")
	if bin, ok := get("probin").(string); ok {
		sb.WriteString(parse.QuoteLiteral(bin) + ", ")
	}
	src, _ := get("prosrc").(string)
	sb.WriteString("$function$" + src + "$function$\n")
	return sb.String()
}

// procReturns is a function definition's RETURNS clause, which is
// pg_get_function_result's.
func procReturns(r Row, b *RowBuilder) string { return ProcResult(r, b) }
