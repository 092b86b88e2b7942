package pgdefs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const (
	pgShare    = "/usr/share/postgresql/15"
	pgPostgres = "/usr/lib/postgresql/15/bin/postgres"
)

// TestGeneratedDataIsUpToDate: the committed data is what the generator
// makes, so nobody edits it by hand. It is pinned to one PostgreSQL
// release (Release): where that release is installed the generator's
// output must equal the file byte for byte. Where another minor release of
// PostgreSQL 15 is installed, whose initial rows, views and settings may
// differ (15.20 adds a setting and changes pg_proc rows), only what a major
// release fixes is compared: every catalog's name, OIDs and columns. Skipped
// where PostgreSQL 15 is not installed, except under CI=true.
func TestGeneratedDataIsUpToDate(t *testing.T) {
	for _, p := range []string{filepath.Join(pgShare, "postgres.bki"), pgPostgres} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("PostgreSQL 15 is not installed: %v", err)
			}
			t.Skipf("PostgreSQL 15 is not installed: %v", err)
		}
	}
	installed := installedRelease(t, pgPostgres)
	gen := filepath.Join(t.TempDir(), "gen")
	if msg, err := exec.Command("go", "build", "-o", gen, "./gen").CombinedOutput(); err != nil {
		t.Fatalf("go build ./gen: %v\n%s", err, msg)
	}
	if installed != Release {
		t.Logf("PostgreSQL %s is installed and pg15_generated.go is pinned to %s: comparing the catalogs' columns only; "+
			"the initial rows, views, indexes and settings were not compared", installed, Release)
		out, err := exec.Command(gen, "-share", pgShare, "-catalog-columns").Output()
		if err != nil {
			t.Fatalf("gen -catalog-columns: %v", err)
		}
		if err := sameCatalogColumns(out, Catalogs()); err != nil {
			t.Fatalf("PostgreSQL %s's catalogs differ from those pg15_generated.go holds (generated from %s): %v", installed, Release, err)
		}
		return
	}
	out := filepath.Join(t.TempDir(), "pg15_generated.go")
	if msg, err := exec.Command(gen, "-share", pgShare, "-postgres", pgPostgres, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("gen: %v\n%s", err, msg)
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
		t.Fatalf("pg15_generated.go differs from what go generate makes from PostgreSQL %s; run go generate ./sql/pgdefs", installed)
	}
}

var serverVersion = regexp.MustCompile(`\(PostgreSQL\) (\d+\.\d+)\b`)

// installedRelease is the release `postgres --version` names ("15.18"),
// PostgreSQL's own number rather than the package's.
func installedRelease(t *testing.T, postgres string) string {
	t.Helper()
	out, err := exec.Command(postgres, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", postgres, err)
	}
	m := serverVersion.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("%s --version printed %q", postgres, out)
	}
	return m[1]
}

// sameCatalogColumns compares the catalogs gen -catalog-columns printed
// with the committed ones, ignoring their rows, and names the first
// difference.
func sameCatalogColumns(genJSON []byte, committed []*Catalog) error {
	var installed []Catalog
	if err := json.Unmarshal(genJSON, &installed); err != nil {
		return fmt.Errorf("reading gen's JSON: %v", err)
	}
	if len(installed) != len(committed) {
		return fmt.Errorf("%d catalogs, the committed data has %d", len(installed), len(committed))
	}
	for i, c := range committed {
		ic := installed[i]
		if ic.Name != c.Name || ic.OID != c.OID || ic.RowType != c.RowType || ic.Shared != c.Shared {
			return fmt.Errorf("catalog %d is %s (OID %d, row type %d, shared %v), the committed data has %s (OID %d, row type %d, shared %v)",
				i, ic.Name, ic.OID, ic.RowType, ic.Shared, c.Name, c.OID, c.RowType, c.Shared)
		}
		if !slices.Equal(ic.Columns, c.Columns) {
			return fmt.Errorf("%s has columns %v, the committed data %v", c.Name, ic.Columns, c.Columns)
		}
	}
	return nil
}

// TestSameCatalogColumnsNamesADifference: the check made against another
// minor release passes on the committed catalogs and fails, naming the
// catalog, when one column differs.
func TestSameCatalogColumnsNamesADifference(t *testing.T) {
	var committed []Catalog
	for _, c := range Catalogs() {
		committed = append(committed, Catalog{Name: c.Name, OID: c.OID, RowType: c.RowType, Shared: c.Shared, Columns: c.Columns})
	}
	same, err := json.Marshal(committed)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameCatalogColumns(same, Catalogs()); err != nil {
		t.Fatalf("the committed catalogs against themselves: %v", err)
	}
	changed := slices.Clone(committed)
	i := slices.IndexFunc(changed, func(c Catalog) bool { return c.Name == "pg_class" })
	changed[i].Columns = slices.Clone(changed[i].Columns)
	changed[i].Columns[1].Type = "text"
	differs, err := json.Marshal(changed)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameCatalogColumns(differs, Catalogs()); err == nil || !strings.Contains(err.Error(), "pg_class") {
		t.Fatalf("pg_class's relname as text: got %v, want an error naming pg_class", err)
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
