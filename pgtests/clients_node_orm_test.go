package pgtests

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runNodeMigration runs a node program of testdata/clients/node (args:
// host, port, database) against cdcdb and PostgreSQL 15 and returns their
// transcripts, failing the test where they differ.
func runNodeMigration(t *testing.T, module, program, okLine string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		requireTool(t, fmt.Errorf("node: %v (Debian package nodejs)", err))
	}
	dir := clientProgram(t, "node")
	requireFile(t, filepath.Join(dir, "node_modules", module, "package.json"), "npm "+module+" (npm ci in "+dir+")")
	var outs []string
	for _, tg := range bothTargets(t) {
		outs = append(outs, runClient(t, okLine, nil, node, filepath.Join(dir, program), tg.Host, fmt.Sprint(tg.Port), tg.DB))
	}
	if len(outs) == 2 && outs[0] != outs[1] {
		t.Errorf("cdcdb:\n%s\nPostgreSQL 15:\n%s", outs[0], outs[1])
	}
	return outs[0]
}

// TestKnexMigration: a knex migration (npm knex) makes tables with a
// DEFERRABLE INITIALLY DEFERRED foreign key and knex's enum (a CHECK), then
// .alter()s column types on rows already there, with writes that need the
// deferred check: the same transcript on cdcdb as on PostgreSQL 15. See
// testdata/clients/node/cdcdb_knex.js.
func TestKnexMigration(t *testing.T) {
	out := runNodeMigration(t, "knex", "cdcdb_knex.js", "KNEX OK")
	for _, want := range []string{"column code integer null true null", "name to integer: 22P02", "orphan refused at commit: 23503", `"qty":"1099511627776"`} {
		if !strings.Contains(out, want) {
			t.Errorf("cdcdb's transcript has no %q:\n%s", want, out)
		}
	}
}

// TestSequelizeSyncAlter: sequelize's sync({ alter: true }) (npm
// sequelize) changes column types on rows already there, drops a NOT NULL
// and adds a column, and reads the table back with describeTable and its
// foreign key query: the same transcript on cdcdb as on PostgreSQL 15. See
// testdata/clients/node/cdcdb_sequelize.js.
func TestSequelizeSyncAlter(t *testing.T) {
	out := runNodeMigration(t, "sequelize", "cdcdb_sequelize.js", "SEQUELIZE OK")
	for _, want := range []string{"column name CHARACTER VARYING(200) false null false", "column qty BIGINT true null false", "fk vendorId vendors id", "missing vendor: 23503"} {
		if !strings.Contains(out, want) {
			t.Errorf("cdcdb's transcript has no %q:\n%s", want, out)
		}
	}
}
