package sql

import (
	"math"

	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The two-variable statistical aggregates (corr, covar_pop, covar_samp and
// the regr_* family) and the bitwise ones (bit_and, bit_or, bit_xor).
//
// The statistical ones take (Y, X) as float8, skip rows where either is
// NULL, and accumulate as PostgreSQL's float8_regr_accum does (the
// Youngs-Cramer sums, in its order of operations), so that they give
// PostgreSQL's bits, not merely its value to a few digits.

func init() {
	for _, name := range []string{"corr", "covar_pop", "covar_samp", "regr_count", "regr_sxx", "regr_syy", "regr_sxy",
		"regr_avgx", "regr_avgy", "regr_r2", "regr_slope", "regr_intercept"} {
		aggregateNames[name] = true
		moreAggregates[name] = regrAggregate
	}
	aggregateNames["bit_xor"] = true
	for _, name := range []string{"bit_and", "bit_or", "bit_xor"} {
		moreAggregates[name] = bitAggregate
	}
}

func regrAggregate(b *binder, name string, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error) {
	if len(args) != 2 {
		return nil, types.T{}, args, builtins.ErrNoFunction
	}
	for i := range args {
		x, err := b.coerce(args[i], types.Of(types.Float8))
		if err != nil {
			return nil, types.T{}, args, builtins.ErrNoFunction
		}
		args[i] = x
	}
	rt := types.Of(types.Float8)
	if name == "regr_count" {
		rt = eval.Int8T()
	}
	return &aggregateFunc{name: name, newState: func() aggState { return &regrState{name: name} }}, rt, args, nil
}

// regrState holds float8_regr_accum's sums.
type regrState struct {
	name                     string
	n, sx, sxx, sy, syy, sxy float64
}

func (s *regrState) add(_ *execCtx, args []types.Value) error {
	if args[0] == nil || args[1] == nil {
		return nil
	}
	y, x := args[0].(float64), args[1].(float64)
	oldN := s.n
	s.n++
	s.sx += x
	s.sy += y
	if oldN > 0 {
		tmpX := x*s.n - s.sx
		tmpY := y*s.n - s.sy
		scale := 1.0 / (s.n * oldN)
		s.sxx += tmpX * tmpX * scale
		s.syy += tmpY * tmpY * scale
		s.sxy += tmpX * tmpY * scale
		return nil
	}
	// A first value that is not finite makes the sums that depend on it
	// NaN, as PostgreSQL has it.
	if math.IsNaN(x) || math.IsInf(x, 0) {
		s.sxx, s.sxy = math.NaN(), math.NaN()
	}
	if math.IsNaN(y) || math.IsInf(y, 0) {
		s.syy, s.sxy = math.NaN(), math.NaN()
	}
	return nil
}

func (s *regrState) result(*execCtx) (types.Value, error) {
	if s.name == "regr_count" {
		return int64(s.n), nil
	}
	if s.n < 1 {
		return nil, nil
	}
	switch s.name {
	case "regr_sxx":
		return s.sxx, nil
	case "regr_syy":
		return s.syy, nil
	case "regr_sxy":
		return s.sxy, nil
	case "regr_avgx":
		return s.sx / s.n, nil
	case "regr_avgy":
		return s.sy / s.n, nil
	case "covar_pop":
		return s.sxy / s.n, nil
	case "covar_samp":
		if s.n < 2 {
			return nil, nil
		}
		return s.sxy / (s.n - 1), nil
	case "corr":
		// Per the standard, NULL for horizontal and vertical lines.
		if s.sxx == 0 || s.syy == 0 {
			return nil, nil
		}
		return s.sxy / math.Sqrt(s.sxx*s.syy), nil
	case "regr_r2":
		if s.sxx == 0 {
			return nil, nil
		}
		if s.syy == 0 {
			return 1.0, nil
		}
		return (s.sxy * s.sxy) / (s.sxx * s.syy), nil
	case "regr_slope":
		if s.sxx == 0 {
			return nil, nil
		}
		return s.sxy / s.sxx, nil
	}
	// regr_intercept
	if s.sxx == 0 {
		return nil, nil
	}
	return (s.sy - s.sx*s.sxy/s.sxx) / s.n, nil
}

func bitAggregate(b *binder, name string, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error) {
	if len(args) != 1 || !eval.IsIntType(args[0].Type().OID) {
		return nil, types.T{}, args, builtins.ErrNoFunction
	}
	t := args[0].Type()
	return &aggregateFunc{name: name, newState: func() aggState { return &bitState{op: name} }}, t, args, nil
}

// bitState is bit_and, bit_or or bit_xor of integers: NULL until a value
// comes, and NULLs skipped.
type bitState struct {
	op   string
	v    int64
	seen bool
}

func (s *bitState) add(_ *execCtx, args []types.Value) error {
	if args[0] == nil {
		return nil
	}
	x := args[0].(int64)
	switch {
	case !s.seen:
		s.v, s.seen = x, true
	case s.op == "bit_and":
		s.v &= x
	case s.op == "bit_or":
		s.v |= x
	default:
		s.v ^= x
	}
	return nil
}

func (s *bitState) result(*execCtx) (types.Value, error) {
	if !s.seen {
		return nil, nil
	}
	return s.v, nil
}
