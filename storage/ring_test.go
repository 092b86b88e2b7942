package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestLogRingWrapsAndGrows: with a small ring, commits of assorted sizes
// (some larger than the ring) wrap around it many times across checkpoints,
// fill it (those go to the log bucket and the ring grows), and after crashes
// at random points every acknowledged commit is there, and nothing else.
func TestLogRingWrapsAndGrows(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 9))
	path := checkedPath(t, "ring.db")
	opts := Options{NoSync: true, MemtableSize: 96 << 10, CheckpointAfterIdle: time.Hour, ringBytes: minRingBytes, ringMax: 256 << 10}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	model := map[string]string{}
	var ringFlushes, flushes int64
	wrapped, prevHead := false, int64(0)
	for round := range 600 {
		k := fmt.Sprintf("k%03d", rng.IntN(200))
		v := fmt.Sprintf("%d:%s", round, bytes.Repeat([]byte{'x'}, rng.IntN(3000)))
		if rng.IntN(50) == 0 {
			v += string(bytes.Repeat([]byte{'y'}, 100<<10)) // larger than the first segment
		}
		if err := putIn(db, "s", k, v); err != nil {
			t.Fatal(err)
		}
		model[k] = v
		if db.ring.head < prevHead {
			wrapped = true
		}
		prevHead = db.ring.head
		if rng.IntN(80) == 0 {
			ringFlushes += db.ringFlushes.Load()
			flushes += db.flushes.Load()
			db = crashAndReopen(t, db, path, opts)
			prevHead = db.ring.head
			err := db.View(func(tx *Tx) error {
				for k, v := range model {
					if got := string(tx.Space("s").Get([]byte(k))); got != v {
						return fmt.Errorf("after a crash, %s holds %.20q, want %.20q", k, got, v)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	size := db.ring.size
	ringFlushes += db.ringFlushes.Load()
	flushes += db.flushes.Load()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d flushes through the ring, which grew to %d bytes", ringFlushes, flushes, size)
	if !wrapped {
		t.Error("the ring never wrapped around")
	}
	if size <= minRingBytes || size > 256<<10 {
		t.Errorf("the ring grew to %d bytes, want more than its first %d and at most 256 KiB", size, minRingBytes)
	}
	if ringFlushes == 0 || ringFlushes == flushes {
		t.Errorf("%d of %d flushes through the ring: the test does not exercise both ways", ringFlushes, flushes)
	}
}

// TestLogRingReplayStopsAtAGap: the ring's records are replayed in version
// order up to the first one missing (a write a crash cut short, whose
// checksum fails): commits after it were not acknowledged.
func TestLogRingReplayStopsAtAGap(t *testing.T) {
	path := checkedPath(t, "gap.db")
	opts := Options{NoSync: true, CheckpointAfterIdle: time.Hour}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	long := string(bytes.Repeat([]byte{'v'}, 1500))
	for i := range 10 {
		if err := putIn(db, "s", fmt.Sprintf("k%d", i), long); err != nil {
			t.Fatal(err)
		}
	}
	// The record of the seventh commit, cut short.
	victim := db.ring.live[len(db.ring.live)-4]
	db.crash()
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	segs, err := loadRingSegments(bdb)
	if err != nil {
		t.Fatal(err)
	}
	seg, within := ringSegmentAt(segs, victim.pos)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 8), segs[seg].off+within+ringHeader); err != nil {
		t.Fatal(err)
	}
	f.Close()
	bdb.Close()
	db, err = Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		for i := range 10 {
			got := tx.Space("s").Get([]byte(fmt.Sprintf("k%d", i)))
			if (got != nil) != (i < 6) {
				return fmt.Errorf("k%d present %v after the seventh record was cut short", i, got != nil)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The commits after the gap take the versions of the records left
	// out, and their shorter records leave some of those whole behind
	// them: a crash and a replay must not take those for theirs.
	for i := 6; i < 10; i++ {
		if err := putIn(db, "s", fmt.Sprintf("k%d", i), "again"); err != nil {
			t.Fatal(err)
		}
	}
	db = crashAndReopen(t, db, path, opts)
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		for i := range 10 {
			want := long
			if i >= 6 {
				want = "again"
			}
			if got := string(tx.Space("s").Get([]byte(fmt.Sprintf("k%d", i)))); got != want {
				return fmt.Errorf("k%d holds %.10q, want %.10q", i, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fileRing is a ring of one segment of size bytes, a plain file of its
// own, for tests of the ring's own logic.
func fileRing(t *testing.T, size int64) *ring {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "ring"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	return &ring{file: f, segs: []ringSegment{{0, size}}, size: size, max: size}
}

// TestLogRingKeepsLiveRecords: a batch is written only into the space
// between head and the oldest live record, counting the end of a segment
// it skips when it wraps to the ring's start, and never fills that space
// to the last byte (a head that met the oldest live record would make the
// ring look empty).
func TestLogRingKeepsLiveRecords(t *testing.T) {
	const size = 1 << 20
	oldest := ringRecord{version: 1, pos: 64 << 10, size: ringAlign}
	r := fileRing(t, size)
	r.head, r.live = size-16*ringAlign, []ringRecord{oldest}
	commit := func(version uint64, recordBytes int64) *pendingCommit {
		return &pendingCommit{version: version, record: [][]byte{make([]byte, recordBytes-ringHeader)}}
	}
	write := func(want bool, batch ...*pendingCommit) {
		t.Helper()
		head, live := r.head, len(r.live)
		ok, err := r.write(batch)
		if err != nil {
			t.Fatal(err)
		}
		if ok != want {
			t.Fatalf("batch of %d from %d with %d bytes free written: %v, want %v", len(batch), head, r.free(), ok, want)
		}
		for _, rec := range r.live[live:] {
			if rec.pos < oldest.pos+oldest.size && oldest.pos < rec.pos+rec.size {
				t.Fatalf("record %d at [%d, %d) overwrites the oldest live record", rec.version, rec.pos, rec.pos+rec.size)
			}
		}
	}
	// Too large for the end of the segment, and, wrapped to the start,
	// for the space before the oldest live record.
	write(false, commit(2, 100<<10))
	write(false, commit(2, 10<<10), commit(3, 100<<10))
	// Fits after the wrap.
	write(true, commit(2, 10<<10))
	if r.head != 10<<10 {
		t.Fatalf("head at %d after the wrap, want %d", r.head, 10<<10)
	}
	// Exactly the space left: refused. One block less: taken, and the
	// last block is what is free.
	write(false, commit(3, oldest.pos-r.head))
	write(true, commit(3, oldest.pos-r.head-ringAlign))
	if got := r.free(); got != ringAlign {
		t.Fatalf("%d bytes free with the ring full but a block, want %d", got, ringAlign)
	}
	write(false, commit(4, ringAlign))
	r.release(1)
	write(true, commit(4, ringAlign))
	// A head on the oldest live record (as a file written before the
	// rule may have it) is a full ring, not an empty one.
	r.head = r.live[0].pos
	if got := r.free(); got != 0 {
		t.Fatalf("%d bytes free with head on the oldest live record", got)
	}
	write(false, commit(5, ringAlign))
}

// TestLogRingLaysOutBatches: a batch's records go into the file each at
// its place, header, body and zero padding, however the buffer a write
// lays them out in was used before (a batch of one large record of 0xff
// bytes, then a batch of three smaller ones that follow each other, and
// one of a record that wraps to the ring's start).
func TestLogRingLaysOutBatches(t *testing.T) {
	r := fileRing(t, 64<<10)
	r.seed = 0x5eed
	body := func(n int, fill byte) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = fill + byte(i%7)
		}
		return b
	}
	var last ringRecord
	write := func(batch ...*pendingCommit) {
		t.Helper()
		live := len(r.live)
		if ok, err := r.write(batch); err != nil || !ok {
			t.Fatalf("write: %v %v", ok, err)
		}
		file, err := os.ReadFile(r.file.Name())
		if err != nil {
			t.Fatal(err)
		}
		for i, rec := range r.live[live:] {
			b := slices.Concat(batch[i].record...)
			got := file[rec.pos : rec.pos+rec.size]
			h := got[:ringHeader]
			switch {
			case [4]byte(h[:4]) != ringMagic, binary.BigEndian.Uint64(h[8:]) != rec.version,
				binary.BigEndian.Uint32(h[16:]) != uint32(len(b)), binary.BigEndian.Uint32(h[20:]) != 0:
				t.Errorf("record %d: header %x", rec.version, h)
			case crc32.Update(r.seed, castagnoli, got[8:ringHeader+len(b)]) != binary.BigEndian.Uint32(h[4:]):
				t.Errorf("record %d: checksum does not match", rec.version)
			case !bytes.Equal(got[ringHeader:ringHeader+len(b)], b):
				t.Errorf("record %d: body differs", rec.version)
			case bytes.Count(got[ringHeader+len(b):], []byte{0}) != len(got)-ringHeader-len(b):
				t.Errorf("record %d: padding not zeros: %x", rec.version, got[ringHeader+len(b):])
			}
			last = rec
		}
	}
	write(&pendingCommit{version: 1, record: [][]byte{body(30<<10, 0xf0), body(100, 0xf8)}})
	r.release(1)
	write(&pendingCommit{version: 2, record: [][]byte{body(700, 1)}},
		&pendingCommit{version: 3, record: [][]byte{body(10, 2), body(20, 3)}},
		&pendingCommit{version: 4, record: [][]byte{body(1500, 4)}})
	r.release(4)
	write(&pendingCommit{version: 5, record: [][]byte{body(32<<10, 5)}})
	if last.version != 5 || last.pos != 0 {
		t.Fatalf("the last record is version %d at %d: the test meant it to wrap to the start", last.version, last.pos)
	}
}

// TestLogRingChecksumsTakeTheSalt: a record is accepted only with a
// checksum over the ring's salt, which a client never sees: bytes a client
// wrote that look like a record, left in a stale record's body, are not
// one.
func TestLogRingChecksumsTakeTheSalt(t *testing.T) {
	path := checkedPath(t, "salt.db")
	db, err := Open(path, Options{NoSync: true, CheckpointAfterIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := putIn(db, "s", fmt.Sprintf("k%d", i), "v"); err != nil {
			t.Fatal(err)
		}
	}
	forged := db.ring.live[1]
	db.crash()
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	err = bdb.Update(func(btx *bolt.Tx) error {
		salt := btx.Bucket(ringBucket).Get(ringSaltKey)
		if len(salt) != 16 || bytes.Equal(salt, make([]byte, 16)) {
			return fmt.Errorf("ring salt %x", salt)
		}
		// Rewrite the record's checksum as one without the salt would be.
		segs, err := loadRingSegments(bdb)
		if err != nil {
			return err
		}
		seg, within := ringSegmentAt(segs, forged.pos)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		h := make([]byte, forged.size)
		if _, err := f.ReadAt(h, segs[seg].off+within); err != nil {
			return err
		}
		n := binary.BigEndian.Uint32(h[16:])
		binary.BigEndian.PutUint32(h[4:], crc32.Checksum(h[8:ringHeader+n], castagnoli))
		_, err = f.WriteAt(h[:8], segs[seg].off+within)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := readRing(bdb)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records read, want the 2 not forged", len(recs))
	}
	for _, rec := range recs {
		if rec.version == forged.version {
			t.Fatalf("record %d accepted with a checksum without the salt", rec.version)
		}
	}
	// A ring made before salts gets one when it is opened with no record
	// live.
	err = bdb.Update(func(btx *bolt.Tx) error { return btx.Bucket(ringBucket).Delete(ringSaltKey) })
	if err != nil {
		t.Fatal(err)
	}
	bdb.Close()
	db, err = Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.ring.seed == 0 {
		t.Fatal("a ring without a salt did not get one")
	}
	if err := putIn(db, "s", "after", "v"); err != nil {
		t.Fatal(err)
	}
}
