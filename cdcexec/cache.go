package cdcexec

import (
	"cdcdb/storage"
	"cdcdb/temporal"
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
// (OnRollback). A
// failed flush, which throws away commits that were published but not
// durable, changes storage's epoch, and a cache of another epoch is
// cleared. Anything that changes a flow's state without going through the
// cache (a truncate replaying every key, a refresh) clears it.
//
// Only the single writer uses a cache, so it needs no lock.
type StateCache struct {
	epoch     uint64
	committed map[string]*keyState
	pending   *pendingStates
}

// pendingStates are one transaction's changes to a cache.
type pendingStates struct {
	tx     *storage.Tx
	states map[string]*keyState
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

// maxCachedKeys bounds a cache's memory: past it, a merge first drops
// committed entries (which only costs their next lookup).
const maxCachedKeys = 1 << 20

// NewStateCache returns an empty cache.
func NewStateCache() *StateCache { return &StateCache{committed: map[string]*keyState{}} }

// Clear forgets everything.
func (c *StateCache) Clear() {
	if c == nil {
		return
	}
	clear(c.committed)
	c.pending = nil
}

// begin attaches the cache to tx's changes.
func (c *StateCache) begin(tx *storage.Tx) {
	if c.pending != nil && c.pending.tx == tx {
		return
	}
	if c.epoch != tx.Epoch() {
		clear(c.committed)
		c.epoch = tx.Epoch()
	}
	p := &pendingStates{tx: tx, states: map[string]*keyState{}}
	c.pending = p
	tx.OnPublish(func() {
		if c.pending != p {
			return // cleared since, or taken over by a later set
		}
		if len(c.committed)+len(p.states) > maxCachedKeys {
			clear(c.committed)
		}
		for k, st := range p.states {
			c.committed[k] = st
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

func (c *StateCache) put(encKey []byte, st *keyState) { c.pending.states[string(encKey)] = st }
