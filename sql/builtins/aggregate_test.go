package builtins

import (
	"context"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// exactBinder coerces only to a type an argument already has, so that the
// tests see the resolvers' own choices.
type exactBinder struct{}

func (exactBinder) Coerce(x eval.Expr, t types.T) (eval.Expr, error) {
	if x.Type().OID != t.OID {
		return nil, pgerror.New(pgerror.DatatypeMismatch, "no coercion in this test")
	}
	return x, nil
}
func (exactBinder) ResolveUnknown(x eval.Expr) eval.Expr { return x }
func (exactBinder) ResolveUnknownAs(x eval.Expr, t types.T) (eval.Expr, error) {
	return x, nil
}
func (exactBinder) Arithmetic(string, eval.Expr, eval.Expr) (eval.Expr, error) {
	return nil, pgerror.New(pgerror.FeatureNotSupported, "no arithmetic in this test")
}

// plainContext is an eval.Context with UTC and nothing else.
type plainContext struct{}

func (plainContext) GoContext() context.Context                           { return context.Background() }
func (plainContext) CheckCancel() error                                   { return nil }
func (plainContext) Location() *time.Location                             { return time.UTC }
func (plainContext) TransactionStart() time.Time                          { return time.Time{} }
func (plainContext) StatementStart() time.Time                            { return time.Time{} }
func (plainContext) Params() []types.Value                                { return nil }
func (plainContext) FormatValue(t types.T, v types.Value) string          { return types.FormatText(t, v) }
func (plainContext) ParseRegValue(types.OID, string) (types.Value, error) { return nil, nil }
func (plainContext) FormatRegValue(types.OID, int64) string               { return "" }

func column(oid types.OID) eval.Expr { return &eval.ColRef{T: types.Of(oid)} }

func TestAggregates(t *testing.T) {
	dec := func(s string) *apd.Decimal {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	fractions := types.ArrayValue{Elem: types.Float8, Elems: []types.Value{0.5, nil, 1.0}}
	for _, c := range []struct {
		name string
		args []types.OID
		star bool
		rows [][]types.Value
		want types.T
		out  string // the result's text; "NULL" for NULL
	}{
		{name: "count", star: true, rows: [][]types.Value{nil, nil}, want: eval.Int8T(), out: "2"},
		{name: "count", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(1)}, {nil}}, want: eval.Int8T(), out: "1"},
		{name: "sum", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(1)}, {int64(2)}, {nil}}, want: eval.Int8T(), out: "3"},
		{name: "sum", args: []types.OID{types.Int4}, want: eval.Int8T(), out: "NULL"},
		{name: "avg", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(1)}, {int64(2)}}, want: types.Of(types.Numeric), out: "1.5000000000000000"},
		{name: "sum", args: []types.OID{types.Numeric}, rows: [][]types.Value{{dec("1.25")}, {dec("2.5")}}, want: types.Of(types.Numeric), out: "3.75"},
		{name: "avg", args: []types.OID{types.Float4}, rows: [][]types.Value{{1.0}, {2.0}}, want: types.Of(types.Float8), out: "1.5"},
		{name: "max", args: []types.OID{types.Text}, rows: [][]types.Value{{"b"}, {"c"}, {"a"}}, want: eval.TextT(), out: "c"},
		{name: "min", args: []types.OID{types.Text}, rows: [][]types.Value{{"b"}, {nil}, {"a"}}, want: eval.TextT(), out: "a"},
		{name: "bool_and", args: []types.OID{types.Bool}, rows: [][]types.Value{{true}, {false}}, want: eval.BoolT(), out: "f"},
		{name: "bool_or", args: []types.OID{types.Bool}, rows: [][]types.Value{{true}, {false}}, want: eval.BoolT(), out: "t"},
		{name: "string_agg", args: []types.OID{types.Text, types.Text}, rows: [][]types.Value{{"a", ","}, {nil, ","}, {"b", ";"}}, want: eval.TextT(), out: "a;b"},
		{name: "array_agg", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(1)}, {nil}}, want: eval.ArrayOf(eval.Int4T()), out: "{1,NULL}"},
		{name: "json_agg", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(1)}, {nil}}, want: types.Of(types.JSON), out: "[1, null]"},
		{name: "json_object_agg", args: []types.OID{types.Text, types.Int4}, rows: [][]types.Value{{"a", int64(1)}}, want: types.Of(types.JSON), out: `{ "a" : 1 }`},
		{name: "var_samp", args: []types.OID{types.Float8}, rows: [][]types.Value{{1.0}, {2.0}, {3.0}}, want: types.Of(types.Float8), out: "1"},
		{name: "stddev_samp", args: []types.OID{types.Float8}, rows: [][]types.Value{{1.0}}, want: types.Of(types.Float8), out: "NULL"},
		{name: "var_pop", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(1)}, {int64(3)}}, want: types.Of(types.Numeric), out: "1.00000000000000000000"},
		{name: "regr_count", args: []types.OID{types.Float8, types.Float8}, rows: [][]types.Value{{1.0, 2.0}, {nil, 3.0}}, want: eval.Int8T(), out: "1"},
		{name: "regr_slope", args: []types.OID{types.Float8, types.Float8}, rows: [][]types.Value{{2.0, 1.0}, {4.0, 2.0}, {6.0, 3.0}}, want: types.Of(types.Float8), out: "2"},
		{name: "corr", args: []types.OID{types.Float8, types.Float8}, rows: [][]types.Value{{1.0, 1.0}, {1.0, 2.0}}, want: types.Of(types.Float8), out: "NULL"},
		{name: "bit_xor", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(6)}, {int64(3)}}, want: eval.Int4T(), out: "5"},
		{name: "mode", args: []types.OID{types.Int4}, rows: [][]types.Value{{int64(1)}, {int64(2)}, {int64(2)}}, want: eval.Int4T(), out: "2"},
		// percentile_disc(0.5) WITHIN GROUP (ORDER BY v): the value comes
		// first in the resolved arguments, the fraction rides along.
		{name: "percentile_disc", args: []types.OID{types.Float8, types.Int4}, rows: [][]types.Value{{int64(1), 0.5}, {int64(2), 0.5}, {int64(3), 0.5}}, want: eval.Int4T(), out: "2"},
		{name: "percentile_cont", args: []types.OID{types.Float8, types.Float8}, rows: [][]types.Value{{1.0, 0.5}, {2.0, 0.5}}, want: types.Of(types.Float8), out: "1.5"},
		{name: "percentile_cont", args: []types.OID{types.Float8Array, types.Float8}, rows: [][]types.Value{{1.0, fractions}, {2.0, fractions}}, want: types.Of(types.Float8Array), out: "{1.5,NULL,2}"},
	} {
		agg, ok := Aggregates[c.name]
		if !ok {
			t.Fatalf("%s is not registered", c.name)
		}
		args := make([]eval.Expr, len(c.args))
		for i, oid := range c.args {
			args[i] = column(oid)
		}
		call, err := agg.Resolve(exactBinder{}, args, c.star)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if call.T.OID != c.want.OID {
			t.Errorf("%s: result type %d, want %d", c.name, call.T.OID, c.want.OID)
		}
		st := call.NewState()
		for _, r := range c.rows {
			if err := st.Add(plainContext{}, r); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		v, err := st.Result(plainContext{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := "NULL"
		if v != nil {
			got = types.FormatText(call.T, v)
		}
		if got != c.out {
			t.Errorf("%s%v: %s, want %s", c.name, c.rows, got, c.out)
		}
	}
}

func TestAggregateResolutionRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		args []types.OID
		code string
	}{
		{"sum", []types.OID{types.Text}, pgerror.UndefinedFunction},
		{"bool_and", []types.OID{types.Int4}, pgerror.UndefinedFunction},
		{"sum", []types.OID{types.Unknown}, pgerror.AmbiguousFunction},
		{"count", []types.OID{types.Int4, types.Int4}, pgerror.UndefinedFunction},
		{"stddev", []types.OID{types.Text}, pgerror.UndefinedFunction},
		{"bit_and", []types.OID{types.Float8}, pgerror.UndefinedFunction},
		{"json_object_agg", []types.OID{types.Text}, pgerror.UndefinedFunction},
		{"percentile_cont", []types.OID{types.Float8}, pgerror.UndefinedFunction},
		{"mode", []types.OID{types.Float8, types.Int4}, pgerror.UndefinedFunction},
		{"array_agg", []types.OID{types.Unknown}, pgerror.AmbiguousFunction},
		{"bit_or", []types.OID{types.Unknown}, pgerror.AmbiguousFunction},
		{"json_agg", []types.OID{types.Unknown}, pgerror.DatatypeMismatch},
		{"mode", []types.OID{types.Unknown}, pgerror.DatatypeMismatch},
		{"percentile_disc", []types.OID{types.Float8, types.Unknown}, pgerror.DatatypeMismatch},
	} {
		args := make([]eval.Expr, len(c.args))
		for i, oid := range c.args {
			args[i] = column(oid)
		}
		_, err := Aggregates[c.name].Resolve(exactBinder{}, args, false)
		if err == nil || pgerror.As(err).Code != c.code {
			t.Errorf("%s%v: %v, want SQLSTATE %s", c.name, c.args, err, c.code)
		}
	}
}

func TestWindowResolutionRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		args []types.OID
		code string
	}{
		{"row_number", []types.OID{types.Int4}, pgerror.UndefinedFunction},
		{"ntile", []types.OID{types.Text}, pgerror.UndefinedFunction},
		{"lag", []types.OID{types.Unknown}, pgerror.DatatypeMismatch},
		{"lead", []types.OID{types.Int4, types.Int4, types.Int4, types.Int4}, pgerror.UndefinedFunction},
		{"first_value", []types.OID{types.Unknown}, pgerror.DatatypeMismatch},
		{"nth_value", []types.OID{types.Int4, types.Numeric}, pgerror.UndefinedFunction},
	} {
		args := make([]eval.Expr, len(c.args))
		for i, oid := range c.args {
			args[i] = column(oid)
		}
		_, _, err := WindowFuncs[c.name].Resolve(exactBinder{}, args)
		if err == nil || pgerror.As(err).Code != c.code {
			t.Errorf("%s%v: %v, want SQLSTATE %s", c.name, c.args, err, c.code)
		}
	}
}

func TestRegistriesRefuseDuplicates(t *testing.T) {
	for name, register := range map[string]func(){
		"aggregate": func() { RegisterAggregate("count", &Aggregate{}) },
		"window":    func() { RegisterWindow("rank", &WindowFunc{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registering a %s twice did not panic", name)
				}
			}()
			register()
		}()
	}
	for name := range WindowFuncs {
		if IsAggregate(name) {
			t.Errorf("%s is both a window-only function and an aggregate", name)
		}
	}
}

