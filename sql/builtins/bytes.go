package builtins

import (
	"crypto/sha256"
	"crypto/sha512"
	"hash"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// SHA-2 digests of bytea, and overlay() on text and bytea.

func init() {
	digest := func(h func() hash.Hash) func(eval.Context, []types.Value) (types.Value, error) {
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			d := h()
			d.Write(a[0].([]byte))
			return d.Sum(nil), nil
		}
	}
	Register("sha224", overloaded(true, sig(types.Bytea, digest(sha256.New224), types.Bytea)))
	Register("sha256", overloaded(true, sig(types.Bytea, digest(sha256.New), types.Bytea)))
	Register("sha384", overloaded(true, sig(types.Bytea, digest(sha512.New384), types.Bytea)))
	Register("sha512", overloaded(true, sig(types.Bytea, digest(sha512.New), types.Bytea)))

	T, B, I := types.Text, types.Bytea, types.Int4
	Register("overlay", overloaded(true,
		sig(T, overlayText, T, T, I, I),
		sig(T, overlayText, T, T, I),
		sig(B, overlayBytes, B, B, I, I),
		sig(B, overlayBytes, B, B, I)))
}

// overlaySplice is overlay(s PLACING r FROM start [FOR count]) on a
// sequence of n units: s's first start-1 units, then r, then s from unit
// start+count on (count defaults to r's length). It returns the ranges of
// s to keep, as PostgreSQL's substring-based definition yields them.
func overlaySplice(n, rlen int64, a []types.Value) (headEnd, tailStart int64, err error) {
	start := a[2].(int64)
	count := rlen
	if len(a) == 4 {
		count = a[3].(int64)
	}
	if start <= 0 {
		return 0, 0, pgerror.New(pgerror.SubstringError, "negative substring length not allowed")
	}
	headEnd = min(start-1, n)
	tailStart = max(start+count-1, 0)
	tailStart = min(tailStart, n)
	return headEnd, tailStart, nil
}

func overlayText(_ eval.Context, a []types.Value) (types.Value, error) {
	s, r := []rune(a[0].(string)), a[1].(string)
	head, tail, err := overlaySplice(int64(len(s)), int64(len([]rune(r))), a)
	if err != nil {
		return nil, err
	}
	return string(s[:head]) + r + string(s[tail:]), nil
}

func overlayBytes(_ eval.Context, a []types.Value) (types.Value, error) {
	s, r := a[0].([]byte), a[1].([]byte)
	head, tail, err := overlaySplice(int64(len(s)), int64(len(r)), a)
	if err != nil {
		return nil, err
	}
	out := append(append(append([]byte(nil), s[:head]...), r...), s[tail:]...)
	return out, nil
}
