package parse

//go:generate sh gen_keywords.sh

// kwCat is a PostgreSQL keyword category. The category decides where a word
// may serve as a name, exactly as in PostgreSQL's grammar:
//
//	ColId              (table, column, alias names):  identifiers, unreserved, col_name
//	type_function_name (function and type names):     identifiers, unreserved, type_func_name
//	ColLabel           (after AS, after a dot):        identifiers and every keyword
//	BareColLabel       (alias without AS):             identifiers and bare-label keywords
//
// This is why `key`, `value`, `name`, `type`, `text` and `date` work as
// column names (they are not keywords, or only unreserved ones) while
// `select`, `table` and `default` need double quotes.
type kwCat uint8

const (
	notKeyword kwCat = iota
	unreservedKeyword
	colNameKeyword
	typeFuncNameKeyword
	reservedKeyword
)

// keyword is one entry of the generated table in keywords_table.go.
type keyword struct {
	cat  kwCat
	bare bool // may be used as a column alias without AS
}

// maxKeywordLen bounds the keyword lookup: longer words cannot be keywords,
// so the lexer need not hash them.
const maxKeywordLen = 17

func lookupKeyword(lower string) (keyword, bool) {
	if len(lower) > maxKeywordLen {
		return keyword{}, false
	}
	k, ok := keywords[lower]
	return k, ok
}
