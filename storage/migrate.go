package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The file's format, and what Open does to files of earlier ones.
//
// The state bucket's format number says the file is in the sealed format
// (seal.go): every value sealed, each keyspace with its record
// (spacerec.go), the state bucket's numbers all present. A file without it
// was written by an earlier cdcdb (or is new), and a writable Open
// converts it once, before anything reads it:
//
//   - files made before file runs kept each keyspace's entries in its
//     bucket's B+tree: they are rewritten as one run each (migrateBuckets);
//   - runs written before seals (run meta versions 1 to 3) are rewritten
//     as new sealed runs, one by one (convertLegacyRuns): the new run is
//     written under a new ID and takes the old one's place in the
//     transaction that writes its meta, so a crash part-way leaves each
//     run old or new, and blocks without a meta, which Open removes;
//   - then one transaction writes the keyspaces' records, seals the state
//     bucket's numbers, the log bucket's records and the log ring's salt,
//     and sets the format number (sealLegacyValues).
//
// The file's blocks are all rewritten, so the first start of a file of an
// earlier version takes as long as a compaction of all of it. A read-only
// Open refuses a file not converted yet (checkReadable), and no reader
// ever meets a value that is not sealed.

// stateFormat is the state bucket's key of the format number;
// sealedFormat is the number of the sealed format.
var stateFormat = []byte("format")

const sealedFormat = 1

// stateKeys are the numbers every file in the sealed format keeps in its
// state bucket.
var stateKeys = [][]byte{stateFormat, stateFileHigh, stateComplete, stateRunsGen}

// topBuckets are the buckets every file in the sealed format has (the log
// ring's with its salt; openRing adds its segments).
var topBuckets = [][]byte{rootBucket, walBucket, stateBucket, runsBucket, blocksBucket, ringBucket}

// fileIsSealed reports whether the file is in the sealed format. A file
// whose format number is gone but whose other numbers are sealed is a
// damaged one, not an old one (an old file's numbers are 8 bytes, a
// sealed one's 12).
func fileIsSealed(btx *bolt.Tx) (bool, error) {
	state := btx.Bucket(stateBucket)
	if state == nil {
		return false, nil
	}
	if state.Get(stateFormat) == nil {
		for _, key := range stateKeys {
			if _, ok := unseal(state.Get(key), stateScope, key); ok {
				return false, corrupt("the file's format number is missing")
			}
		}
		return false, nil
	}
	format, err := stateVersion(btx, stateFormat)
	if err != nil {
		return false, err
	}
	if format != sealedFormat {
		return false, corrupt("the file's format number is %d, which this cdcdb does not know", format)
	}
	return true, nil
}

// prepareFile makes a file ready to be opened writable: a sealed one is
// tidied (tidyRuns); a new file, or one of an earlier version, is
// converted to the sealed format first.
func (db *DB) prepareFile() error {
	var isSealed bool
	err := db.bolt.View(func(btx *bolt.Tx) (err error) {
		isSealed, err = fileIsSealed(btx)
		return err
	})
	if err != nil {
		return err
	}
	if !isSealed {
		if err := db.convertToSealed(); err != nil {
			return err
		}
	}
	return db.tidyRuns()
}

// convertToSealed converts a new file, or one written by an earlier cdcdb,
// to the sealed format (see above).
func (db *DB) convertToSealed() error {
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		for _, name := range topBuckets {
			if bytes.Equal(name, ringBucket) {
				continue // (sealLegacyValues makes it, with its salt)
			}
			if _, err := btx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = db.tidyLegacyRuns()
	}
	if err == nil {
		err = db.migrateBuckets()
	}
	if err == nil {
		err = db.convertLegacyRuns()
	}
	if err == nil {
		err = db.bolt.Update(sealLegacyValues)
	}
	if err != nil {
		return fmt.Errorf("converting the file to this cdcdb's format: %w", err)
	}
	return nil
}

