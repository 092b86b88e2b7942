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
// An entry is a slot of an array, found through a map from the key to the
// slot, and its parts (its sequence values, as their order-preserving
// encodings, compared as bytes, and the row's key and value) share one
// buffer: a key's lookup costs a map probe, and the update that follows it
// none (get hands put the slot).
//
// Only the single writer uses a cache, so it needs no lock.
type StateCache struct {
	index map[string]int32
	slots []keyState
	free  []int32 // slots no key holds
	// gen changes when the cache is cleared, so that a slot get gave out
	// before is not used after.
	gen uint32
	// bytes is what the entries hold, as entrySize counts it; txBytes the
	// part the current transaction wrote; limit what they may hold.
	bytes, txBytes, limit int
	// tx is the transaction whose changes the cache holds unpublished, and
	// undo what they replaced, oldest first; cleared says the cache was
	// cleared since tx began, so undo cannot put back what was there.
	tx      *storage.Tx
	undo    []undoEntry
	cleared bool
}

// undoEntry is one change of the current transaction: slot held old before
// it, or (key set) the transaction gave key its slot. A slot whose key the
// cache stopped holding keeps the key's place, with an empty state (no
// lastSeq, which every state has), until Clear.
type undoEntry struct {
	slot int32
	old  keyState
	key  string
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

// slotRef is where get found a key (or that it did not), for the put that
// follows: a slot, valid in the cache generation gen (slot < 0: none).
type slotRef struct {
	slot int32
	gen  uint32
}

// maxCacheBytes bounds a cache's memory: past it, the entries of earlier
// transactions are dropped, and once the current transaction's own fill it,
// its further keys go uncached. Either only costs those keys a lookup in
// storage next time.
const maxCacheBytes = 64 << 20

// entrySize is what an entry keeps alive on the heap, as near as its parts
// tell (TestCacheCountsWhatItHolds holds it to the heap): its slot (in an
// array grown by doubling, a quarter of it spare on average), its slot in
// the map (a key header and a slot number, in a table kept between 7/16
// and 7/8 full, with its control bytes: measured, 1.75 times that), the
// key's bytes and the entry's buffer.
func entrySize(key string, st keyState) int {
	const slot = int(unsafe.Sizeof(keyState{}))*5/4 + (16+4)*7/4
	return slot + roundAlloc(len(key)) + roundAlloc(len(st.lastSeq)+len(st.lastSysSeq)+len(st.lastKey)+len(st.lastRow))
}

// roundAlloc is about what the allocator gives for n bytes: small objects
// come in size classes 16 bytes apart.
func roundAlloc(n int) int { return (n + 15) &^ 15 }

// NewStateCache returns an empty cache.
func NewStateCache() *StateCache { return newStateCache(maxCacheBytes) }

func newStateCache(limit int) *StateCache {
	return &StateCache{index: map[string]int32{}, limit: limit}
}

// Clear forgets everything, the current transaction's states included
// (taking it back then forgets everything again). The map and the slots go
// too: a cleared map keeps its table.
func (c *StateCache) Clear() {
	if c == nil {
		return
	}
	c.index, c.slots, c.free = map[string]int32{}, nil, nil
	c.bytes, c.txBytes = 0, 0
	c.gen++
	if c.tx != nil {
		c.cleared = true
	}
}

// begin attaches the cache to tx's changes.
func (c *StateCache) begin(tx *storage.Tx) {
	if c.tx == tx {
		return
	}
	c.tx, c.undo, c.txBytes, c.cleared = tx, c.undo[:0], 0, false
	tx.OnPublish(func() {
		if c.tx == tx {
			c.tx, c.undo, c.txBytes = nil, c.spareUndo(), 0
		}
	})
	tx.OnRollback(func() {
		if c.tx != tx {
			return
		}
		if c.cleared {
			c.Clear()
		} else {
			for i := len(c.undo) - 1; i >= 0; i-- {
				u := c.undo[i]
				cur := c.slots[u.slot]
				if u.key != "" {
					// The transaction gave the key its slot.
					c.bytes -= entrySize(u.key, cur)
					delete(c.index, u.key)
					c.slots[u.slot] = keyState{}
					c.free = append(c.free, u.slot)
					continue
				}
				c.bytes += int(entryBytes(u.old)) - int(entryBytes(cur))
				c.slots[u.slot] = u.old
			}
		}
		c.tx, c.undo, c.txBytes = nil, c.spareUndo(), 0
	})
}

// entryBytes is the part of entrySize an entry's buffer makes.
func entryBytes(st keyState) int {
	return roundAlloc(len(st.lastSeq) + len(st.lastSysSeq) + len(st.lastKey) + len(st.lastRow))
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

// get returns a key's state, and where it is for put.
func (c *StateCache) get(encKey []byte) (keyState, slotRef, bool) {
	if c == nil {
		return keyState{}, slotRef{slot: -1}, false
	}
	if i, ok := c.index[string(encKey)]; ok {
		st := c.slots[i]
		return st, slotRef{slot: i, gen: c.gen}, st.lastSeq != nil
	}
	return keyState{}, slotRef{slot: -1, gen: c.gen}, false
}

// put records a key's state as the current transaction leaves it, copied
// into one buffer of the cache's own. at is what get said of the key.
func (c *StateCache) put(encKey []byte, at slotRef, st keyState) {
	if c == nil {
		return
	}
	n := roundAlloc(len(st.lastSeq) + len(st.lastSysSeq) + len(st.lastKey) + len(st.lastRow))
	slot := at.slot
	if at.gen != c.gen {
		slot = -1
		if i, ok := c.index[string(encKey)]; ok {
			slot = i
		}
	}
	var key string
	if slot < 0 {
		key = string(encKey)
		n += entrySize(key, keyState{})
	} else {
		n -= entryBytes(c.slots[slot])
	}
	if c.bytes+n > c.limit && c.bytes > c.txBytes {
		// Earlier transactions' entries make room, with this one's so far
		// (their keys are looked up in storage next time).
		c.Clear()
		slot, key = -1, string(encKey)
		n = entrySize(key, st)
	}
	if c.bytes+n > c.limit {
		// The transaction has touched more than the cache holds: the key
		// goes uncached, and its entry from before, stale, is emptied.
		if slot >= 0 {
			c.undo = append(c.undo, undoEntry{slot: slot, old: c.slots[slot]})
			c.bytes -= entryBytes(c.slots[slot])
			c.slots[slot] = keyState{}
		}
		return
	}
	buf := make([]byte, 0, len(st.lastSeq)+len(st.lastSysSeq)+len(st.lastKey)+len(st.lastRow))
	var e keyState
	buf, e.lastSeq = appendPart(buf, st.lastSeq)
	buf, e.lastSysSeq = appendPart(buf, st.lastSysSeq)
	buf, e.lastKey = appendPart(buf, st.lastKey)
	_, e.lastRow = appendPart(buf, st.lastRow)
	if slot >= 0 {
		c.undo = append(c.undo, undoEntry{slot: slot, old: c.slots[slot]})
		c.slots[slot] = e
	} else {
		if k := len(c.free); k > 0 {
			slot, c.free = c.free[k-1], c.free[:k-1]
			c.slots[slot] = e
		} else {
			slot = int32(len(c.slots))
			c.slots = append(c.slots, e)
		}
		c.index[key] = slot
		c.undo = append(c.undo, undoEntry{slot: slot, key: key})
	}
	c.bytes += n
	c.txBytes += n
}

// len reports how many keys the cache holds.
func (c *StateCache) len() int {
	n := 0
	for _, st := range c.slots {
		if st.lastSeq != nil {
			n++
		}
	}
	return n
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
