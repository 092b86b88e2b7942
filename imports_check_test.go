package cdcdb

import (
	"slices"
	"strings"
	"testing"
)

// syntheticModule is a small import graph shaped like the module's, which
// breaks none of packageRules.
func syntheticModule() []modulePackage {
	return []modulePackage{
		{path: "m/pgerror", imports: []string{"errors", "fmt"}},
		{path: "m/types", imports: []string{"m/pgerror", "net/netip", "time", "github.com/cockroachdb/apd/v3"},
			testImports: []string{"github.com/jackc/pgx/v5/pgtype"}},
		{path: "m/temporal", imports: []string{"sort"}},
		{path: "m/storage", imports: []string{"m/pgerror", "go.etcd.io/bbolt", "go.etcd.io/bbolt/errors", "os"},
			testImports: []string{"m/storage/storagetest"}},
		{path: "m/rowcodec", imports: []string{"m/types", "m/storage", "encoding/binary", "time"},
			testImports: []string{"m/rowcodec/rowcodectest"}},
		{path: "m/catalog", imports: []string{"m/storage", "m/types"}},
		{path: "m/history", imports: []string{"m/rowcodec", "m/storage", "m/types"}},
		{path: "m/cdcexec", imports: []string{"m/catalog", "m/history", "m/temporal"},
			testImports: []string{"m/storage/storagetest"}},
		{path: "m/wire", imports: []string{"m/pgerror", "github.com/jackc/pgx/v5/pgproto3", "net"}},
		{path: "m/sql/ast"},
		{path: "m/sql/parse", imports: []string{"m/sql/ast", "m/pgerror"}},
		{path: "m/sql", imports: []string{"m/wire", "m/catalog", "m/cdcexec", "m/sql/parse"},
			testImports: []string{"m/sql/sqltest"}},
		{path: "m/storage/storagetest", imports: []string{"m/storage", "testing"}},
		{path: "m/rowcodec/rowcodectest", imports: []string{"m/types"}},
		{path: "m/sql/sqltest", imports: []string{"m/sql", "m/storage/storagetest", "m/wire"}},
		{path: "m/pgtests", testImports: []string{"m/pgtests/pgserver", "m/storage", "github.com/jackc/pgx/v5/pgproto3"}},
		{path: "m/pgtests/pgserver", imports: []string{"os/exec"}},
		{path: "m/cmd/cdcdb", imports: []string{"m/sql", "m/storage", "m/wire"},
			testImports: []string{"m/pgtests/pgserver"}},
	}
}

