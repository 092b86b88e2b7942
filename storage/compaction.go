package storage

import (
	"bytes"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// Compaction keeps each keyspace down to a few file runs. Every checkpoint
// adds a run to each keyspace its layer wrote, and a lookup looks in a
// keyspace's runs one after another, so the flusher, when it has no
// checkpoint to write, merges a keyspace's newest runs into one as long as
// each next older run is no larger than those before it together: run sizes
// then at least double towards the oldest, a keyspace has about log2 of its
// checkpoints' runs, and each entry is written about that many times, each
// time as part of a few large sequential writes. The merged run takes the
// order of the newest run it replaces, so it stays older than runs written
// since. A merge that reaches the oldest run drops tombstones, which have
// nothing left to hide.
//
// Like a checkpoint, a compaction is written in transactions of about
// db.chunk bytes, and its run becomes part of the keyspace
// (and its inputs stop being part of it) in its last one. If the keyspace is
// dropped or its runs replaced meanwhile (by a checkpoint of a layer that
// recreated it), the compaction is dropped with what it wrote.
type compaction struct {
	name   string
	inputs []*fileRun // newest first: a contiguous stretch of the keyspace's runs
	// dropTombstones is set when the inputs reach down to the oldest run.
	dropTombstones bool
	w              *runBuilder // nil until the first step
	// pos is where each input's walk stands: its block and entry (a block
	// past the last: done). Steps are separate file transactions, so each
	// reads its inputs' blocks again from there.
	pos []runPos
}

type runPos struct{ block, entry int }

// compactions remembers the keyspaces whose runs changed, for the flusher
// to look at when it is idle.
type compactions struct {
	mu  sync.Mutex
	due map[string]bool
	// broken are the keyspaces a compaction found damaged, which are
	// not compacted again.
	broken map[string]bool
}

// damaged notes that keyspace name's runs are damaged: its reads report
// it, and compactions leave it alone.
func (c *compactions) damaged(name string) {
	c.mu.Lock()
	if c.broken == nil {
		c.broken = map[string]bool{}
	}
	c.broken[name] = true
	c.mu.Unlock()
}

func (c *compactions) note(name string) {
	c.mu.Lock()
	if c.due == nil {
		c.due = map[string]bool{}
	}
	if !c.broken[name] {
		c.due[name] = true
	}
	c.mu.Unlock()
}

// take returns the keyspaces noted since the last take.
func (c *compactions) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	names := make([]string, 0, len(c.due))
	for name := range c.due {
		names = append(names, name)
	}
	c.due = nil
	return names
}

// maxFileRuns is how many runs a keyspace may have before all of them are
// merged, whatever their sizes.
const maxFileRuns = 12

// compactionPlan returns how many of a keyspace's newest runs to merge (0:
// none), by the rule in the comment on compaction.
func compactionPlan(runs []*fileRun) int {
	if len(runs) < 2 {
		return 0
	}
	if len(runs) > maxFileRuns {
		return len(runs)
	}
	acc, n := runs[0].bytes, 1
	for _, r := range runs[1:] {
		if r.bytes > acc {
			break
		}
		acc += r.bytes
		n++
	}
	if n < 2 {
		return 0
	}
	return n
}

// nextCompaction returns a compaction one of the keyspaces noted as due
// needs, or nil. Keyspaces it finds in no need are forgotten until their
// runs change again.
func (db *DB) nextCompaction() *compaction {
	names := db.compactions.take()
	var found *compaction
	_ = db.bolt.View(func(btx *bolt.Tx) error {
		for i, name := range names {
			if btx.Bucket(rootBucket).Bucket([]byte(name)) == nil {
				continue // dropped
			}
			runs, err := db.fileRuns(btx, name)
			if err != nil {
				continue // corrupt: reads of it report that
			}
			if n := compactionPlan(runs); n > 0 {
				found = &compaction{name: name, inputs: runs[:n], dropTombstones: n == len(runs)}
				for _, rest := range names[i+1:] {
					db.compactions.note(rest)
				}
				return nil
			}
		}
		return nil
	})
	return found
}

// compactionStep runs the next transaction of a compaction and reports
// whether it was the last.
func (db *DB) compactionStep(c *compaction) (finished bool, err error) {
	defer boltPanicAsError("writing a compaction", &err)
	var unlisted garbage // the inputs, once merged; their blocks go later
	err = db.bolt.Update(func(btx *bolt.Tx) (err error) {
		defer catchCorrupt(&err)
		runs, blocks := btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
		rb := runs.Bucket([]byte(c.name))
		intact := rb != nil
		for _, in := range c.inputs {
			if intact && rb.Get(runMetaKey(in.id)) == nil {
				intact = false
			}
		}
		if !intact {
			// Dropped, or replaced: what was written goes too, in later
			// transactions, as the inputs' blocks do (unlistRuns says
			// why). It has no meta yet, so no reader finds it.
			finished = true
			if c.w != nil {
				unlisted.add(c.w.garbage())
			}
			return nil
		}
		if c.w == nil {
			id, err := newRunID(btx)
			if err != nil {
				return err
			}
			expected := 0
			for _, in := range c.inputs {
				expected += in.entries
			}
			c.w = newRunBuilder(c.name, id, c.inputs[0].order, expected, db.blockSize, db.pointReads.wantFilter(c.name, 0))
			c.pos = make([]runPos, len(c.inputs))
		}
		its := make([]fileRunIter, len(c.inputs))
		for i, in := range c.inputs {
			its[i] = fileRunIter{r: in, blockReader: blockReader{b: blocks}}
			if its[i].load(c.pos[i].block) {
				its[i].i = c.pos[i].entry
			}
			its[i].settle()
		}
		budget := db.chunk
		for budget > 0 {
			// The smallest key among the inputs, the newest input's entry
			// for it; the others step past it.
			best := -1
			for i := range its {
				if its[i].valid() && (best < 0 || bytes.Compare(its[i].key(), its[best].key()) < 0) {
					best = i
				}
			}
			if best < 0 {
				break
			}
			k := its[best].key()
			v, live := its[best].value()
			for i := best + 1; i < len(its); i++ {
				if its[i].valid() && bytes.Equal(its[i].key(), k) {
					its[i].next()
				}
			}
			if live || !c.dropTombstones {
				n, err := c.w.put(blocks, k, v, live)
				if err != nil {
					return err
				}
				budget -= n
			}
			its[best].next()
		}
		done := true
		for i := range its {
			c.pos[i] = runPos{its[i].bi, its[i].i}
			if its[i].valid() {
				done = false
			} else {
				c.pos[i].block = len(c.inputs[i].firstKeys)
			}
		}
		if done {
			finished = true
			if _, err := c.w.store(btx); err != nil {
				return err
			}
			// The inputs' blocks go in later transactions
			// (collectGarbageStep): deleting them here would map them all
			// again in this one (unlistRuns says why).
			ids := make([]uint64, len(c.inputs))
			for i, in := range c.inputs {
				ids[i] = in.id
				unlisted.add(garbage{runs: []uint64{in.id}, bytes: in.bytes})
			}
			if err := unlistRunIDs(btx, c.name, ids); err != nil {
				return err
			}
			if err := bumpRunsGen(btx); err != nil {
				return err
			}
			db.compactions.note(c.name)
		}
		return nil
	})
	if err == nil {
		db.garbage.add(unlisted)
	}
	return finished, err
}

// abandonCompaction drops a compaction part-way: what it wrote, a run
// without a meta, is garbage (collectGarbageStep).
func (db *DB) abandonCompaction(c *compaction) {
	if c.w != nil {
		db.garbage.add(c.w.garbage())
	}
}
