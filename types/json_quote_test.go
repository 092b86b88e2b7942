package types

import "testing"

// The escapes are PostgreSQL 15's: to_json(E'a"b\\c\b\f\n\r\t\x01\x1f\x7f\u00e9\u20ac/'::text)
// gives "a\"b\\c\b\f\n\r\t\u0001\u001f<DEL>é€/", and to_jsonb of E'\x02k' "\u0002k".
func TestQuoteJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"a\"b\\c\b\f\n\r\t\x01\x1f\x7f\u00e9\u20ac/", `"a\"b\\c\b\f\n\r\t\u0001\u001f` + "\x7f\u00e9\u20ac/" + `"`},
		{"\x02k", `"\u0002k"`},
	} {
		if got := QuoteJSON(tc.in); got != tc.want {
			t.Errorf("QuoteJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := string(AppendQuoteJSON([]byte("x"), tc.in)); got != "x"+tc.want {
			t.Errorf("AppendQuoteJSON(x, %q) = %q", tc.in, got)
		}
	}
}
