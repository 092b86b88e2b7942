package storage

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"sync/atomic"
	"unsafe"
)

// A skiplist holds one keyspace's committed changes within one memtable
// layer: every version of every key the layer's commits wrote, ordered by
// key and, for one key, newest version first. A reader at version V sees, for
// each key, its newest version <= V, so one list serves every snapshot of
// the layer and a commit adds to it without copying anything.
//
// One writer inserts (the committing transaction, holding the writer slot)
// while any number of readers search; as in LevelDB's memtable, a node is
// complete before the atomic stores that link it in, level by level from the
// bottom, so a reader meets either the list without it or with it, and never
// a node half made. Nodes are never removed: the list goes away with its
// layer after the layer's checkpoint.
//
// Nodes live in the list's arena, 8-byte aligned, and link to each other by
// arena reference (slab<<32 | offset), so the garbage collector sees only a
// few large byte slices:
//
//	[0:8)    version
//	[8:12)   key length
//	[12:16)  value length (-1: tombstone)
//	[16]     height
//	[24:..)  height links, 8 bytes each (atomic)
//	then the key, then the value
type skiplist struct {
	ar     *arena
	head   uint64
	height atomic.Int32
	rng    *rand.Rand
}

const (
	maxHeight  = 20
	nodeHeader = 24
)

// newSkiplist returns an empty list with an arena of its own, so that
// lists of different keyspaces can be written at once; total (nil: none)
// counts its bytes with other lists'.
func newSkiplist(total *atomic.Int64) *skiplist {
	ar := newSmallArena()
	ar.total = total
	s := &skiplist{ar: ar, rng: rand.New(rand.NewPCG(rand.Uint64(), 1))}
	s.head = s.alloc(maxHeight, 0, 0)
	s.height.Store(1)
	return s
}

// alloc reserves a node of the given height with room for klen+vlen bytes.
func (s *skiplist) alloc(height, klen, vlen int) uint64 {
	n := nodeHeader + 8*height + klen + vlen
	slab, off, buf := s.ar.allocAligned((n + 7) &^ 7)
	buf[16] = byte(height)
	return uint64(slab)<<32 | uint64(off)
}

// node returns the bytes of a node, from its header on. It loads the
// arena's directory each time: a link a reader just followed may lead to a
// node in a slab added after the reader last looked (the writer publishes
// the slab before the link, so the directory loaded after the link has it).
func (s *skiplist) node(ref uint64) []byte {
	return s.ar.slabs()[ref>>32][uint32(ref):]
}

func nodeVersion(n []byte) uint64 { return binary.LittleEndian.Uint64(n) }
func nodeHeight(n []byte) int     { return int(n[16]) }

func nodeKey(n []byte) []byte {
	klen := binary.LittleEndian.Uint32(n[8:])
	start := nodeHeader + 8*nodeHeight(n)
	return n[start : start+int(klen) : start+int(klen)]
}

func nodeValue(n []byte) ([]byte, bool) {
	vlen := int32(binary.LittleEndian.Uint32(n[12:]))
	if vlen < 0 {
		return nil, false
	}
	start := nodeHeader + 8*nodeHeight(n) + int(binary.LittleEndian.Uint32(n[8:]))
	return n[start : start+int(vlen) : start+int(vlen)], true
}

func link(n []byte, level int) *uint64 {
	return (*uint64)(unsafe.Pointer(&n[nodeHeader+8*level]))
}

func next(n []byte, level int) uint64 { return atomic.LoadUint64(link(n, level)) }

// before reports whether node n sorts before (key, version): a smaller key,
// or the same key at a newer version.
func before(n []byte, key []byte, version uint64) bool {
	c := bytes.Compare(nodeKey(n), key)
	return c < 0 || (c == 0 && nodeVersion(n) > version)
}

// insert adds a version of key (value, or a tombstone). Versions of one key
// are inserted in increasing order and never twice.
func (s *skiplist) insert(key, value []byte, tombstone bool, version uint64) {
	var ins inserter
	ins.insert(s, key, value, tombstone, version)
}

// An inserter adds versions in key order (a commit's entries, from the
// transaction's sorted tree), starting each search where the previous one
// ended rather than at the head: the links it went through are all before
// the next key, so it climbs only as high as the distance to that key needs
// and descends from there.
type inserter struct {
	preds [maxHeight]uint64
	ok    bool
}

func (ins *inserter) insert(s *skiplist, key, value []byte, tombstone bool, version uint64) {
	top := int(s.height.Load())
	level := top - 1
	if ins.ok {
		// Climb while the next node at this level is still before key.
		level = 0
		for level < top-1 {
			nx := next(s.node(ins.preds[level]), level)
			if nx != 0 && !before(s.node(nx), key, version) {
				break
			}
			level++
		}
	} else {
		for l := range ins.preds {
			ins.preds[l] = s.head
		}
	}
	x := ins.preds[level]
	for ; level >= 0; level-- {
		for {
			nx := next(s.node(x), level)
			if nx == 0 || !before(s.node(nx), key, version) {
				break
			}
			x = nx
		}
		ins.preds[level] = x
	}
	ins.ok = true
	height := 1
	for height < maxHeight && s.rng.Uint32()&3 == 0 {
		height++
	}
	vlen := len(value)
	ref := s.alloc(height, len(key), vlen)
	n := s.node(ref)
	binary.LittleEndian.PutUint64(n, version)
	binary.LittleEndian.PutUint32(n[8:], uint32(len(key)))
	if tombstone {
		binary.LittleEndian.PutUint32(n[12:], uint32(0xffffffff))
		vlen = 0
	} else {
		binary.LittleEndian.PutUint32(n[12:], uint32(vlen))
	}
	start := nodeHeader + 8*height
	copy(n[start:], key)
	copy(n[start+len(key):], value[:vlen])
	for level := range height {
		atomic.StoreUint64(link(n, level), next(s.node(ins.preds[level]), level))
	}
	// Linked from the bottom up: a reader that finds the node at some
	// level finds it at every level below.
	for level := range height {
		atomic.StoreUint64(link(s.node(ins.preds[level]), level), ref)
	}
	if int32(height) > s.height.Load() {
		s.height.Store(int32(height))
	}
	// The new node is before any later key: where the next search starts.
	for level := range height {
		ins.preds[level] = ref
	}
}

