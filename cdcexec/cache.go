package cdcexec

import (
	"slices"
	"strings"
	"unsafe"

	"cdcdb/storage"
	"cdcdb/temporal"
	"cdcdb/types"
)

// StateCache remembers, for the keys of one flow, what the
// in-order path reads before it applies a key's events: the key's last
// event and its target's last row (storage key and stored value). With it,
// a key that got an event recently costs no lookup in storage at all.
//
// It holds committed state only. A transaction's own changes go to a
// pending set, merged when its commit publishes them (storage's OnPublish,
// which runs while the transaction still holds the writer slot, so before
// the next writer can read the cache) and dropped if it rolls back
// (OnRollback). A failed flush, which throws away commits that were
// published but not durable, also fails the database for good: no writer
// starts again, so the cache is not read again. Anything that changes a
// flow's state without going through the cache (a truncate replaying every
// key, a refresh) clears it.
//
// Only the single writer uses a cache, so it needs no lock.
type StateCache struct {
	committed map[string]*keyState
	pending   *pendingStates
	// committedBytes is what committed holds, as entrySize counts it, and
	// limit what committed and a pending set may each hold.
	committedBytes, limit int
}

// pendingStates are one transaction's changes to a cache.
type pendingStates struct {
	tx     *storage.Tx
	states map[string]*keyState
	bytes  int
}

// keyState is one key's entry: the sequence value of its last event (for
// BITEMPORAL flows the greatest business and system sequence values of its
// events), and the target row the next in-order events continue from
// (lastRow nil: none): the last row, or for BITEMPORAL the last row of the
// latest business timeline.
type keyState struct {
	lastSeq, lastSysSeq temporal.Seq
	lastKey, lastRow    []byte
}

// maxCacheBytes bounds a cache's memory, committed entries and one
// transaction's pending ones each: past it, a merge first drops the
// committed entries, and a transaction's further keys go uncached. Either
// only costs those keys a lookup in storage next time.
const maxCacheBytes = 64 << 20

// entrySize is what an entry keeps alive on the heap, as near as its parts
// tell (TestCacheCountsWhatItHolds holds it to the heap): the keyState, the
// map's slot and key for it, the buffers of its storage key and row (whole:
// a target row's key and value share one buffer, sized before the row was
// encoded), and its sequence values.
func entrySize(encKey []byte, st *keyState) int {
	const (
		state = int(unsafe.Sizeof(keyState{}))
		// slot is an entry's share of the map: a string header, a pointer
		// and a control byte, in a table kept between 7/16 and 7/8 full.
		slot = 40
	)
	return state + slot + roundAlloc(len(encKey)) + cap(st.lastKey) + cap(st.lastRow) +
		seqBytes(st.lastSeq) + seqBytes(st.lastSysSeq)
}

// seqBytes is what a cached sequence holds: its slice, a boxed value per
// element, and the bytes of its strings (put copies them).
func seqBytes(s temporal.Seq) int {
	n := cap(s) * (16 + 8)
	for _, v := range s {
		n += valueStringBytes(v)
	}
	return n
}

func valueStringBytes(v types.Value) int {
	switch v := v.(type) {
	case string:
		return roundAlloc(len(v))
	case types.RecordValue:
		n := 24 * len(v.Fields)
		for _, f := range v.Fields {
			n += valueStringBytes(f)
		}
		return n
	}
	return 0
}

// roundAlloc is about what the allocator gives for n bytes: small objects
// come in size classes 16 bytes apart.
func roundAlloc(n int) int { return (n + 15) &^ 15 }

// NewStateCache returns an empty cache.
func NewStateCache() *StateCache { return newStateCache(maxCacheBytes) }

func newStateCache(limit int) *StateCache {
	return &StateCache{committed: map[string]*keyState{}, limit: limit}
}

// Clear forgets everything.
func (c *StateCache) Clear() {
	if c == nil {
		return
	}
	c.clearCommitted()
	c.pending = nil
}

func (c *StateCache) clearCommitted() {
	clear(c.committed)
	c.committedBytes = 0
}

func (c *StateCache) dropCommitted(k string) {
	if st, ok := c.committed[k]; ok {
		c.committedBytes -= entrySize([]byte(k), st)
		delete(c.committed, k)
	}
}

// begin attaches the cache to tx's changes.
func (c *StateCache) begin(tx *storage.Tx) {
	if c.pending != nil && c.pending.tx == tx {
		return
	}
	p := &pendingStates{tx: tx, states: map[string]*keyState{}}
	c.pending = p
	tx.OnPublish(func() {
		if c.pending != p {
			return // cleared since, or taken over by a later set
		}
		if c.committedBytes+p.bytes > c.limit {
			c.clearCommitted()
		}
		for k, st := range p.states {
			c.dropCommitted(k)
			c.committed[k] = st
			c.committedBytes += entrySize([]byte(k), st)
		}
		c.pending = nil
	})
	tx.OnRollback(func() {
		if c.pending == p {
			c.pending = nil // nothing of it is kept, nor kept alive
		}
	})
}

func (c *StateCache) get(encKey []byte) (*keyState, bool) {
	if st, ok := c.pending.states[string(encKey)]; ok {
		return st, true
	}
	st, ok := c.committed[string(encKey)]
	return st, ok
}

// put records a key's state as the pending transaction left it.
func (c *StateCache) put(encKey []byte, st *keyState) {
	// The state outlives the statement whose events it comes from, whose
	// strings may be pieces of larger ones (COPY cuts a row's fields from
	// one string of its line): a text sequence value is copied, so that
	// the entry does not keep the rest alive unaccounted.
	st.lastSeq, st.lastSysSeq = ownedSeq(st.lastSeq), ownedSeq(st.lastSysSeq)
	p, k := c.pending, string(encKey)
	if old, ok := p.states[k]; ok {
		p.bytes -= entrySize(encKey, old)
	}
	n := entrySize(encKey, st)
	if p.bytes+n > c.limit {
		// The transaction has touched more than the cache holds: this key
		// goes uncached, and what was committed of it is stale now.
		delete(p.states, k)
		c.dropCommitted(k)
		return
	}
	p.states[k] = st
	p.bytes += n
}

// ownedSeq returns s with every string in it copied (s itself when it has
// none, as for the usual integer and timestamp sequences).
func ownedSeq(s temporal.Seq) temporal.Seq {
	if !slices.ContainsFunc(s, holdsString) {
		return s
	}
	out := make(temporal.Seq, len(s))
	for i, v := range s {
		out[i] = ownedValue(v)
	}
	return out
}

func holdsString(v types.Value) bool {
	switch v := v.(type) {
	case string:
		return true
	case types.RecordValue:
		return slices.ContainsFunc(v.Fields, holdsString)
	}
	return false
}

func ownedValue(v types.Value) types.Value {
	switch v := v.(type) {
	case string:
		return strings.Clone(v)
	case types.RecordValue:
		fields := make([]types.Value, len(v.Fields))
		for i, f := range v.Fields {
			fields[i] = ownedValue(f)
		}
		return types.RecordValue{Types: v.Types, Fields: fields}
	}
	return v
}
