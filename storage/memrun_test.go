package storage

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// runOf builds a run the way a commit does: the writes go into a
// transaction's tree, which becomes the run.
func runOf(writes refMap) *memRun {
	t := newMemtree(newSmallArena())
	for _, k := range writes.sortedKeys() {
		w := writes[k]
		t.set([]byte(k), []byte(w.v), w.tomb)
	}
	return runFromTree(t)
}

// checkRunReads compares every way of reading a run (memory or file) with
// the model: get, the iterator both ways, seeks to keys present and absent,
// and a change of direction after each seek.
func checkRunReads(entries int, get func(key []byte) (v []byte, live, found bool), it cursorSource, want refMap, probes []string) error {
	keys := want.sortedKeys()
	if entries != len(keys) {
		return fmt.Errorf("run has %d entries, want %d", entries, len(keys))
	}
	for _, k := range keys {
		v, live, found := get([]byte(k))
		if !found || live == want[k].tomb || string(v) != want[k].v {
			return fmt.Errorf("get %q = %.20q live=%v found=%v, want %+.20v", k, v, live, found, want[k])
		}
	}
	var got []string
	for it.first(); it.valid(); it.next() {
		got = append(got, string(it.key()))
	}
	if !slices.Equal(got, keys) {
		return fmt.Errorf("forward walk: %d keys, want %d", len(got), len(keys))
	}
	got = got[:0]
	for it.last(); it.valid(); it.prev() {
		got = append(got, string(it.key()))
	}
	slices.Reverse(got)
	if !slices.Equal(got, keys) {
		return fmt.Errorf("backward walk: %d keys, want %d", len(got), len(keys))
	}
	for _, p := range probes {
		i, present := slices.BinarySearch(keys, p)
		if _, _, found := get([]byte(p)); found != present {
			return fmt.Errorf("get %q found=%v, want %v", p, found, present)
		}
		it.seekGE([]byte(p))
		if (i == len(keys)) == it.valid() || (it.valid() && string(it.key()) != keys[i]) {
			return fmt.Errorf("seekGE %q wrong", p)
		}
		if it.valid() {
			it.prev()
			if (i == 0) == it.valid() || (it.valid() && string(it.key()) != keys[i-1]) {
				return fmt.Errorf("prev after seekGE %q wrong", p)
			}
		}
		it.seekLT([]byte(p))
		if (i == 0) == it.valid() || (it.valid() && string(it.key()) != keys[i-1]) {
			return fmt.Errorf("seekLT %q wrong", p)
		}
		if it.valid() {
			it.next()
			if (i == len(keys)) == it.valid() || (it.valid() && string(it.key()) != keys[i]) {
				return fmt.Errorf("next after seekLT %q wrong", p)
			}
		}
	}
	return nil
}

// checkMemRun is checkRunReads of a memtable run.
func checkMemRun(r *memRun, want refMap, probes []string) error {
	return checkRunReads(r.len(), r.get, &runSource{it: runIter{r: r}}, want, probes)
}

// runKeys makes keys the way cdcdb's keyspaces have them: many sharing
// their first 8 or 16 bytes (an encoded bigint key is a tag and 8 bytes, so
// keys of nearby ids agree on their first 8; a version suffix makes keys
// longer than 16 that agree on all 16), and some short ones.
func runKey(rng *rand.Rand) string { return runKeyIn(rng, 0, 5000) }

// runKeyIn is runKey with ids from lo to lo+span-1.
func runKeyIn(rng *rand.Rand, lo, span int) string {
	id := uint64(lo + rng.IntN(span))
	b := append([]byte{0x10}, binary.BigEndian.AppendUint64(nil, id)...)
	switch rng.IntN(4) {
	case 0:
		return string(b[:1+rng.IntN(4)])
	case 1:
		b = append(b, 0x10)
		return string(binary.BigEndian.AppendUint64(b, uint64(rng.IntN(20))))
	}
	return string(b)
}

func randomWrites(rng *rand.Rand, n int) refMap { return randomWritesIn(rng, n, 0, 5000) }

// randomWritesIn is randomWrites with ids from lo to lo+span-1.
func randomWritesIn(rng *rand.Rand, n, lo, span int) refMap {
	w := refMap{}
	for range n {
		v := refVal{v: fmt.Sprint(rng.IntN(1000))}
		if rng.IntN(6) == 0 {
			v = refVal{tomb: true}
		}
		w[runKeyIn(rng, lo, span)] = v
	}
	return w
}

func probesFor(rng *rand.Rand, want refMap) []string {
	var p []string
	for range 200 {
		p = append(p, runKey(rng))
	}
	keys := want.sortedKeys()
	for range 100 {
		if len(keys) > 0 {
			k := keys[rng.IntN(len(keys))]
			p = append(p, k, k+"\x00", k[:len(k)-1])
		}
	}
	return append(p, "", "\xff\xff")
}

