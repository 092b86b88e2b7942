package storage

import bolt "go.etcd.io/bbolt"

// garbage is runs whose metas are gone (a compaction's inputs, a dropped
// keyspace's runs, what an abandoned compaction wrote) and whose blocks
// are still in the file, with about how many bytes those blocks take.
// The flusher deletes them a chunk per transaction (collectGarbageStep)
// rather than in the transaction that unlisted them: each delete maps its
// page of the file (unlistRuns says why that matters). A crash before
// they are gone leaves blocks without a meta, which Open removes
// (tidyRuns).
type garbage struct {
	runs  []uint64
	bytes int64
}

func (g *garbage) add(o garbage) {
	g.runs = append(g.runs, o.runs...)
	g.bytes += o.bytes
}

// defaultMaxGarbage is how many bytes of garbage the flusher lets wait
// while compactions follow one another. It collects garbage when it has
// nothing else to do, or on closing: collecting it before each new
// compaction slowed compactions enough that the model test (-race) ran
// fewer than it checks for. But the file cannot reuse the garbage's pages
// until its blocks are gone, so past this much the garbage goes before a
// compaction's next step, and the file does not grow without bound while
// compactions keep coming.
const defaultMaxGarbage = 256 << 20

// garbageDue reports whether the flusher's next transaction collects
// garbage, given whether a checkpoint (which goes first) and a compaction
// are due.
func (db *DB) garbageDue(checkpointDue, compactionDue bool) bool {
	if len(db.garbage.runs) == 0 || checkpointDue {
		return false
	}
	return !compactionDue || db.garbage.bytes > db.maxGarbage
}

// collectGarbageStep deletes the next db.chunk bytes of the garbage's
// blocks, in one transaction. Stats counts it as a compaction
// transaction: most garbage is the inputs of compactions.
func (db *DB) collectGarbageStep() (err error) {
	defer boltPanicAsError("deleting unlisted runs' blocks", &err)
	var left []uint64
	var deleted int64
	err = db.bolt.Update(func(btx *bolt.Tx) error {
		var err error
		left, deleted, err = deleteSomeBlocks(btx.Bucket(blocksBucket), db.garbage.runs, db.chunk)
		return err
	})
	if err != nil {
		return err
	}
	db.garbage.runs = left
	db.garbage.bytes = max(db.garbage.bytes-deleted, 0)
	if len(left) == 0 {
		db.garbage.bytes = 0 // whatever the metas said
	}
	return nil
}
