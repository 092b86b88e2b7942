package sql

import (
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
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
	builtins.Register("pg_get_userbyid", &builtins.Func{Resolve: builtins.Signature(types.Name, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return catalogviews.RoleName(x.catalogViews(), a[0].(int64)), nil
	}})
	builtins.Register("pg_table_is_visible", &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return catalogviews.RelationVisible(x.catalogViews(), uint32(a[0].(int64))), nil
	}})
	// Types, functions, operators, collations, conversions and the like
	// all live in pg_catalog, which is always searched: they are visible
	// exactly when they exist. User tables' row types follow their tables.
	typeVisible := &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		oid := uint32(a[0].(int64))
		for _, t := range x.catalogOf().Tables() {
			if t.RowType == oid {
				return catalogviews.RelationVisible(x.catalogViews(), t.OID), nil
			}
		}
		return true, nil
	}}
	builtins.Register("pg_type_is_visible", typeVisible)
	for _, name := range []string{"pg_function_is_visible", "pg_operator_is_visible", "pg_opclass_is_visible",
		"pg_opfamily_is_visible", "pg_collation_is_visible", "pg_conversion_is_visible",
		"pg_ts_config_is_visible", "pg_ts_dict_is_visible", "pg_ts_parser_is_visible", "pg_ts_template_is_visible",
		"pg_statistics_obj_is_visible"} {
		builtins.Register(name, &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
			return true, nil
		}})
	}
	builtins.Register("format_type", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid, types.Int4), Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		if a[0] == nil {
			return nil, nil
		}
		mod := int32(-1)
		if a[1] != nil {
			mod = int32(a[1].(int64))
		}
		return catalogviews.FormatType(x.catalogViews(), uint32(a[0].(int64)), mod), nil
	}})
	// cdcdb keeps expressions (column defaults, CHECK constraints) as SQL
	// text, which is what pg_get_expr prints from PostgreSQL's node trees.
	builtins.Register("pg_get_expr", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 2 {
			return builtins.Signature(types.Text, types.PgNodeTree, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.PgNodeTree, types.Oid, types.Bool)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return qualifySerialDefault(x, a[0].(string), uint32(a[1].(int64))), nil // funcs_dump.go
	}})
	builtins.Register("pg_get_constraintdef", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.Oid, types.Bool)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return catalogviews.ConstraintDef(x.catalogViews(), uint32(a[0].(int64)), len(a) > 1 && a[1] == true), nil
	}})
	builtins.Register("pg_get_indexdef", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.Oid, types.Int4, types.Bool)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		col := 0
		if len(a) > 1 {
			col = int(a[1].(int64))
		}
		return catalogviews.IndexDef(x.catalogViews(), uint32(a[0].(int64)), col), nil
	}})
	builtins.Register("pg_get_viewdef", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 0 || len(args) > 2 {
			return nil, types.T{}, builtins.ErrNoFunction
		}
		out := make([]eval.Expr, len(args))
		first := args[0]
		if first.Type().OID == types.Unknown || eval.TypeCategory(first.Type().OID) == 'S' {
			// pg_get_viewdef('name'): the view's name, as text.
			c, err := b.Coerce(first, eval.TextT())
			if err != nil {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			out[0] = c
		} else {
			c, err := b.Coerce(first, types.Of(types.Oid))
			if err != nil {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			out[0] = c
		}
		if len(args) == 2 {
			t := types.Bool
			if eval.IsIntType(args[1].Type().OID) {
				t = types.Int4 // pg_get_viewdef(oid, wrap_column)
			}
			c, err := b.Coerce(args[1], types.Of(t))
			if err != nil {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			out[1] = c
		}
		return out, eval.TextT(), nil
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
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
		if s, ok := catalogviews.ViewDefText(x.catalogViews(), t.ViewQuery, pretty); ok {
			return s, nil
		}
		return catalogviews.ViewDefinition(t.ViewQuery), nil
	}})
	builtins.Register("obj_description", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.Oid, types.Name)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		class := ""
		if len(a) > 1 {
			class = a[1].(string)
		}
		return catalogviews.ObjDescription(x.catalogViews(), uint32(a[0].(int64)), class, 0), nil
	}})
	builtins.Register("col_description", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid, types.Int4), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return catalogviews.ObjDescription(x.catalogViews(), uint32(a[0].(int64)), "pg_class", int32(a[1].(int64))), nil
	}})
	builtins.Register("shobj_description", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid, types.Name), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return catalogviews.SharedDescription(uint32(a[0].(int64)), a[1].(string)), nil
	}})
	builtins.Register("pg_encoding_to_char", &builtins.Func{Resolve: builtins.Signature(types.Name, types.Int4), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		n := a[0].(int64)
		if n < 0 || n >= int64(len(pgEncodings)) {
			return "", nil
		}
		return pgEncodings[n], nil
	}})
	builtins.Register("pg_char_to_encoding", &builtins.Func{Resolve: builtins.Signature(types.Int4, types.Name), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
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
	builtins.Register("pg_is_in_recovery", &builtins.Func{Resolve: builtins.Signature(types.Bool), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return false, nil
	}})
	builtins.Register("pg_my_temp_schema", &builtins.Func{Resolve: builtins.Signature(types.Oid), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		if sc, ok := x.catalogOf().Schema(x.sess.tempSchemaName()); ok {
			return int64(sc.OID), nil
		}
		return int64(0), nil
	}})
	builtins.Register("pg_is_other_temp_schema", &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		sc, ok := x.catalogOf().SchemaByOID(catalog.OID(a[0].(int64)))
		return ok && isTempSchemaName(sc.Name) && sc.Name != x.sess.tempSchemaName(), nil
	}})
	builtins.Register("pg_relation_is_publishable", &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Regclass), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		t, ok := x.catalogOf().TableByOID(uint32(a[0].(int64)))
		return ok && t.Kind != catalog.KindView, nil
	}})
	builtins.Register("pg_get_serial_sequence", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Text, types.Text), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
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
		return parse.QuoteIdent(sc.Name) + "." + parse.QuoteIdent(c.Sequence), nil
	}})
	builtins.Register("pg_get_partkeydef", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil // no relation of cdcdb is partitioned
	}})
	builtins.Register("pg_get_statisticsobjdef_columns", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil // cdcdb has no extended statistics objects
	}})
	builtins.Register("pg_get_function_arguments", procText(func(r eval.Row, b *catalogviews.RowBuilder) string { return catalogviews.ProcArguments(r, b, true) }))
	// The identity arguments differ from the arguments only by defaults,
	// which cdcdb does not print (see catalogviews.ProcArguments).
	builtins.Register("pg_get_function_identity_arguments", procText(func(r eval.Row, b *catalogviews.RowBuilder) string { return catalogviews.ProcArguments(r, b, true) }))
	builtins.Register("pg_get_functiondef", procText(catalogviews.ProcDefinition))
	builtins.Register("pg_get_function_result", procText(catalogviews.ProcResult))
	builtins.Register("to_regclass", toReg(types.Regclass))
	builtins.Register("to_regtype", toReg(types.Regtype))
	builtins.Register("to_regnamespace", toReg(types.Regnamespace))
	builtins.Register("pg_size_pretty", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Int8), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return sizePretty(a[0].(int64)), nil
	}})
	for name, parts := range map[string]relationParts{
		"pg_relation_size":       {data: true},
		"pg_table_size":          {data: true, history: true},
		"pg_indexes_size":        {indexes: true},
		"pg_total_relation_size": {data: true, history: true, indexes: true},
	} {
		parts := parts
		builtins.Register(name, &builtins.Func{Resolve: builtins.Signature(types.Int8, types.Regclass), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
			x := stmtOf(ec)
			return relationSize(x, uint32(a[0].(int64)), parts), nil
		}})
	}
	registerPrivilegeFunctions()
}

