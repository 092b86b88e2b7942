package storage

import (
	"encoding/binary"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// A keyspace's record: what the file keeps of a keyspace besides its
// runs' metas and blocks, in the keyspace's bucket under rootBucket,
// sealed under the keyspace's name:
//
//	uvarint sequence, uvarint n, n × uvarint run ID (ascending)
//
// The sequence counter (Space.Sequence) lives here rather than in bbolt's
// bucket header, which no checksum covers: a row number drawn from a
// damaged counter would overwrite a row. The run IDs are those of the
// keyspace's runs, whose metas are in its bucket under runsBucket: a reader
// that finds another set of metas there (one gone, one under a damaged
// key, a runs bucket that went missing) reports the keyspace damaged
// instead of reading it without them. Each file transaction that adds or
// removes a run of the keyspace rewrites the record with it (listRun,
// unlistRunIDs), after checking that it still matches.
type spaceRecord struct {
	seq  uint64
	runs []uint64
}

// spaceRecordKey is the record's key in the keyspace's bucket (the only
// key there: files made before runs kept the keyspace's entries there, and
// Open rewrites those first, migrate.go).
var spaceRecordKey = []byte("space")

func (r *spaceRecord) encode() []byte {
	b := binary.AppendUvarint(nil, r.seq)
	b = binary.AppendUvarint(b, uint64(len(r.runs)))
	for _, id := range r.runs {
		b = binary.AppendUvarint(b, id)
	}
	return b
}

// readSpaceRecord reads the record of keyspace space, whose bucket is b.
func readSpaceRecord(b *bolt.Bucket, space string) (spaceRecord, error) {
	v := b.Get(spaceRecordKey)
	if v == nil {
		return spaceRecord{}, spaceCorrupt(space, 0, -1, "its record is missing")
	}
	payload, ok := unseal(v, []byte(space), spaceRecordKey)
	if !ok {
		return spaceRecord{}, spaceCorrupt(space, 0, -1, "its record fails its checksum")
	}
	d := walDecoder{b: payload}
	r := spaceRecord{seq: d.uvarint()}
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)) {
		d.fail()
	}
	for i := uint64(0); d.err == nil && i < n; i++ {
		r.runs = append(r.runs, d.uvarint())
	}
	if d.err != nil || len(d.b) > 0 || !slices.IsSorted(r.runs) {
		return spaceRecord{}, spaceCorrupt(space, 0, -1, "its record is malformed")
	}
	return r, nil
}

// writeSpaceRecord stores r as the record of keyspace space, whose bucket
// is b.
func writeSpaceRecord(b *bolt.Bucket, space string, r spaceRecord) error {
	return b.Put(spaceRecordKey, sealed(r.encode(), []byte(space), spaceRecordKey))
}

// createSpaceBucket creates keyspace space's bucket under root, with its
// record (no runs, the sequence at 0).
func createSpaceBucket(root *bolt.Bucket, space string) (*bolt.Bucket, error) {
	b, err := root.CreateBucket([]byte(space))
	if err != nil {
		return nil, err
	}
	return b, writeSpaceRecord(b, space, spaceRecord{})
}

// listedRuns returns the record of keyspace space after checking that it
// lists exactly the runs whose metas its runs bucket (nil: none) holds.
func listedRuns(b, rb *bolt.Bucket, space string) (spaceRecord, error) {
	rec, err := readSpaceRecord(b, space)
	if err != nil {
		return spaceRecord{}, err
	}
	ids, err := runIDs(rb, space)
	if err != nil {
		return spaceRecord{}, err
	}
	if !slices.Equal(ids, rec.runs) {
		return spaceRecord{}, spaceCorrupt(space, 0, -1, "its record lists runs %v, but the metas of runs %v are stored", rec.runs, ids)
	}
	return rec, nil
}

// runIDs lists the IDs of the run metas in rb (nil: none), ascending.
func runIDs(rb *bolt.Bucket, space string) ([]uint64, error) {
	if rb == nil {
		return nil, nil
	}
	var ids []uint64
	c := rb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 || v == nil {
			return nil, spaceCorrupt(space, 0, -1, "its runs bucket holds a key %x that is no run's", k)
		}
		ids = append(ids, binary.BigEndian.Uint64(k))
	}
	return ids, nil
}

// spaceBuckets returns keyspace space's bucket and its bucket of run metas
// (nil when it has none yet; create makes it).
func spaceBuckets(btx *bolt.Tx, space string, create bool) (b, rb *bolt.Bucket, err error) {
	b = btx.Bucket(rootBucket).Bucket([]byte(space))
	if b == nil {
		return nil, nil, spaceCorrupt(space, 0, -1, "its bucket is missing")
	}
	runs := btx.Bucket(runsBucket)
	if create {
		rb, err = runs.CreateBucketIfNotExists([]byte(space))
	} else {
		rb = runs.Bucket([]byte(space))
	}
	return b, rb, err
}

// listRun makes run id, whose sealed meta is meta, one of keyspace space's
// runs: its meta goes into the keyspace's runs and its ID into its record.
func listRun(btx *bolt.Tx, space string, id uint64, meta []byte) error {
	b, rb, err := spaceBuckets(btx, space, true)
	if err != nil {
		return err
	}
	rec, err := listedRuns(b, rb, space)
	if err != nil {
		return err
	}
	if err := rb.Put(runMetaKey(id), meta); err != nil {
		return err
	}
	i, found := slices.BinarySearch(rec.runs, id)
	if !found {
		rec.runs = slices.Insert(rec.runs, i, id)
	}
	return writeSpaceRecord(b, space, rec)
}

