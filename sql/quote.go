package sql

import (
	"strings"
	"sync"

	"cdcdb/sql/parse"
)

// quoteIdent quotes a name the way PostgreSQL's quote_ident does: only when
// it needs it.
func quoteIdent(s string) string {
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
	if plain && !isReservedWord(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// isReservedWord reports the words quote_ident quotes: every PostgreSQL
// keyword that is not unreserved (see keywordsToQuote).
func isReservedWord(s string) bool { return keywordsToQuote()[s] }

// keywordsToQuote are the keywords quote_ident and the reg* types put in
// double quotes, as PostgreSQL does: all but the unreserved ones, from the
// front end's keyword table.
func keywordsToQuote() map[string]bool {
	quoteKeywordsOnce.Do(func() {
		quoteKeywords = map[string]bool{}
		for _, k := range parse.Keywords() {
			if k.CatCode != 'U' {
				quoteKeywords[k.Word] = true
			}
		}
	})
	return quoteKeywords
}

var (
	quoteKeywordsOnce sync.Once
	quoteKeywords     map[string]bool
)