// pgEncodings are PostgreSQL's encoding names by their numbers
// (pg_database.encoding, pg_conversion.conforencoding).
var pgEncodings = []string{"SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8",
	"MULE_INTERNAL", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9",
	"LATIN10", "WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252", "ISO_8859_5",
	"ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U",
	"SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004"}

// procText makes a function of a pg_proc OID that prints something of the
// function from PostgreSQL's pg_proc rows.
func procText(f func(r eval.Row, b *catalogviews.RowBuilder) string) *builtins.Func {
	return &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		static, err := catalogviews.StaticRows("pg_proc")
		if err != nil {
			return nil, err
		}
		b := catalogviews.CatalogRowBuilder("pg_proc")
		for _, r := range static {
			if r[0] == a[0] {
				return f(r, b), nil
			}
		}
		return nil, nil
	}}
}

// toReg makes to_regclass and friends: the OID, or NULL when no object
// has that name.
func toReg(oid types.OID) *builtins.Func {
	return &builtins.Func{Resolve: builtins.Signature(oid, types.Text), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
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
		builtins.Register(name, &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) < minArgs || len(args) > maxArgs {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			out := make([]eval.Expr, len(args))
			for i, a := range args {
				if a.Type().OID == types.Unknown || i == len(args)-1 {
					c, err := b.Coerce(a, eval.TextT())
					if err != nil {
						return nil, types.T{}, builtins.ErrNoFunction
					}
					out[i] = c
					continue
				}
				out[i] = a
			}
			return out, eval.BoolT(), nil
		}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
			x := stmtOf(ec)
			if err := checkPrivilegeWords(kind, a[len(a)-1].(string)); err != nil {
				return nil, err
			}
			// The object is the argument before the privilege (or before
			// the column, for has_column_privilege).
			obj := a[len(a)-2]
			if name == "has_column_privilege" {
				obj = a[len(a)-3]
			}
			switch name {
			case "has_table_privilege":
				return hasTablePrivilegeCall(x, a)
			case "has_schema_privilege":
				return hasSchemaPrivilegeCall(x, a) // schemaprivs.go
			case "pg_has_role":
				return pgHasRoleCall(x, a) // rolemembers.go
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
	builtins.Register("array_to_string", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) < 2 || len(args) > 3 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, types.T{}, builtins.ErrNoFunction
		}
		out := []eval.Expr{args[0]}
		for _, a := range args[1:] {
			c, err := b.Coerce(a, eval.TextT())
			if err != nil {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			out = append(out, c)
		}
		return out, eval.TextT(), nil
	}, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
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
			parts = append(parts, types.FormatTextIn(types.Of(arr.Elem), e, x.Location()))
		}
		return strings.Join(parts, sep), nil
	}})
}

