package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, headroom uint64
		want           int
	}{
		{0, 128 * mib, 3200},             // before the first collection: the runtime's 4 MiB base
		{1 * mib, 128 * mib, 3200},       // less live than that: the same
		{50 * mib, 128 * mib, 256},       // grow by the headroom
		{128 * mib, 128 * mib, 100},      // by as much as is live: Go's own pace
		{400 * mib, 128 * mib, 100},      // never more often than Go's pace
		{4 * mib, 1 << 40, maxGCPercent}, // a huge headroom is bounded
	} {
		if got := gcPercentFor(c.live, c.headroom); got != c.want {
			t.Errorf("gcPercentFor(%d MiB, %d MiB) = %d, want %d", c.live/mib, c.headroom/mib, got, c.want)
		}
	}
}

func readUint64Metric(t *testing.T, name string) uint64 {
	t.Helper()
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatalf("metric %s is not measured by this runtime", name)
	}
	return s[0].Value.Uint64()
}

// waitForSet waits until the pacer has set GOGC more than n times.
func waitForSet(t *testing.T, p *gcPacer, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for p.set.Load() <= n {
		if time.Now().After(deadline) {
			t.Fatalf("the pacer set GOGC %d times in 10s of collections, want more than %d", p.set.Load(), n)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestGCPacerSetsGOGCAfterEachCollection: after each collection (twice
// over: the pacer re-arms), GOGC is what gcPercentFor gives for the heap
// that collection found live; once stopped, the pacer leaves GOGC alone.
func TestGCPacerSetsGOGCAfterEachCollection(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	const headroom = 512 << 20 // more than a test's heap: GOGC well above 100
	p := startGCPacer(headroom)
	defer p.stop()
	checked := 0
	for attempt := 0; attempt < 20 && checked < 2; attempt++ {
		n := p.set.Load()
		waitForSet(t, p, n)
		live := readUint64Metric(t, liveHeapMetric)
		gogc := readUint64Metric(t, "/gc/gogc:percent")
		if p.set.Load() != n+1 {
			continue // another collection came in between: read again
		}
		if want := gcPercentFor(live, headroom); int(gogc) != want || want <= 100 {
			t.Fatalf("after a collection that found %d bytes live, GOGC is %d, want %d (above 100)", live, gogc, want)
		}
		checked++
	}
	if checked < 2 {
		t.Fatalf("only %d collections were alone long enough to compare GOGC with the live heap, want 2", checked)
	}

	p.stop()
	debug.SetGCPercent(100)
	n := p.set.Load()
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := readUint64Metric(t, "/gc/gogc:percent"); got != 100 || p.set.Load() != n {
		t.Fatalf("after stop, collections set GOGC to %d (%d more times), want it left at 100", got, p.set.Load()-n)
	}
}
