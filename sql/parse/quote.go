package parse

import (
	"strings"
	"sync"
)

// QuoteIdent quotes a name the way PostgreSQL's quote_ident does: only
// when it needs it (not a plain lower-case name, or a keyword that is not
// unreserved). Object names in definitions and reg* output are quoted so.
func QuoteIdent(s string) string {
	if s == "" {
		return `""`
	}
	plain := true
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || (i > 0 && r >= '0' && r <= '9')) {
			plain = false
			break
		}
	}
	if plain && !keywordsToQuote()[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

var (
	quoteKeywordsOnce sync.Once
	quoteKeywords     map[string]bool
)

// keywordsToQuote are the keywords quote_ident and the reg* types put in
// double quotes, as PostgreSQL does: all but the unreserved ones, from the
// front end's keyword table.
func keywordsToQuote() map[string]bool {
	quoteKeywordsOnce.Do(func() {
		quoteKeywords = map[string]bool{}
		for _, k := range Keywords() {
			if k.CatCode != 'U' {
				quoteKeywords[k.Word] = true
			}
		}
	})
	return quoteKeywords
}

// QuoteLiteral quotes a string as an SQL literal, as quote_literal does.
func QuoteLiteral(s string) string {
	if strings.Contains(s, `\`) {
		return "E'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", "''") + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
