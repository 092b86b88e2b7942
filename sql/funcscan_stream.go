package sql

import (
	"cdcdb/sql/eval"
	"errors"
	"iter"
	"runtime"

	"cdcdb/types"
)

// errGenStopped ends a generator whose consumer stopped reading.
var errGenStopped = errors.New("set-returning function no longer read")

// genIter pulls a funcScan's generator one value at a time (iter.Pull2
// runs it as a coroutine of the reader), so a set-returning function
// holds no more than its own state however many rows it makes, and
// closing the scan early stops it.
type genIter struct {
	x       *execCtx
	pull    func() (types.Value, error, bool)
	stop    func()
	ordinal bool
	n       int64
}

func newGenIter(x *execCtx, gen func(eval.Context, []types.Value, func(types.Value) error) error, args []types.Value, ordinal bool) *genIter {
	next, stop := iter.Pull2(func(yield func(types.Value, error) bool) {
		err := gen(x, args, func(v types.Value) error {
			if !yield(v, nil) {
				return errGenStopped
			}
			return nil
		})
		if err != nil && !errors.Is(err, errGenStopped) {
			yield(nil, err)
		}
	})
	it := &genIter{x: x, pull: next, stop: stop, ordinal: ordinal}
	// A scan dropped unclosed must not leave its coroutine waiting.
	runtime.AddCleanup(it, func(stop func()) { stop() }, stop)
	return it
}

func (it *genIter) next() (eval.Row, error) {
	if err := it.x.CheckCancel(); err != nil {
		return nil, err
	}
	v, err, ok := it.pull()
	if !ok {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	it.n++
	if it.ordinal {
		return eval.Row{v, it.n}, nil
	}
	return eval.Row{v}, nil
}

func (it *genIter) close() { it.stop() }
