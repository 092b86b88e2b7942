package corpus

import (
	"context"
	"strings"
	"testing"
)

// Session runs statement texts as one client connection to one database
// does, each as a simple Query, and reports what the client saw.
type Session interface {
	Run(ctx context.Context, statement string) Outcome
}

// Answers runs every block of f, in order, in s and renders each outcome.
func (f *File) Answers(ctx context.Context, s Session) []string {
	answers := make([]string, len(f.Blocks))
	for i, b := range f.Blocks {
		answers[i] = Render(b.SQL, s.Run(ctx, b.SQL))
	}
	return answers
}

// Record makes answers (one per block, PostgreSQL's) the file's recorded
// ones and writes the file.
func (f *File) Record(answers []string) error {
	for i, b := range f.Blocks {
		b.Want, b.Recorded = answers[i], true
	}
	return f.Write()
}

// CheckFiles holds the corpus as a whole to its rules: it keeps at least
// MinStatements statements, and every entry of Differences names a
// statement of one of the files and gives its reason.
func CheckFiles(t testing.TB, files []*File) {
	t.Helper()
	present := map[string]bool{}
	total := 0
	for _, f := range files {
		for _, b := range f.Blocks {
			present[b.SQL] = true
		}
		total += len(f.Blocks)
	}
	t.Logf("%d statements in %d files", total, len(files))
	if total < MinStatements {
		t.Errorf("the corpus has %d statements; it must keep at least %d", total, MinStatements)
	}
	for sql, d := range Differences {
		if !present[sql] {
			t.Errorf("corpus.Differences lists a statement no corpus file has:\n%s", sql)
		}
		if strings.TrimSpace(d.Why) == "" {
			t.Errorf("corpus.Differences entry without a reason:\n%s", sql)
		}
	}
}

// CheckRecording holds the reference PostgreSQL's answers, one per block,
// to the recorded ones: a difference means PostgreSQL changed or the file
// was edited without recording.
func (f *File) CheckRecording(t testing.TB, postgres []string) {
	t.Helper()
	for i, b := range f.Blocks {
		if b.Recorded && postgres[i] != b.Want {
			t.Errorf("%s:%d: PostgreSQL 15 no longer gives the recorded answer (rewrite the file?)\n%s\n--- recorded:\n%s\n--- postgres:\n%s",
				f.Path, b.Line, b.SQL, b.Want, postgres[i])
		}
	}
}

// CheckAnswers holds cdcdb's answers, one per block, to the recorded ones,
// or where Differences lists the statement, to the answer it gives there.
// A listed statement that cdcdb now answers as PostgreSQL does fails too,
// so the list cannot outlive its reason.
func (f *File) CheckAnswers(t testing.TB, cdcdb []string) {
	t.Helper()
	for i, b := range f.Blocks {
		got := cdcdb[i]
		want := b.Want
		if !b.Recorded {
			t.Errorf("%s:%d: no recorded answer; record one with CORPUS_REWRITE=1 go test ./pgtests -run TestSQLCorpus", f.Path, b.Line)
			continue
		}
		if d, ok := Differences[b.SQL]; ok {
			if got == b.Want {
				t.Errorf("%s:%d: listed in corpus.Differences but cdcdb now answers as PostgreSQL does; remove the entry\n%s", f.Path, b.Line, b.SQL)
				continue
			}
			want = d.Cdcdb
		}
		if got != want {
			t.Errorf("%s:%d: cdcdb differs from PostgreSQL 15\n%s\n--- postgres:\n%s\n--- cdcdb:\n%s", f.Path, b.Line, b.SQL, want, got)
		}
	}
}

// StartupParameters are the run-time settings every corpus session sends
// in its StartupMessage, on every server, so that no answer depends on a
// server's defaults.
func StartupParameters() map[string]string {
	return map[string]string{"timezone": "UTC", "datestyle": "ISO, MDY"}
}
