package sql

import (
	"path/filepath"
	"sync/atomic"

	"cdcdb/sql/eval"
	"cdcdb/sql/settings"

	"cdcdb/rowcodec"
	"cdcdb/sql/spill"
)

// Memory a query may hold (docs/memory.md). work_mem bounds each sort's
// and hash table's rows in memory, past which they spill to temporary
// files next to the data file (package spill); the engine's memory budget
// (Options.MemoryBudget) bounds what every statement accounts at once,
// and a request past it fails with 53200 while the server goes on.

// minWorkMemKB is work_mem's least value in kB, PostgreSQL's (the
// settings package refuses less; a value read here is one it accepted).
const minWorkMemKB = 64

// rowSpillCodec is the data file's row codec: lossless for every value a
// row holds, so a spilled row reads back as written.
var rowSpillCodec = spill.Codec{Append: rowcodec.EncodeRow, Decode: rowcodec.DecodeRow}

// workMem is the session's work_mem in bytes.
func (x *execCtx) workMem() int64 {
	kb, err := settings.ParseMemoryKB(x.sess.settings["work_mem"])
	if err != nil || kb < minWorkMemKB {
		kb = 4 << 10
	}
	return kb << 10
}

// spillDir is where this engine's temporary files go: next to the data
// file, on the disk the administrator gave the database.
func (e *Engine) spillDir() string { return filepath.Dir(e.db.Path()) }

// memoryAccount opens an account of the engine's memory budget for one
// operator or state of a statement, named in a 53200's detail.
func (x *execCtx) memoryAccount(what string) *spill.Account {
	return x.sess.engine.memory.NewAccount(what)
}

// newSorter makes a sorter of rows under cmp within work_mem, keeping the
// first bound rows only (0: all).
func (x *execCtx) newSorter(what string, cmp func(a, b eval.Row) int, bound int64) *spill.Sorter {
	return spill.NewSorter(spill.SortConfig{Compare: cmp, Codec: rowSpillCodec, Dir: x.sess.engine.spillDir(),
		WorkMem: x.workMem(), Account: x.memoryAccount(what), Bound: bound, Interrupted: x.interrupted})
}

// interrupted is the statement's cancel or timeout, if it has come.
func (x *execCtx) interrupted() error {
	if x.ctx.Err() != nil {
		return cancelError(x.ctx)
	}
	return nil
}

// spillsMade counts the operators that went to temporary files, for the
// tests that hold the spilling paths to the in-memory ones.
var spillsMade atomic.Int64

// rowsAccount is an account for rows an operator keeps in memory (a
// hash join's inner side, a window's partition rows, a drained input),
// which it grows row by row.
type rowsAccount struct{ acct *spill.Account }

func (x *execCtx) rowsAccount(what string) rowsAccount {
	return rowsAccount{acct: x.memoryAccount(what)}
}

// keep accounts one more row kept.
func (a rowsAccount) keep(r eval.Row) error { return a.acct.Grow(spill.RowSize(r)) }

// keepBytes accounts n more bytes kept (a hash table's key, a state's
// growth).
func (a rowsAccount) keepBytes(n int64) error { return a.acct.Grow(n) }

// heldBy makes the account's bytes go back once holder is unreachable,
// for rows handed on with no close to mark their end.
func heldBy[T any](a rowsAccount, holder *T) {
	spill.ReleaseWhenUnreachable(holder, a.acct)
}

// close gives the bytes back now.
func (a rowsAccount) close() { a.acct.Close() }

// heldBySlice makes the account's bytes go back once rows' backing array
// is unreachable (at once when it has none).
func heldBySlice(a rowsAccount, rows []eval.Row) {
	if cap(rows) == 0 {
		a.close()
		return
	}
	heldBy(a, &rows[:1][0])
}
