package pgtests

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPgbenchInitAndRun: pgbench -i creates, fills (client-side with
// COPY, and server-side with INSERT ... SELECT generate_series) and
// vacuums its tables and adds their primary keys to the filled tables
// (plain pgbench -i, the default steps dtgvp; and -I dtGvp), then a
// pgbench run of the TPC-B-like script ends with zero failed
// transactions.
func TestPgbenchInitAndRun(t *testing.T) {
	pgbench := filepath.Join(filepath.Dir(psqlPath(t)), "pgbench")
	s := startServer(t)
	base := []string{"-h", s.Host(), "-p", fmt.Sprint(s.Port()), "-U", "cdcdb"}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(testContext(t), pgbench, append(append(args, base...), "main")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("pgbench %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	for _, steps := range [][]string{{"-i"}, {"-i", "-I", "dtGvp"}} {
		out := run(steps...)
		if !strings.Contains(out, "vacuuming...") || !strings.Contains(out, "creating primary keys...") || !strings.Contains(out, "done in") {
			t.Errorf("pgbench %s:\n%s", strings.Join(steps, " "), out)
		}
	}
	conn := connect(t, s.URL())
	if got := queryString(t, conn, "SELECT (SELECT count(*) FROM pgbench_accounts)::text || ' ' || (SELECT count(*) FROM pgbench_branches)::text"); got != "100000 1" {
		t.Errorf("rows after pgbench -i: %s", got)
	}
	if got := queryString(t, conn, "SELECT count(*)::text FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE i.indisprimary AND c.relname LIKE 'pgbench_%'"); got != "3" {
		t.Errorf("pgbench -i made %s primary keys, want 3 (accounts, branches, tellers)", got)
	}
	out := run("-c", "2", "-t", "10")
	if m := regexp.MustCompile(`number of failed transactions: (\d+)`).FindStringSubmatch(out); m == nil || m[1] != "0" {
		t.Errorf("pgbench run:\n%s", out)
	}
	if got := queryString(t, conn, "SELECT count(*)::text FROM pgbench_history"); got != "20" {
		t.Errorf("pgbench_history holds %s rows after 2 clients x 10 transactions", got)
	}
}
