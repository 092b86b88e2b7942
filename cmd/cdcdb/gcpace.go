package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The collector's pace.
//
// Go collects once the heap has grown by as much as the last collection
// found live (GOGC=100). cdcdb's live heap is small next to what a write
// load allocates and soon drops: log records, checkpoint blocks, merged
// memtable runs, some 3 to 5 KiB for each change event of an ingest. At
// GOGC=100 a collection came every 50 to 90 MB allocated: an SCD TYPE 2
// feed of a million events collected 95 times in 7 s, and the collector's
// own work was 7% of the server's CPU (with 160 MiB of headroom: 20
// times, 2%).
//
// So the heap may grow by a fixed headroom instead, when that is more:
// after every collection, GOGC is set so that the next one comes once the
// heap has grown by max(live, headroom). A large live heap is paced as Go
// paces it; a small one costs at most the headroom more memory; the memory
// limit (-memory-limit) bounds the heap either way.

// The runtime paces a heap with less live than heapMinimum (before the
// first collection: nothing) as if it had that much; maxGCPercent bounds
// GOGC for a tiny heap with a huge headroom.
const (
	heapMinimum  = 4 << 20
	maxGCPercent = 100_000
)

// gcPercentFor returns the GOGC that lets a heap with live bytes live grow
// by max(live, headroom) before the next collection.
func gcPercentFor(live, headroom uint64) int {
	p := headroom * 100 / max(live, heapMinimum)
	return int(min(max(p, 100), maxGCPercent))
}

// gcPacer sets GOGC after every collection (see above) until stopped.
type gcPacer struct {
	headroom uint64
	stopped  atomic.Bool
	// set is how many times it set GOGC (tests).
	set atomic.Int64
}

// liveHeapMetric is the heap the last collection marked live.
const liveHeapMetric = "/gc/heap/live:bytes"

// startGCPacer paces the collector with the given headroom, from now on.
func startGCPacer(headroom uint64) *gcPacer {
	p := &gcPacer{headroom: headroom}
	p.adjust()
	p.arm()
	return p
}

// stop leaves GOGC as it is and stops changing it.
func (p *gcPacer) stop() { p.stopped.Store(true) }

// arm calls adjust after the next collection: a cleanup runs once its
// object is found unreachable, which a fresh object with no references
// is at the next collection.
func (p *gcPacer) arm() {
	runtime.AddCleanup(new(gcTick), func(p *gcPacer) {
		if p.stopped.Load() {
			return
		}
		p.adjust()
		p.arm()
	}, p)
}

// gcTick is the object whose cleanup marks a collection. It holds a
// pointer so that the allocator does not pack it with other small objects
// (whose cleanups may then never run).
type gcTick struct{ _ *byte }

func (p *gcPacer) adjust() {
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return // not measured by this runtime: leave Go's pace
	}
	debug.SetGCPercent(gcPercentFor(s[0].Value.Uint64(), p.headroom))
	p.set.Add(1)
}