// tidyRuns removes what a crash left of runs being written: blocks whose
// run no keyspace's record lists (filerun.go). It first checks the
// keyspaces against the file's directory of them, and each keyspace's
// record against its runs, and that no runs are left of a keyspace that is
// gone (none of which a crash leaves); if any of that is damaged it deletes
// nothing, as it cannot tell which blocks are a damaged run's. The damage
// it found is logged, and is what reads of a damaged keyspace report (a
// keyspace whose bucket is lost: db.lostSpaces).
func (db *DB) tidyRuns() error {
	var damage []error
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		for _, name := range topBuckets {
			if btx.Bucket(name) == nil {
				return corrupt("the file's bucket %q is missing", name)
			}
		}
		for _, key := range stateKeys {
			if _, err := stateVersion(btx, key); err != nil {
				return err
			}
		}
		lost, extra, err := directoryDamage(btx)
		if err != nil {
			return err
		}
		db.lostSpaces = lost
		for _, e := range lost {
			damage = append(damage, e)
		}
		damage = append(damage, extra...)
		root, runs, blocks := btx.Bucket(rootBucket), btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
		listed := map[uint64]bool{}
		err = root.ForEachBucket(func(name []byte) error {
			rec, err := listedRuns(root.Bucket(name), runs.Bucket(name), string(name))
			if err != nil {
				damage = append(damage, err)
				return nil
			}
			for _, id := range rec.runs {
				listed[id] = true
			}
			return nil
		})
		if err != nil {
			return err
		}
		err = runs.ForEach(func(name, v []byte) error {
			if v != nil || root.Bucket(name) == nil {
				damage = append(damage, spaceCorrupt(string(name), 0, -1, "it has runs but no bucket"))
			}
			return nil
		})
		if err != nil || len(damage) > 0 {
			return err
		}
		return deleteOrphanBlocks(blocks, listed)
	})
	for _, d := range damage {
		db.log.Error("the database file is damaged; reads of what is damaged will fail", "file", db.path, "damage", inFile(d, db.path).Error())
	}
	return err
}

// tidyLegacyRuns is tidyRuns for a file not converted yet, which has no
// keyspace records: it removes blocks of runs that have no meta, and the
// runs of keyspaces that are gone (runs a crash between the two, in
// earlier versions, could leave).
func (db *DB) tidyLegacyRuns() error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		root, runs, blocks := btx.Bucket(rootBucket), btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
		var gone [][]byte
		known := map[uint64]bool{}
		err := runs.ForEachBucket(func(name []byte) error {
			if root.Bucket(name) == nil {
				gone = append(gone, bytes.Clone(name))
				return nil
			}
			return runs.Bucket(name).ForEach(func(k, _ []byte) error {
				if len(k) != 8 {
					return spaceCorrupt(string(name), 0, -1, "its runs bucket holds a key %x that is no run's", k)
				}
				known[binary.BigEndian.Uint64(k)] = true
				return nil
			})
		})
		if err != nil {
			return err
		}
		// A gone keyspace's runs lose their metas here, and so their
		// blocks are among the orphans below.
		for _, name := range gone {
			if err := runs.DeleteBucket(name); err != nil {
				return err
			}
		}
		return deleteOrphanBlocks(blocks, known)
	})
}

