package storage

import "sync/atomic"

// A layer is one memtable: the changes of a run of consecutive commits, the
// ones after the version it was started at up to hi, kept in memory on top
// of the file. The newest layer
// of a view is the active one, which commits keep adding to; older layers
// are frozen, waiting for (or going through) their checkpoint into the file.
//
// A layer's entries are in runs (memrun.go), a few per keyspace; a commit
// publishes a new value of the active layer with one more run for each
// keyspace it wrote, and the keyspaces' states (spaceMap) for the rest.
type layer struct {
	// size is what the layer's runs and the arenas they refer to hold,
	// shared by every value of the layer.
	size   *atomic.Int64
	spaces spaceMap
	// hi is the version of the layer's last commit (the version the layer
	// was started at while it has none).
	hi uint64
	// done is set once the layer's checkpoint committed: the file holds all
	// of it, so views built later leave it out.
	done atomic.Bool
}

// spaceState is what a layer knows of one keyspace, as of one version. Its
// fields never change once published.
type spaceState struct {
	// runs hold the layer's entries of the keyspace, newest first.
	runs []*memRun
	// reset says the keyspace was created or dropped within the layer, so
	// nothing below the layer counts for it; exists says which.
	reset, exists bool
	// seq is the keyspace's sequence counter, when the layer set it.
	seq    uint64
	hasSeq bool
}

// newLayer starts an empty layer on top of version after.
func newLayer(after uint64) *layer {
	return &layer{size: new(atomic.Int64), hi: after}
}

// empty reports whether the layer holds no change at all.
func (l *layer) empty() bool { return l.spaces.empty() }

// A view is what one transaction reads: the committed state at version,
// as its layers (newest first; layers[0] is the active one) over the file.
type view struct {
	version uint64
	layers  []*layer
}

// emptyView is what an ended transaction sees: nothing. Never modified.
var emptyView view

// without returns v without the layers already checkpointed.
func (v *view) without() *view {
	keep := v.layers[:0:0]
	for _, l := range v.layers {
		if !l.done.Load() {
			keep = append(keep, l)
		}
	}
	if len(keep) == len(v.layers) {
		return v
	}
	return &view{version: v.version, layers: keep}
}

// txSpace is a write transaction's own changes to one keyspace.
type txSpace struct {
	// tree holds the keyspace's entries the transaction wrote (nil once it
	// dropped the keyspace).
	tree *memtree
	// runs hold what the transaction wrote before tree, newest first: the
	// trees of the forks it joined, and its own tree as it was at each such
	// join (Tx.Join). A join that makes them runs, rather than putting the
	// fork's entries into tree again, costs the joining goroutine a walk of
	// each tree; commit publishes each as it is.
	runs []*memRun
	// reset, exists, seq and hasSeq mean what they do in spaceState.
	reset, exists bool
	seq           uint64
	hasSeq        bool
	// writes counts changes, so cursors know to find their place again.
	writes uint64
	// walSpace is the keyspace's number in the transaction's log record,
	// plus one (0: not known yet); see walRecord.putIn. Only a write
	// transaction's own record may set it: a replay's write set spans
	// many records, each numbering keyspaces its own way.
	walSpace uint64
}

// writeSet is the changes of one write transaction (or of a WAL replay) on
// top of a view. They live in the transaction's own arena until commit,
// which copies them into the active layer.
type writeSet struct {
	base    *view
	ar      *arena
	touched map[string]*txSpace
	// adopted are the arenas of forks whose trees this write set took
	// over at a join (Tx.Join).
	adopted []*arena
}

func newWriteSet(base *view) *writeSet { return &writeSet{base: base} }

// state returns the write set's own state of a keyspace, made on first use.
func (w *writeSet) state(name string) *txSpace {
	if st, ok := w.touched[name]; ok {
		return st
	}
	if w.ar == nil {
		w.ar = newSmallArena()
		w.touched = map[string]*txSpace{}
	}
	st := &txSpace{tree: newMemtree(w.ar)}
	w.touched[name] = st
	return st
}

// unchanged reports whether the transaction touched the keyspace but left
// it as it was: nothing written, made, dropped or sequenced.
func (st *txSpace) unchanged() bool {
	return st.tree != nil && st.tree.count == 0 && len(st.runs) == 0 && !st.reset && !st.hasSeq
}

func (w *writeSet) put(name string, key, value []byte) { w.state(name).put(key, value) }

// put sets key to value in the keyspace's tree.
func (st *txSpace) put(key, value []byte) {
	st.tree.set(key, value, false)
	st.writes++
}

func (w *writeSet) delete(name string, key []byte) {
	st := w.state(name)
	st.tree.set(key, nil, true)
	st.writes++
}

