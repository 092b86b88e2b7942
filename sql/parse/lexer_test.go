package parse

import (
	"strings"
	"testing"
)

// tokString renders the tokens of src compactly: kind:value, one per token.
func tokString(src string, d Dialect) string {
	var parts []string
	for _, t := range lex(src, d) {
		switch t.kind {
		case tkEOF:
		case tkIdent:
			if t.kw != notKeyword {
				parts = append(parts, "kw:"+t.str)
			} else {
				parts = append(parts, "id:"+t.str)
			}
		case tkQIdent:
			parts = append(parts, "qid:"+t.str)
		case tkString:
			parts = append(parts, "str:"+t.str)
		case tkBitString:
			parts = append(parts, "bits:"+t.str)
		case tkInteger:
			parts = append(parts, "int:"+t.str)
		case tkNumeric:
			parts = append(parts, "num:"+t.str)
		case tkParam:
			parts = append(parts, "param:"+t.src(src))
		case tkOp:
			parts = append(parts, "op:"+t.str)
		case tkOther:
			parts = append(parts, "other:"+t.str)
		case tkError:
			parts = append(parts, "error:"+t.err.Message)
		}
	}
	return strings.Join(parts, " ")
}

func (t token) src(s string) string { return s[t.pos:t.end] }

func TestLexer(t *testing.T) {
	tests := []struct{ in, want string }{
		// identifiers and keywords
		{`SELECT Foo, "Foo", "a""b", _x1$, é`, `kw:select id:foo op:, qid:Foo op:, qid:a"b op:, id:_x1$ op:, id:é`},
		{`key value name type text date`, `kw:key kw:value kw:name kw:type kw:text id:date`},
		{`ÀB`, `id:Àb`}, // only ASCII letters fold
		{strings.Repeat("a", 70), "id:" + strings.Repeat("a", 63)},
		{`"` + strings.Repeat("é", 40) + `"`, "qid:" + strings.Repeat("é", 31)}, // cut on a character boundary
		// strings
		{`'it''s'`, `str:it's`},
		{"'a'\n'b'", `str:ab`},
		{"'a' -- note\n  'b'", `str:ab`},
		{"'a'\n\n\t 'b'\n'c'", `str:abc`},
		{`'a' 'b'`, `str:a str:b`},               // no newline: two literals (a syntax error later)
		{"'a' /* c */\n'b'", `str:a str:b`},      // a block comment breaks the continuation
		{`'a\nb'`, `str:a\nb`},                   // standard strings keep backslashes
		{`E'a\nb\tc\\d\'e'`, "str:a\nb\tc\\d'e"}, // E'' escapes
		{`e'\x41\101\u0042\U00000043\q\v'`, `str:AABCqv`},
		{`E'\xc3\xa9'`, `str:é`},
		{`E'\uD83D\uDE00'`, `str:😀`},
		{`E'\x'`, `str:x`},
		{`U&'d\0061t\+000061'`, `str:data`},
		{`U&'d!0061t' UESCAPE '!'`, `str:dat`},
		{`u&'a\\b'`, `str:a\b`},
		{`U&"d\0061t"`, `qid:dat`},
		{`$$a'b$$ $tag$x$y$tag$ $a$$$a$`, `str:a'b str:x$y str:$`},
		{`$a$ x $b$ y $a$`, `str: x $b$ y `},
		{`B'0101' x'1F' b'01'` + "\n" + `'10'`, `bits:b0101 bits:x1F bits:b0110`},
		{`N'abc'`, `kw:nchar str:abc`},
		// numbers
		{`1 123 1.5 .5 1. 1e10 1.5E-3 1e+5 9223372036854775807 9223372036854775808`,
			`int:1 int:123 num:1.5 num:.5 num:1. num:1e10 num:1.5E-3 num:1e+5 int:9223372036854775807 num:9223372036854775808`},
		{`1..2`, `int:1 op:.. int:2`},
		{`1.2.3`, `num:1.2 num:.3`},
		{`x.1`, `id:x num:.1`},
		// parameters
		{`$1 $23`, `param:$1 param:$23`},
		{`$abc`, `other:$ id:abc`},
		// operators, PostgreSQL's way
		{`a::int`, `id:a op::: kw:int`},
		{`a->>'k' #>> '{a}' @> <@ && || ~* !~* !~ != <> <= >= ^ % |/ ||/ @`,
			`id:a op:->> str:k op:#>> str:{a} op:@> op:<@ op:&& op:|| op:~* op:!~* op:!~ op:<> op:<> op:<= op:>= op:^ op:% op:|/ op:||/ op:@`},
		{`a=-1`, `id:a op:= op:- int:1`},   // =- splits: no special character before the minus
		{`a*-1`, `id:a op:* op:- int:1`},   // likewise *-
		{`a@-1`, `id:a op:@- int:1`},       // but @- keeps its minus
		{`a<=-1`, `id:a op:<= op:- int:1`}, // <=- is <= then -
		{`a !=- 1`, `id:a op:!=- int:1`},   // ! keeps the minus: one operator
		{`a+-+1`, `id:a op:+ op:- op:+ int:1`},
		{`a--b`, `id:a`},               // a comment
		{`a/*b*/c`, `id:a id:c`},       // a block comment
		{`a+/*b*/c`, `id:a op:+ id:c`}, // an operator stops at a comment
		{`a /* x /* nested */ y */ b`, `id:a id:b`},
		{`f(a => 1, b := 2)`, `id:f op:( id:a op:=> int:1 op:, id:b op::= int:2 op:)`},
		{`x[1:2]`, `id:x op:[ int:1 op:: int:2 op:]`},
		{`\ {`, `other:\ other:{`},
		// scanner errors stop the token stream
		{`select 'abc`, `kw:select error:unterminated quoted string at or near "'abc"`},
		{`1 2abc 3`, `int:1 error:trailing junk after numeric literal at or near "2abc"`},
	}
	for _, tt := range tests {
		if got := tokString(tt.in, DialectPostgres); got != tt.want {
			t.Errorf("lex(%q)\n got  %s\n want %s", tt.in, got, tt.want)
		}
	}
}

func TestLexerDatabricks(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"DELETE" 'x'`, `str:DELETE str:x`},
		{"`My Col` `a``b`", "qid:my col qid:a`b"}, // case-insensitive, as in Databricks
		{`"a""b"`, `str:a"b`},
		{"`unterminated", "error:unterminated quoted identifier at or near \"`unterminated\""},
		{`"unterminated`, `error:unterminated quoted string at or near ""unterminated"`},
	}
	for _, tt := range tests {
		if got := tokString(tt.in, DialectDatabricks); got != tt.want {
			t.Errorf("lex(%q)\n got  %s\n want %s", tt.in, got, tt.want)
		}
	}
}

// TestLexerPositions checks that tokens keep byte offsets into the text.
func TestLexerPositions(t *testing.T) {
	src := "SELECT  é, 'x'\n'y' FROM \"t\""
	var got []string
	for _, tk := range lex(src, DialectPostgres) {
		if tk.kind != tkEOF {
			got = append(got, src[tk.pos:tk.end])
		}
	}
	want := []string{"SELECT", "é", ",", "'x'\n'y'", "FROM", `"t"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRunePosition(t *testing.T) {
	src := "é日x"
	for _, tt := range []struct{ off, want int }{{0, 1}, {2, 2}, {5, 3}, {6, 4}, {99, 4}} {
		if got := runePosition(src, tt.off); got != tt.want {
			t.Errorf("runePosition(%d) = %d, want %d", tt.off, got, tt.want)
		}
	}
}