// deleteOrphanBlocks deletes the blocks of runs that listed does not hold.
func deleteOrphanBlocks(blocks *bolt.Bucket, listed map[uint64]bool) error {
	var orphans [][]byte
	c := blocks.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) != len(blockKey{}) {
			return corrupt("run block key of %d bytes", len(k))
		}
		if !listed[binary.BigEndian.Uint64(k)] {
			orphans = append(orphans, bytes.Clone(k))
		}
	}
	for _, k := range orphans {
		if err := blocks.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// migrateBuckets rewrites the keyspaces of a file made before file runs,
// which kept their entries in their bucket's B+tree, as one run each, in
// transactions of about db.chunk bytes; the last of a keyspace's writes the
// run's meta and empties its bucket (keeping its sequence), so a crash
// part-way leaves it as it was, plus blocks that tidyLegacyRuns removes.
func (db *DB) migrateBuckets() error {
	var names [][]byte
	err := db.bolt.View(func(btx *bolt.Tx) (err error) {
		names, err = bucketKeyspaces(btx)
		return err
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := db.migrateBucket(name); err != nil {
			return fmt.Errorf("rewriting keyspace %q as a run: %w", name, err)
		}
	}
	return nil
}

// bucketKeyspaces lists the keyspaces that keep entries in their bucket's
// B+tree, as files made before file runs did. (Only a file not converted
// to the sealed format is asked: in one that is, the bucket holds the
// keyspace's record.)
func bucketKeyspaces(btx *bolt.Tx) ([][]byte, error) {
	root := btx.Bucket(rootBucket)
	if root == nil {
		return nil, nil
	}
	var names [][]byte
	err := root.ForEachBucket(func(name []byte) error {
		if k, _ := root.Bucket(name).Cursor().First(); k != nil {
			names = append(names, bytes.Clone(name))
		}
		return nil
	})
	return names, err
}

// checkReadable refuses a read-only open of a file that a writable open
// has not converted to the sealed format yet: readers find only sealed
// runs, and would find its keyspaces damaged, or empty.
func (db *DB) checkReadable() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		if btx.Bucket(rootBucket) == nil {
			return corrupt("not an initialised cdcdb file")
		}
		isSealed, err := fileIsSealed(btx)
		if err != nil {
			return err
		}
		if !isSealed {
			return fmt.Errorf("storage: %s is in the format of an older cdcdb: open it writable once, which rewrites it, before reading it read-only", db.path)
		}
		for _, name := range topBuckets {
			if btx.Bucket(name) == nil {
				return corrupt("the file's bucket %q is missing", name)
			}
		}
		return nil
	})
}

func (db *DB) migrateBucket(name []byte) error {
	var w *runBuilder
	var after []byte
	for {
		done := false
		err := db.bolt.Update(func(btx *bolt.Tx) error {
			root, runs, blocks := btx.Bucket(rootBucket), btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
			b := root.Bucket(name)
			rb, err := runs.CreateBucketIfNotExists(name)
			if err != nil {
				return err
			}
			if w == nil {
				id, err := newRunID(btx)
				if err != nil {
					return err
				}
				w = newRunBuilder(string(name), id, id, b.Stats().KeyN, db.blockSize, true)
			}
			c := b.Cursor()
			k, v := c.First()
			if after != nil {
				if k, v = c.Seek(after); k != nil && string(k) == string(after) {
					k, v = c.Next()
				}
			}
			budget := db.chunk
			for ; k != nil && budget > 0; k, v = c.Next() {
				if v == nil {
					return corrupt("keyspace %q holds a nested bucket %q", name, k)
				}
				after = append(after[:0], k...)
				n, err := w.put(blocks, k, v, true)
				if err != nil {
					return err
				}
				budget -= n
			}
			if k != nil {
				return nil
			}
			done = true
			// (Only keyspaces with entries are rewritten: the run is
			// never empty.) Its record comes with sealLegacyValues.
			meta, err := w.finish(blocks)
			if err != nil {
				return err
			}
			if err := rb.Put(runMetaKey(w.id), meta); err != nil {
				return err
			}
			seq := b.Sequence()
			if err := root.DeleteBucket(name); err != nil {
				return err
			}
			nb, err := root.CreateBucket(name)
			if err != nil {
				return err
			}
			return nb.SetSequence(seq)
		})
		if err != nil || done {
			return err
		}
	}
}

// legacyRun is a run written before seals, being rewritten.
type legacyRun struct {
	space string
	id    uint64
	meta  runMeta
}

