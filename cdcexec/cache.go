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
// cache), the list is dropped, and the buffers of the states it replaced
// are kept for later puts to fill (spare). A failed flush, which throws
// away commits that were published but not durable, also fails the
// database for good: no writer starts again, so the cache is not read
// again. Anything that changes a flow's state without going through the
// cache (a truncate replaying every key, a refresh) clears it.
//
// An entry is a slot of an array, found through a map from the key to the
// slot, and its parts (its sequence values, as their order-preserving
// encodings, compared as bytes, and the row's key and value) share one
// buffer, which the slot holds with where the parts end (cacheEntry): a
// key's lookup costs a map probe, and the update that follows it none (get
// hands put the slot). The cache holds far more keys than the CPU's
// caches, so every slot a batch reads or writes is a miss; a slot of one
// pointer and a few lengths, rather than four slices, is less to wait for,
// and less for the garbage collector to trace.
//
// Only the single writer uses a cache, so it needs no lock.
type StateCache struct {
	index map[string]int32
	slots []cacheEntry
	free  []int32 // slots no key holds
	// gen changes when the cache is cleared, so that a slot get gave out
	// before is not used after.
	gen uint32
	// bytes is what the entries hold, as entrySize counts it, and the
	// spare buffers (spareSize); txBytes the part the current transaction
	// wrote; limit what they may hold.
	bytes, txBytes, limit int
	// tx is the transaction whose changes the cache holds unpublished, and
	// undo what they replaced, oldest first; cleared says the cache was
	// cleared since tx began, so undo cannot put back what was there.
	tx      *storage.Tx
	undo    []undoEntry
	cleared bool
	// spare holds emptied buffers of entries the cache no longer holds,
	// by size class (capacity / 16), spared how many. They count in
	// bytes, as spareSize says.
	spare  [spareClasses][][]byte
	spared int
	// whole says whether the cache holds every key the flow has stored
	// anything of (holdsEveryKey).
	whole wholeness
}

// wholeness is what a StateCache knows of the keys it does not hold.
type wholeness uint8

const (
	// wholeUnknown: not looked at yet.
	wholeUnknown wholeness = iota
	// wholeYes: the flow's log has events of no key the cache does not
	// hold, and the target rows of none.
	wholeYes
	// wholeNo: the cache started on a flow that had stored keys, or has
	// dropped keys since (Clear, or a key it had no room for); for good.
	wholeNo
)

// spareClasses bounds the buffers kept for reuse to those of up to
// 16*(spareClasses-1) bytes, maxSpare how many are kept: as many as the
// entries a batch of a thousand keys replaces, for the next batch to fill.
// maxSpareUndo is the longest undo list kept for the next transaction
// (spareUndo).
const (
	spareClasses = 64
	maxSpare     = 1024
	maxSpareUndo = 4096
)

// spareSize is what a spare buffer of capacity n keeps alive: itself, and
// its place in its class's list (a slice header, in a list grown by
// doubling).
func spareSize(n int) int { return n + 24*3/2 }

// undoEntry is one change of the current transaction: slot held old before
// it, or (key set) the transaction gave key its slot. A slot whose key the
// cache stopped holding keeps the key's place, with no state (buf nil),
// until Clear.
type undoEntry struct {
	slot int32
	old  cacheEntry
	key  string
}

// keyState is one key's state: the encoded sequence value of its last event
// (for BITEMPORAL flows the encoded greatest business and system sequence
// values of its events), and the target row the next in-order events
// continue from (lastRow nil: none): the last row, or for BITEMPORAL the
// last row of the latest business timeline. Every state has a lastSeq. A
// state the cache handed out has its parts in the entry's buffer; elsewhere
// they may be anyone's.
type keyState struct {
	lastSeq, lastSysSeq []byte
	lastKey, lastRow    []byte
}

// cacheEntry is a keyState as a slot keeps it: its four parts one after
// another in buf (nil: no state), ends[i] where part i ends (the last,
// lastRow, ends with buf), and bit i of absent set when part i is nil,
// which an empty part is not.
type cacheEntry struct {
	buf    []byte
	ends   [3]uint32
	absent uint8
}

