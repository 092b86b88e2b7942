package storage

import (
	"runtime"
	"slices"
	"sync/atomic"
)

// A layer is one memtable: the changes of a run of consecutive commits, the
// ones after the version it was started at up to hi, kept in memory on top
// of the file. The newest layer
// of a view is the active one, which commits keep adding to; older layers
// are frozen, waiting for (or going through) their checkpoint into the file.
//
// A layer's entries are in skiplists (one per keyspace) that hold every
// version a commit wrote, so all versions of the active layer share them; a
// commit publishes a new layer value only for what else changes: its
// version range and the keyspaces' states (spaceMap).
type layer struct {
	// size is what the layer's arenas (one per keyspace's skiplist) hold,
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
// fields never change once published; its list grows with later versions,
// which readers of this one do not see.
type spaceState struct {
	// list holds the layer's entries of the keyspace (nil: none yet).
	list *skiplist
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
	// reset, exists, seq and hasSeq mean what they do in spaceState.
	reset, exists bool
	seq           uint64
	hasSeq        bool
	// writes counts changes, so cursors know to find their place again.
	writes uint64
}

// writeSet is the changes of one write transaction (or of a WAL replay) on
// top of a view. They live in the transaction's own arena until commit,
// which copies them into the active layer.
type writeSet struct {
	base    *view
	ar      *arena
	touched map[string]*txSpace
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

func (w *writeSet) put(name string, key, value []byte) {
	st := w.state(name)
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
	st.tree = newMemtree(w.ar)
	st.reset, st.exists = true, true
	st.seq, st.hasSeq = 0, true
	st.writes++
}

func (w *writeSet) drop(name string) {
	st := w.state(name)
	st.tree = nil
	st.reset, st.exists = true, false
	st.seq, st.hasSeq = 0, false
	st.writes++
}

// spaceSources is where a keyspace's entries are, for one transaction:
// the writer's own tree, the layers' lists newest first, and whether the
// file's bucket lies under them.
type spaceSources struct {
	mine  *txSpace
	lists []*skiplist
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
		if st.list != nil {
			src.lists = append(src.lists, st.list)
		}
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

// publish copies the write set's changes into the active layer (its base
// view's, or a fresh one that follows it) at version hi and returns the
// layer's new value. The write set must not be used afterwards.
func (w *writeSet) publish(active *layer, hi uint64) *layer {
	changed := make(map[string]*spaceState, len(w.touched))
	var fills []listFill
	for name, ts := range w.touched {
		if ts.tree != nil && ts.tree.count == 0 && !ts.reset && !ts.hasSeq {
			continue // touched but nothing to say
		}
		st := &spaceState{}
		if prev := active.spaces.get(name); prev != nil {
			*st = *prev
		}
		if ts.reset {
			st.reset, st.exists, st.list = true, ts.exists, nil
		}
		if ts.hasSeq {
			st.seq, st.hasSeq = ts.seq, true
		} else if ts.reset {
			st.seq, st.hasSeq = 0, false
		}
		if ts.tree != nil && ts.tree.count > 0 {
			if st.list == nil {
				st.list = newSkiplist(active.size)
			}
			fills = append(fills, listFill{list: st.list, tree: ts.tree})
		}
		changed[name] = st
	}
	fillLists(fills, hi)
	return &layer{size: active.size, spaces: active.spaces.with(changed), hi: hi}
}

// A listFill is one keyspace's part of a publish: its entries of the
// transaction, to go into its list in the active layer.
type listFill struct {
	list *skiplist
	tree *memtree
}

func (f listFill) run(version uint64) {
	var ins inserter
	it := memiter{t: f.tree}
	for it.first(); it.valid(); it.next() {
		v, live := it.value()
		ins.insert(f.list, it.key(), v, !live, version)
	}
}

// parallelFill is how many entries a publish must have before it spreads
// its keyspaces over two goroutines: below it, starting one costs more than
// it saves.
const parallelFill = 2048

// fillLists inserts every fill's entries at version. A skiplist insert is
// mostly cache misses, and a commit of a CDC batch writes thousands of
// entries into several keyspaces (source rows, the flow's log, target rows,
// their history), so when there is another CPU a helper goroutine takes
// keyspaces too: both claim the next one, biggest first, until none is left,
// and each list, and its arena, still has a single writer. Claiming rather
// than sharing out beforehand matters on a busy machine: a helper that gets a
// CPU late (on two cores the flusher often has the other) leaves its share
// to this goroutine instead of making it wait, and this goroutine waits at
// most for the one keyspace the helper is inserting. The commit holds the
// writer slot throughout, and no reader sees version before it returns.
func fillLists(fills []listFill, version uint64) {
	total := 0
	for _, f := range fills {
		total += f.tree.count
	}
	if len(fills) < 2 || total < parallelFill || runtime.GOMAXPROCS(0) < 2 {
		for _, f := range fills {
			f.run(version)
		}
		return
	}
	slices.SortFunc(fills, func(a, b listFill) int { return b.tree.count - a.tree.count })
	var claimed atomic.Int64
	runClaimed := func() (p any) {
		// A panic (a bug) goes on in the committing goroutine, whose
		// caller fails the database, once neither is writing any more.
		defer func() { p = recover() }()
		for {
			i := claimed.Add(1) - 1
			if i >= int64(len(fills)) {
				return nil
			}
			fills[i].run(version)
		}
	}
	done := make(chan any, 1)
	go func() { done <- runClaimed() }()
	p := runClaimed()
	if q := <-done; p == nil {
		p = q
	}
	if p != nil {
		panic(p)
	}
}
