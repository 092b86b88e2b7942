package parse

import (
	"reflect"
	"testing"
)

func TestParameterizeNumbers(t *testing.T) {
	for _, c := range []struct {
		src, text string
		consts    []NumberConstant
		ok        bool
	}{
		{"SELECT v FROM kv WHERE id = 42;", "SELECT v FROM kv WHERE id =  $1 ;", []NumberConstant{{"42", true}}, true},
		{"select 1.5, 2e3, 99999999999999999999", "select  $1 ,  $2 ,  $3 ", []NumberConstant{{"1.5", false}, {"2e3", false}, {"99999999999999999999", false}}, true},
		{"SELECT a[1:2], 3::int, x-4 FROM t", "SELECT a[ $1 : $2 ],  $3 ::int, x- $4  FROM t", []NumberConstant{{"1", true}, {"2", true}, {"3", true}, {"4", true}}, true},
		{"SELECT -5, -2147483647", "SELECT - $1 , - $2 ", []NumberConstant{{"5", true}, {"2147483647", true}}, true},
		// Strings, identifiers and comments keep their digits.
		{"SELECT '12', \"c1\", t2.x /* 3 */ -- 4\n FROM t2 WHERE y = 5", "SELECT '12', \"c1\", t2.x /* 3 */ -- 4\n FROM t2 WHERE y =  $1 ", []NumberConstant{{"5", true}}, true},
		// Nothing to share, or not safely.
		{"SELECT x FROM t", "", nil, false},
		{"SELECT $1 + 1", "", nil, false},
		{"SELECT 1; SELECT 2", "", nil, false},
		{"SELECT 1;;", "SELECT  $1 ;;", []NumberConstant{{"1", true}}, true},
		{"SELECT -2147483648", "", nil, false},
		{"SELECT - 9223372036854775808", "", nil, false},
		{"SELECT 2147483648", "SELECT  $1 ", []NumberConstant{{"2147483648", true}}, true},
		{"SELECT 1 + 'unterminated", "", nil, false},
		{"SELECT 12abc", "", nil, false},
	} {
		text, consts, ok := ParameterizeNumbers(c.src, DialectPostgres)
		if text != c.text || ok != c.ok || !reflect.DeepEqual(consts, c.consts) {
			t.Errorf("%q:\n got %q %v %v\nwant %q %v %v", c.src, text, consts, ok, c.text, c.consts, c.ok)
		}
		if ok {
			if _, err := Parse(text); err != nil {
				t.Errorf("%q: the rewritten text does not parse: %v", c.src, err)
			}
		}
	}
}
