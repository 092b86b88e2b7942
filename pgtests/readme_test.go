package pgtests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdcdb/pgtests/pgserver"
)

// TestREADMETestCommandIsWhatCIRuns keeps README.md and .ci/run from
// drifting apart: the command the README gives for running the tests is the
// last command .ci/run runs.
func TestREADMETestCommandIsWhatCIRuns(t *testing.T) {
	root, err := pgserver.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "Run every test")
	if !ok {
		t.Fatal(`README.md has no "Run every test" paragraph`)
	}
	var readmeCommand string
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "    ") {
			readmeCommand = strings.TrimSpace(line)
			break
		}
	}
	if readmeCommand == "" {
		t.Fatal(`README.md: no indented command after "Run every test"`)
	}
	var lastCommand string
	for _, line := range strings.Split(string(ci), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lastCommand = line
		}
	}
	if lastCommand != readmeCommand {
		t.Errorf(".ci/run ends with %q; README.md says to run %q", lastCommand, readmeCommand)
	}
}
