package pgtests

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/pgtests/pgserver"
)

// psqlTarget is a server psql connects to.
type psqlTarget struct {
	name string
	host string
	port int
	db   string
}

// psqlTargets gives each psql test a fresh cdcdb and a fresh database on the
// reference PostgreSQL 15, so every expected output below is shown to be
// PostgreSQL's before it is asked of cdcdb.
func psqlTargets(t *testing.T) []psqlTarget {
	t.Helper()
	var targets []psqlTarget
	for _, tg := range bothTargets(t) {
		targets = append(targets, psqlTarget{tg.Name, tg.Host, tg.Port, tg.DB})
	}
	return targets
}

type psqlResult struct {
	stdout, stderr string
	exitCode       int
}

// runPsql runs psql the way a user would, without their ~/.psqlrc, stopping
// at the first error.
func runPsql(t *testing.T, to psqlTarget, dir string, args ...string) psqlResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	base := []string{"-X", "-v", "ON_ERROR_STOP=1", "-h", to.host, "-p", strconv.Itoa(to.port), "-U", pgserver.User, "-d", to.db}
	cmd := exec.CommandContext(ctx, psqlPath(t), append(base, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "PGCONNECT_TIMEOUT=10", "PGPASSWORD=", "PGSERVICEFILE=/nonexistent", "PGSSLMODE=prefer")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := psqlResult{stdout: stdout.String(), stderr: stderr.String()}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.exitCode = exitErr.ExitCode()
	default:
		t.Fatalf("run psql: %v", err)
	}
	return res
}

// readmeSession is the psql session README.md shows: the SQL typed at the
// prompts and what psql printed, from the fenced block after the marker.
type readmeSession struct {
	prompt string // "main=#" or "main=>"
	input  []string
	output string
}

const readmeMarker = "<!-- checked by pgtests: TestPsqlREADMESession -->"

var promptLine = regexp.MustCompile(`^(main=[#>]) (.*)$`)

func readREADMESession(t *testing.T) readmeSession {
	t.Helper()
	_, after, ok := strings.Cut(readRepoFile(t, "README.md"), readmeMarker)
	if !ok {
		t.Fatalf("README.md has no %q", readmeMarker)
	}
	_, block, ok := strings.Cut(after, "```")
	if ok {
		block, _, ok = strings.Cut(block, "```")
	}
	if !ok {
		t.Fatal("README.md: no fenced block after the marker")
	}
	var s readmeSession
	var out []string
	for i, line := range strings.Split(block, "\n") {
		switch {
		case i == 0: // the info string after the opening fence
		case strings.HasPrefix(line, "$ psql "):
		case promptLine.MatchString(line):
			m := promptLine.FindStringSubmatch(line)
			if s.prompt != "" && s.prompt != m[1] {
				t.Fatalf("README.md session mixes prompts %q and %q", s.prompt, m[1])
			}
			s.prompt = m[1]
			s.input = append(s.input, m[2])
		default:
			out = append(out, line)
		}
	}
	s.output = normalizeOutput(strings.Join(out, "\n"))
	if len(s.input) == 0 || s.output == "" {
		t.Fatalf("README.md session has no input or no output:\n%s", block)
	}
	return s
}

// normalizeOutput drops trailing spaces (psql pads the last header cell;
// editors strip it from the README) and trailing blank lines.
func normalizeOutput(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

func TestPsqlREADMESession(t *testing.T) {
	session := readREADMESession(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "session.sql")
	if err := os.WriteFile(script, []byte(strings.Join(session.input, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, to := range psqlTargets(t) {
		t.Run(to.name, func(t *testing.T) {
			res := runPsql(t, to, dir, "-f", script)
			if res.exitCode != 0 || res.stderr != "" {
				t.Fatalf("psql exit %d, stderr:\n%s", res.exitCode, res.stderr)
			}
			if got := normalizeOutput(res.stdout); got != session.output {
				t.Errorf("psql printed:\n%s\nREADME.md shows:\n%s", got, session.output)
			}
			// psql's prompt ends in # for a superuser, > otherwise.
			conn := connect(t, pgserver.URL(to.host, to.port, to.db, ""))
			wantSuper := map[string]string{"main=#": "on", "main=>": "off"}[session.prompt]
			if got := conn.PgConn().ParameterStatus("is_superuser"); got != wantSuper {
				t.Errorf("is_superuser = %q, so psql's prompt is not the README's %q", got, session.prompt)
			}
		})
	}
}

func TestPsqlErrorShowsMessageAndCaret(t *testing.T) {
	cases := []struct {
		name, sql, stderr string
	}{
		{"UndefinedTable", "SELECT * FROM nope", `ERROR:  relation "nope" does not exist
LINE 1: SELECT * FROM nope
                      ^
`},
		{"SyntaxErrorOnSecondLine", "SELECT 1,\n  2 3", `ERROR:  syntax error at or near "3"
LINE 2:   2 3
            ^
`},
	}
	for _, to := range psqlTargets(t) {
		t.Run(to.name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					res := runPsql(t, to, t.TempDir(), "-c", c.sql)
					if res.exitCode != 1 {
						t.Errorf("psql exit code %d, want 1", res.exitCode)
					}
					if res.stderr != c.stderr {
						t.Errorf("psql stderr:\n%s\nwant:\n%s", res.stderr, c.stderr)
					}
				})
			}
		})
	}
}

func TestPsqlCopyFromFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"fruit.csv": "id,name,origin\n" +
			"1,apple,\"Kazakhstan, Almaty\"\n" +
			"2,\"banana \"\"Cavendish\"\"\",\n" +
			"3,cherry,\"\"\n",
		"fruit.txt": "4\tdate\tOasis\\tof Siwa\n" +
			"5\telderberry\t\\N\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := `\pset null '(null)'
CREATE TABLE fruit (id int PRIMARY KEY, name text NOT NULL, origin text);
\copy fruit FROM 'fruit.csv' WITH (FORMAT csv, HEADER true)
\copy fruit FROM 'fruit.txt'
SELECT * FROM fruit ORDER BY id;
`
	if err := os.WriteFile(filepath.Join(dir, "copy.sql"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		`Null display is "(null)".`,
		"CREATE TABLE",
		"COPY 3",
		"COPY 2",
		" id |        name        |       origin       ",
		"----+--------------------+--------------------",
		"  1 | apple              | Kazakhstan, Almaty",
		`  2 | banana "Cavendish" | (null)`,
		"  3 | cherry             | ",
		"  4 | date               | Oasis   of Siwa",
		"  5 | elderberry         | (null)",
		"(5 rows)",
		"", "",
	}, "\n")
	for _, to := range psqlTargets(t) {
		t.Run(to.name, func(t *testing.T) {
			res := runPsql(t, to, dir, "-f", "copy.sql")
			if res.exitCode != 0 || res.stderr != "" {
				t.Fatalf("psql exit %d, stderr:\n%s", res.exitCode, res.stderr)
			}
			if res.stdout != want {
				t.Errorf("psql printed:\n%s\nwant:\n%s", res.stdout, want)
			}
		})
	}
}