// seek returns the first node at or after (key, version): for key, its
// newest version <= version if it has one; else a later key's node.
//
// It returns the node it compared against, not x's successor loaded again:
// the writer may have linked a newer version in between since, which sorts
// before (key, version) and which this snapshot must not see. Missing a node
// linked meanwhile is right, as every such node is newer than any reader's
// version.
func (s *skiplist) seek(key []byte, version uint64) uint64 {
	x := s.head
	var nx uint64
	for level := int(s.height.Load()) - 1; level >= 0; level-- {
		for {
			nx = next(s.node(x), level)
			if nx == 0 || !before(s.node(nx), key, version) {
				break
			}
			x = nx
		}
	}
	return nx
}

// lastBefore returns the last node whose key is < key (0: none): the oldest
// version of the greatest smaller key.
func (s *skiplist) lastBefore(key []byte) uint64 {
	x := s.head
	for level := int(s.height.Load()) - 1; level >= 0; level-- {
		for {
			nx := next(s.node(x), level)
			if nx == 0 || bytes.Compare(nodeKey(s.node(nx)), key) >= 0 {
				break
			}
			x = nx
		}
	}
	if x == s.head {
		return 0
	}
	return x
}

// lastNode returns the list's last node (0: empty).
func (s *skiplist) lastNode() uint64 {
	x := s.head
	for level := int(s.height.Load()) - 1; level >= 0; level-- {
		for nx := next(s.node(x), level); nx != 0; nx = next(s.node(x), level) {
			x = nx
		}
	}
	if x == s.head {
		return 0
	}
	return x
}

// get returns key's newest version <= version.
func (s *skiplist) get(key []byte, version uint64) (value []byte, live, found bool) {
	ref := s.seek(key, version)
	if ref == 0 {
		return nil, false, false
	}
	n := s.node(ref)
	if !bytes.Equal(nodeKey(n), key) {
		return nil, false, false
	}
	v, live := nodeValue(n)
	return v, live, true
}

// listIter walks the keys of a skiplist as a snapshot at one version sees
// them: for each key its newest version <= that version, keys without one
// left out.
type listIter struct {
	s       *skiplist
	version uint64
	ref     uint64 // 0: not on a key
}

func (it *listIter) valid() bool { return it.ref != 0 }

func (it *listIter) cur() []byte { return it.s.node(it.ref) }

func (it *listIter) key() []byte { return nodeKey(it.cur()) }

func (it *listIter) value() ([]byte, bool) { return nodeValue(it.cur()) }

// settleForward moves from ref (a node, or 0) to the first visible version
// at or after it.
func (it *listIter) settleForward(ref uint64) {
	for steps := 0; ref != 0; steps++ {
		n := it.s.node(ref)
		if nodeVersion(n) <= it.version {
			break
		}
		if steps == linearSteps {
			// A key written many times since this snapshot: seek past its
			// newer versions instead of stepping through every one.
			ref, steps = it.s.seek(nodeKey(n), it.version), 0
			continue
		}
		ref = next(n, 0)
	}
	it.ref = ref
}

// linearSteps is how many nodes of one key an iterator steps through before
// it seeks past the rest: most keys have one version or a few in a layer,
// but a key rewritten in every commit can have thousands.
const linearSteps = 4

func (it *listIter) seekGE(key []byte) { it.settleForward(it.s.seek(key, it.version)) }

func (it *listIter) first() { it.seekGE(nil) }

func (it *listIter) next() {
	k := it.key()
	ref := next(it.cur(), 0)
	for steps := 0; ref != 0 && bytes.Equal(nodeKey(it.s.node(ref)), k); steps++ {
		if steps == linearSteps {
			// Versions start at 1, so this is the node after k's oldest.
			ref = it.s.seek(k, 0)
			break
		}
		ref = next(it.s.node(ref), 0)
	}
	it.settleForward(ref)
}

// backFrom moves to the greatest visible key < key, or to the greatest
// visible key at all when key is nil.
func (it *listIter) backFrom(key []byte, all bool) {
	for {
		var ref uint64
		if all {
			ref = it.s.lastNode()
		} else {
			ref = it.s.lastBefore(key)
		}
		if ref == 0 {
			it.ref = 0
			return
		}
		k := nodeKey(it.s.node(ref))
		// ref is k's oldest version; the one this snapshot sees is its
		// newest <= version, if any.
		if v := it.s.seek(k, it.version); v != 0 && bytes.Equal(nodeKey(it.s.node(v)), k) {
			it.ref = v
			return
		}
		key, all = k, false
	}
}

func (it *listIter) seekLT(key []byte) { it.backFrom(key, false) }
func (it *listIter) last()             { it.backFrom(nil, true) }
func (it *listIter) prev()             { it.backFrom(it.key(), false) }
