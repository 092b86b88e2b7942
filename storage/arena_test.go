package storage

import (
	"bytes"
	"testing"
)

// TestArenaLargeEntriesKeepTheSharedSlab: entries too large to share a slab
// get their own, and small ones go on filling the shared slab, so a layer
// alternating large and small entries costs about what it holds (its size,
// which decides when it is frozen) instead of a fresh slab per large entry;
// every entry keeps its own bytes.
func TestArenaLargeEntriesKeepTheSharedSlab(t *testing.T) {
	a := newArenaFrom(slabSize)
	type entry struct {
		slab, off uint32
		want      []byte
	}
	var entries []entry
	for i := range 200 {
		n := 100
		if i%2 == 1 {
			n = largeEntry + 1 + i
		}
		slab, off, buf := a.alloc(n)
		for j := range buf {
			buf[j] = byte(i + j)
		}
		entries = append(entries, entry{slab, off, bytes.Clone(buf)})
	}
	slabs := a.slabs()
	for i, e := range entries {
		if got := slabs[e.slab][e.off : int(e.off)+len(e.want)]; !bytes.Equal(got, e.want) {
			t.Fatalf("entry %d was overwritten", i)
		}
	}
	var capacity int
	for _, s := range slabs {
		capacity += len(s)
	}
	if size := int(a.size.Load()); capacity > size+slabSize {
		t.Errorf("slabs hold %d bytes for %d bytes of entries: shared slabs were given up", capacity, size)
	}
}