// convertLegacyRuns rewrites every run written before seals as a sealed
// run, and deletes the old runs' blocks.
func (db *DB) convertLegacyRuns() error {
	var old []legacyRun
	err := db.bolt.View(func(btx *bolt.Tx) error {
		runs := btx.Bucket(runsBucket)
		return runs.ForEachBucket(func(name []byte) error {
			return runs.Bucket(name).ForEach(func(k, v []byte) error {
				id := binary.BigEndian.Uint64(k)
				if _, err := decodeRunMeta(string(name), id, v); err == nil {
					return nil // sealed already (migrateBuckets', or a conversion cut short)
				}
				m, err := decodeLegacyRunMeta(v)
				if err != nil {
					return spaceCorrupt(string(name), id, -1, "%s", detailOf(err))
				}
				old = append(old, legacyRun{space: string(name), id: id, meta: m})
				return nil
			})
		})
	})
	if err != nil {
		return err
	}
	var gone []uint64
	for _, r := range old {
		if err := db.convertLegacyRun(r); err != nil {
			return err
		}
		gone = append(gone, r.id)
	}
	for len(gone) > 0 {
		err := db.bolt.Update(func(btx *bolt.Tx) (err error) {
			gone, _, err = deleteSomeBlocks(btx.Bucket(blocksBucket), gone, db.chunk)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// convertLegacyRun writes the entries of an unsealed run r as a sealed run
// of the same order, in transactions of about db.chunk bytes; the last one
// puts its meta in place of r's. It checks what can be checked of a block
// without a seal: that it parses, its keys follow each other in order, and
// the counts add up to the meta's.
func (db *DB) convertLegacyRun(r legacyRun) error {
	var w *runBuilder
	next := 0 // the next block of r to copy
	var last []byte
	entries, tombstones := 0, 0
	for {
		done := false
		err := db.bolt.Update(func(btx *bolt.Tx) error {
			runs, blocks := btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
			if w == nil {
				id, err := newRunID(btx)
				if err != nil {
					return err
				}
				w = newRunBuilder(r.space, id, r.meta.order, r.meta.entries, db.blockSize, len(r.meta.filter.bits) > 0)
			}
			for budget := db.chunk; budget > 0 && next < len(r.meta.firstKeys); next++ {
				k := runBlockKey(r.id, uint32(next))
				raw := blocks.Get(k[:])
				if raw == nil {
					return spaceCorrupt(r.space, r.id, next, "is missing")
				}
				blk, err := parseLegacyBlock(raw)
				if err != nil {
					return spaceCorrupt(r.space, r.id, next, "%s", detailOf(err))
				}
				for i := range blk.n {
					key, value, live := blk.entry(i)
					if len(key) == 0 || (last != nil && bytes.Compare(key, last) <= 0) {
						return spaceCorrupt(r.space, r.id, next, "entry %d is malformed or out of order", i)
					}
					last = append(last[:0], key...)
					entries++
					if !live {
						tombstones++
					}
					n, err := w.put(blocks, key, value, live)
					if err != nil {
						return err
					}
					budget -= n
				}
			}
			if next < len(r.meta.firstKeys) {
				return nil
			}
			done = true
			if entries != r.meta.entries || tombstones != r.meta.tombstones {
				return spaceCorrupt(r.space, r.id, -1, "its blocks hold %d entries (%d tombstones), its meta says %d (%d)", entries, tombstones, r.meta.entries, r.meta.tombstones)
			}
			meta, err := w.finish(blocks)
			if err != nil {
				return err
			}
			rb := runs.Bucket([]byte(r.space))
			if err := rb.Put(runMetaKey(w.id), meta); err != nil {
				return err
			}
			return rb.Delete(runMetaKey(r.id))
		})
		if err != nil {
			return fmt.Errorf("rewriting run %d of keyspace %q: %w", r.id, r.space, err)
		}
		if done {
			return nil
		}
	}
}

// sealLegacyValues writes, in one transaction, what the sealed format
// adds to a file whose runs are all sealed: each keyspace's record, from
// its bucket's sequence and its runs; the state bucket's numbers, sealed;
// the log bucket's records, sealed, in the layout of a bucket per record;
// the log ring's salt, sealed; and last the format number.
func sealLegacyValues(btx *bolt.Tx) error {
	root, runs := btx.Bucket(rootBucket), btx.Bucket(runsBucket)
	var names [][]byte
	if err := root.ForEachBucket(func(name []byte) error { names = append(names, bytes.Clone(name)); return nil }); err != nil {
		return err
	}
	for _, name := range names {
		b := root.Bucket(name)
		if k, _ := b.Cursor().First(); k != nil {
			return spaceCorrupt(string(name), 0, -1, "its bucket still holds entries")
		}
		rb := runs.Bucket(name)
		ids, err := runIDs(rb, string(name))
		if err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := decodeRunMeta(string(name), id, rb.Get(runMetaKey(id))); err != nil {
				return err
			}
		}
		if err := writeSpaceRecord(b, string(name), spaceRecord{seq: b.Sequence(), runs: ids}); err != nil {
			return err
		}
	}
	state := btx.Bucket(stateBucket)
	for _, key := range [][]byte{stateFileHigh, stateComplete, stateRunsGen} {
		var n uint64
		if v := state.Get(key); len(v) == 8 {
			n = binary.BigEndian.Uint64(v)
		} else if v != nil {
			return corrupt("the file's %s number has %d bytes", key, len(v))
		}
		if err := putStateVersion(state, key, n); err != nil {
			return err
		}
	}
	dir := make([]string, len(names))
	for i, name := range names {
		dir[i] = string(name)
	}
	if err := writeSpaceDirectory(btx, dir); err != nil {
		return err
	}
	if err := sealLegacyLog(btx.Bucket(walBucket)); err != nil {
		return err
	}
	if ring := btx.Bucket(ringBucket); ring != nil {
		// A ring made before salts keeps none (an empty one) while its
		// records are live: openRing gives it one when none is.
		salt := bytes.Clone(ring.Get(ringSaltKey))
		if err := ring.Put(ringSaltKey, sealed(salt, ringScope, ringSaltKey)); err != nil {
			return err
		}
	} else {
		// (openRing adds its first segment.)
		if _, err := btx.CreateBucket(ringBucket); err != nil {
			return err
		}
		if err := addRingSalt(btx); err != nil {
			return err
		}
	}
	return putStateVersion(state, stateFormat, sealedFormat)
}

// sealLegacyLog seals the log bucket's records: each in a bucket of its
// own, its parts sealed under the record's key and theirs. Files written
// before records had buckets kept each part under its version and number
// (12 bytes) directly in the log bucket: those move into their record's
// bucket.
func sealLegacyLog(wal *bolt.Bucket) error {
	type part struct {
		version uint64
		part    uint32
		value   []byte
	}
	var loose []part
	var records [][]byte
	c := wal.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		switch {
		case v == nil && len(k) == 8:
			records = append(records, bytes.Clone(k))
		case v != nil && len(k) == 12:
			loose = append(loose, part{binary.BigEndian.Uint64(k), binary.BigEndian.Uint32(k[8:]), bytes.Clone(v)})
		default:
			return corrupt("the log bucket holds a key %x that is no record's", k)
		}
	}
	for _, k := range records {
		rb := wal.Bucket(k)
		var parts [][2][]byte
		if err := rb.ForEach(func(pk, pv []byte) error {
			parts = append(parts, [2][]byte{bytes.Clone(pk), bytes.Clone(pv)})
			return nil
		}); err != nil {
			return err
		}
		for _, p := range parts {
			if err := rb.Put(p[0], sealed(p[1], k, p[0])); err != nil {
				return err
			}
		}
	}
	for _, p := range loose {
		if err := wal.Delete(binary.BigEndian.AppendUint32(walKey(p.version), p.part)); err != nil {
			return err
		}
	}
	made := map[uint64]bool{}
	for _, p := range loose {
		rk := walKey(p.version)
		rb := wal.Bucket(rk)
		if rb == nil {
			var err error
			if rb, err = wal.CreateBucket(rk); err != nil {
				return err
			}
			made[p.version] = true
		} else if !made[p.version] {
			return corrupt("log record %d is stored both in a bucket and as loose parts", p.version)
		}
		pk := walPartKey(p.part)
		if err := rb.Put(pk, sealed(p.value, rk, pk)); err != nil {
			return err
		}
	}
	return nil
}

// addRingSalt gives the ring a salt if it has none (an empty one: a ring
// made before salts).
func addRingSalt(btx *bolt.Tx) error {
	b := btx.Bucket(ringBucket)
	if b == nil {
		return nil
	}
	if v := b.Get(ringSaltKey); v != nil {
		salt, ok := unseal(v, ringScope, ringSaltKey)
		if !ok {
			return corrupt("the log ring's salt fails its checksum")
		}
		if len(salt) > 0 {
			return nil
		}
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return err
	}
	return b.Put(ringSaltKey, sealed(salt, ringScope, ringSaltKey))
}
