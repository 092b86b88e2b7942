// Package pgdefs holds PostgreSQL 15's own definitions of its system
// catalogs, generated from the files PostgreSQL ships (see gen/): every
// catalog's columns in order with their types and initial rows, the
// pg_catalog views as SQL, the information_schema views' columns, and the
// run-time parameters' descriptions.
//
// It holds data only. Package sql decides which rows are live (cdcdb's own
// schemas, tables and columns) and how the views are planned; this package
// must not import it. The rows are kept as text, as the bootstrap file has
// them, so that this package needs no value codec; sql parses each field
// with the column's type.
//
// The data is pinned to the PostgreSQL release it was generated from
// (Release). Minor releases of PostgreSQL 15 keep every catalog's columns
// but may change initial rows (pg_proc, pg_description), the views' SQL
// and the settings: regenerate with `go generate ./sql/pgdefs` to move to
// another release, and review the diff.
package pgdefs

//go:generate go run ./gen -share /usr/share/postgresql/15 -postgres /usr/lib/postgresql/15/bin/postgres -o pg15_generated.go

import "strings"

// Column is one column of a catalog or view: its name, its pg_type name
// (typname: int4, name, _text, oidvector, ...) and, for a catalog, its
// attnotnull as the bootstrap loader sets it.
type Column struct {
	Name    string
	Type    string
	NotNull bool
	// Domain, for an information_schema column, is the information_schema
	// domain it is of (sql_identifier, ...); Type is then its base type.
	Domain string
}

// Catalog is one system catalog of postgres.bki.
type Catalog struct {
	Name    string
	OID     uint32
	RowType uint32 // pg_type OID of its row type, 0 where initdb assigns one
	Shared  bool   // shared across databases (pg_database, pg_authid, ...)
	Columns []Column
	data    string
}

// Field is one value of an initial row: its text form, or NULL.
type Field struct {
	Text string
	Null bool
}

// Rows returns the catalog's initial rows, in the bootstrap file's order.
// Each call parses anew; callers cache what they keep.
func (c *Catalog) Rows() [][]Field {
	var out [][]Field
	for _, line := range strings.Split(c.data, "\n") {
		if line == "" {
			continue
		}
		parts := strings.Split(line, "\t")
		row := make([]Field, len(parts))
		for i, p := range parts {
			if p == `\N` {
				row[i] = Field{Null: true}
				continue
			}
			row[i] = Field{Text: unescape(p)}
		}
		out = append(out, row)
	}
	return out
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Catalogs lists every system catalog, in the bootstrap file's order.
func Catalogs() []*Catalog {
	out := make([]*Catalog, len(catalogs))
	for i := range catalogs {
		out[i] = &catalogs[i]
	}
	return out
}

// CatalogByName finds a system catalog.
func CatalogByName(name string) (*Catalog, bool) {
	for i := range catalogs {
		if catalogs[i].Name == name {
			return &catalogs[i], true
		}
	}
	return nil, false
}

// View is a pg_catalog view of system_views.sql: its defining query.
type View struct {
	Name string
	SQL  string
}

// SystemViews lists the pg_catalog views cdcdb plans from PostgreSQL's SQL.
func SystemViews() []View { return systemViews }

// InfoView is an information_schema view: its output columns, with the
// information_schema domains replaced by their base types (which is what
// PostgreSQL reports to clients for a domain-typed column).
type InfoView struct {
	Name    string
	Columns []Column
}

// InfoSchemaViews lists every information_schema view, by name.
func InfoSchemaViews() []InfoView { return infoSchemaViews }

// Setting is one run-time parameter as postgres --describe-config describes
// it. VarType is bool, integer, real, string or enum.
type Setting struct {
	Name, Context, Category, VarType, BootVal, Min, Max, ShortDesc, ExtraDesc string
}

// SettingByName finds a parameter's description (names compare
// case-insensitively, as GUC names do).
func SettingByName(name string) (Setting, bool) {
	for _, s := range settings {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return Setting{}, false
}

// Index is a btree index of a system catalog, with the constraint it backs:
// "p" primary key, "u" unique, "" none.
type Index struct {
	Name       string
	OID        uint32
	Table      string
	Unique     bool
	Columns    []string
	Opclasses  []string
	Constraint string
}

// CatalogIndexes lists the system catalogs' indexes.
func CatalogIndexes() []Index { return catalogIndexes }

// Domain is a domain of information_schema.sql: its SQL type as written
// (character varying(3), ...), its collation ("C" or ""), its CHECK
// constraint (name and expression, over VALUE) and default, as written.
type Domain struct {
	Name, Type, Collate, CheckName, Check, Default string
}

// InfoSchemaDomains lists information_schema's domains.
func InfoSchemaDomains() []Domain { return infoSchemaDomains }
