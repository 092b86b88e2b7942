package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// checkList compares what a snapshot of s at version v reads with want.
func checkList(s *skiplist, v uint64, want refMap, rng *rand.Rand) error {
	live := map[string]string{}
	for k, x := range want {
		if !x.tomb {
			live[k] = x.v
		}
	}
	// A tombstone hides its key from iteration but is still the version
	// get finds.
	for k, x := range want {
		val, isLive, found := s.get([]byte(k), v)
		if !found || isLive == x.tomb || string(val) != x.v {
			return fmt.Errorf("get %q at %d = %q live=%v found=%v, want %+v", k, v, val, isLive, found, x)
		}
	}
	keys := want.sortedKeys()
	it := &listIter{s: s, version: v}
	var got []string
	for it.first(); it.valid(); it.next() {
		got = append(got, string(it.key()))
	}
	if !slices.Equal(got, keys) {
		return fmt.Errorf("forward at %d: %q, want %q", v, got, keys)
	}
	got = got[:0]
	for it.last(); it.valid(); it.prev() {
		got = append(got, string(it.key()))
	}
	slices.Reverse(got)
	if !slices.Equal(got, keys) {
		return fmt.Errorf("backward at %d: %q, want %q", v, got, keys)
	}
	for range 30 {
		p := randKey(rng)
		i, _ := slices.BinarySearch(keys, p)
		it.seekGE([]byte(p))
		if (i == len(keys)) == it.valid() || (it.valid() && string(it.key()) != keys[i]) {
			return fmt.Errorf("seekGE %q at %d wrong", p, v)
		}
		it.seekLT([]byte(p))
		if (i == 0) == it.valid() || (it.valid() && string(it.key()) != keys[i-1]) {
			return fmt.Errorf("seekLT %q at %d wrong", p, v)
		}
	}
	return nil
}

// TestSkiplistVersions inserts versions of random keys and checks that
// every snapshot version reads as the model did at that version.
func TestSkiplistVersions(t *testing.T) {
	testSkiplistVersions(t, randKey)
}

// TestSkiplistHotKeys: the same over a handful of keys, each with hundreds
// of versions, so iterators seek past a key's versions instead of stepping.
func TestSkiplistHotKeys(t *testing.T) {
	testSkiplistVersions(t, func(rng *rand.Rand) string { return fmt.Sprintf("hot%d", rng.IntN(6)) })
}

func testSkiplistVersions(t *testing.T, randKey func(*rand.Rand) string) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	s := newSkiplist(nil)
	model := refMap{}
	snaps := map[uint64]refMap{0: {}}
	for v := uint64(1); v <= 400; v++ {
		// One commit: several keys, each once.
		seen := map[string]bool{}
		for range 1 + rng.IntN(20) {
			k := randKey(rng)
			if seen[k] {
				continue
			}
			seen[k] = true
			val := fmt.Sprintf("v%d", v)
			switch rng.IntN(60) {
			case 0:
				val = string(make([]byte, largeEntry+rng.IntN(100)))
			case 1:
				val = string(bytes.Repeat([]byte{'z'}, slabSize+rng.IntN(100)))
			}
			tomb := rng.IntN(5) == 0
			if tomb {
				val = ""
			}
			s.insert([]byte(k), []byte(val), tomb, v)
			model[k] = refVal{val, tomb}
		}
		snaps[v] = model.clone()
	}
	for v, want := range snaps {
		if v%7 == 0 || v == 400 {
			if err := checkList(s, v, want, rng); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSkiplistConcurrentReaders: readers at fixed versions read exactly
// their snapshot while the writer keeps inserting newer versions (run with
// -race to check the publication).
func TestSkiplistConcurrentReaders(t *testing.T) {
	s := newSkiplist(nil)
	rng := rand.New(rand.NewPCG(5, 5))
	model := refMap{}
	var mu sync.Mutex
	snaps := map[uint64]refMap{}
	insertVersion := func(v uint64) {
		seen := map[string]bool{}
		for range 30 {
			k := randKey(rng)
			if seen[k] {
				continue
			}
			seen[k] = true
			s.insert([]byte(k), []byte(fmt.Sprint(v)), false, v)
			model[k] = refVal{v: fmt.Sprint(v)}
		}
		mu.Lock()
		snaps[v] = model.clone()
		mu.Unlock()
	}
	insertVersion(1)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	stop := make(chan struct{})
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rrng := rand.New(rand.NewPCG(uint64(r), 9))
			for {
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				v := uint64(1 + rrng.IntN(len(snaps)))
				want := snaps[v]
				mu.Unlock()
				if err := checkList(s, v, want, rrng); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for v := uint64(2); v <= 150; v++ {
		insertVersion(v)
	}
	close(stop)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
}
