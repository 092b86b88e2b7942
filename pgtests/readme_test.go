package pgtests

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cdcdb/pgtests/pgserver"
)

// moduleRoot is the repository's root directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := pgserver.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// readRepoFile reads a file of the repository, by its path from the root.
func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestREADMETestCommandIsWhatCIRuns keeps README.md and .ci/run from
// drifting apart: the command the README gives for running the tests is the
// last command .ci/run runs.
func TestREADMETestCommandIsWhatCIRuns(t *testing.T) {
	readme, ci := readRepoFile(t, "README.md"), readRepoFile(t, filepath.Join(".ci", "run"))
	_, after, ok := strings.Cut(readme, "Run every test")
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
	for _, line := range strings.Split(ci, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lastCommand = line
		}
	}
	if lastCommand != readmeCommand {
		t.Errorf(".ci/run ends with %q; README.md says to run %q", lastCommand, readmeCommand)
	}
}

// readmeMaxLines bounds the README: it is a user's first page, and what does
// not fit belongs in docs/.
const readmeMaxLines = 200

// TestREADMEIsAShortPage: the README stays under readmeMaxLines and names
// no commits; history belongs in git and docs/.
func TestREADMEIsAShortPage(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	if n := strings.Count(readme, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the details to docs/", n, readmeMaxLines)
	}
	for i, line := range strings.Split(readme, "\n") {
		if h := commitHashes(line); len(h) > 0 {
			t.Errorf("README.md:%d names commits %q: say what changed, and keep history in docs/findings.md", i+1, h)
		}
	}
}

// hexWord is a word a commit hash could be: 7 to 12 hexadecimal digits.
var hexWord = regexp.MustCompile(`\b[0-9a-f]{7,12}\b`)

// commitHashes returns the words of s that look like abbreviated commit
// hashes: hexadecimal, with both letters and digits (so that numbers and
// words such as "deadbeef" pass).
func commitHashes(s string) []string {
	var out []string
	for _, w := range hexWord.FindAllString(s, -1) {
		if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdef") {
			out = append(out, w)
		}
	}
	return out
}

// TestNoCommitsInGoComments: code comments say what and why, never which
// commit; the commit is in git blame.
func TestNoCommitsInGoComments(t *testing.T) {
	root := moduleRoot(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_generated.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(src), "\n") {
			_, comment, ok := strings.Cut(line, "//")
			if !ok {
				continue
			}
			if h := commitHashes(comment); len(h) > 0 {
				t.Errorf("%s:%d: a comment names commits %q; say what and why instead", rel, i+1, h)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// markdownLink is a link or an image of a Markdown page: [text](target).
var markdownLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

// TestDocsLinksResolve: every link between the README and the pages of
// docs/ leads to a file that exists and, with a #fragment, to a heading of
// that page.
func TestDocsLinksResolve(t *testing.T) {
	root := moduleRoot(t)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"))
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, m := range markdownLink.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, fragment, _ := strings.Cut(target, "#")
			linked := page
			if file != "" {
				linked = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(linked); err != nil {
				t.Errorf("%s links to %s, which does not exist", rel, target)
				continue
			}
			if fragment == "" {
				continue
			}
			body, err := os.ReadFile(linked)
			if err != nil {
				t.Fatal(err)
			}
			if !hasHeadingAnchor(string(body), fragment) {
				t.Errorf("%s links to %s, whose page has no heading with that anchor", rel, target)
			}
		}
	}
}

// hasHeadingAnchor reports whether a Markdown page has a heading whose
// anchor, as GitHub makes it, is anchor: lower case, punctuation dropped,
// spaces as hyphens.
func hasHeadingAnchor(page, anchor string) bool {
	for _, line := range strings.Split(page, "\n") {
		heading, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9'):
				slug.WriteRune(r)
			}
		}
		if slug.String() == anchor {
			return true
		}
	}
	return false
}
