package storage

import (
	"bytes"
	"cmp"
	"slices"
)

// A memRun is what a memtable layer holds of one keyspace from a stretch of
// consecutive commits: one entry per key, the newest of those commits',
// sorted by key, tombstones included. A commit turns each keyspace of its
// transaction's tree into a run (runFromTree), and the merger later merges a
// keyspace's newer runs into one (mergeRuns), so a layer's keyspace is a
// short list of runs, newest first, whose first holder of a key decides it.
//
// A run never changes once built. A layer value lists the runs that make up
// its version and nothing newer, so a reader needs no version filter and no
// lock, and a commit adds its changes as one new run (a copy of a slice of
// entries) instead of inserting every entry into a shared structure.
//
// Entries refer to their bytes in arena slabs: a run built from a
// transaction's tree uses that transaction's arena as it is, and a merged
// run lists the slabs of the runs it merged, so neither copies a key or a
// value. The slabs stay alive until the last run that refers to them goes,
// which for a layer's runs is when the layer is dropped after its
// checkpoint: the layer's size counts them from their commit on.
type memRun struct {
	ents  []mentry
	slabs [][]byte
	// fence holds the key prefix of every fenceEvery-th entry, so that a
	// search of a large run does its first steps in a small array that
	// stays in the cache, and only its last few among the entries.
	fence []fencePost
}

// fenceEvery is the stride of a run's fence; runs shorter than
// fenceMinEntries are searched directly.
const (
	fenceEvery      = 32
	fenceMinEntries = 4 * fenceEvery
)

// entryBytes is what one entry of a run costs, for the layer's size.
const entryBytes = 32

func newRun(ents []mentry, slabs [][]byte) *memRun {
	r := &memRun{ents: ents, slabs: slabs}
	if len(ents) >= fenceMinEntries {
		r.fence = make([]fencePost, 0, (len(ents)+fenceEvery-1)/fenceEvery)
		for i := 0; i < len(ents); i += fenceEvery {
			r.fence = append(r.fence, fencePost{ents[i].p0, ents[i].p1})
		}
	}
	return r
}

// runFromTree makes a run of a transaction's tree of one keyspace, at its
// commit or when a join sets the tree aside (Tx.Join). Nothing changes the
// tree afterwards; its arena may take more entries, which it only appends.
func runFromTree(t *memtree) *memRun {
	return newRun(t.appendEntries(make([]mentry, 0, t.count)), t.ar.slabs())
}