// state returns the entry's parts, as slices of its buffer each capped at
// its end, so that appending to one cannot write over the next.
func (e cacheEntry) state() keyState {
	if e.buf == nil {
		return keyState{}
	}
	var parts [4][]byte
	start := uint32(0)
	for i := range parts {
		end := uint32(len(e.buf))
		if i < len(e.ends) {
			end = e.ends[i]
		}
		if e.absent&(1<<i) == 0 {
			parts[i] = e.buf[start:end:end]
		}
		start = end
	}
	return keyState{lastSeq: parts[0], lastSysSeq: parts[1], lastKey: parts[2], lastRow: parts[3]}
}

// stateLen is how many bytes a state's parts take together.
func stateLen(st keyState) int {
	return len(st.lastSeq) + len(st.lastSysSeq) + len(st.lastKey) + len(st.lastRow)
}

// slotRef is where get found a key (or that it did not), for the put that
// follows: a slot, valid in the cache generation gen (slot < 0: none), and
// the entry it held then. The slot holds that entry until the key's put
// (only a key's own put or a Clear, which changes gen, changes its slot),
// so put takes it from here: by then the slot has long left the CPU's
// caches, and reading it again would wait for memory.
type slotRef struct {
	slot int32
	gen  uint32
	held cacheEntry
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
// key's bytes and the entry's buffer (of stateLen bytes).
func entrySize(key string, stateLen int) int {
	const slot = int(unsafe.Sizeof(cacheEntry{}))*5/4 + (16+4)*7/4
	return slot + roundAlloc(len(key)) + roundAlloc(stateLen)
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
// (taking it back then forgets everything again). The map, the slots and
// the spare buffers go too: a cleared map keeps its table.
func (c *StateCache) Clear() {
	if c == nil {
		return
	}
	c.index, c.slots, c.free = map[string]int32{}, nil, nil
	c.spare, c.spared = [spareClasses][][]byte{}, 0
	c.bytes, c.txBytes = 0, 0
	c.gen++
	c.whole = wholeNo
	if c.tx != nil {
		c.cleared = true
	}
}

// holdsEveryKey reports whether the cache holds every key the flow has
// stored anything of: then a key it does not hold has no events in the log
// and no rows in the target, and applying it reads neither. That is known
// when the cache, empty, first meets the flow with an empty log and target
// (a new flow, the common start of a feed), and stays known while every
// key the flow stores gets its state in the cache, until the cache drops
// one. Nothing but the flow writes its log and target (one flow per
// target, which users may not write), and every batch of the flow goes
// through its one cache. A rollback keeps it known: it takes back the
// keys' states with the events and rows they stood for.
func (c *StateCache) holdsEveryKey(log, target *storage.Space) bool {
	if c == nil {
		return false
	}
	if c.whole == wholeUnknown {
		c.whole = wholeNo
		if len(c.index) == 0 && isEmpty(log) && isEmpty(target) {
			c.whole = wholeYes
		}
	}
	return c.whole == wholeYes
}

func isEmpty(sp *storage.Space) bool {
	k, _ := sp.Cursor().First()
	return k == nil
}

// begin attaches the cache to tx's changes.
func (c *StateCache) begin(tx *storage.Tx) {
	if c.tx == tx {
		return
	}
	c.tx, c.undo, c.txBytes, c.cleared = tx, c.undo[:0], 0, false
	tx.OnPublish(func() {
		if c.tx != tx {
			return
		}
		// The entries the transaction replaced are in no slot now, and
		// what get handed out of them was the transaction's to use.
		for _, u := range c.undo {
			if u.key == "" {
				c.keepSpare(u.old.buf)
			}
		}
		c.tx, c.undo, c.txBytes = nil, c.spareUndo(), 0
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
					c.bytes -= entrySize(u.key, len(cur.buf))
					delete(c.index, u.key)
					c.slots[u.slot] = cacheEntry{}
					c.free = append(c.free, u.slot)
					continue
				}
				c.bytes += roundAlloc(len(u.old.buf)) - roundAlloc(len(cur.buf))
				c.slots[u.slot] = u.old
			}
		}
		c.tx, c.undo, c.txBytes = nil, c.spareUndo(), 0
	})
	// A rollback to a savepoint takes back some of the states the
	// transaction wrote, and the undo list cannot tell which: drop them
	// all (Clear also makes the final rollback clear the cache rather than
	// play the undo list back).
	tx.OnRollbackTo(func() {
		if c.tx == tx {
			c.Clear()
		}
	})
}

