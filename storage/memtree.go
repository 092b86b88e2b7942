package storage

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// A memtree is a write transaction's own changes to one keyspace: a B+tree
// whose entries live in the transaction's arena. Only its transaction uses
// it, so it changes in place.
//
// Entries are never removed: a deletion is a tombstone entry, which must
// stay so that it hides the key in the layers and the file below. So the
// tree only grows and never rebalances.
type memtree struct {
	root  *mnode
	count int // entries, tombstones included
	ar    *arena
}

// mentry is one entry: where its key and value are in the arena (vlen < 0
// marks a tombstone), and the key's first 16 bytes, zero-padded, as two
// big-endian integers. Comparing those decides almost every comparison of a
// search without reading the key in the arena, which would be a cache miss
// each time; keys that agree on them compare in full.
type mentry struct {
	p0, p1    uint64
	slab, off uint32
	klen      uint32
	vlen      int32
}

// probe is a search key with its inline prefix.
type probe struct {
	key    []byte
	p0, p1 uint64
}

func newProbe(key []byte) probe {
	p0, p1 := keyPrefix(key)
	return probe{key: key, p0: p0, p1: p1}
}

// KeyPrefix16 returns a key's first 16 bytes, zero-padded, as two
// big-endian integers: comparing them orders keys as bytes.Compare does
// whenever they differ, so a sort of keys can compare them first.
func KeyPrefix16(key []byte) (uint64, uint64) { return keyPrefix(key) }

func keyPrefix(key []byte) (uint64, uint64) {
	var b [16]byte
	copy(b[:], key)
	return binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
}

// compare orders e's key against the probe's, as bytes.Compare would: the
// zero padding cannot change the order of keys whose prefixes differ (a
// padded byte stands for a key that ended, which sorts first).
func (p *probe) compare(slabs [][]byte, e mentry) int {
	switch {
	case e.p0 < p.p0:
		return -1
	case e.p0 > p.p0:
		return 1
	case e.p1 < p.p1:
		return -1
	case e.p1 > p.p1:
		return 1
	}
	return bytes.Compare(entryKey(slabs, e), p.key)
}

// An mnode is a leaf (children nil), whose items are the entries in key
// order, or an internal node, whose items are separators: items[i] is the
// smallest key under children[i+1], and every key under children[i] is
// smaller than it.
//
// items points into buf, so a node and its entries are one allocation and
// one stretch of memory to search.
type mnode struct {
	items    []mentry
	children []*mnode
	buf      [maxLeafItems + 1]mentry
}

func newNode(items []mentry) *mnode {
	n := &mnode{}
	n.items = n.buf[:copy(n.buf[:], items)]
	return n
}

const (
	maxLeafItems = 32
	maxChildren  = 32
)

func newMemtree(ar *arena) *memtree { return &memtree{ar: ar} }

func entryKey(slabs [][]byte, e mentry) []byte {
	return slabs[e.slab][e.off : e.off+e.klen : e.off+e.klen]
}

func entryValue(slabs [][]byte, e mentry) ([]byte, bool) {
	if e.vlen < 0 {
		return nil, false
	}
	start := e.off + e.klen
	end := start + uint32(e.vlen)
	return slabs[e.slab][start:end:end], true
}