// TestRunsMatchTheModel: runs of every size (with and without fences),
// merged in every grouping the merger makes, read as the model of applying
// their writes oldest first, and the checkpoint's merged iterator over
// unmerged runs walks the same. Every third round draws each run's keys
// from a narrow window of ids, so that runs lie side by side, overlap at
// their ends or nest, and the merged iterator takes long stretches from one
// run.
func TestRunsMatchTheModel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 21))
	for round := range 60 {
		var runs []*memRun // newest first
		model := refMap{}
		for range 1 + rng.IntN(8) {
			n := rng.IntN(5) * rng.IntN(400)
			if round%5 == 0 {
				n = rng.IntN(3)
			}
			w := randomWrites(rng, n)
			if round%3 == 1 {
				w = randomWritesIn(rng, n, 100*rng.IntN(8), 50+rng.IntN(200))
			}
			runs = append([]*memRun{runOf(w)}, runs...)
			for k, v := range w {
				model[k] = v
			}
		}
		probes := probesFor(rng, model)
		merged := mergeRuns(runs)
		if err := checkMemRun(merged, model, probes); err != nil {
			t.Fatalf("round %d, %d runs merged: %v", round, len(runs), err)
		}
		// Merged in two steps, as the merger merges newer runs and a later
		// merge takes the result along.
		if len(runs) > 2 {
			k := 1 + rng.IntN(len(runs)-1)
			twice := mergeRuns(append([]*memRun{mergeRuns(runs[:k])}, runs[k:]...))
			if err := checkMemRun(twice, model, probes); err != nil {
				t.Fatalf("round %d, merged at %d then all: %v", round, k, err)
			}
		}
		it := newMergedIter(runs)
		var got []string
		for it.first(); it.valid(); it.next() {
			v, live := it.value()
			if w := model[string(it.key())]; live == w.tomb || string(v) != w.v {
				t.Fatalf("round %d: merged iterator at %q reads %q live=%v, want %+v", round, it.key(), v, live, w)
			}
			got = append(got, string(it.key()))
		}
		if keys := model.sortedKeys(); !slices.Equal(got, keys) {
			t.Fatalf("round %d: merged iterator walked %d keys, want %d", round, len(got), len(keys))
		}
		for _, p := range probes[:50] {
			keys := model.sortedKeys()
			i, _ := slices.BinarySearch(keys, p)
			it.seekGE([]byte(p))
			var rest []string
			for ; it.valid(); it.next() {
				rest = append(rest, string(it.key()))
			}
			if !slices.Equal(rest, keys[i:]) {
				t.Fatalf("round %d: merged iterator from seekGE %q walked %d keys, want %d", round, p, len(rest), len(keys)-i)
			}
		}
	}
}

// TestMergePlanKeepsRunsLogarithmic: commits of equal size, each merged as
// the plan says, leave about log2 of their number of runs, with sizes
// growing towards the oldest.
func TestMergePlanKeepsRunsLogarithmic(t *testing.T) {
	var runs []*memRun
	one := &memRun{ents: make([]mentry, 100)}
	merges := 0
	for range 1000 {
		runs = append([]*memRun{one}, runs...)
		if n := mergePlan(runs); n > 0 {
			total := 0
			for _, r := range runs[:n] {
				total += r.len()
			}
			runs = append([]*memRun{{ents: make([]mentry, total)}}, runs[n:]...)
			merges++
		}
		if len(runs) > 11 {
			t.Fatalf("%d runs after some commits, want at most log2(1000)+1", len(runs))
		}
		for i := 1; i < len(runs); i++ {
			if runs[i].len() <= runs[i-1].len() {
				t.Fatalf("run %d (%d entries) is not larger than the newer run %d (%d)", i, runs[i].len(), i-1, runs[i-1].len())
			}
		}
	}
	if merges == 0 {
		t.Fatal("never merged")
	}
}

// TestMergedRunsKeepOnlyTheSlabsTheyUse: a key rewritten by every commit (a
// counter) leaves a merged run of one entry, which must refer to one slab,
// not to every commit's: the merges would otherwise copy an ever longer
// slab list (quadratic in the commits) and keep every commit's bytes.
func TestMergedRunsKeepOnlyTheSlabsTheyUse(t *testing.T) {
	var merged *memRun
	for i := range 1000 {
		r := runOf(refMap{"counter": {v: fmt.Sprint(i)}})
		if merged == nil {
			merged = r
			continue
		}
		merged = mergeRuns([]*memRun{r, merged})
		if len(merged.slabs) != 1 {
			t.Fatalf("after %d commits the merged run lists %d slabs, want 1", i+1, len(merged.slabs))
		}
	}
	if err := checkMemRun(merged, refMap{"counter": {v: "999"}}, []string{"counter", "a", "z"}); err != nil {
		t.Fatal(err)
	}
	// Entries of different runs' slabs, some shadowed: every slab the
	// result lists is one an entry uses.
	rng := rand.New(rand.NewPCG(5, 6))
	var runs []*memRun
	model := refMap{}
	for range 6 {
		w := randomWrites(rng, 1+rng.IntN(300))
		runs = append([]*memRun{runOf(w)}, runs...)
		for k, v := range w {
			model[k] = v
		}
	}
	m := mergeRuns(runs)
	used := make([]bool, len(m.slabs))
	for _, e := range m.ents {
		used[e.slab] = true
	}
	if i := slices.Index(used, false); i >= 0 {
		t.Fatalf("merged run lists slab %d, which none of its entries uses", i)
	}
	if err := checkMemRun(m, model, probesFor(rng, model)); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkMergeRuns merges runs as the merger does: two whose keys
// interleave (a table written at random keys), two side by side (rows
// appended by row number), and eight interleaved, as a checkpoint walks a
// layer's runs. ns/op is per merged entry.
func BenchmarkMergeRuns(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const perRun = 20000
	shapes := []struct {
		name  string
		runs  int
		apart bool
	}{{"interleaved-2", 2, false}, {"side-by-side-2", 2, true}, {"interleaved-8", 8, false}}
	for _, shape := range shapes {
		var runs []*memRun
		entries := 0
		for i := range shape.runs {
			lo := 0
			if shape.apart {
				lo = (shape.runs - i) * 1_000_000 // newest highest
			}
			r := runOf(randomWritesIn(rng, perRun, lo, 1_000_000))
			entries += r.len()
			runs = append(runs, r)
		}
		b.Run(shape.name, func(b *testing.B) {
			for b.Loop() {
				mergeRuns(runs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*entries), "ns/entry")
		})
	}
}