func init() {
	// array_lower, array_upper, array_length and cardinality of a
	// one-dimensional array (all cdcdb's arrays start at 1); psql's \d
	// walks pg_publication_rel.prattrs with array_upper.
	dimFn := func(f func(n int64) types.Value) *builtins.Func {
		return &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) != 2 || types.ElemOf(args[0].Type().OID) == 0 {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			d, err := b.Coerce(args[1], eval.Int4T())
			if err != nil {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			return []eval.Expr{args[0], d}, eval.Int4T(), nil
		}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
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
	builtins.Register("array_lower", dimFn(func(int64) types.Value { return int64(1) }))
	builtins.Register("array_upper", dimFn(func(n int64) types.Value { return n }))
	builtins.Register("array_length", dimFn(func(n int64) types.Value { return n }))
	builtins.Register("cardinality", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, types.T{}, builtins.ErrNoFunction
		}
		return args, eval.Int4T(), nil
	}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return int64(len(a[0].(types.ArrayValue).Elems)), nil
	}})
}

func init() {
	// cdcdb has no rewrite rules or triggers (pg_rewrite and pg_trigger are
	// empty; a view is planned from its query), so no OID names one and,
	// as in PostgreSQL for an OID that is not a rule or trigger, the
	// definition is NULL.
	noObject := &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.Oid, types.Bool)(b, args)
	}, Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil
	}}
	builtins.Register("pg_get_ruledef", noObject)
	builtins.Register("pg_get_triggerdef", noObject)
}

func init() {
	builtins.Register("getdatabaseencoding", &builtins.Func{Resolve: builtins.Signature(types.Name), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return "UTF8", nil
	}})
	// The built-in tablespaces have no directory of their own: PostgreSQL
	// answers the empty string for them, and cdcdb has no other.
	builtins.Register("pg_tablespace_location", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return "", nil
	}})
	// The database's size: the bytes of every relation's data, history and
	// indexes (see relationSize).
	builtins.Register("pg_database_size", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, builtins.ErrNoFunction
		}
		if t := args[0].Type().OID; t == types.Unknown || eval.TypeCategory(t) == 'S' {
			return builtins.Signature(types.Int8, types.Name)(b, args)
		}
		return builtins.Signature(types.Int8, types.Oid)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		if n, ok := a[0].(string); ok && n != "main" {
			return nil, pgerror.New("3D000", "database \"%s\" does not exist", n) // invalid_catalog_name
		}
		if o, ok := a[0].(int64); ok && o != catalogviews.DatabaseOID {
			return nil, nil
		}
		var total int64
		for _, t := range x.catalogOf().Tables() {
			total += relationSize(x, t.OID, relationParts{data: true, history: true, indexes: true})
		}
		return total, nil
	}})
	// Built-in functions have no SQL-standard body (LANGUAGE internal).
	builtins.Register("pg_get_function_sqlbody", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil
	}})
}
