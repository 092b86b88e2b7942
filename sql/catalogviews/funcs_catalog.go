package catalogviews

import (
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
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
		sess := sessionOf(ec)
		return RoleName(sess, a[0].(int64)), nil
	}})
	builtins.Register("pg_table_is_visible", &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		return RelationVisible(sess, uint32(a[0].(int64))), nil
	}})
	// Types, functions, operators, collations, conversions and the like
	// all live in pg_catalog, which is always searched: they are visible
	// exactly when they exist. User tables' row types follow their tables.
	typeVisible := &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		oid := uint32(a[0].(int64))
		for _, t := range sess.Catalog().Tables() {
			if t.RowType == oid {
				return RelationVisible(sess, t.OID), nil
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
		sess := sessionOf(ec)
		if a[0] == nil {
			return nil, nil
		}
		mod := int32(-1)
		if a[1] != nil {
			mod = int32(a[1].(int64))
		}
		return FormatType(sess, uint32(a[0].(int64)), mod), nil
	}})
	// cdcdb keeps expressions (column defaults, CHECK constraints) as SQL
	// text, which is what pg_get_expr prints from PostgreSQL's node trees.
	builtins.Register("pg_get_expr", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 2 {
			return builtins.Signature(types.Text, types.PgNodeTree, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.PgNodeTree, types.Oid, types.Bool)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		return qualifySerialDefault(sess, a[0].(string), uint32(a[1].(int64))), nil // funcs_dump.go
	}})
	builtins.Register("pg_get_constraintdef", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.Oid, types.Bool)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		return ConstraintDef(sess, uint32(a[0].(int64)), len(a) > 1 && a[1] == true), nil
	}})
	builtins.Register("pg_get_indexdef", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.Oid, types.Int4, types.Bool)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		col := 0
		if len(a) > 1 {
			col = int(a[1].(int64))
		}
		return IndexDef(sess, uint32(a[0].(int64)), col), nil
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
		sess := sessionOf(ec)
		var oid uint32
		switch v := a[0].(type) {
		case int64:
			oid = uint32(v)
		case string:
			r, err := ec.ParseRegValue(types.Regclass, v)
			if err != nil {
				return nil, err
			}
			oid = uint32(r.(int64))
		}
		t, ok := sess.Catalog().TableByOID(oid)
		if !ok || t.Kind != catalog.KindView {
			return nil, nil
		}
		pretty := len(a) > 1 && a[1] != false // true, or a wrap column
		if s, ok := ViewDefText(sess, t.ViewQuery, pretty); ok {
			return s, nil
		}
		return ViewDefinition(sess.QualifiedViewQuery(t)), nil
	}})
	builtins.Register("obj_description", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Oid)(b, args)
		}
		return builtins.Signature(types.Text, types.Oid, types.Name)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		class := ""
		if len(a) > 1 {
			class = a[1].(string)
		}
		return ObjDescription(sess, uint32(a[0].(int64)), class, 0), nil
	}})
	builtins.Register("col_description", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid, types.Int4), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		return ObjDescription(sess, uint32(a[0].(int64)), "pg_class", int32(a[1].(int64))), nil
	}})
	builtins.Register("shobj_description", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid, types.Name), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return SharedDescription(uint32(a[0].(int64)), a[1].(string)), nil
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
		sess := sessionOf(ec)
		if sc, ok := sess.Catalog().Schema(sess.TempSchemaName()); ok {
			return int64(sc.OID), nil
		}
		return int64(0), nil
	}})
	builtins.Register("pg_is_other_temp_schema", &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		oid := catalog.OID(a[0].(int64))
		sc, ok := sess.Catalog().SchemaByOID(oid)
		return ok && sess.IsTempSchema(oid) && sc.Name != sess.TempSchemaName(), nil
	}})
	builtins.Register("pg_relation_is_publishable", &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Regclass), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		t, ok := sess.Catalog().TableByOID(uint32(a[0].(int64)))
		return ok && t.Kind != catalog.KindView, nil
	}})
	builtins.Register("pg_get_serial_sequence", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Text, types.Text), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		r, err := ec.ParseRegValue(types.Regclass, a[0].(string))
		if err != nil {
			return nil, err
		}
		cat := sess.Catalog()
		t, ok := cat.TableByOID(uint32(r.(int64)))
		if !ok {
			return nil, nil
		}
		c, ok := t.Column(a[1].(string))
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a[1], t.Name)
		}
		sc, _ := cat.SchemaByOID(t.Schema)
		if c.Sequence == "" {
			// A sequence the column owns (OWNED BY, identity).
			if owned := OwnedSequences(cat, t.OID, c.Attnum); len(owned) > 0 { // sequences_free.go
				return parse.QuoteIdent(sc.Name) + "." + parse.QuoteIdent(owned[0].Name), nil
			}
			return nil, nil
		}
		return parse.QuoteIdent(sc.Name) + "." + parse.QuoteIdent(c.Sequence), nil
	}})
	builtins.Register("pg_get_partkeydef", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil // no relation of cdcdb is partitioned
	}})
	builtins.Register("pg_get_statisticsobjdef_columns", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil // cdcdb has no extended statistics objects
	}})
	builtins.Register("pg_get_function_arguments", procText(func(r eval.Row, b *RowBuilder) string { return ProcArguments(r, b, true) }))
	// The identity arguments differ from the arguments only by defaults,
	// which cdcdb does not print (see ProcArguments).
	builtins.Register("pg_get_function_identity_arguments", procText(func(r eval.Row, b *RowBuilder) string { return ProcArguments(r, b, true) }))
	builtins.Register("pg_get_functiondef", procText(ProcDefinition))
	builtins.Register("pg_get_function_result", procText(ProcResult))
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
			sess := sessionOf(ec)
			return relationSize(sess, uint32(a[0].(int64)), parts), nil
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
func procText(f func(r eval.Row, b *RowBuilder) string) *builtins.Func {
	return &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		static, err := StaticRows("pg_proc")
		if err != nil {
			return nil, err
		}
		b := CatalogRowBuilder("pg_proc")
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
		v, err := ec.ParseRegValue(oid, a[0].(string))
		if err != nil {
			return nil, nil
		}
		return v, nil
	}}
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
		sess := sessionOf(ec)
		if n, ok := a[0].(string); ok && n != "main" {
			return nil, pgerror.New("3D000", "database \"%s\" does not exist", n) // invalid_catalog_name
		}
		if o, ok := a[0].(int64); ok && o != DatabaseOID {
			return nil, nil
		}
		var total int64
		for _, t := range sess.Catalog().Tables() {
			total += relationSize(sess, t.OID, relationParts{data: true, history: true, indexes: true})
		}
		return total, nil
	}})
	// Built-in functions have no SQL-standard body (LANGUAGE internal).
	builtins.Register("pg_get_function_sqlbody", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil
	}})
}