// lowerBound is the index of the first entry whose key is >= key.
func lowerBound(slabs [][]byte, items []mentry, key *probe) int {
	lo, hi := 0, len(items)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if key.compare(slabs, items[m]) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// childIndex is the child of internal node items whose range holds key: the
// number of separators <= key.
func childIndex(slabs [][]byte, seps []mentry, key *probe) int {
	lo, hi := 0, len(seps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if key.compare(slabs, seps[m]) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// get returns the entry for key.
func (t *memtree) get(slabs [][]byte, key []byte) (mentry, bool) {
	p := newProbe(key)
	n := t.root
	for n != nil {
		if n.children == nil {
			i := lowerBound(slabs, n.items, &p)
			if i < len(n.items) && p.compare(slabs, n.items[i]) == 0 {
				return n.items[i], true
			}
			return mentry{}, false
		}
		n = n.children[childIndex(slabs, n.items, &p)]
	}
	return mentry{}, false
}

// put sets the entry for its key (whose bytes are already in the arena),
// replacing any previous one.
func (t *memtree) put(e mentry) {
	slabs := t.ar.slabs()
	key := newProbe(entryKey(slabs, e))
	if t.root == nil {
		t.root = newNode([]mentry{e})
		t.count = 1
		return
	}
	sep, right, added := t.insert(slabs, t.root, &key, e)
	if added {
		t.count++
	}
	if right != nil {
		root := newNode([]mentry{sep})
		root.children = append(make([]*mnode, 0, maxChildren+1), t.root, right)
		t.root = root
	}
}

// insert puts e into the subtree n, returning the separator
// and new right sibling when n split, and whether an entry was added
// rather than replaced.
func (t *memtree) insert(slabs [][]byte, n *mnode, key *probe, e mentry) (sep mentry, right *mnode, added bool) {
	if n.children == nil {
		i := lowerBound(slabs, n.items, key)
		if i < len(n.items) && key.compare(slabs, n.items[i]) == 0 {
			n.items[i] = e
			return mentry{}, nil, false
		}
		n.items = slices.Insert(n.items, i, e)
		if len(n.items) <= maxLeafItems {
			return mentry{}, nil, true
		}
		mid := splitPoint(len(n.items), i)
		r := newNode(n.items[mid:])
		n.items = n.items[:mid]
		return r.items[0], r, true
	}
	i := childIndex(slabs, n.items, key)
	sep, r, added := t.insert(slabs, n.children[i], key, e)
	if r == nil {
		return mentry{}, nil, added
	}
	n.items = slices.Insert(n.items, i, sep)
	n.children = slices.Insert(n.children, i+1, r)
	if len(n.children) <= maxChildren {
		return mentry{}, nil, added
	}
	mid := splitPoint(len(n.children), i+1)
	up := n.items[mid-1]
	rn := newNode(n.items[mid:])
	rn.children = append(make([]*mnode, 0, maxChildren+1), n.children[mid:]...)
	n.items = n.items[:mid-1]
	clear(n.children[mid:])
	n.children = n.children[:mid]
	return up, rn, added
}

// splitPoint is where a node of n items splits after an insert at i: in
// half, except that an insert at the end (keys arriving in order, such as
// row numbers) leaves the left node full, so ascending keys fill nodes
// instead of leaving them half empty.
func splitPoint(n, i int) int {
	if i == n-1 {
		return n - 1
	}
	return n / 2
}

// memiter walks a memtree in key order. It reads the nodes as they were
// when it was positioned; after the tree changes, position it again.
type memiter struct {
	t     *memtree
	slabs [][]byte
	stack []memframe
	// frames backs stack for trees up to its depth (most), so that
	// positioning an iterator allocates nothing.
	frames [6]memframe
}

type memframe struct {
	n *mnode
	i int
}

func (it *memiter) reset() {
	it.slabs = it.t.ar.slabs()
	if it.stack == nil {
		it.stack = it.frames[:0]
	}
	it.stack = it.stack[:0]
}

func (it *memiter) valid() bool { return len(it.stack) > 0 }

func (it *memiter) entry() mentry {
	f := it.stack[len(it.stack)-1]
	return f.n.items[f.i]
}

func (it *memiter) key() []byte { return entryKey(it.slabs, it.entry()) }

func (it *memiter) value() ([]byte, bool) { return entryValue(it.slabs, it.entry()) }

// seekGE moves to the first entry with a key >= key.
func (it *memiter) seekGE(key []byte) {
	it.reset()
	n := it.t.root
	if n == nil {
		return
	}
	p := newProbe(key)
	for n.children != nil {
		i := childIndex(it.slabs, n.items, &p)
		it.stack = append(it.stack, memframe{n, i})
		n = n.children[i]
	}
	i := lowerBound(it.slabs, n.items, &p)
	it.stack = append(it.stack, memframe{n, i})
	if i == len(n.items) {
		it.stack[len(it.stack)-1].i--
		it.next()
	}
}

// seekLT moves to the last entry with a key < key.
func (it *memiter) seekLT(key []byte) {
	it.seekGE(key)
	if it.valid() {
		it.prev()
	} else {
		it.last()
	}
}

func (it *memiter) first() {
	it.reset()
	if it.t.root != nil {
		it.descend(it.t.root, false)
	}
}

func (it *memiter) last() {
	it.reset()
	if it.t.root != nil {
		it.descend(it.t.root, true)
	}
}

// descend pushes the path from n to its leftmost (or rightmost) entry.
func (it *memiter) descend(n *mnode, right bool) {
	for {
		i := 0
		if right {
			if n.children == nil {
				i = len(n.items) - 1
			} else {
				i = len(n.children) - 1
			}
		}
		it.stack = append(it.stack, memframe{n, i})
		if n.children == nil {
			return
		}
		n = n.children[i]
	}
}

func (it *memiter) next() {
	top := &it.stack[len(it.stack)-1]
	if top.i+1 < len(top.n.items) {
		top.i++
		return
	}
	it.stack = it.stack[:len(it.stack)-1]
	for len(it.stack) > 0 {
		f := &it.stack[len(it.stack)-1]
		if f.i+1 < len(f.n.children) {
			f.i++
			it.descend(f.n.children[f.i], false)
			return
		}
		it.stack = it.stack[:len(it.stack)-1]
	}
}

func (it *memiter) prev() {
	top := &it.stack[len(it.stack)-1]
	if top.i > 0 {
		top.i--
		return
	}
	it.stack = it.stack[:len(it.stack)-1]
	for len(it.stack) > 0 {
		f := &it.stack[len(it.stack)-1]
		if f.i > 0 {
			f.i--
			it.descend(f.n.children[f.i], true)
			return
		}
		it.stack = it.stack[:len(it.stack)-1]
	}
}

// set stores key and value (or a tombstone) in the arena and puts the entry.
func (t *memtree) set(key, value []byte, tombstone bool) {
	slab, off, buf := t.ar.alloc(len(key) + len(value))
	copy(buf, key)
	copy(buf[len(key):], value)
	e := mentry{slab: slab, off: off, klen: uint32(len(key)), vlen: int32(len(value))}
	e.p0, e.p1 = keyPrefix(key)
	if tombstone {
		e.vlen = -1
	}
	t.put(e)
}