// TestImportCheckerCatchesForbiddenImports adds one forbidden import at a
// time to a graph that keeps every rule, and expects the complaint it
// deserves (wire importing sql breaks two rules, and hears of both).
func TestImportCheckerCatchesForbiddenImports(t *testing.T) {
	if v := checkImports("m", syntheticModule(), packageRules); len(v) != 0 {
		t.Fatalf("the synthetic module breaks rules already: %q", v)
	}
	tests := []struct {
		name      string
		pkg       string
		imp       string
		test      bool
		complaint string
	}{
		{"an import upward", "storage", "m/sql", false, "storage imports sql: imports point down, and sql (sql) is above storage (storage)"},
		{"records importing flows", "catalog", "m/cdcexec", false, "catalog imports cdcexec: imports point down"},
		{"non-test code using the harness", "sql", "m/sql/sqltest", false, "sql imports sql/sqltest: imports point down"},
		{"wire beyond pgerror", "wire", "m/types", false, "wire imports types: its doc.go allows only pgerror of the module"},
		{"wire importing sql", "wire", "m/sql", false, "wire imports sql: its doc.go allows only pgerror of the module"},
		{"temporal importing a cdcdb package", "temporal", "m/types", false, "temporal imports types: its doc.go allows only no package of the module"},
		{"temporal reading the clock", "temporal", "time", false, "temporal imports time: its doc.go rules out time"},
		{"types doing I/O", "types", "os", false, "types imports os: its doc.go rules out os/..."},
		{"storage seeing typed values", "storage", "m/types", false, "storage imports types: its doc.go allows only pgerror of the module"},
		{"storage encoding rows", "storage", "m/rowcodec", false, "storage imports rowcodec: its doc.go allows only pgerror of the module"},
		{"rowcodec doing I/O", "rowcodec", "os", false, "rowcodec imports os: its doc.go rules out os/..."},
		{"rowcodec reading the catalog", "rowcodec", "m/catalog", false, "rowcodec imports catalog: imports point down"},
		{"parse resolving names", "sql/parse", "m/catalog", false, "sql/parse imports catalog: its doc.go allows only sql/ast, pgerror of the module"},
		{"pgerror importing anything of the module", "pgerror", "m/types", false, "pgerror imports types: its doc.go allows only no package of the module"},
		{"bbolt outside storage", "history", "go.etcd.io/bbolt", false, "history imports go.etcd.io/bbolt: only storage may import go.etcd.io/bbolt/..."},
		{"pgproto3 outside wire", "sql", "github.com/jackc/pgx/v5/pgproto3", false, "sql imports github.com/jackc/pgx/v5/pgproto3: only wire and source may import"},
		{"a test importing upward", "storage", "m/sql", true, "a test of storage imports sql: tests may use the harness, but sql (sql) is above storage (storage)"},
		{"pgtests reaching into the server", "pgtests", "m/sql", true, "a test of pgtests imports sql: its doc.go allows its tests only pgtests/pgserver, pgtests/corpus, storage"},
	}
	for _, tt := range tests {
		pkgs := syntheticModule()
		i := slices.IndexFunc(pkgs, func(p modulePackage) bool { return p.path == "m/"+tt.pkg })
		if tt.test {
			pkgs[i].testImports = append(pkgs[i].testImports, tt.imp)
		} else {
			pkgs[i].imports = append(pkgs[i].imports, tt.imp)
		}
		got := checkImports("m", pkgs, packageRules)
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, tt.complaint) }) {
			t.Errorf("%s: got %q, want a complaint starting %q", tt.name, got, tt.complaint)
		}
	}
}

// TestImportCheckerAllowsTestsMore: test files may use the harness and
// outside clients that non-test code may not.
func TestImportCheckerAllowsTestsMore(t *testing.T) {
	pkgs := syntheticModule()
	for i := range pkgs {
		switch pkgs[i].path {
		case "m/wire":
			pkgs[i].testImports = append(pkgs[i].testImports, "m/sql/sqltest", "github.com/jackc/pgx/v5/pgconn")
		case "m/temporal":
			pkgs[i].testImports = append(pkgs[i].testImports, "time", "math/rand/v2", "m/types")
		case "m/history":
			pkgs[i].testImports = append(pkgs[i].testImports, "go.etcd.io/bbolt")
		}
	}
	if v := checkImports("m", pkgs, packageRules); len(v) != 0 {
		t.Errorf("test imports refused: %q", v)
	}
}

// TestImportCheckerPlacesEveryPackage: a package the rules do not place
// fails, and so does a rule for a package that is gone.
func TestImportCheckerPlacesEveryPackage(t *testing.T) {
	pkgs := append(syntheticModule(), modulePackage{path: "m/sql/unplaced", imports: []string{"m/types"}})
	got := checkPlacement("m", pkgs, packageRules)
	want := "package sql/unplaced has no place in packageRules"
	if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, want) }) {
		t.Errorf("got %q, want a complaint starting %q", got, want)
	}
	// The synthetic module lacks some packages packageRules places.
	for _, gone := range []string{"sql/pgdefs", "pgtests/corpus", "cmd/cdcbench"} {
		want := "packageRules places " + gone + ", which the module does not have"
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("got %q, want a complaint starting %q", got, want)
		}
	}
}
