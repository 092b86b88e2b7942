package builtins

import (
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Window functions: the functions that exist only as window functions
// (row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead,
// first_value, last_value, nth_value). Aggregates used with OVER are the
// Aggregates themselves, fed each row's frame.

// WindowFunc is a window-only function. Resolve checks and coerces the
// arguments (in place, so that an error can name the types as far as they
// were resolved) and gives the result type; ErrNoFunction from it becomes
// PostgreSQL's "function f(types) does not exist". Compute gives the value
// of row i of a partition.
type WindowFunc struct {
	Resolve func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error)
	Compute func(p Partition, i int) (types.Value, error)
}

// Partition is what a window function sees of one partition, its rows in
// the window's order: the window operator (package sql) implements it.
type Partition interface {
	// Len is the number of rows.
	Len() int
	// PeerGroup is the number (from 0) of row i's peer group, the rows
	// equal to it under the window's ORDER BY.
	PeerGroup(i int) int
	// PeerGroupStart is the first row of peer group g; for g one past the
	// last group it is Len().
	PeerGroupStart(g int) int
	// Frame lists the rows of row i's frame, EXCLUDE applied, in order.
	Frame(i int) []int
	// Args evaluates the call's arguments over row j.
	Args(j int) ([]types.Value, error)
}

// WindowFuncs maps lower-case names to window-only functions; filled by
// RegisterWindow.
var WindowFuncs = map[string]*WindowFunc{}

// RegisterWindow adds a window-only function, refusing a name registered
// twice as Register does.
func RegisterWindow(name string, f *WindowFunc) {
	if _, dup := WindowFuncs[name]; dup {
		panic("builtins: window function " + name + " registered twice")
	}
	WindowFuncs[name] = f
}

func init() {
	ranking := func(ret types.T, compute func(p Partition, i int) types.Value) *WindowFunc {
		return &WindowFunc{
			Resolve: func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
				if len(args) != 0 {
					return nil, types.T{}, ErrNoFunction
				}
				return args, ret, nil
			},
			Compute: func(p Partition, i int) (types.Value, error) { return compute(p, i), nil },
		}
	}
	RegisterWindow("row_number", ranking(eval.Int8T(), func(_ Partition, i int) types.Value { return int64(i + 1) }))
	RegisterWindow("rank", ranking(eval.Int8T(), func(p Partition, i int) types.Value {
		return int64(p.PeerGroupStart(p.PeerGroup(i)) + 1)
	}))
	RegisterWindow("dense_rank", ranking(eval.Int8T(), func(p Partition, i int) types.Value { return int64(p.PeerGroup(i) + 1) }))
	RegisterWindow("percent_rank", ranking(types.Of(types.Float8), func(p Partition, i int) types.Value {
		if n := p.Len(); n > 1 {
			return float64(p.PeerGroupStart(p.PeerGroup(i))) / float64(n-1)
		}
		return float64(0)
	}))
	RegisterWindow("cume_dist", ranking(types.Of(types.Float8), func(p Partition, i int) types.Value {
		return float64(p.PeerGroupStart(p.PeerGroup(i)+1)) / float64(p.Len())
	}))
	RegisterWindow("ntile", &WindowFunc{
		Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) != 1 {
				return nil, types.T{}, ErrNoFunction
			}
			if err := coerceArg(b, args, 0, eval.Int4T()); err != nil {
				return nil, types.T{}, err
			}
			return args, eval.Int4T(), nil
		},
		Compute: ntile,
	})
	RegisterWindow("lag", &WindowFunc{Resolve: resolveLagLead, Compute: func(p Partition, i int) (types.Value, error) { return lagLead(p, i, -1) }})
	RegisterWindow("lead", &WindowFunc{Resolve: resolveLagLead, Compute: func(p Partition, i int) (types.Value, error) { return lagLead(p, i, 1) }})
	value := func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, ErrNoFunction
		}
		if isUnknown(args[0]) {
			return nil, types.T{}, ErrUnknownPolymorphic
		}
		return args, args[0].Type(), nil
	}
	RegisterWindow("first_value", &WindowFunc{Resolve: value, Compute: func(p Partition, i int) (types.Value, error) {
		frame := p.Frame(i)
		if len(frame) == 0 {
			return nil, nil
		}
		return firstArg(p, frame[0])
	}})
	RegisterWindow("last_value", &WindowFunc{Resolve: value, Compute: func(p Partition, i int) (types.Value, error) {
		frame := p.Frame(i)
		if len(frame) == 0 {
			return nil, nil
		}
		return firstArg(p, frame[len(frame)-1])
	}})
	RegisterWindow("nth_value", &WindowFunc{
		Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) != 2 {
				return nil, types.T{}, ErrNoFunction
			}
			if isUnknown(args[0]) {
				return nil, types.T{}, ErrUnknownPolymorphic
			}
			if err := coerceArg(b, args, 1, eval.Int4T()); err != nil {
				return nil, types.T{}, err
			}
			return args, args[0].Type(), nil
		},
		Compute: nthValue,
	})
}

