package storage

import "sync/atomic"

// A layer is one memtable: the changes of a run of consecutive commits
// (versions lo+1 .. hi), kept in memory on top of the file. The newest layer
// of a view is the active one, which commits keep replacing with a newer
// version of itself; older layers are frozen, waiting for (or going through)
// their checkpoint into the file.
//
// A published layer is immutable: a commit publishes a new layer value that
// shares the arena and the unchanged keyspace states of the one it replaces.
type layer struct {
	ar     *arena
	spaces spaceMap
	lo, hi uint64
	// done is set once the layer's checkpoint committed: the file holds all
	// of it, so views built later leave it out.
	done atomic.Bool
}

// spaceState is what a layer knows of one keyspace.
type spaceState struct {
	// tree holds the layer's entries of the keyspace (nil: none).
	tree *memtree
	// reset says the keyspace was created or dropped within the layer, so
	// nothing below the layer counts for it; exists says which.
	reset, exists bool
	// seq is the keyspace's sequence counter, when the layer set it.
	seq    uint64
	hasSeq bool
	// writes counts changes made by the transaction that owns this state,
	// so its cursors know to find their place again.
	writes uint64
}

func newLayer(lo uint64) *layer {
	return &layer{ar: newArena(), lo: lo, hi: lo}
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

// spaceSources is where a keyspace's entries are, for one transaction: the
// trees of the layers that have entries, newest first, and whether the
// file's bucket lies under them.
type spaceSources struct {
	trees []*memtree
	// file is false when a layer created or dropped the keyspace: the
	// bucket in the file, if any, is of an earlier keyspace of that name.
	file bool
	// exists is known when file is false.
	exists bool
	// seq is the sequence counter when a layer set it (seqKnown).
	seq      uint64
	seqKnown bool
}

// resolveSpace finds a keyspace's sources in states, newest first.
func resolveSpace(states []*spaceState) spaceSources {
	var src spaceSources
	for _, st := range states {
		if st == nil {
			continue
		}
		if st.tree != nil && st.tree.count > 0 {
			src.trees = append(src.trees, st.tree)
		}
		if st.hasSeq && !src.seqKnown {
			src.seq, src.seqKnown = st.seq, true
		}
		if st.reset {
			src.exists = st.exists
			if !src.seqKnown {
				src.seqKnown = true
			}
			return src
		}
	}
	src.file = true
	return src
}

// writeSet is the changes of one write transaction (or of a WAL replay) on
// top of a view: its own versions of the active layer's keyspace states.
type writeSet struct {
	base    *view
	owner   uint64
	touched map[string]*spaceState
}

func newWriteSet(base *view, owner uint64) *writeSet {
	return &writeSet{base: base, owner: owner}
}

// state returns the write set's own state of a keyspace, made on first use
// from the active layer's (its tree cloned, so that changing it changes
// nothing published).
func (w *writeSet) state(name string) *spaceState {
	if st, ok := w.touched[name]; ok {
		return st
	}
	active := w.base.layers[0]
	st := &spaceState{}
	if prev := active.spaces.get(name); prev != nil {
		*st = *prev
		st.writes = 0
		if prev.tree != nil {
			st.tree = prev.tree.clone(w.owner)
		}
	}
	if st.tree == nil {
		st.tree = newMemtree(active.ar, w.owner)
	}
	if w.touched == nil {
		w.touched = map[string]*spaceState{}
	}
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
	st.tree = newMemtree(w.base.layers[0].ar, w.owner)
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

// states lists what the view and the write set know of a keyspace, newest
// first, for resolveSpace.
func (w *writeSet) states(name string) []*spaceState {
	out := make([]*spaceState, 0, len(w.base.layers))
	if st, ok := w.touched[name]; ok {
		out = append(out, st)
	} else {
		out = append(out, w.base.layers[0].spaces.get(name))
	}
	for _, l := range w.base.layers[1:] {
		out = append(out, l.spaces.get(name))
	}
	return out
}

// publish returns the active layer with the write set's changes, at
// version hi. The write set must not be used afterwards.
func (w *writeSet) publish(hi uint64) *layer {
	active := w.base.layers[0]
	changed := make(map[string]*spaceState, len(w.touched))
	for name, st := range w.touched {
		if st.tree != nil && st.tree.count == 0 && !st.reset && !st.hasSeq {
			continue // touched but nothing to say
		}
		changed[name] = st
	}
	return &layer{ar: active.ar, spaces: active.spaces.with(changed), lo: active.lo, hi: hi}
}

// viewStates lists a view's states of a keyspace, newest first.
func viewStates(v *view, name string) []*spaceState {
	out := make([]*spaceState, len(v.layers))
	for i, l := range v.layers {
		out[i] = l.spaces.get(name)
	}
	return out
}
