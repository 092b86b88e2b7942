package parse

import "sort"

// Keyword is one PostgreSQL 15 keyword as pg_get_keywords() describes it:
// its category code (U unreserved, C unreserved but not a function or type
// name, T reserved but a function or type name, R reserved) and whether it
// may label a column without AS.
type Keyword struct {
	Word      string
	CatCode   byte
	BareLabel bool
}

// Keywords lists the keywords the lexer knows, sorted, for
// pg_get_keywords() and quote_ident.
func Keywords() []Keyword {
	out := make([]Keyword, 0, len(keywords))
	for w, k := range keywords {
		code := byte('U')
		switch k.cat {
		case colNameKeyword:
			code = 'C'
		case typeFuncNameKeyword:
			code = 'T'
		case reservedKeyword:
			code = 'R'
		}
		out = append(out, Keyword{Word: w, CatCode: code, BareLabel: k.bare})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Word < out[j].Word })
	return out
}
