package parse

import "testing"

func TestQuoteIdent(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `""`},
		{"items", "items"},
		{"items_2", "items_2"},
		{"_x", "_x"},
		{"Items", `"Items"`},
		{"2x", `"2x"`},
		{"a b", `"a b"`},
		{`a"b`, `"a""b"`},
		{"select", `"select"`}, // reserved
		{"user", `"user"`},     // reserved
		{"name", "name"},       // unreserved keyword: no quotes
		{"between", `"between"`},
	}
	for _, c := range cases {
		if got := QuoteIdent(c.in); got != c.want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestQuoteLiteral(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "''"},
		{"it's", "'it''s'"},
		{`a\b`, `E'a\\b'`},
	}
	for _, c := range cases {
		if got := QuoteLiteral(c.in); got != c.want {
			t.Errorf("QuoteLiteral(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
