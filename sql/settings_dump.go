package sql

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/settings"
)

// The parameters a PostgreSQL 15 pg_dump script sets before its first
// CREATE (check_function_bodies, xmloption, default_tablespace,
// default_table_access_method; row_security is in package settings). Each takes
// only the values whose meaning cdcdb has, so a script that asks for
// something else is refused rather than loaded differently:
//
//   - check_function_bodies: cdcdb has no CREATE FUNCTION, so there is no
//     body to check either way; both values are kept and shown.
//   - xmloption: cdcdb has no xml type, so no value is parsed as one;
//     both values are kept and shown.
//   - default_tablespace: cdcdb has the one place, PostgreSQL's default
//     tablespace: the empty string and pg_default name it, any other is 22023.
//   - default_table_access_method: heap, the only one PostgreSQL 15 has
//     built in; any other is 22023.
func init() {
	for _, d := range []*settings.Def{
		{Name: "check_function_bodies", Default: "on", Normalize: settings.NormalizeBool, Desc: "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE."},
		{Name: "xmloption", Default: "content", Normalize: settings.OneOf("content", "document"), Desc: "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments."},
		{Name: "default_tablespace", Default: "", Normalize: normalizeDefaultTablespace, Desc: "Sets the default tablespace to create tables and indexes in."},
		{Name: "default_table_access_method", Default: "heap", Normalize: normalizeTableAccessMethod, Desc: "Sets the default table access method for new tables."},
	} {
		settings.Define(d)
	}
}

func normalizeDefaultTablespace(_, v string) (string, error) {
	switch v {
	case "", "pg_default":
		return v, nil
	}
	return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"default_tablespace\": \"%s\"", v).
		WithDetail("Tablespace \"%s\" does not exist.", v)
}

func normalizeTableAccessMethod(_, v string) (string, error) {
	if strings.EqualFold(v, "heap") {
		return "heap", nil
	}
	return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"default_table_access_method\": \"%s\"", v).
		WithDetail("Table access method \"%s\" does not exist.", v)
}
