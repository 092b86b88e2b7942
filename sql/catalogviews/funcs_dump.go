package catalogviews

import (
	"regexp"
	"slices"
	"strings"

	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// The functions and statements pg_dump uses that other clients rarely do.

// defaultPrivileges is PostgreSQL 15's acldefault: the privileges an
// object of each kind has before any GRANT or REVOKE, as aclitems whose
// "%" is the owner's name ("" grantee: PUBLIC). pg_dump compares an
// object's ACL with it to know which GRANTs to write.
var defaultPrivileges = map[string][]string{
	"c": {},                   // column
	"r": {"%=arwdDxt/%"},      // relation
	"s": {"%=rwU/%"},          // sequence
	"d": {"=Tc/%", "%=CTc/%"}, // database
	"f": {"=X/%", "%=X/%"},    // function
	"l": {"=U/%", "%=U/%"},    // language
	"L": {"%=rw/%"},           // large object
	"n": {"%=UC/%"},           // schema
	"p": {"%=sA/%"},           // parameter
	"t": {"%=C/%"},            // tablespace
	"F": {"%=U/%"},            // foreign data wrapper
	"S": {"%=U/%"},            // foreign server
	"T": {"=U/%", "%=U/%"},    // type
}

func init() {
	// pg_options_to_table(text[]) splits the options of a foreign data
	// wrapper, server or relation, "name=value" each, at the first "=" (no
	// "=": a NULL value).
	builtins.RegisterSet("pg_options_to_table", &builtins.SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 1 {
			return nil, nil, builtins.ErrNoFunction
		}
		arg, err := b.Coerce(args[0], types.Of(types.TextArray))
		if err != nil {
			return nil, nil, builtins.ErrNoFunction
		}
		return []eval.Expr{arg}, []builtins.Column{{Name: "option_name", T: eval.TextT()}, {Name: "option_value", T: eval.TextT()}}, nil
	}, Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
		arr, ok := a[0].(types.ArrayValue)
		if !ok {
			return nil, pgerror.New(pgerror.InternalError, "pg_options_to_table: not an array")
		}
		var rows []eval.Row
		for _, e := range arr.Elems {
			s, ok := e.(string)
			if !ok {
				continue // a NULL element, which PostgreSQL skips too
			}
			if name, value, found := strings.Cut(s, "="); found {
				rows = append(rows, eval.Row{name, value})
			} else {
				rows = append(rows, eval.Row{s, nil})
			}
		}
		return rows, nil
	}})
	builtins.Register("acldefault", &builtins.Func{Resolve: builtins.Signature(types.AclitemArray, types.Char, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		kind := a[0].(string)
		items, ok := defaultPrivileges[kind]
		if !ok {
			return nil, pgerror.New(pgerror.InternalError, "unrecognized object type abbreviation: %s", kind)
		}
		owner := RoleName(sess, a[1].(int64))
		out := types.ArrayValue{Elem: types.Aclitem, Elems: []types.Value{}}
		for _, item := range items {
			out.Elems = append(out.Elems, strings.ReplaceAll(item, "%", owner))
		}
		return out, nil
	}})
}

// serialDefault is the default cdcdb gives a serial column.
var serialDefault = regexp.MustCompile(`^nextval\('([^'.]+)'::regclass\)$`)

// qualifySerialDefault is what pg_get_expr prints of a serial column's
// default: PostgreSQL prints the sequence as a regclass, qualified with
// its schema when the schema is not on search_path (pg_dump sets it
// empty, so that its script names every object with its schema). Other
// expressions print as stored.
func qualifySerialDefault(sess Session, text string, relid uint32) string {
	m := serialDefault.FindStringSubmatch(text)
	if m == nil {
		return text
	}
	cat := sess.Catalog()
	t, ok := cat.TableByOID(relid)
	if !ok {
		return text
	}
	sc, ok := cat.SchemaByOID(t.Schema)
	if !ok || slices.Contains(sess.SearchPath(), sc.Name) {
		return text
	}
	return "nextval('" + parse.QuoteIdent(sc.Name) + "." + parse.QuoteIdent(m[1]) + "'::regclass)"
}
