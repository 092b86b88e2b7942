package pgtests

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"cdcdb/pgtests/pgserver"
)

// TestJDBCMetadataMatchesPostgres: pgjdbc's getTypeInfo answers, for every
// type cdcdb has, the row PostgreSQL 15 answers (PostgreSQL lists more:
// the row types of its own catalogs and the types cdcdb lacks), and
// getIndexInfo answers PostgreSQL's rows but for CARDINALITY and PAGES,
// which are PostgreSQL's statistics (cdcdb keeps none: -1 and 0). See
// testdata/clients/CdcdbJdbcMeta.java.
func TestJDBCMetadataMatchesPostgres(t *testing.T) {
	requireFile(t, pgjdbcJar, "libpostgresql-jdbc-java")
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			requireTool(t, fmt.Errorf("%s: %v (Debian package openjdk-17-jdk-headless)", tool, err))
		}
	}
	dir := t.TempDir()
	if out, err := exec.Command("javac", "-d", dir, "-cp", pgjdbcJar, clientProgram(t, "CdcdbJdbcMeta.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	cp := dir + string(os.PathListSeparator) + pgjdbcJar
	stats := regexp.MustCompile(` CARDINALITY=\S+ PAGES=\S+`)
	type answer struct {
		types   map[string]string
		indexes []string
	}
	var answers []answer
	for _, tg := range bothTargets(t) {
		url := fmt.Sprintf("jdbc:postgresql://%s:%d/%s?user=%s", tg.Host, tg.Port, tg.DB, pgserver.User)
		out := runClient(t, "JDBC META OK", nil, "java", "-cp", cp, "CdcdbJdbcMeta", url)
		a := answer{types: map[string]string{}}
		for _, line := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(line, "type "):
				name := strings.Fields(line)[1]
				a.types[name] = line
			case strings.HasPrefix(line, "index "):
				a.indexes = append(a.indexes, stats.ReplaceAllString(line, ""))
			}
		}
		answers = append(answers, a)
	}
	if len(answers[0].types) < 150 || len(answers[0].indexes) != 4 {
		t.Fatalf("cdcdb answered %d types and %d index columns", len(answers[0].types), len(answers[0].indexes))
	}
	if len(answers) < 2 {
		return
	}
	cd, pg := answers[0], answers[1]
	for name, row := range cd.types {
		if pg.types[name] != row {
			t.Errorf("getTypeInfo %s:\ncdcdb:      %s\nPostgreSQL: %s", name, row, pg.types[name])
		}
	}
	if strings.Join(cd.indexes, "\n") != strings.Join(pg.indexes, "\n") {
		t.Errorf("getIndexInfo:\ncdcdb:\n%s\nPostgreSQL:\n%s", strings.Join(cd.indexes, "\n"), strings.Join(pg.indexes, "\n"))
	}
}
