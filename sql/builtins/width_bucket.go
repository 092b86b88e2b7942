package builtins

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// width_bucket(operand, low, high, count): which of count equal-width
// buckets between low and high the operand falls in, 0 below the range
// and count+1 above it (low may exceed high, reversing the direction).

func init() {
	F, N, I := types.Float8, types.Numeric, types.Int4
	Register("width_bucket", overloaded(true,
		sig(I, widthBucketFloat, F, F, F, I),
		sig(I, widthBucketNumeric, N, N, N, I)))
}

func bucketError(msg string) error {
	return pgerror.New(pgerror.InvalidArgumentForWidthBucket, "%s", msg)
}

// bucketOutside is the bucket of an operand before the low bound (0) or
// at or past the high one (count+1), or -1 when it is inside the range.
func bucketOutside(count int64, belowLow, atOrPastHigh bool) (int64, error) {
	switch {
	case belowLow:
		return 0, nil
	case atOrPastHigh:
		if count == math.MaxInt32 {
			return 0, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
		}
		return count + 1, nil
	}
	return -1, nil
}

func widthBucketFloat(_ eval.Context, a []types.Value) (types.Value, error) {
	op, lo, hi, count := a[0].(float64), a[1].(float64), a[2].(float64), a[3].(int64)
	if count <= 0 {
		return nil, bucketError("count must be greater than zero")
	}
	if math.IsNaN(op) || math.IsNaN(lo) || math.IsNaN(hi) {
		return nil, bucketError("operand, lower bound, and upper bound cannot be NaN")
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, bucketError("lower and upper bounds must be finite")
	}
	if lo == hi {
		return nil, bucketError("lower bound cannot equal upper bound")
	}
	asc := lo < hi
	b, err := bucketOutside(count, (asc && op < lo) || (!asc && op > lo), (asc && op >= hi) || (!asc && op <= hi))
	if err != nil || b >= 0 {
		return b, err
	}
	if asc {
		return int64(float64(count)*(op-lo)/(hi-lo)) + 1, nil
	}
	return int64(float64(count)*(lo-op)/(lo-hi)) + 1, nil
}

func widthBucketNumeric(_ eval.Context, a []types.Value) (types.Value, error) {
	op, lo, hi, count := a[0].(*apd.Decimal), a[1].(*apd.Decimal), a[2].(*apd.Decimal), a[3].(int64)
	if count <= 0 {
		return nil, bucketError("count must be greater than zero")
	}
	if op.Form == apd.NaN || lo.Form == apd.NaN || hi.Form == apd.NaN {
		return nil, bucketError("operand, lower bound, and upper bound cannot be NaN")
	}
	if lo.Form != apd.Finite || hi.Form != apd.Finite {
		return nil, bucketError("lower and upper bounds must be finite")
	}
	c := lo.Cmp(hi)
	if c == 0 {
		return nil, bucketError("lower bound cannot equal upper bound")
	}
	asc := c < 0
	b, err := bucketOutside(count, (asc && op.Cmp(lo) < 0) || (!asc && op.Cmp(lo) > 0), (asc && op.Cmp(hi) >= 0) || (!asc && op.Cmp(hi) <= 0))
	if err != nil || b >= 0 {
		return b, err
	}
	// (op - lo) * count / (hi - lo), truncated, computed exactly.
	num, den := new(apd.Decimal), new(apd.Decimal)
	if asc {
		_, err = eval.ExactCtx(op, lo).Sub(num, op, lo)
		if err == nil {
			_, err = eval.ExactCtx(hi, lo).Sub(den, hi, lo)
		}
	} else {
		_, err = eval.ExactCtx(lo, op).Sub(num, lo, op)
		if err == nil {
			_, err = eval.ExactCtx(lo, hi).Sub(den, lo, hi)
		}
	}
	if err != nil {
		return nil, eval.NumericChecked(num, err)
	}
	n := apd.New(count, 0)
	if _, err = eval.ExactCtx(num, n).Mul(num, num, n); err != nil {
		return nil, eval.NumericChecked(num, err)
	}
	q := new(apd.Decimal)
	if _, err = eval.ExactCtx(num, den).QuoInteger(q, num, den); err != nil {
		return nil, eval.NumericChecked(q, err)
	}
	v, err := q.Int64()
	if err != nil {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	return v + 1, nil
}