// testPartition is a partition of values with peer groups given by equal
// keys and the frame of RANGE UNBOUNDED PRECEDING to CURRENT ROW.
type testPartition struct {
	keys []int
	args [][]types.Value
}

func (p testPartition) Len() int { return len(p.keys) }
func (p testPartition) PeerGroup(i int) int {
	g := 0
	for j := 1; j <= i; j++ {
		if p.keys[j] != p.keys[j-1] {
			g++
		}
	}
	return g
}
func (p testPartition) PeerGroupStart(g int) int {
	for i := range p.keys {
		if p.PeerGroup(i) == g {
			return i
		}
	}
	return len(p.keys)
}
func (p testPartition) Frame(i int) []int {
	end := p.PeerGroupStart(p.PeerGroup(i) + 1)
	rows := make([]int, end)
	for j := range rows {
		rows[j] = j
	}
	return rows
}
func (p testPartition) Args(j int) ([]types.Value, error) { return p.args[j], nil }

func TestWindowFunctions(t *testing.T) {
	keys := []int{1, 1, 2, 3, 3}
	vals := func(extra ...types.Value) [][]types.Value {
		out := make([][]types.Value, len(keys))
		for i, k := range keys {
			out[i] = append([]types.Value{int64(k * 10)}, extra...)
		}
		return out
	}
	for _, c := range []struct {
		name string
		args [][]types.Value
		want []types.Value
	}{
		{"row_number", nil, []types.Value{int64(1), int64(2), int64(3), int64(4), int64(5)}},
		{"rank", nil, []types.Value{int64(1), int64(1), int64(3), int64(4), int64(4)}},
		{"dense_rank", nil, []types.Value{int64(1), int64(1), int64(2), int64(3), int64(3)}},
		{"percent_rank", nil, []types.Value{0.0, 0.0, 0.5, 0.75, 0.75}},
		{"cume_dist", nil, []types.Value{0.4, 0.4, 0.6, 1.0, 1.0}},
		{"ntile", [][]types.Value{{int64(2)}, {int64(2)}, {int64(2)}, {int64(2)}, {int64(2)}}, []types.Value{int64(1), int64(1), int64(1), int64(2), int64(2)}},
		{"lag", vals(), []types.Value{nil, int64(10), int64(10), int64(20), int64(30)}},
		{"lead", vals(int64(2), int64(-1)), []types.Value{int64(20), int64(30), int64(30), int64(-1), int64(-1)}},
		{"first_value", vals(), []types.Value{int64(10), int64(10), int64(10), int64(10), int64(10)}},
		{"last_value", vals(), []types.Value{int64(10), int64(10), int64(20), int64(30), int64(30)}},
		{"nth_value", vals(int64(3)), []types.Value{nil, nil, int64(20), int64(20), int64(20)}},
	} {
		f, ok := WindowFuncs[c.name]
		if !ok {
			t.Fatalf("%s is not registered", c.name)
		}
		p := testPartition{keys: keys, args: c.args}
		for i, want := range c.want {
			got, err := f.Compute(p, i)
			if err != nil {
				t.Fatalf("%s row %d: %v", c.name, i, err)
			}
			if got != want {
				t.Errorf("%s row %d: %v, want %v", c.name, i, got, want)
			}
		}
	}
	for _, c := range []struct {
		name string
		arg  types.Value
		code string
	}{{"ntile", int64(0), pgerror.InvalidArgumentForNtile}, {"nth_value", int64(0), pgerror.InvalidArgumentForNthValue}} {
		p := testPartition{keys: []int{1}, args: [][]types.Value{{int64(1), c.arg}}}
		if c.name == "ntile" {
			p.args = [][]types.Value{{c.arg}}
		}
		_, err := WindowFuncs[c.name].Compute(p, 0)
		if err == nil || pgerror.As(err).Code != c.code {
			t.Errorf("%s(%v): %v, want SQLSTATE %s", c.name, c.arg, err, c.code)
		}
	}
}

func TestNtileOf(t *testing.T) {
	// 7 rows in 3 buckets: 3, 2, 2 as PostgreSQL splits them.
	want := []int64{1, 1, 1, 2, 2, 3, 3}
	for i, w := range want {
		if got := ntileOf(int64(i), 7, 3); got != w {
			t.Errorf("ntileOf(%d, 7, 3) = %d, want %d", i, got, w)
		}
	}
	if got := ntileOf(1, 2, 5); got != 2 {
		t.Errorf("more buckets than rows: %d, want 2", got)
	}
}
