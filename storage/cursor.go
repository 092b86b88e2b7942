package storage

import (
	"bytes"
	"slices"
)

// Cursor walks a keyspace in key order. Keys and values it returns are valid
// only until the Tx ends, and not to be modified. At either end the methods
// return a nil key.
//
// It merges the keyspace's sources (the writer's tree, memtable runs, newest
// first, then the file's runs): at each key the newest source decides, and a tombstone
// there hides the key. The writer may change the keyspace while a cursor is
// on it: the cursor finds its place again from its current key, so Next
// moves to the first key after it (and after Cursor.Delete, to the key that
// followed the deleted one).
type Cursor struct {
	s    *Space
	srcs []cursorSource
	// The sources themselves, kept to be reused when the cursor is built
	// again (after the writer changed the keyspace).
	tree  treeSource
	runs  []runSource
	files []fileRunIter
	// Room for the sources of a keyspace with few runs, so that opening a
	// cursor (once per point query) is one allocation.
	srcBuf  [4]cursorSource
	runBuf  [2]runSource
	fileBuf [2]fileRunIter
	gen     uint64
	writes  uint64
	// cur is the key the cursor is on (nil: none, at an end or before the
	// first move). fwd says which way it last moved: moving forward, every
	// source is on its first key >= cur; backward, on its last key <= cur.
	cur        []byte
	fwd        bool
	positioned bool
}

// cursorSource is one sorted source of a merged cursor.
type cursorSource interface {
	seekGE(key []byte)
	seekLT(key []byte)
	first()
	last()
	next()
	prev()
	valid() bool
	key() []byte
	value() (v []byte, live bool)
}

func (c *Cursor) build() {
	s := c.s
	s.refresh()
	c.gen = s.tx.gen
	c.writes = c.writeCount()
	if c.srcs == nil {
		c.srcs, c.runs, c.files = c.srcBuf[:0], c.runBuf[:0], c.fileBuf[:0]
	}
	c.srcs = c.srcs[:0]
	if s.tx.closed || !s.exists {
		return
	}
	if t := s.mineTree(); t != nil {
		c.tree.it.t = t
		c.srcs = append(c.srcs, &c.tree)
	}
	// A flow opens a cursor or two per key of a batch, on keyspaces with
	// several runs: their sources come in one allocation of each kind, not
	// one per run.
	c.runs = slices.Grow(c.runs[:0], len(s.src.runs))[:len(s.src.runs)]
	for i, r := range s.src.runs {
		c.runs[i] = runSource{it: runIter{r: r}}
		c.srcs = append(c.srcs, &c.runs[i])
	}
	c.files = slices.Grow(c.files[:0], len(s.fileRuns))[:len(s.fileRuns)]
	for i, r := range s.fileRuns {
		c.files[i] = fileRunIter{r: r, blockReader: s.tx.blockReader()}
		c.srcs = append(c.srcs, &c.files[i])
	}
}

func (c *Cursor) writeCount() uint64 {
	if m := c.s.src.mine; m != nil {
		return m.writes
	}
	return 0
}

// sync finds the cursor's place again after the keyspace changed under it.
func (c *Cursor) sync() {
	s := c.s
	s.refresh()
	if c.gen == s.tx.gen && c.writes == c.writeCount() {
		return
	}
	c.build()
	if c.cur == nil {
		return
	}
	for _, x := range c.srcs {
		x.seekGE(c.cur)
		if !c.fwd && !(x.valid() && bytes.Equal(x.key(), c.cur)) {
			if x.valid() {
				x.prev()
			} else {
				x.last()
			}
		}
	}
}

// First moves to the first key.
func (c *Cursor) First() (key, value []byte) {
	c.sync()
	for _, x := range c.srcs {
		x.first()
	}
	c.fwd = true
	return c.settle()
}

// Last moves to the last key.
func (c *Cursor) Last() (key, value []byte) {
	c.sync()
	for _, x := range c.srcs {
		x.last()
	}
	c.fwd = false
	return c.settle()
}

// Seek moves to key, or to the first key after it if it is absent.
func (c *Cursor) Seek(key []byte) (k, value []byte) {
	c.sync()
	for _, x := range c.srcs {
		x.seekGE(key)
	}
	c.fwd = true
	return c.settle()
}

