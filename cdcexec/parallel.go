package cdcexec

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"cdcdb/storage"
	"cdcdb/temporal"
)

// Applying a batch's keys on two goroutines.
//
// A batch's keys do not depend on each other: each reads and writes only
// its own log entries, target rows and cache entry. So while the session's
// goroutine applies keys into the transaction, a helper goroutine applies
// others into a fork of it (storage.Tx.Fork), which Join then makes the
// transaction's own. They take the keys in key order, a chunk at a time,
// from a shared counter: a helper that starts late, both CPUs being busy,
// takes fewer, and one that never gets to run leaves them all to the
// session. The fork's changes are put into the transaction again at the
// join, on the session's goroutine, but that is a small part of a key's
// cost.
//
// The fork may not read what the transaction wrote before it forked, so
// there is a helper only when the transaction has not written the flow's
// log or target yet (a batch of a statement of its own, as an autocommit
// COPY is), and whose target has no NOT NULL or CHECK constraints: the
// row check is the session's, evaluated in its statement's context, which
// may read the transaction (a CHECK calling nextval does) and is not made
// for two goroutines. The state cache is shared under a lock, which each
// goroutine takes for several keys' states at a time (putState).
//
// A batch with a bad key fails with the same error as when applied on one
// goroutine, the first bad key's in key order: a goroutine that finds one
// stops the other at it, and every key before it is applied by one or the
// other. A panic (a bug, or a corrupt file) counts as such a failure, and
// is raised again on the caller's goroutine.

// parallelChunk is how many keys a goroutine takes at a time, and
// minParallelKeys the fewest keys a batch shares out: below that, starting
// the helper costs more than it saves.
const (
	parallelChunk   = 32
	minParallelKeys = 4 * parallelChunk
)

// helperFirst makes the session wait for the helper to take a chunk before
// it takes one, so that a test's helper surely applies keys; beforeKey, if
// set, is called with each key a goroutine is about to apply; and
// sharedBatches counts the batches applied with a helper.
var (
	helperFirst   = false
	beforeKey     func(encKey []byte)
	sharedBatches atomic.Uint64
)

// applyShared applies the batch's keys with a helper when that is possible
// (see above), reporting whether it did.
func (a *applier) applyShared(ctx context.Context, tx *storage.Tx, mark temporal.Seq) (bool, error) {
	if a.f.FastPathsOff.SharedApply || len(a.groups) < minParallelKeys || runtime.GOMAXPROCS(0) < 2 ||
		a.f.check != nil || tx.Wrote(a.log.log.Name()) || a.target.Wrote() {
		return false, nil
	}
	fork, err := tx.Fork()
	if err != nil {
		return false, err
	}
	defer fork.Rollback() // unless joined
	log := fork.Space(a.log.log.Name())
	if log == nil {
		return false, fmt.Errorf("flow %q: the log is missing in a fork of its transaction", a.f.Name)
	}
	var helperStats Stats
	h := appliers.Get().(*applier)
	defer h.release()
	*h = applier{f: a.f, log: eventWriter{log: log}, target: a.target.Fork(fork), st: &helperStats, cache: a.cache, batchBuffers: h.batchBuffers, keyBuffers: h.keyBuffers}
	var cacheMu sync.Mutex
	a.cacheMu, h.cacheMu = &cacheMu, &cacheMu
	defer func() { a.cacheMu = nil }()

	var share keyShare
	share.stop.Store(int32(len(a.groups)))
	var helper shareOutcome
	done := make(chan struct{})
	go func() {
		defer close(done)
		helper = h.applyShare(ctx, a.groups, &share, mark)
	}()
	// Whatever happens on this goroutine, the helper is stopped and waited
	// for before the fork and the transaction it reads go.
	defer func() {
		share.lower(-1)
		<-done
	}()
	for helperFirst && share.next.Load() == 0 && share.stop.Load() > 0 {
		runtime.Gosched()
	}
	first := a.applyShare(ctx, a.groups, &share, mark)
	<-done
	sharedBatches.Add(1)
	a.st.SharedBatches++
	if helper.at >= 0 && (first.at < 0 || helper.at < first.at) {
		first = helper
	}
	if first.panicked != nil {
		panic(first.panicked)
	}
	if first.err != nil {
		return true, first.err
	}
	a.st.RowsUpserted += helperStats.RowsUpserted
	a.st.RowsDeleted += helperStats.RowsDeleted
	a.st.EncodedSCD2Keys += helperStats.EncodedSCD2Keys
	return true, tx.Join(fork)
}

// shareOutcome is how a goroutine's share of a batch ended: with every key
// it took applied (at -1), or at the key at with err or a panic.
type shareOutcome struct {
	at       int
	err      error
	panicked *keyPanic
}

// keyPanic is a panic while a key was applied, carried to the caller's
// goroutine: it is the panic's value as an error (errors.Is and As see the
// value, when that is an error: a corrupt file's ErrCorrupt), and a
// structured log shows the goroutine's stack with it.
type keyPanic struct {
	value any
	stack []byte
}

func (p *keyPanic) Error() string { return fmt.Sprint(p.value) }

func (p *keyPanic) Unwrap() error {
	err, _ := p.value.(error)
	return err
}

// LogValue shows the stack where the panic happened (the caller's log shows
// where it was raised again).
func (p *keyPanic) LogValue() slog.Value {
	return slog.GroupValue(slog.Any("value", p.value), slog.String("stack", string(p.stack)))
}