// appendEntries appends the tree's entries to dst in key order.
func (t *memtree) appendEntries(dst []mentry) []mentry {
	var walk func(n *mnode)
	walk = func(n *mnode) {
		if n.children == nil {
			dst = append(dst, n.items...)
			return
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	if t.root != nil {
		walk(t.root)
	}
	return dst
}

func (r *memRun) len() int { return len(r.ents) }

// bytes is what the run's entries take (its slabs are counted when their
// transaction commits).
func (r *memRun) bytes() int64 { return int64(len(r.ents)) * entryBytes }

// search returns the index of the first entry whose key is >= the probe's.
func (r *memRun) search(p *probe) int {
	lo, hi := 0, len(r.ents)
	if r.fence != nil {
		// A fence slot whose prefix is below the probe's starts with a
		// smaller key, and one whose prefix is above it with a larger
		// key: the answer lies after the start of the last slot below
		// and at or before the start of the first slot above.
		below, n := 0, len(r.fence)
		for below < n {
			m := int(uint(below+n) >> 1)
			if r.fence[m].compare(p) < 0 {
				below = m + 1
			} else {
				n = m
			}
		}
		above, n := below, len(r.fence)
		for above < n {
			m := int(uint(above+n) >> 1)
			if r.fence[m].compare(p) <= 0 {
				above = m + 1
			} else {
				n = m
			}
		}
		if below > 0 {
			lo = (below - 1) * fenceEvery
		}
		if above < len(r.fence) {
			hi = above * fenceEvery
		}
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.compare(r.slabs, r.ents[m]) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// fencePost is the key prefix of a fence slot's first entry.
type fencePost struct{ p0, p1 uint64 }

// compare orders the post against the probe's prefix.
func (f fencePost) compare(p *probe) int {
	if c := cmp.Compare(f.p0, p.p0); c != 0 {
		return c
	}
	return cmp.Compare(f.p1, p.p1)
}

// get returns key's entry in the run: its value, or live false for a
// tombstone; found false when the run has no entry for key.
func (r *memRun) get(key []byte) (value []byte, live, found bool) {
	p := newProbe(key)
	i := r.search(&p)
	if i == len(r.ents) || p.compare(r.slabs, r.ents[i]) != 0 {
		return nil, false, false
	}
	v, live := entryValue(r.slabs, r.ents[i])
	return v, live, true
}

// compareEntries orders two entries of (possibly) different runs by key.
func compareEntries(sa [][]byte, a mentry, sb [][]byte, b mentry) int {
	switch {
	case a.p0 < b.p0:
		return -1
	case a.p0 > b.p0:
		return 1
	case a.p1 < b.p1:
		return -1
	case a.p1 > b.p1:
		return 1
	}
	return bytes.Compare(entryKey(sa, a), entryKey(sb, b))
}

// mergeRuns merges runs (newest first) into one: every key of any of them,
// with the newest run's entry. The result refers to the inputs' slabs, so
// it copies only entries, and it lists only the slabs its entries use: a
// key written by every commit (a counter, say) would otherwise drag along
// every commit's slab, and each merge would copy that ever longer list.
func mergeRuns(runs []*memRun) *memRun {
	total, nslabs := 0, 0
	for _, r := range runs {
		total += len(r.ents)
		nslabs += len(r.slabs)
	}
	// renumber maps an input slab (numbered through the runs, base[i] for
	// run i's first) to its number in the result, plus one (0: not used).
	renumber := make([]uint32, nslabs)
	base := make([]uint32, len(runs))
	for i := 1; i < len(runs); i++ {
		base[i] = base[i-1] + uint32(len(runs[i-1].slabs))
	}
	var slabs [][]byte
	out := make([]mentry, 0, total)
	m := newMergedIter(runs)
	for m.first(); m.valid(); m.next() {
		cur := m.cur()
		it := &m.its[cur]
		e := it.r.ents[it.i]
		in := base[cur] + e.slab
		if renumber[in] == 0 {
			slabs = append(slabs, it.r.slabs[e.slab])
			renumber[in] = uint32(len(slabs))
		}
		e.slab = renumber[in] - 1
		out = append(out, e)
	}
	return newRun(slices.Clip(out), slices.Clip(slabs))
}

// runIter walks a run: i is the entry it is on, valid while 0 <= i < len.
type runIter struct {
	r *memRun
	i int
}

func (it *runIter) valid() bool { return it.i >= 0 && it.i < len(it.r.ents) }
func (it *runIter) key() []byte { return entryKey(it.r.slabs, it.r.ents[it.i]) }
func (it *runIter) value() ([]byte, bool) {
	return entryValue(it.r.slabs, it.r.ents[it.i])
}
func (it *runIter) first() { it.i = 0 }
func (it *runIter) last()  { it.i = len(it.r.ents) - 1 }
func (it *runIter) next()  { it.i++ }
func (it *runIter) prev()  { it.i-- }
func (it *runIter) seekGE(key []byte) {
	p := newProbe(key)
	it.i = it.r.search(&p)
}
func (it *runIter) seekLT(key []byte) {
	p := newProbe(key)
	it.i = it.r.search(&p) - 1
}

// mergedIter walks several runs (newest first) forward as one, each key
// once with the newest run's entry for it: what a layer holds of a
// keyspace, as its checkpoint writes it, and what a merge makes of its
// runs.
//
// The valid iterators form a min-heap ordered by key, and on equal keys by
// age, newest first, so the root is on the current entry. Stepping an
// iterator costs about two comparisons a level of the heap, where looking
// at every iterator cost two comparisons an iterator for every entry:
// merges of eight runs or more are common (a merge that carries, like a
// binary counter; a checkpoint's walk over a layer's runs). A key that
// several runs hold costs a step of each, so runs that rewrite the same
// keys gain less. When the root, stepped, stays the root, its new key is
// at or below every other iterator's (equal only to older runs'), so none
// of them was on the smaller key it left: two runs side by side (a table's
// rows appended by row number) merge at one comparison an entry.
type mergedIter struct {
	its  []runIter
	heap []int // indexes into its
}

func newMergedIter(runs []*memRun) *mergedIter {
	m := &mergedIter{its: make([]runIter, len(runs)), heap: make([]int, 0, len(runs))}
	for i, r := range runs {
		m.its[i] = runIter{r: r}
	}
	return m
}

func (m *mergedIter) first() {
	for i := range m.its {
		m.its[i].first()
	}
	m.settle()
}

func (m *mergedIter) seekGE(key []byte) {
	for i := range m.its {
		m.its[i].seekGE(key)
	}
	m.settle()
}

// settle builds the heap of the valid iterators.
func (m *mergedIter) settle() {
	m.heap = m.heap[:0]
	for i := range m.its {
		if m.its[i].valid() {
			m.heap = append(m.heap, i)
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
}

// before orders iterators i and j in the heap: by their entries' keys, and
// on the same key the newer run first.
func (m *mergedIter) before(i, j int) bool {
	a, b := &m.its[i], &m.its[j]
	c := compareEntries(a.r.slabs, a.r.ents[a.i], b.r.slabs, b.r.ents[b.i])
	return c < 0 || (c == 0 && i < j)
}

// down moves the heap's element at i down to its place and reports
// whether it moved.
func (m *mergedIter) down(i int) bool {
	h := m.heap
	x, start := h[i], i
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && m.before(h[r], h[c]) {
			c = r
		}
		if !m.before(h[c], x) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = x
	return i != start
}

// stepRoot steps the root's iterator and restores the heap; false says
// the same iterator is still the root.
func (m *mergedIter) stepRoot() bool {
	it := &m.its[m.heap[0]]
	it.next()
	if it.valid() {
		return m.down(0)
	}
	last := len(m.heap) - 1
	m.heap[0] = m.heap[last]
	m.heap = m.heap[:last]
	if last > 0 {
		m.down(0)
	}
	return true
}

// cur is the iterator on the current entry (valid only).
func (m *mergedIter) cur() int { return m.heap[0] }

func (m *mergedIter) valid() bool { return len(m.heap) > 0 }
func (m *mergedIter) key() []byte { return m.its[m.heap[0]].key() }
func (m *mergedIter) value() ([]byte, bool) {
	return m.its[m.heap[0]].value()
}

// next moves every iterator on the current key past it: the root's, then
// those of older runs that have the key too, which come to the root in
// turn.
func (m *mergedIter) next() {
	c := &m.its[m.heap[0]]
	e, slabs := c.r.ents[c.i], c.r.slabs
	if !m.stepRoot() {
		return
	}
	for len(m.heap) > 0 {
		t := &m.its[m.heap[0]]
		if compareEntries(t.r.slabs, t.r.ents[t.i], slabs, e) != 0 {
			return
		}
		m.stepRoot()
	}
}
