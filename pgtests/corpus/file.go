package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MinStatements is the size the corpus must keep: issue 3 asked for at
// least 400 statements.
const MinStatements = 400

// Block is one statement text of a corpus file with its recorded answer.
type Block struct {
	Line     int    // 1-based line of the statement's first line
	SQL      string // the statement text, lines joined by \n
	Want     string // the recorded answer, "" if not recorded yet
	Recorded bool   // the block has its "----" line
	comments []string
}

// File is a parsed corpus file.
type File struct {
	Path     string
	Blocks   []*Block
	trailing []string // comment lines after the last block
}

// Name is the file's name without directory and extension: "dml" for
// testdata/dml.sql.
func (f *File) Name() string { return strings.TrimSuffix(filepath.Base(f.Path), ".sql") }

// Load reads every *.sql file of dir, in name order. A directory without
// corpus files is an error: a runner pointed at the wrong place must not
// pass by checking nothing.
func Load(dir string) ([]*File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no corpus files in %s", dir)
	}
	slices.Sort(paths)
	files := make([]*File, len(paths))
	for i, p := range paths {
		if files[i], err = ParseFile(p); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// ParseFile reads one corpus file.
func ParseFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parse(path, string(data)), nil
}

func parse(path, text string) *File {
	f := &File{Path: path}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var pending []string
	for i := 0; i < len(lines); {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			pending = append(pending, l)
			i++
			continue
		}
		b := &Block{Line: i + 1, comments: pending}
		pending = nil
		var stmt []string
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----" {
			stmt = append(stmt, lines[i])
			i++
		}
		b.SQL = strings.Join(stmt, "\n")
		if i < len(lines) && lines[i] == "----" {
			b.Recorded = true
			i++
			var res []string
			for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
				res = append(res, lines[i])
				i++
			}
			b.Want = strings.Join(res, "\n")
		}
		f.Blocks = append(f.Blocks, b)
	}
	f.trailing = pending
	return f
}

// Write stores the file with each block's answer, keeping its comments.
func (f *File) Write() error {
	return os.WriteFile(f.Path, []byte(f.String()), 0o644)
}

// String is the file's text, as Write stores it.
func (f *File) String() string {
	var sb strings.Builder
	for _, b := range f.Blocks {
		for _, c := range b.comments {
			sb.WriteString(c + "\n")
		}
		sb.WriteString(b.SQL + "\n----\n")
		if b.Want != "" {
			sb.WriteString(b.Want + "\n")
		}
	}
	for _, c := range f.trailing {
		sb.WriteString(c + "\n")
	}
	return sb.String()
}