// applyShare applies a goroutine's share of the batch (applyKeys),
// recovering a panic so that the caller can weigh it against the other
// goroutine's outcome, as on one goroutine only the first key's failure
// in key order would have happened.
func (a *applier) applyShare(ctx context.Context, groups []keyGroup, share *keyShare, mark temporal.Seq) (out shareOutcome) {
	defer func() {
		if r := recover(); r != nil {
			out = shareOutcome{at: a.current, panicked: &keyPanic{value: r, stack: debug.Stack()}}
			share.lower(int32(a.current))
		}
	}()
	defer a.putHeldLocked()
	out.at, out.err = a.applyKeys(ctx, groups, share, mark)
	return out
}

// keyShare is how two goroutines share a batch's keys: next counts the
// chunks taken, and no chunk at or after stop is started (a key that
// failed lowers it to its index).
type keyShare struct {
	next, stop atomic.Int32
}

// lower brings stop down to i.
func (s *keyShare) lower(i int32) {
	for {
		cur := s.stop.Load()
		if i >= cur || s.stop.CompareAndSwap(cur, i) {
			return
		}
	}
}

// applyKeys applies chunks of groups until none is left, returning the
// index of the key that failed, if one did.
func (a *applier) applyKeys(ctx context.Context, groups []keyGroup, share *keyShare, mark temporal.Seq) (int, error) {
	n := int32(len(groups))
	for {
		start := (share.next.Add(1) - 1) * parallelChunk
		if start >= min(n, share.stop.Load()) {
			return -1, nil
		}
		end := min(start+parallelChunk, n)
		a.touchStates(groups[start:end])
		for i := start; i < end; i++ {
			a.current = int(i)
			if beforeKey != nil {
				beforeKey(groups[i].encKey)
			}
			err := ctx.Err()
			if err == nil {
				err = a.applyKey(&groups[i], mark, true)
			}
			if err != nil {
				share.lower(i)
				return int(i), err
			}
		}
	}
}

// putState records a key's new state in the flow's cache. When two
// goroutines share the batch, the cache is theirs under a lock, and taking
// it for every key made them wait for each other (a tenth of the batch's
// apply went to the lock in profiles of the SCD TYPE 2 feed): each holds
// its states back instead, and puts them in when it finds the lock free,
// or when it has held back heldStatesMax, or at the end of its share.
func (a *applier) putState(encKey []byte, at slotRef, st keyState) {
	if a.cacheMu == nil {
		a.cache.put(encKey, at, st)
		return
	}
	a.held.add(encKey, at, st)
	switch n := len(a.held.puts); {
	case n >= heldStatesMax:
		a.cacheMu.Lock()
	case n >= heldStatesTry && a.cacheMu.TryLock():
	default:
		return
	}
	defer a.cacheMu.Unlock() // also if a put panics: the other goroutine goes on to its end
	a.putHeld()
}

// heldStatesTry is how many held-back states a goroutine gathers before it
// tries the cache's lock, heldStatesMax how many before it waits for it.
const (
	heldStatesTry = 8
	heldStatesMax = 4 * parallelChunk
)

// putHeld puts the states a goroutine held back into the cache; the caller
// holds the cache's lock.
func (a *applier) putHeld() {
	for i := range a.held.puts {
		p := &a.held.puts[i]
		a.cache.put(p.encKey, p.at, p.st)
	}
	a.held.reset()
}

// putHeldLocked puts the held-back states in under the cache's lock: a
// goroutine's last step on its share, so that the cache holds every key's
// state before the batch's transaction goes on, whether the share ended
// well or not (a key that failed is not among them).
func (a *applier) putHeldLocked() {
	if a.cacheMu == nil || len(a.held.puts) == 0 {
		return
	}
	a.cacheMu.Lock()
	defer a.cacheMu.Unlock()
	a.putHeld()
}

// heldStates are key states a goroutine has applied and not yet put in the
// shared cache, their parts copied into buf: a key's state points into
// buffers the next key reuses.
type heldStates struct {
	buf  []byte
	puts []heldState
}

type heldState struct {
	encKey []byte // the batch's, valid until the batch's end
	at     slotRef
	st     keyState
}

func (h *heldStates) add(encKey []byte, at slotRef, st keyState) {
	if h.buf == nil {
		h.buf = make([]byte, 0, 8<<10)
	}
	h.puts = append(h.puts, heldState{encKey: encKey, at: at, st: keyState{
		lastSeq: h.keep(st.lastSeq), lastSysSeq: h.keep(st.lastSysSeq),
		lastKey: h.keep(st.lastKey), lastRow: h.keep(st.lastRow),
	}})
}

// keep copies a state's part into buf, keeping nil apart from empty (the
// cache records a nil part as absent). A copy stays valid when buf grows:
// it is left in the array it was made in.
func (h *heldStates) keep(part []byte) []byte {
	if part == nil {
		return nil
	}
	start := len(h.buf)
	h.buf = append(h.buf, part...)
	return h.buf[start:len(h.buf):len(h.buf)]
}

// reset empties h for more states; the states put before are the cache's
// copies now. It keeps its buffers for the next, unless wide rows grew buf
// past maxHeldBuffer: an applier waiting in the pool should not keep that.
func (h *heldStates) reset() {
	clear(h.puts)
	h.puts, h.buf = h.puts[:0], h.buf[:0]
	if cap(h.buf) > maxHeldBuffer {
		h.buf = nil
	}
}

const maxHeldBuffer = 1 << 20
