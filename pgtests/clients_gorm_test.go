package pgtests

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GORM (gorm.io/gorm, its own module in testdata/clients/gorm, fetched
// through the Go module proxy) against cdcdb: nested db.Transaction calls,
// which GORM runs as savepoints, a failing one rolled back to its
// savepoint while the outer transaction commits, and SavePoint/RollbackTo
// by hand. See testdata/clients/gorm/main.go.
func TestGORMNestedTransactions(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		requireTool(t, fmt.Errorf("go: %v", err))
	}
	dir := clientProgram(t, "gorm")
	bin := filepath.Join(t.TempDir(), "gorm-client")
	build := exec.CommandContext(t.Context(), goTool, "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(build.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		requireTool(t, fmt.Errorf("building the GORM client (needs the Go module proxy): %v\n%s", err, out))
	}
	s := startServer(t)
	runClient(t, "GORM OK", nil, bin, s.URL())
}

// TestGORMAutoMigrate: GORM's AutoMigrate changes column types on rows
// already there (varchar(50) to varchar(200), integer to bigint, varchar
// to bigint with USING) and adds a column, its Migrator reads the same
// column types, indexes and constraints back, and database/sql and sqlx
// over pgx's stdlib run INSERT ... RETURNING with parameters and struct
// scans, with the same transcript on cdcdb as on PostgreSQL 15. See
// testdata/clients/gorm/migrate/main.go.
func TestGORMAutoMigrate(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		requireTool(t, fmt.Errorf("go: %v", err))
	}
	bin := filepath.Join(t.TempDir(), "gorm-migrate")
	build := exec.CommandContext(t.Context(), goTool, "build", "-o", bin, "./migrate")
	build.Dir = clientProgram(t, "gorm")
	build.Env = append(build.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		requireTool(t, fmt.Errorf("building the GORM migrate client (needs the Go module proxy): %v\n%s", err, out))
	}
	var outs []string
	for _, tg := range bothTargets(t) {
		outs = append(outs, runClient(t, "GORM MIGRATE OK", nil, bin, tg.URL))
	}
	for _, want := range []string{
		"column code int8 length=64/true nullable=true pk=false unique=false",
		"item 2 nut 20 815 <nil>",
		"named 5 screw 7 43 m4 1",
	} {
		if !strings.Contains(outs[0], want) {
			t.Errorf("cdcdb's transcript has no %q:\n%s", want, outs[0])
		}
	}
	if len(outs) == 2 && outs[0] != outs[1] {
		t.Errorf("cdcdb:\n%s\nPostgreSQL 15:\n%s", outs[0], outs[1])
	}
}