// unlistRunIDs removes runs ids from keyspace space's runs (their metas
// and their IDs in its record); their blocks stay, for the garbage
// collection (garbage.go).
func unlistRunIDs(btx *bolt.Tx, space string, ids []uint64) error {
	b, rb, err := spaceBuckets(btx, space, false)
	if err != nil {
		return err
	}
	rec, err := listedRuns(b, rb, space)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := rb.Delete(runMetaKey(id)); err != nil {
			return err
		}
	}
	rec.runs = slices.DeleteFunc(rec.runs, func(id uint64) bool { return slices.Contains(ids, id) })
	return writeSpaceRecord(b, space, rec)
}

// setSpaceSequence sets keyspace space's sequence counter in its record.
func setSpaceSequence(btx *bolt.Tx, space string, seq uint64) error {
	b := btx.Bucket(rootBucket).Bucket([]byte(space))
	if b == nil {
		return spaceCorrupt(space, 0, -1, "its bucket is missing")
	}
	rec, err := readSpaceRecord(b, space)
	if err != nil {
		return err
	}
	rec.seq = seq
	return writeSpaceRecord(b, space, rec)
}

// The keyspace directory: the names of the file's keyspaces, sealed in the
// state bucket under stateSpaces, sorted:
//
//	uvarint n, n × (uvarint length, name)
//
// A keyspace is a bucket under rootBucket, and a damaged bucket name would
// make it vanish without a trace: its record is sealed under its name, but
// readers look it up under the right name and find nothing, so it would
// read as a keyspace that does not exist (the catalog's, as a new
// database). Open compares the directory with the buckets, and a keyspace
// the directory has and the file does not is reported damaged when read
// (DB.lostSpaces). The checkpoint transaction that creates or deletes
// keyspaces' buckets rewrites it.
var stateSpaces = []byte("spaces")

// readSpaceDirectory reads the keyspace directory.
func readSpaceDirectory(btx *bolt.Tx) ([]string, error) {
	v := btx.Bucket(stateBucket).Get(stateSpaces)
	payload, ok := unseal(v, stateScope, stateSpaces)
	if !ok {
		return nil, corrupt("the file's directory of keyspaces is missing or fails its checksum")
	}
	d := walDecoder{b: payload}
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)) {
		d.fail()
	}
	var names []string
	for i := uint64(0); d.err == nil && i < n; i++ {
		names = append(names, string(d.bytes()))
	}
	if d.err != nil || len(d.b) > 0 || !slices.IsSorted(names) {
		return nil, corrupt("the file's directory of keyspaces is malformed")
	}
	return names, nil
}

// writeSpaceDirectory stores names (sorted) as the keyspace directory.
func writeSpaceDirectory(btx *bolt.Tx, names []string) error {
	b := binary.AppendUvarint(nil, uint64(len(names)))
	for _, name := range names {
		b = appendBytes(b, []byte(name))
	}
	return btx.Bucket(stateBucket).Put(stateSpaces, sealed(b, stateScope, stateSpaces))
}

// updateSpaceDirectory adds created and removes dropped from the keyspace
// directory (a name in both was dropped and made again).
func updateSpaceDirectory(btx *bolt.Tx, created, dropped []string) error {
	if len(created) == 0 && len(dropped) == 0 {
		return nil
	}
	names, err := readSpaceDirectory(btx)
	if err != nil {
		return err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(dropped, n) })
	for _, name := range created {
		if i, found := slices.BinarySearch(names, name); !found {
			names = slices.Insert(names, i, name)
		}
	}
	return writeSpaceDirectory(btx, names)
}

// spaceBucketNames lists the keyspaces' buckets under rootBucket, and the
// names of values there (which no file in the sealed format has).
func spaceBucketNames(btx *bolt.Tx) (buckets []string, values []string, err error) {
	err = btx.Bucket(rootBucket).ForEach(func(k, v []byte) error {
		if v != nil {
			values = append(values, string(k))
		} else {
			buckets = append(buckets, string(k))
		}
		return nil
	})
	return buckets, values, err
}

// directoryDamage compares the keyspace directory with the keyspaces'
// buckets: lost are keyspaces the directory has and the file does not,
// with the damage to report when they are read; extra reports buckets it
// does not have (and values where buckets belong).
func directoryDamage(btx *bolt.Tx) (lost map[string]error, extra []error, err error) {
	names, err := readSpaceDirectory(btx)
	if err != nil {
		return nil, nil, err
	}
	buckets, values, err := spaceBucketNames(btx)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		if _, found := slices.BinarySearch(buckets, name); !found {
			if lost == nil {
				lost = map[string]error{}
			}
			lost[name] = spaceCorrupt(name, 0, -1, "its bucket is missing (the file's directory of keyspaces lists it)")
		}
	}
	for _, name := range buckets {
		if _, found := slices.BinarySearch(names, name); !found {
			extra = append(extra, corrupt("the file holds a keyspace bucket %q that its directory of keyspaces does not list", name))
		}
	}
	for _, name := range values {
		extra = append(extra, corrupt("the bucket of keyspaces holds a value under %q", name))
	}
	return lost, extra, nil
}
