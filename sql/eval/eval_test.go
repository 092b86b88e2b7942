package eval

import (
	"context"
	"errors"
	"testing"
	"time"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// fixedContext is a Context with UTC and fixed clocks, no session.
type fixedContext struct{ params []types.Value }

func (fixedContext) GoContext() context.Context                  { return context.Background() }
func (fixedContext) CheckCancel() error                          { return nil }
func (fixedContext) Location() *time.Location                    { return time.UTC }
func (fixedContext) TransactionStart() time.Time                 { return time.Date(2026, 3, 3, 12, 0, 0, 0, time.UTC) }
func (fixedContext) StatementStart() time.Time                   { return time.Date(2026, 3, 3, 12, 0, 1, 0, time.UTC) }
func (c fixedContext) Params() []types.Value                     { return c.params }
func (fixedContext) FormatValue(t types.T, v types.Value) string { return types.FormatText(t, v) }
func (fixedContext) ParseRegValue(types.OID, string) (types.Value, error) {
	return nil, errors.New("no catalog")
}
func (fixedContext) FormatRegValue(_ types.OID, v int64) string { return "" }

func boolConst(v types.Value) Expr { return &Const{V: v, T: BoolT()} }

// TestThreeValuedLogic holds AND, OR and NOT to SQL's truth tables, NULL
// included.
func TestThreeValuedLogic(t *testing.T) {
	vals := []types.Value{true, false, nil}
	and := func(a, b types.Value) types.Value {
		if a == false || b == false {
			return false
		}
		if a == nil || b == nil {
			return nil
		}
		return true
	}
	or := func(a, b types.Value) types.Value {
		if a == true || b == true {
			return true
		}
		if a == nil || b == nil {
			return nil
		}
		return false
	}
	env := &Env{X: fixedContext{}}
	for _, a := range vals {
		for _, b := range vals {
			got, err := (&And{L: boolConst(a), R: boolConst(b)}).Eval(env)
			if err != nil || got != and(a, b) {
				t.Errorf("%v AND %v = %v, %v; want %v", a, b, got, err, and(a, b))
			}
			got, err = (&Or{L: boolConst(a), R: boolConst(b)}).Eval(env)
			if err != nil || got != or(a, b) {
				t.Errorf("%v OR %v = %v, %v; want %v", a, b, got, err, or(a, b))
			}
		}
		got, _ := (&Not{X: boolConst(a)}).Eval(env)
		want := types.Value(nil)
		if a != nil {
			want = !a.(bool)
		}
		if got != want {
			t.Errorf("NOT %v = %v, want %v", a, got, want)
		}
	}
}

// TestIntegerArithmeticOverflows: each integer width refuses a result it
// cannot hold with 22003, as PostgreSQL's int4pl and friends do.
func TestIntegerArithmeticOverflows(t *testing.T) {
	cases := []struct {
		op   string
		t    types.OID
		l, r int64
		want types.Value
		code string
	}{
		{"+", types.Int4, 1, 2, int64(3), ""},
		{"+", types.Int4, 2147483647, 1, nil, pgerror.NumericValueOutOfRange},
		{"-", types.Int2, -32768, 1, nil, pgerror.NumericValueOutOfRange},
		{"*", types.Int8, 1 << 62, 2, nil, pgerror.NumericValueOutOfRange},
		{"/", types.Int4, 7, 2, int64(3), ""},
		{"/", types.Int4, 1, 0, nil, pgerror.DivisionByZero},
		{"%", types.Int8, -7, 3, int64(-1), ""},
	}
	for _, c := range cases {
		f, err := ArithmeticFunc(c.op, c.t)
		if err != nil {
			t.Fatalf("%s on %d: %v", c.op, c.t, err)
		}
		got, err := f(fixedContext{}, []types.Value{c.l, c.r})
		if c.code != "" {
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != c.code {
				t.Errorf("%d %s %d (%d): err %v, want SQLSTATE %s", c.l, c.op, c.r, c.t, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%d %s %d (%d) = %v, %v; want %v", c.l, c.op, c.r, c.t, got, err, c.want)
		}
	}
}

// TestCastValue: casts read text as PostgreSQL's input functions do and
// refuse what they cannot read with 22P02.
func TestCastValue(t *testing.T) {
	ctx := fixedContext{}
	got, err := CastValue(ctx, " 42 ", TextT(), Int4T(), true)
	if err != nil || got != int64(42) {
		t.Errorf("' 42 '::int4 = %v, %v", got, err)
	}
	_, err = CastValue(ctx, "4x", TextT(), Int4T(), true)
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.InvalidTextRepresentation {
		t.Errorf("'4x'::int4: err %v, want 22P02", err)
	}
	got, err = CastValue(nil, int64(7), Int4T(), TextT(), true)
	if err != nil || got != "7" {
		t.Errorf("7::text without a context = %v, %v", got, err)
	}
}

// TestParamReadsTheContext: $n reads the statement's parameters, and one
// that was not bound is 42P02.
func TestParamReadsTheContext(t *testing.T) {
	env := &Env{X: fixedContext{params: []types.Value{"a"}}}
	if v, err := (&Param{Idx: 0, T: TextT()}).Eval(env); err != nil || v != "a" {
		t.Errorf("$1 = %v, %v", v, err)
	}
	_, err := (&Param{Idx: 1, T: TextT()}).Eval(env)
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.UndefinedParameter {
		t.Errorf("$2 unbound: err %v, want 42P02", err)
	}
}
