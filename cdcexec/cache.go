package cdcexec

import (
	"unsafe"

	"cdcdb/storage"
)

// StateCache remembers, for the keys of one flow, what the in-order path
// reads before it applies a key's events: the key's last sequence value
// and its target's last row (storage key and stored value). With it, a key
// that got an event recently costs no lookup in storage at all.
//
// A transaction writes its keys' new states into the cache as it goes, and
// keeps an undo list of what they replaced: if it rolls back (storage's
// OnRollback, also run when a commit fails before it publishes), the list
// puts the old states back; once its commit publishes (OnPublish, run while
// it still holds the writer slot, before the next writer can read the
// cache), the list is dropped. A failed flush, which throws away commits
// that were published but not durable, also fails the database for good: no
// writer starts again, so the cache is not read again. Anything that changes
// a flow's state without going through the cache (a truncate replaying
// every key, a refresh) clears it.
//
// An entry is one allocation: its sequence values, as their order-preserving
// encodings (compared as bytes), and the row's key and value share a
// buffer, so that looking a key up and comparing its last sequence value
// costs a map probe and one more cache miss, not one per field.
//
// Only the single writer uses a cache, so it needs no lock.
type StateCache struct {
	entries map[string]keyState
	// bytes is what entries hold, as entrySize counts it; txBytes the part
	// the current transaction wrote; limit what entries may hold.
	bytes, txBytes, limit int
	// tx is the transaction whose changes the cache holds unpublished, and
	// undo what they replaced, oldest first (nil: none).
	tx   *storage.Tx
	undo []undoEntry
}

// undoEntry is one change of the current transaction: key held old (had
// false: nothing) before it.
type undoEntry struct {
	key string
	old keyState
	had bool
}

// keyState is one key's entry: the encoded sequence value of its last event
// (for BITEMPORAL flows the encoded greatest business and system sequence
// values of its events), and the target row the next in-order events
// continue from (lastRow nil: none): the last row, or for BITEMPORAL the
// last row of the latest business timeline. In the cache all four share one
// buffer; elsewhere they may be anyone's.
type keyState struct {
	lastSeq, lastSysSeq []byte
	lastKey, lastRow    []byte
}

// maxCacheBytes bounds a cache's memory: past it, the entries of earlier
// transactions are dropped, and once the current transaction's own fill it,
// its further keys go uncached. Either only costs those keys a lookup in
// storage next time.
const maxCacheBytes = 64 << 20

// entrySize is what an entry keeps alive on the heap, as near as its parts
// tell (TestCacheCountsWhatItHolds holds it to the heap): the map's slot
// (key header and keyState, in a table kept between 7/16 and 7/8 full,
// with its control bytes: measured, 1.75 times the slot), the key's bytes
// and the entry's buffer.
func entrySize(key string, st keyState) int {
	const slot = (int(unsafe.Sizeof(keyState{})) + 16) * 7 / 4
	return slot + roundAlloc(len(key)) + roundAlloc(len(st.lastSeq)+len(st.lastSysSeq)+len(st.lastKey)+len(st.lastRow))
}

// roundAlloc is about what the allocator gives for n bytes: small objects
// come in size classes 16 bytes apart.
func roundAlloc(n int) int { return (n + 15) &^ 15 }

// NewStateCache returns an empty cache.
func NewStateCache() *StateCache { return newStateCache(maxCacheBytes) }

func newStateCache(limit int) *StateCache {
	return &StateCache{entries: map[string]keyState{}, limit: limit}
}

// Clear forgets everything, the current transaction's states included
// (taking it back then puts back only what it replaced). The map goes too:
// a cleared map keeps its table.
func (c *StateCache) Clear() {
	if c == nil {
		return
	}
	c.entries = map[string]keyState{}
	c.bytes, c.txBytes = 0, 0
}

// begin attaches the cache to tx's changes.
func (c *StateCache) begin(tx *storage.Tx) {
	if c.tx == tx {
		return
	}
	c.tx, c.undo, c.txBytes = tx, c.undo[:0], 0
	tx.OnPublish(func() {
		if c.tx == tx {
			c.tx, c.undo, c.txBytes = nil, c.spareUndo(), 0
		}
	})
	tx.OnRollback(func() {
		if c.tx != tx {
			return
		}
		for i := len(c.undo) - 1; i >= 0; i-- {
			u := c.undo[i]
			c.drop(u.key)
			if u.had {
				c.entries[u.key] = u.old
				c.bytes += entrySize(u.key, u.old)
			}
		}
		c.tx, c.undo, c.txBytes = nil, c.spareUndo(), 0
	})
}

// spareUndo returns the undo list emptied for the next transaction: kept
// (without the states it held) when short, dropped when a large
// transaction grew it, as it costs more than an entry per key.
func (c *StateCache) spareUndo() []undoEntry {
	if cap(c.undo) > 1024 {
		return nil
	}
	clear(c.undo)
	return c.undo[:0]
}

func (c *StateCache) drop(k string) {
	if st, ok := c.entries[k]; ok {
		c.bytes -= entrySize(k, st)
		delete(c.entries, k)
	}
}

// get returns a key's state.
func (c *StateCache) get(encKey []byte) (keyState, bool) {
	if c == nil {
		return keyState{}, false
	}
	st, ok := c.entries[string(encKey)]
	return st, ok
}

// put records a key's state as the current transaction leaves it, copied
// into one buffer of the cache's own.
func (c *StateCache) put(encKey []byte, st keyState) {
	if c == nil {
		return
	}
	k := string(encKey)
	old, had := c.entries[k]
	c.undo = append(c.undo, undoEntry{key: k, old: old, had: had})
	if had {
		c.bytes -= entrySize(k, old)
	}
	n := entrySize(k, st)
	if c.bytes+n > c.limit && c.bytes > c.txBytes {
		// Earlier transactions' entries make room, with this one's so far
		// (their keys are looked up in storage next time); a rollback
		// still puts back what this transaction replaced.
		c.Clear()
		had = false
	}
	if c.bytes+n > c.limit {
		// The transaction has touched more than the cache holds.
		if had {
			delete(c.entries, k)
		}
		return
	}
	buf := make([]byte, 0, len(st.lastSeq)+len(st.lastSysSeq)+len(st.lastKey)+len(st.lastRow))
	var e keyState
	buf, e.lastSeq = appendPart(buf, st.lastSeq)
	buf, e.lastSysSeq = appendPart(buf, st.lastSysSeq)
	buf, e.lastKey = appendPart(buf, st.lastKey)
	_, e.lastRow = appendPart(buf, st.lastRow)
	c.entries[k] = e
	c.bytes += n
	c.txBytes += n
}

// appendPart appends b to buf and returns it as a part of buf (nil for nil,
// so that an absent row stays absent).
func appendPart(buf, b []byte) ([]byte, []byte) {
	if b == nil {
		return buf, nil
	}
	start := len(buf)
	buf = append(buf, b...)
	return buf, buf[start:len(buf):len(buf)]
}
