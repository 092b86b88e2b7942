package catalogviews

import (
	"testing"

	"cdcdb/catalog"
	"cdcdb/types"
)

// Every system relation has its own OID, below the first one cdcdb's
// catalog gives a user object, and the catalogs keep PostgreSQL's.
func TestRelationsRegistry(t *testing.T) {
	seen := map[uint32]string{}
	for _, rel := range systemRelations() {
		full := rel.Schema() + "." + rel.Name()
		if other, dup := seen[rel.OID()]; dup {
			t.Errorf("%s and %s share OID %d", full, other, rel.OID())
		}
		seen[rel.OID()] = full
		if rel.OID() >= catalog.FirstUserOID {
			t.Errorf("%s: OID %d is a user object's", full, rel.OID())
		}
		if (rel.Query() == "") == (rel.Columns() == nil) {
			t.Errorf("%s: a system view has a query and no columns, a system table columns and no query", full)
		}
		for _, c := range rel.Columns() {
			if c.TableOID != rel.OID() {
				t.Errorf("%s.%s: TableOID %d", full, c.Name, c.TableOID)
			}
		}
	}
	for _, c := range []struct {
		schema, name string
		oid          uint32 // 0: any
		view         bool
	}{
		{"pg_catalog", "pg_class", 1259, false},
		{"pg_catalog", "pg_namespace", 2615, false},
		{"pg_catalog", "pg_tables", 0, true},
		{"information_schema", "tables", 0, false},
		{"cdcdb", "flows", 0, false},
		{"cdcdb", "storage", 0, false},
	} {
		rel, ok := Lookup(c.schema, c.name)
		if !ok {
			t.Errorf("%s.%s not found", c.schema, c.name)
			continue
		}
		if c.oid != 0 && rel.OID() != c.oid {
			t.Errorf("%s.%s: OID %d, want %d", c.schema, c.name, rel.OID(), c.oid)
		}
		if (rel.Query() != "") != c.view {
			t.Errorf("%s.%s: view %v, want %v", c.schema, c.name, rel.Query() != "", c.view)
		}
	}
	if _, ok := Lookup("public", "pg_class"); ok {
		t.Error("pg_class found in schema public")
	}
}

func TestRowBuilder(t *testing.T) {
	b := NewRowBuilder("r", []Column{{Name: "a"}, {Name: "b"}, {Name: "c"}})
	r := b.Make("c", uint32(7), "a", "x")
	if len(r) != 3 || r[0] != "x" || r[1] != nil || r[2] != int64(7) {
		t.Errorf("Make: %#v", r)
	}
	if b.Col("b") != 1 {
		t.Errorf("Col(b) = %d", b.Col("b"))
	}
	defer func() {
		if recover() == nil {
			t.Error("a misspelt column did not panic")
		}
	}()
	b.Make("d", 1)
}

// The OIDs cdcdb derives for what its catalog keeps without one lie in
// ranges of their own, so that none can name another object.
func TestDerivedOIDs(t *testing.T) {
	for _, table := range []uint32{catalog.FirstUserOID, catalog.FirstUserOID + 12345, 1<<20 + 3} {
		for _, attnum := range []int16{1, 2, 1600} {
			seq, def := SequenceOID(table, attnum), attrdefOID(table, attnum)
			if seq&0xC0000000 != 0xC0000000 {
				t.Errorf("sequence OID %x of %d.%d is not in the top quarter", seq, table, attnum)
			}
			if def&0xC0000000 != 0x80000000 {
				t.Errorf("default OID %x of %d.%d is not in the third quarter", def, table, attnum)
			}
		}
	}
	if SequenceOID(catalog.FirstUserOID, 1) == SequenceOID(catalog.FirstUserOID, 2) {
		t.Error("two columns' sequences share an OID")
	}
}

// Column defaults print as PostgreSQL's pg_get_expr prints the stored
// (coerced) default.
func TestStoredExprText(t *testing.T) {
	varchar20 := types.T{OID: types.Varchar, Typmod: 24}
	cases := []struct {
		col    types.T
		stored string
		want   string
	}{
		{varchar20, "'x'", "'x'::character varying"},
		{types.Of(types.Int8), "5", "5"},
		{types.Of(types.Int4), "-5", "'-5'::integer"},
		{types.Of(types.Int8), "5000000000", "'5000000000'::bigint"},
		{types.Of(types.Numeric), "1.5", "1.5"},
		{types.Of(types.Bool), "true", "true"},
		{types.Of(types.Text), "NULL", "NULL::text"},
		{types.Of(types.Timestamptz), "now()", "now()"},
		{types.Of(types.Text), "'a'::text", "'a'::text"},
	}
	for _, c := range cases {
		if got := StoredExprText(c.col, c.stored); got != c.want {
			t.Errorf("%s default %s: %s, want %s", types.FormatType(c.col), c.stored, got, c.want)
		}
	}
}

// CHECK expressions print as pg_get_constraintdef prints PostgreSQL's
// analyzed expression: the coercions analysis adds, BETWEEN and IN
// rewritten, parentheses as ruleutils puts them.
func TestCheckExprText(t *testing.T) {
	tbl := &catalog.Table{Columns: []catalog.Column{
		{Name: "price", Type: types.T{OID: types.Numeric, Typmod: -1}, Attnum: 1},
		{Name: "name", Type: types.T{OID: types.Varchar, Typmod: 24}, Attnum: 2},
		{Name: "qty", Type: types.Of(types.Int4), Attnum: 3},
		{Name: "status", Type: types.Of(types.Text), Attnum: 4},
	}}
	cases := []struct {
		stored string
		pretty bool
		want   string
	}{
		{"price > 0", false, "(price > (0)::numeric)"},
		{"price > 0", true, "price > 0::numeric"},
		{"name <> ''", false, "((name)::text <> ''::text)"},
		{"qty BETWEEN 1 AND 10", false, "((qty >= 1) AND (qty <= 10))"},
		{"status IN ('a', 'b')", false, "(status = ANY (ARRAY['a'::text, 'b'::text]))"},
		{"qty > 0 AND status IS NOT NULL", false, "((qty > 0) AND (status IS NOT NULL))"},
		{"price > qty + 1", false, "price > qty + 1"}, // a form the printer does not know prints as stored
	}
	for _, c := range cases {
		if got := CheckExprText(tbl, c.stored, c.pretty); got != c.want {
			t.Errorf("CHECK (%s) pretty=%v: %s, want %s", c.stored, c.pretty, got, c.want)
		}
	}
}
