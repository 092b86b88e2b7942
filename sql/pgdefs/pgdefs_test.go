package pgdefs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

const (
	pgShare    = "/usr/share/postgresql/15"
	pgPostgres = "/usr/lib/postgresql/15/bin/postgres"
)

// The committed data is what the generator makes from the PostgreSQL 15
// installed here, so nobody edits it by hand and a newer minor release's
// catalogs show up as a diff. Skipped where PostgreSQL 15 is not installed
// (CI installs it).
func TestGeneratedDataIsUpToDate(t *testing.T) {
	for _, p := range []string{filepath.Join(pgShare, "postgres.bki"), pgPostgres} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("PostgreSQL 15 is not installed: %v", err)
			}
			t.Skipf("PostgreSQL 15 is not installed: %v", err)
		}
	}
	out := filepath.Join(t.TempDir(), "pg15_generated.go")
	cmd := exec.Command("go", "run", "./gen", "-share", pgShare, "-postgres", pgPostgres, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./gen: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("pg15_generated.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("pg15_generated.go differs from what go generate makes from this PostgreSQL 15; run go generate ./sql/pgdefs")
	}
}

// The catalogs and views cdcdb relies on are there, with PostgreSQL's
// columns.
func TestDefinitions(t *testing.T) {
	c, ok := CatalogByName("pg_class")
	if !ok || c.OID != 1259 || c.RowType != 83 || c.Columns[0].Name != "oid" || c.Columns[1] != (Column{Name: "relname", Type: "name", NotNull: true}) {
		t.Fatalf("pg_class: %+v", c)
	}
	types, _ := CatalogByName("pg_type")
	rows := types.Rows()
	if len(rows) < 100 || rows[0][1].Text != "bool" || rows[0][0].Text != "16" {
		t.Fatalf("pg_type rows: %d, first %v", len(rows), rows[0])
	}
	for _, r := range rows {
		for _, f := range r {
			if f.Text == "NAMEDATALEN" || f.Text == "FLOAT8PASSBYVAL" {
				t.Fatalf("a build constant was left in pg_type: %v", r)
			}
		}
	}
	var found bool
	for _, v := range SystemViews() {
		if v.Name == "pg_tables" {
			found = bytes.Contains([]byte(v.SQL), []byte("FROM pg_class C LEFT JOIN pg_namespace N"))
		}
	}
	if !found {
		t.Fatal("pg_tables is missing or not PostgreSQL's definition")
	}
	if s, ok := SettingByName("work_mem"); !ok || s.VarType != "integer" || s.Context != "user" {
		t.Fatalf("work_mem: %+v", s)
	}
	if n := len(InfoSchemaViews()); n != 60 {
		t.Fatalf("%d information_schema views, PostgreSQL 15 has 60 for clients", n)
	}
}