func (w *writeSet) setSequence(name string, v uint64) {
	st := w.state(name)
	st.seq, st.hasSeq = v, true
	st.writes++
}

func (w *writeSet) create(name string) {
	st := w.state(name)
	st.tree, st.runs = newMemtree(w.ar), nil
	st.reset, st.exists = true, true
	st.seq, st.hasSeq = 0, true
	st.writes++
}

func (w *writeSet) drop(name string) {
	st := w.state(name)
	st.tree, st.runs = nil, nil
	st.reset, st.exists = true, false
	st.seq, st.hasSeq = 0, false
	st.writes++
}

// spaceSources is where a keyspace's entries are, for one transaction:
// the writer's own tree, the layers' runs newest first, and whether the
// file's bucket lies under them.
type spaceSources struct {
	mine *txSpace
	runs []*memRun
	// file is false when the writer or a layer created or dropped the
	// keyspace: the bucket in the file, if any, is of an earlier keyspace
	// of that name.
	file bool
	// exists is known when file is false.
	exists bool
	// seq is the sequence counter when a layer set it (seqKnown).
	seq      uint64
	seqKnown bool
}

// resolveSpace finds a keyspace's sources: mine (nil: untouched), then the
// view's layers.
func resolveSpace(mine *txSpace, v *view, name string) spaceSources {
	src := spaceSources{mine: mine}
	if mine != nil {
		src.runs = append(src.runs, mine.runs...)
		if mine.hasSeq {
			src.seq, src.seqKnown = mine.seq, true
		}
		if mine.reset {
			src.exists, src.seqKnown = mine.exists, true
			return src
		}
	}
	for _, l := range v.layers {
		st := l.spaces.get(name)
		if st == nil {
			continue
		}
		src.runs = append(src.runs, st.runs...)
		if st.hasSeq && !src.seqKnown {
			src.seq, src.seqKnown = st.seq, true
		}
		if st.reset {
			src.exists = st.exists
			src.seqKnown = true
			return src
		}
	}
	src.file = true
	return src
}

// publish makes the write set's changes a new value of the active layer
// (its base view's, or a fresh one that follows it) at version hi: each
// keyspace it wrote gets its entries as a new run, and merged, the results
// of the merger, replace the runs they were made of. The write set must not
// be used afterwards. It also returns the names of the keyspaces whose runs
// changed, and how many merges it put in place.
func (w *writeSet) publish(active *layer, hi uint64, merged []mergeResult) (l *layer, changedNames []string, installed int) {
	changed := make(map[string]*spaceState, len(w.touched)+len(merged))
	state := func(name string) *spaceState {
		if st, ok := changed[name]; ok {
			return st
		}
		st := &spaceState{}
		if prev := active.spaces.get(name); prev != nil {
			*st = *prev
		}
		changed[name] = st
		return st
	}
	for _, m := range merged {
		if m.layer != active.size {
			continue // its layer was frozen meanwhile
		}
		cur := changed[m.name]
		if cur == nil {
			cur = active.spaces.get(m.name)
		}
		if cur == nil || m.at(cur.runs) < 0 {
			continue // its inputs are gone (merged, or the keyspace reset)
		}
		st := state(m.name)
		st.runs = m.replace(st.runs)
		active.size.Add(m.out.bytes() - m.inputBytes())
		installed++
	}
	added := false
	for name, ts := range w.touched {
		if ts.unchanged() {
			continue // touched but nothing to say
		}
		st := state(name)
		if ts.reset {
			st.reset, st.exists, st.runs = true, ts.exists, nil
		}
		if ts.hasSeq {
			st.seq, st.hasSeq = ts.seq, true
		} else if ts.reset {
			st.seq, st.hasSeq = 0, false
		}
		runs := ts.runs
		if ts.tree != nil && ts.tree.count > 0 {
			runs = append([]*memRun{runFromTree(ts.tree)}, runs...)
		}
		if len(runs) > 1 {
			// One run a commit, as readers and the merger expect: merged
			// here, while the log writer writes the commit's record.
			runs = []*memRun{mergeRuns(runs)}
		}
		if len(runs) > 0 {
			st.runs = append(runs, st.runs...)
			for _, r := range runs {
				active.size.Add(r.bytes())
			}
			added = true
		}
	}
	if added {
		// The slabs every new run refers to, once.
		var n int64
		for _, ar := range append([]*arena{w.ar}, w.adopted...) {
			for _, slab := range ar.slabs() {
				n += int64(cap(slab))
			}
		}
		active.size.Add(n)
	}
	names := make([]string, 0, len(changed))
	for name := range changed {
		names = append(names, name)
	}
	return &layer{size: active.size, spaces: active.spaces.with(changed), hi: hi}, names, installed
}