// firstArg is the first argument's value over row j.
func firstArg(p Partition, j int) (types.Value, error) {
	vals, err := p.Args(j)
	if err != nil {
		return nil, err
	}
	return vals[0], nil
}

func ntile(p Partition, i int) (types.Value, error) {
	args, err := p.Args(i)
	if err != nil || args[0] == nil {
		return nil, err
	}
	buckets := args[0].(int64)
	if buckets <= 0 {
		return nil, pgerror.New(pgerror.InvalidArgumentForNtile, "argument of ntile must be greater than zero")
	}
	return ntileOf(int64(i), int64(p.Len()), buckets), nil
}

// ntileOf is the bucket (1-based) of row i of n split into buckets as
// PostgreSQL's ntile does: the first n % buckets buckets get one row more.
func ntileOf(i, n, buckets int64) int64 {
	per := n / buckets
	extra := n % buckets
	if per == 0 {
		return i + 1
	}
	big := extra * (per + 1)
	if i < big {
		return i/(per+1) + 1
	}
	return extra + (i-big)/per + 1
}

// resolveLagLead types lag and lead (value [, offset int [, default]]).
func resolveLagLead(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
	if len(args) < 1 || len(args) > 3 {
		return nil, types.T{}, ErrNoFunction
	}
	if len(args) == 3 {
		// The value and the default share a type, as lag(anycompatible,
		// int, anycompatible) resolves them.
		t, err := eval.CommonType([]eval.Expr{args[0], args[2]}, "lag")
		if err != nil {
			return nil, types.T{}, ErrNoFunction
		}
		if t.OID == types.Unknown {
			t = eval.TextT()
		}
		for _, i := range []int{0, 2} {
			if err := coerceArg(b, args, i, t); err != nil {
				return nil, types.T{}, err
			}
		}
	} else if isUnknown(args[0]) {
		return nil, types.T{}, ErrUnknownPolymorphic
	}
	if len(args) >= 2 {
		if err := coerceArg(b, args, 1, eval.Int4T()); err != nil {
			return nil, types.T{}, err
		}
	}
	return args, args[0].Type(), nil
}

// lagLead reads the value offset rows before (direction -1) or after (1)
// row i, or the default beyond the partition.
func lagLead(p Partition, i int, direction int64) (types.Value, error) {
	args, err := p.Args(i)
	if err != nil {
		return nil, err
	}
	offset := int64(1)
	if len(args) >= 2 {
		if args[1] == nil {
			return nil, nil
		}
		offset = args[1].(int64)
	}
	j := int64(i) + direction*offset
	if j < 0 || j >= int64(p.Len()) {
		if len(args) == 3 {
			return args[2], nil
		}
		return nil, nil
	}
	return firstArg(p, int(j))
}

func nthValue(p Partition, i int) (types.Value, error) {
	args, err := p.Args(i)
	if err != nil || args[1] == nil {
		return nil, err
	}
	k := args[1].(int64)
	if k <= 0 {
		return nil, pgerror.New(pgerror.InvalidArgumentForNthValue, "argument of nth_value must be greater than zero")
	}
	frame := p.Frame(i)
	if k > int64(len(frame)) {
		return nil, nil
	}
	return firstArg(p, frame[k-1])
}
