package storage

import (
	"sync"
	"sync/atomic"
)

// Which keyspaces' runs get a Bloom filter.
//
// A run's filter lets Get skip a run that does not hold the key without
// reading any of its blocks (filerun.go). Building it costs a cache miss
// per key added, as each key sets bits in a block of the filter picked at
// random: in the SCD TYPE 2 benchmark feed, 7.5% of the server's CPU went
// to filters of runs that Gets almost never consulted. A CDC flow's source
// table, its event log and most of its target are written in bulk and
// read through cursors, which filters do not serve; a table with a primary
// key, whose every INSERT first asks Get whether the key is taken, is
// point-read as often as it is written.
//
// So a keyspace's new runs get a filter when, since Open, it has seen at
// least one Get (Delete asks one too) per filterWritesPerGet entries the
// checkpoints wrote into its runs, or when nothing is known yet (no
// entries written). A compaction decides the same way, without counting
// what it rewrites. A keyspace whose reads change is served by the next
// runs: unfiltered runs only cost the Gets that reach them a block read.

// filterWritesPerGet is how many checkpointed entries one Get since Open
// pays a filter for. A filter saves a Get of a key the run lacks a block
// read and search (a microsecond or more), and costs each key added about
// a cache miss (a tenth of that): one Get in 16 entries is a margin.
const filterWritesPerGet = 16

// pointReads counts, per keyspace, the Gets its transactions made and the
// entries checkpoints wrote into its runs.
type pointReads struct {
	// gets maps a keyspace's name to its *atomic.Int64 count of Gets:
	// read transactions add theirs as they end, many at once.
	gets sync.Map
	mu   sync.Mutex
	// written counts the entries checkpoints wrote into each keyspace's
	// runs (the flusher's, under mu).
	written map[string]int64
}

// noteGets adds n Gets of keyspace name.
func (p *pointReads) noteGets(name string, n int64) {
	c, ok := p.gets.Load(name)
	if !ok {
		c, _ = p.gets.LoadOrStore(name, new(atomic.Int64))
	}
	c.(*atomic.Int64).Add(n)
}

// wantFilter reports whether a run of keyspace name that adds entries
// newly written entries (0 for a compaction's) gets a filter, and counts
// the entries.
func (p *pointReads) wantFilter(name string, entries int) bool {
	var gets int64
	if c, ok := p.gets.Load(name); ok {
		gets = c.(*atomic.Int64).Load()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.written == nil {
		p.written = map[string]int64{}
	}
	written := p.written[name] + int64(entries)
	p.written[name] = written
	return written == 0 || gets*filterWritesPerGet >= written
}

// forget drops what is known of keyspace name, once it is dropped or
// emptied: a keyspace made again under the name starts afresh.
func (p *pointReads) forget(name string) {
	p.gets.Delete(name)
	p.mu.Lock()
	delete(p.written, name)
	p.mu.Unlock()
}

// notePointReads adds the Gets of tx's keyspaces to the database's counts.
// It runs as tx ends.
func (tx *Tx) notePointReads() {
	if s := tx.firstSpace; s != nil && s.gets > 0 {
		tx.db.pointReads.noteGets(s.name, s.gets)
	}
	for _, s := range tx.spaces {
		if s.gets > 0 {
			tx.db.pointReads.noteGets(s.name, s.gets)
		}
	}
}
