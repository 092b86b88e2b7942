package pgtests

import (
	"fmt"
	"os/exec"
	"path/filepath"
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
