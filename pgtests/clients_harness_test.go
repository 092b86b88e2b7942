package pgtests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The client tests run a real driver (JDBC, psqlODBC, psycopg, node-postgres)
// as a subprocess against a fresh cdcdb. Each driver program lives in
// testdata/clients, does its own checks and prints a final "<NAME> OK" line;
// anything else (a failed check, an exception, a non-zero exit) fails the
// test with the program's output. .ci/run installs the drivers; a missing
// one skips the test locally and fails it in CI.

// clientTimeout bounds one driver program.
const clientTimeout = 2 * time.Minute

// clientProgram is the path of a program in testdata/clients.
func clientProgram(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "clients", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// requireFile fails (CI) or skips (elsewhere) when a file a client needs is
// missing.
func requireFile(t testing.TB, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		requireTool(t, fmt.Errorf("%s not found (Debian package %s): %v", path, pkg, err))
	}
}

// runClient runs a driver program and checks its last line says okLine.
func runClient(t testing.TB, okLine string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), clientTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		t.Fatalf("%s %s: exit %d:\n%s", filepath.Base(name), strings.Join(args, " "), exitErr.ExitCode(), out.String())
	default:
		t.Fatalf("%s: %v", name, err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[len(lines)-1] != okLine {
		t.Fatalf("%s did not finish with %q:\n%s", filepath.Base(name), okLine, out.String())
	}
	return out.String()
}

// systemPython is Debian's python3, which has the Debian python3-* driver
// packages (a pyenv or venv python on PATH would not).
const systemPython = "/usr/bin/python3"

// requirePythonModule fails (CI) or skips when Debian's python3 cannot
// import a module.
func requirePythonModule(t testing.TB, module, pkg string) {
	t.Helper()
	requireFile(t, systemPython, "python3")
	out, err := exec.Command(systemPython, "-c", "import "+module).CombinedOutput()
	if err != nil {
		requireTool(t, fmt.Errorf("python3 cannot import %s (Debian package %s): %v\n%s", module, pkg, err, out))
	}
}
