package storage

import "sync/atomic"

// An arena holds the key and value bytes a write transaction writes,
// appended and never changed; once it commits, the memtable runs made of
// its tree refer to them, until the last of those runs goes with its layer
// after its checkpoint. Entries refer to their bytes by slab number and
// offset instead of by slice, so the trees and runs hold no pointers into
// the heap and the garbage collector never has to scan them.
//
// Concurrency: only the transaction appends; other transactions read the
// bytes only through runs of a layer value published after its commit,
// which orders the appends before their reads.
type arena struct {
	// dir lists the slabs; the writer replaces it with a longer copy when it
	// adds one, so readers may index whatever directory they load.
	dir atomic.Pointer[[][]byte]
	// cur is the slab small entries go to (-1: none yet), used how much
	// of it is taken, and grow the size of the next one (writer only): a
	// transaction's arena starts small and doubles up to slabSize. Large
	// entries get slabs of their own after it, and cur stays.
	cur, used, grow int
	// size counts every byte appended, garbage included: what the arena
	// costs in memory. A shared slab's unused tail is not counted; it is
	// never more than largeEntry.
	size atomic.Int64
}

const (
	slabSize = 1 << 20
	// Entries larger than this get a slab of their own rather than wasting
	// the tail of a shared one.
	largeEntry = slabSize / 4
)

// newSmallArena is an arena for a transaction's own writes, or for one
// keyspace's entries in a memtable layer: often a few rows.
func newSmallArena() *arena { return newArenaFrom(4 << 10) }

func newArenaFrom(first int) *arena {
	a := &arena{cur: -1, grow: first}
	a.dir.Store(&[][]byte{})
	return a
}

// alloc reserves n bytes and returns where they are and the slice to fill.
func (a *arena) alloc(n int) (slab, off uint32, buf []byte) {
	dir := *a.dir.Load()
	if n > largeEntry {
		b := make([]byte, n)
		a.addSlab(dir, b)
		a.size.Add(int64(n))
		return uint32(len(dir)), 0, b
	}
	if a.cur < 0 || a.used+n > len(dir[a.cur]) {
		size := a.grow
		for size < n {
			size *= 2
		}
		dir = a.addSlab(dir, make([]byte, size))
		a.cur, a.used = len(dir)-1, 0
		a.grow = min(2*size, slabSize)
	}
	slab = uint32(a.cur)
	off = uint32(a.used)
	a.used += n
	a.size.Add(int64(n))
	return slab, off, dir[slab][off : int(off)+n : int(off)+n]
}

func (a *arena) addSlab(dir [][]byte, b []byte) [][]byte {
	var next [][]byte
	if len(dir) < cap(dir) {
		// Room in place: readers holding the old header never look at the
		// new element, so it can be written and published as a longer view
		// of the same array.
		next = append(dir, b)
	} else {
		next = make([][]byte, len(dir)+1, 2*len(dir)+4)
		copy(next, dir)
		next[len(dir)] = b
	}
	a.dir.Store(&next)
	return next
}

// slabs returns the current directory, for a run of lookups.
func (a *arena) slabs() [][]byte { return *a.dir.Load() }