// keepSpare keeps buf, which no entry holds any more, for a later put, if
// there is room for it: a place in its class, and its size under the
// cache's limit.
func (c *StateCache) keepSpare(buf []byte) {
	class := cap(buf) / 16
	if buf == nil || cap(buf)%16 != 0 || class >= spareClasses || c.spared >= maxSpare || c.bytes+spareSize(cap(buf)) > c.limit {
		return
	}
	c.spare[class] = append(c.spare[class], buf[:0])
	c.spared++
	c.bytes += spareSize(cap(buf))
}

// newBuffer returns an empty buffer of roundAlloc(n) bytes, a spare one if
// there is one of that size.
func (c *StateCache) newBuffer(n int) []byte {
	size := roundAlloc(n)
	if class := size / 16; class < spareClasses {
		if k := len(c.spare[class]); k > 0 {
			buf := c.spare[class][k-1]
			c.spare[class][k-1] = nil
			c.spare[class] = c.spare[class][:k-1]
			c.spared--
			c.bytes -= spareSize(size)
			return buf
		}
	}
	return make([]byte, 0, size)
}

// spareUndo returns the undo list emptied for the next transaction: kept
// (without the states it held) when short, dropped when a large
// transaction grew it, as it costs more than an entry per key. Short is
// up to maxSpareUndo entries (256 KiB): a transaction of a thousand keys,
// whose list append grows past its length (to 1,280), keeps its list.
func (c *StateCache) spareUndo() []undoEntry {
	if cap(c.undo) > maxSpareUndo {
		return nil
	}
	clear(c.undo)
	return c.undo[:0]
}

// get returns a key's state, and where it is for put. The state's parts
// are the cache's, valid until the transaction ends.
func (c *StateCache) get(encKey []byte) (keyState, slotRef, bool) {
	at := c.find(encKey)
	return at.held.state(), at, at.holds()
}

// find returns where a key is for put, with its entry.
func (c *StateCache) find(encKey []byte) slotRef {
	if c == nil {
		return slotRef{slot: -1}
	}
	if i, ok := c.index[string(encKey)]; ok {
		return slotRef{slot: i, gen: c.gen, held: c.slots[i]}
	}
	return slotRef{slot: -1, gen: c.gen}
}

// holds reports whether the entry find saw holds a state.
func (r slotRef) holds() bool { return r.held.buf != nil }

// put records a key's state as the current transaction leaves it, copied
// into one buffer of the cache's own. at is what find (or get) said of the
// key.
func (c *StateCache) put(encKey []byte, at slotRef, st keyState) {
	if c == nil {
		return
	}
	size := stateLen(st)
	n := roundAlloc(size)
	slot, held := at.slot, at.held
	if at.gen != c.gen {
		slot = -1
		if i, ok := c.index[string(encKey)]; ok {
			slot, held = i, c.slots[i]
		}
	}
	var key string
	if slot < 0 {
		key = string(encKey)
		n += entrySize(key, 0)
	} else {
		n -= roundAlloc(len(held.buf))
	}
	if c.bytes+n > c.limit && c.bytes > c.txBytes {
		// Earlier transactions' entries make room, with this one's so far
		// (their keys are looked up in storage next time).
		c.Clear()
		slot, key = -1, string(encKey)
		n = entrySize(key, size)
	}
	if c.bytes+n > c.limit {
		// The transaction has touched more than the cache holds: the key
		// goes uncached, and its entry from before, stale, is emptied.
		c.whole = wholeNo
		if slot >= 0 {
			c.undo = append(c.undo, undoEntry{slot: slot, old: held})
			c.bytes -= roundAlloc(len(held.buf))
			c.slots[slot] = cacheEntry{}
		}
		return
	}
	e := cacheEntry{buf: c.newBuffer(size)}
	for i, part := range [4][]byte{st.lastSeq, st.lastSysSeq, st.lastKey, st.lastRow} {
		if part == nil {
			e.absent |= 1 << i
		}
		e.buf = append(e.buf, part...)
		if i < len(e.ends) {
			e.ends[i] = uint32(len(e.buf))
		}
	}
	if slot >= 0 {
		c.undo = append(c.undo, undoEntry{slot: slot, old: held})
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
	for _, e := range c.slots {
		if e.buf != nil {
			n++
		}
	}
	return n
}