// Next moves to the next key.
func (c *Cursor) Next() (key, value []byte) {
	if !c.positioned {
		return c.First()
	}
	if c.cur == nil {
		return nil, nil
	}
	c.sync()
	if len(c.srcs) == 1 && c.fwd {
		if f, ok := c.srcs[0].(*fileRunIter); ok {
			// Only the file's one run, walked forward (a scan of a
			// keyspace the memtable holds nothing of): the next live
			// entry is the answer. (The run is on cur unless sync found
			// its place again after cur went away.)
			if f.valid() && bytes.Equal(f.k, c.cur) {
				f.next()
			}
			for f.valid() && !f.live {
				f.next()
			}
			c.cur = f.k
			return f.k, f.v
		}
	}
	for _, x := range c.srcs {
		switch {
		case c.fwd:
			if x.valid() && bytes.Equal(x.key(), c.cur) {
				x.next()
			}
		case !x.valid():
			// Before its first key, so everything it has is after cur.
			x.first()
		default:
			// On its last key <= cur: the one after is its first > cur.
			x.next()
		}
	}
	c.fwd = true
	return c.settle()
}

// Prev moves to the previous key.
func (c *Cursor) Prev() (key, value []byte) {
	if !c.positioned {
		return c.Last()
	}
	if c.cur == nil {
		return nil, nil
	}
	c.sync()
	for _, x := range c.srcs {
		switch {
		case !c.fwd:
			if x.valid() && bytes.Equal(x.key(), c.cur) {
				x.prev()
			}
		case !x.valid():
			x.last()
		default:
			// On its first key >= cur: the one before is its last < cur.
			x.prev()
		}
	}
	c.fwd = false
	return c.settle()
}

// SeekBefore moves to the last key before key (Seek then Prev, in one
// step): the way to the end of a key range.
func (c *Cursor) SeekBefore(key []byte) (k, value []byte) {
	c.sync()
	for _, x := range c.srcs {
		x.seekLT(key)
	}
	c.fwd = false
	return c.settle()
}

// settle moves to the nearest live key in the cursor's direction.
func (c *Cursor) settle() (key, value []byte) {
	c.positioned = true
	c.writes = c.writeCount()
	if len(c.srcs) == 1 {
		// The common case, one source (the file, or one layer): no merge.
		x := c.srcs[0]
		for x.valid() {
			if v, live := x.value(); live {
				c.cur = x.key()
				return c.cur, v
			}
			c.step(x)
		}
		c.cur = nil
		return nil, nil
	}
	for {
		var best []byte
		bi := -1
		for i, x := range c.srcs {
			if !x.valid() {
				continue
			}
			k := x.key()
			if bi < 0 || (c.fwd && bytes.Compare(k, best) < 0) || (!c.fwd && bytes.Compare(k, best) > 0) {
				best, bi = k, i
			}
		}
		if bi < 0 {
			c.cur = nil
			return nil, nil
		}
		if v, live := c.srcs[bi].value(); live {
			c.cur = best
			return best, v
		}
		for _, x := range c.srcs {
			if x.valid() && bytes.Equal(x.key(), best) {
				c.step(x)
			}
		}
	}
}

func (c *Cursor) step(x cursorSource) {
	if c.fwd {
		x.next()
	} else {
		x.prev()
	}
}

// Delete removes the key the cursor is on.
func (c *Cursor) Delete() error {
	if c.cur == nil {
		return nil
	}
	return c.s.Delete(c.cur)
}

// treeSource is a memtable tree as a cursor source.
type treeSource struct{ it memiter }

func (t *treeSource) seekGE(k []byte)              { t.it.seekGE(k) }
func (t *treeSource) seekLT(k []byte)              { t.it.seekLT(k) }
func (t *treeSource) first()                       { t.it.first() }
func (t *treeSource) last()                        { t.it.last() }
func (t *treeSource) next()                        { t.it.next() }
func (t *treeSource) prev()                        { t.it.prev() }
func (t *treeSource) valid() bool                  { return t.it.valid() }
func (t *treeSource) key() []byte                  { return t.it.key() }
func (t *treeSource) value() (v []byte, live bool) { return t.it.value() }

// runSource is a memtable run as a cursor source.
type runSource struct{ it runIter }

func (r *runSource) seekGE(k []byte)              { r.it.seekGE(k) }
func (r *runSource) seekLT(k []byte)              { r.it.seekLT(k) }
func (r *runSource) first()                       { r.it.first() }
func (r *runSource) last()                        { r.it.last() }
func (r *runSource) next()                        { r.it.next() }
func (r *runSource) prev()                        { r.it.prev() }
func (r *runSource) valid() bool                  { return r.it.valid() }
func (r *runSource) key() []byte                  { return r.it.key() }
func (r *runSource) value() (v []byte, live bool) { return r.it.value() }
