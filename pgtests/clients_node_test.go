package pgtests

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// node-postgres (npm pg, installed by .ci/run into testdata/clients/node
// from its package-lock.json) against cdcdb: the AUTO CDC SCD TYPE 2 flow,
// named prepared statements with parameters, binary results, the target
// and a FOR BUSINESS_TIME AS OF read, the table OID and column numbers in
// result fields, information_schema.columns, LISTEN/NOTIFY between two
// clients, the change feed with parameters. See
// testdata/clients/node/cdcdb_node.js.
func TestNodePostgres(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		requireTool(t, fmt.Errorf("node: %v (Debian package nodejs)", err))
	}
	dir := clientProgram(t, "node")
	requireFile(t, filepath.Join(dir, "node_modules", "pg", "package.json"), "npm pg (npm ci in "+dir+")")
	s := startServer(t)
	runClient(t, "NODE OK", nil, node, filepath.Join(dir, "cdcdb_node.js"), s.Host(), strconv.Itoa(s.Port()))
}

// postgres.js (npm postgres, installed beside node-postgres) against
// cdcdb: sql.begin with nested sql.savepoint blocks, a failing one rolled
// back to its savepoint while the transaction goes on, with an AUTO CDC
// flow written inside them. See testdata/clients/node/cdcdb_postgresjs.js.
func TestPostgresJSSavepoints(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		requireTool(t, fmt.Errorf("node: %v (Debian package nodejs)", err))
	}
	dir := clientProgram(t, "node")
	requireFile(t, filepath.Join(dir, "node_modules", "postgres", "package.json"), "npm postgres (npm ci in "+dir+")")
	s := startServer(t)
	runClient(t, "POSTGRESJS OK", nil, node, filepath.Join(dir, "cdcdb_postgresjs.js"), s.Host(), strconv.Itoa(s.Port()))
}
