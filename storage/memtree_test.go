package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refMap is the obvious model of a memtree: a map, sorted on demand.
type refMap map[string]refVal

type refVal struct {
	v    string
	tomb bool
}

func (m refMap) sortedKeys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkTree compares every way of reading t with the model.
func checkTree(t *testing.T, tr *memtree, want refMap, rng *rand.Rand) {
	t.Helper()
	slabs := tr.ar.slabs()
	keys := want.sortedKeys()
	if tr.count != len(keys) {
		t.Fatalf("count %d, want %d", tr.count, len(keys))
	}
	for _, k := range keys {
		e, ok := tr.get(slabs, []byte(k))
		if !ok {
			t.Fatalf("get %q: missing", k)
		}
		v, live := entryValue(slabs, e)
		if live == want[k].tomb || string(v) != want[k].v {
			t.Fatalf("get %q = %q live=%v, want %+v", k, v, live, want[k])
		}
	}
	it := &memiter{t: tr}
	var got []string
	for it.first(); it.valid(); it.next() {
		got = append(got, string(it.key()))
	}
	if !slices.Equal(got, keys) {
		t.Fatalf("forward walk %q, want %q", got, keys)
	}
	got = got[:0]
	for it.last(); it.valid(); it.prev() {
		got = append(got, string(it.key()))
	}
	slices.Reverse(got)
	if !slices.Equal(got, keys) {
		t.Fatalf("backward walk %q, want %q", got, keys)
	}
	for range 50 {
		probe := randKey(rng)
		i, _ := slices.BinarySearch(keys, probe)
		it.seekGE([]byte(probe))
		switch {
		case i == len(keys) && it.valid():
			t.Fatalf("seekGE %q = %q, want end", probe, it.key())
		case i < len(keys) && (!it.valid() || string(it.key()) != keys[i]):
			t.Fatalf("seekGE %q wrong, want %q", probe, keys[i])
		}
		if i < len(keys) && i > 0 {
			it.prev()
			if !it.valid() || string(it.key()) != keys[i-1] {
				t.Fatalf("prev after seekGE %q wrong", probe)
			}
		}
		it.seekLT([]byte(probe))
		switch {
		case i == 0 && it.valid():
			t.Fatalf("seekLT %q = %q, want start", probe, it.key())
		case i > 0 && (!it.valid() || string(it.key()) != keys[i-1]):
			t.Fatalf("seekLT %q wrong, want %q", probe, keys[i-1])
		}
	}
}

func randKey(rng *rand.Rand) string {
	return fmt.Sprintf("k%05d", rng.IntN(3000))
}

// TestMemtreeMatchesModel puts random keys into a tree, and ascending runs
// of keys now and then (which split nodes unevenly), and checks every way
// of reading it against a model.
func TestMemtreeMatchesModel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	tr := newMemtree(newSmallArena())
	model := refMap{}
	for step := range 20000 {
		k := randKey(rng)
		if rng.IntN(3) == 0 {
			k = fmt.Sprintf("z%06d", step) // ascending
		}
		v := fmt.Sprintf("v%d", step)
		switch rng.IntN(100) {
		case 0:
			v = string(bytes.Repeat([]byte{'x'}, largeEntry+rng.IntN(100)))
		case 1:
			// Larger than a slab: a dedicated slab, after which shared
			// allocations must not land inside it.
			v = string(bytes.Repeat([]byte{'y'}, slabSize+rng.IntN(100)))
		}
		tomb := rng.IntN(5) == 0
		if tomb {
			v = ""
		}
		tr.set([]byte(k), []byte(v), tomb)
		model[k] = refVal{v, tomb}
		if step%5000 == 0 {
			checkTree(t, tr, model, rng)
		}
	}
	checkTree(t, tr, model, rng)
}

func TestMemiterEmpty(t *testing.T) {
	it := &memiter{t: newMemtree(newArenaFrom(slabSize))}
	it.first()
	if it.valid() {
		t.Fatal("first of empty tree is valid")
	}
	it.seekGE([]byte("a"))
	if it.valid() {
		t.Fatal("seekGE in empty tree is valid")
	}
	it.seekLT([]byte("a"))
	if it.valid() {
		t.Fatal("seekLT in empty tree is valid")
	}
}

// benchTree is a memtree of n random 18-byte keys.
func benchTree(n int) (*memtree, [][]byte) {
	rng := rand.New(rand.NewPCG(1, 1))
	tr := newMemtree(newArenaFrom(slabSize))
	keys := make([][]byte, n)
	for i := range keys {
		k := make([]byte, 18)
		for j := range k {
			k[j] = byte(rng.IntN(256))
		}
		k[0] = 0x10
		keys[i] = k
		tr.set(k, k[:10], false)
	}
	return tr, keys
}

// BenchmarkMemtreePut is a transaction's puts into its own tree.
func BenchmarkMemtreePut(b *testing.B) {
	tr, keys := benchTree(300_000)
	rng := rand.New(rand.NewPCG(2, 2))
	b.ResetTimer()
	for range b.N {
		k := keys[rng.IntN(len(keys))]
		tr.set(k, k, false)
	}
}

func BenchmarkMemtreeGet(b *testing.B) {
	tr, keys := benchTree(300_000)
	rng := rand.New(rand.NewPCG(2, 2))
	slabs := tr.ar.slabs()
	b.ResetTimer()
	for range b.N {
		tr.get(slabs, keys[rng.IntN(len(keys))])
	}
}
