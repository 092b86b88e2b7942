package corpus

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5/pgtype"
)

// Outcome is what a client saw of one statement text sent as a simple
// Query: the results of the statements that completed, in order, and the
// error that ended the text or came after its last statement.
type Outcome struct {
	Results []Result
	// Err is a *ServerError for an ErrorResponse; anything else is the
	// client's own failure (a lost connection, a timeout) and renders as
	// "CLIENT ERROR: ...".
	Err error
}

// Result is one completed statement: its RowDescription's columns (none
// for a statement that sends no rows), its rows in text format, nil for
// NULL, and its command tag ("" for an empty query).
type Result struct {
	Columns []Column
	Rows    [][][]byte
	Tag     string
}

// Column is one field of a RowDescription, as far as the corpus compares
// it.
type Column struct {
	Name    string
	TypeOID uint32
}

// ServerError is an ErrorResponse, as far as the corpus compares it.
type ServerError struct {
	Code     string // SQLSTATE
	Position int    // 1-based character position in the text, 0 for none
	Message  string
}

func (e *ServerError) Error() string { return "ERROR " + e.Code + ": " + e.Message }

// Render writes an outcome in the corpus format (see the package doc). The
// statement text decides whether rows keep their order: those of a text
// without a top-level ORDER BY are sorted, so that comparing two rendered
// answers compares their rows as multisets.
func Render(statement string, o Outcome) string {
	ordered := HasTopLevelOrderBy(statement)
	var parts []string
	for _, r := range o.Results {
		parts = append(parts, renderResult(r, ordered))
	}
	if o.Err != nil {
		parts = append(parts, renderError(o.Err))
	}
	return strings.Join(parts, "\n")
}

// typeNames names the columns' types as the files were recorded with
// them: pgx's names for the OIDs it knows, the number otherwise.
var typeNames = pgtype.NewMap()

func renderResult(r Result, ordered bool) string {
	var lines []string
	if len(r.Columns) > 0 && len(r.Rows) > 0 {
		cols := make([]string, len(r.Columns))
		for i, c := range r.Columns {
			typ := strconv.FormatUint(uint64(c.TypeOID), 10)
			if dt, ok := typeNames.TypeForOID(c.TypeOID); ok {
				typ = dt.Name
			}
			cols[i] = cell([]byte(c.Name)) + ":" + typ
		}
		lines = append(lines, strings.Join(cols, " | "))
		rows := make([]string, len(r.Rows))
		for i, row := range r.Rows {
			cells := make([]string, len(row))
			for j, v := range row {
				cells[j] = cell(v)
			}
			rows[i] = strings.Join(cells, " | ")
		}
		if !ordered {
			slices.Sort(rows)
		}
		lines = append(lines, rows...)
	}
	lines = append(lines, r.Tag)
	return strings.Join(lines, "\n")
}

func renderError(err error) string {
	var se *ServerError
	if !errors.As(err, &se) {
		return "CLIENT ERROR: " + err.Error()
	}
	s := "ERROR " + se.Code
	if se.Position != 0 {
		s += " at " + strconv.Itoa(se.Position)
	}
	return s + ": " + oneLine(se.Message)
}

// cell renders a text value so that a row line reads back unambiguously.
func cell(v []byte) string {
	if v == nil {
		return "NULL"
	}
	s := string(v)
	plain := s != "" && s != "NULL" && strings.TrimSpace(s) == s
	for _, r := range s {
		if r == '|' || r == '"' || r == '\\' || !unicode.IsPrint(r) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return strconv.Quote(s)
}

func oneLine(s string) string {
	if strings.ContainsAny(s, "\n\r") {
		return strconv.Quote(s)
	}
	return s
}

// HasTopLevelOrderBy reports whether a statement text orders its result:
// ORDER BY outside any parentheses, strings, quoted names and comments.
func HasTopLevelOrderBy(sql string) bool {
	depth := 0
	var words []string
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '\'' || c == '"':
			i++
			for i < len(sql) {
				if sql[i] == c {
					if i+1 < len(sql) && sql[i+1] == c {
						i += 2
						continue
					}
					break
				}
				if c == '\'' && sql[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '$' && dollarTag.MatchString(sql[i:]):
			tag := dollarTag.FindString(sql[i:])
			end := strings.Index(sql[i+len(tag):], tag)
			if end < 0 {
				return false
			}
			i += len(tag) + end + len(tag)
		case c == '(':
			depth++
			i++
		case c == ')':
			depth--
			i++
		case isWordByte(c):
			j := i
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			if depth == 0 {
				words = append(words, strings.ToUpper(sql[i:j]))
			}
			i = j
		default:
			i++
		}
	}
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "ORDER" && words[i+1] == "BY" {
			return true
		}
	}
	return false
}

var dollarTag = regexp.MustCompile(`^\$[A-Za-z_]*\$`)

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
