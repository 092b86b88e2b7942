package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
// checksum fails): the commits of that flush after it were not
// acknowledged, and are left out too.
func TestLogRingReplayStopsAtAGap(t *testing.T) {
	path := checkedPath(t, "gap.db")
	opts := Options{NoSync: true, CheckpointAfterIdle: time.Hour}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	long := string(bytes.Repeat([]byte{'v'}, 1500))
	for i := range 6 {
		if err := putIn(db, "s", fmt.Sprintf("k%d", i), long); err != nil {
			t.Fatal(err)
		}
	}
	// The last four commits share a flush, and a crash cuts its second
	// record short.
	commitInOneFlush(t, db, "s", []string{"k6", "k7", "k8", "k9"}, long)
	last := db.ring.live[len(db.ring.live)-4:]
	if last[0].flushFirst != last[3].flushFirst || last[0].flushFirst != last[0].version {
		t.Fatalf("the last four records are not one flush's: %+v", last)
	}
	victim := last[1]
	db.crash()
	cut := cutRingRecord(t, path, victim, "k6", "k7", "k8", "k9")
	db, err = Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		for i := range 10 {
			k := fmt.Sprintf("k%d", i)
			want := i < 6 || cut[k] < victim.version
			if got := tx.Space("s").Get([]byte(k)); (got != nil) != want {
				return fmt.Errorf("%s (version %d) present %v after record %d was cut short", k, cut[k], got != nil, victim.version)
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

// TestLogRingRefusesAGapBeforeALaterFlush: a record missing (damaged)
// before records of a later flush cannot be a write a crash cut short -
// the later flush was written once it was on disk - so Open refuses the
// file, naming the record, rather than replay up to it and drop the
// acknowledged commits after it; a check of the file says the same.
func TestLogRingRefusesAGapBeforeALaterFlush(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gap.db")
	opts := Options{NoSync: true, CheckpointAfterIdle: time.Hour}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if err := putIn(db, "s", fmt.Sprintf("k%d", i), "v"); err != nil {
			t.Fatal(err)
		}
	}
	victim := db.ring.live[len(db.ring.live)-3]
	db.crash()
	cutRingRecord(t, path, victim)
	want := fmt.Sprintf("log record %d is missing or damaged", victim.version)
	if _, err := Open(path, opts); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
		t.Fatalf("open with a record damaged before later flushes: %v, want ErrCorrupt saying %q", err, want)
	}
	report, err := CheckFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Problems) != 1 || !strings.Contains(report.Problems[0].Error(), want) {
		t.Fatalf("the check found %v", report.Problems)
	}
}

// commitInOneFlush commits a put of each of keys, each in a transaction of
// its own, so that they share one flush: the log writer is held on the
// flush of another commit while they queue behind it. It returns once all
// of them are durable.
func commitInOneFlush(t *testing.T, db *DB, space string, keys []string, value string) {
	t.Helper()
	entered, release := holdNextFlush(db)
	defer db.hookFlush.Store(nil)
	var wg sync.WaitGroup
	put := func(k string) {
		defer wg.Done()
		if err := putIn(db, space, k, value); err != nil {
			t.Error(err)
		}
	}
	wg.Add(1)
	go put("held")
	<-entered
	for _, k := range keys {
		wg.Add(1)
		go put(k)
	}
	awaitQueue(t, db, len(keys))
	release()
	wg.Wait()
}

// holdNextFlush makes the log writer's next flush wait, before it writes,
// until release is called; entered is closed once it waits. (The hook
// stays, letting later flushes go: the caller clears db.hookFlush.)
func holdNextFlush(db *DB) (entered <-chan struct{}, release func()) {
	in, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	hold := func() error {
		once.Do(func() { close(in); <-gate })
		return nil
	}
	db.hookFlush.Store(&hold)
	return in, func() { close(gate) }
}

// cutRingRecord makes rec, a record in the log ring of the closed file at
// path, fail its checksum, as a write a crash cut short would (none when
// its pos is negative), and returns the version of the record each of keys
// (which no value contains) is in.
func cutRingRecord(t *testing.T, path string, rec ringRecord, keys ...string) (versionOf map[string]uint64) {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	recs, bodies, err := readRing(bdb)
	if err != nil {
		t.Fatal(err)
	}
	versionOf = map[string]uint64{}
	for _, r := range recs {
		for _, k := range keys {
			if bytes.Contains(bodies[r.version], []byte(k)) {
				versionOf[k] = r.version
			}
		}
	}
	if rec.pos < 0 {
		return versionOf
	}
	segs, err := loadRingSegments(bdb)
	if err != nil {
		t.Fatal(err)
	}
	seg, within := ringSegmentAt(segs, rec.pos)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, 8), segs[seg].off+within+ringHeader); err != nil {
		t.Fatal(err)
	}
	return versionOf
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
				binary.BigEndian.Uint32(h[16:]) != uint32(len(b)), binary.BigEndian.Uint64(h[8:])-uint64(binary.BigEndian.Uint32(h[20:])) != batch[0].version:
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
	// (A record that fails its checksum before later flushes' makes a
	// damaged file, which the check at the end of a test would report.)
	path := filepath.Join(t.TempDir(), "salt.db")
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
		salt, ok := unseal(btx.Bucket(ringBucket).Get(ringSaltKey), ringScope, ringSaltKey)
		if !ok || len(salt) != 16 || bytes.Equal(salt, make([]byte, 16)) {
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
	bdb.Close()
	// A ring made before salts (converted, it has an empty one) gets one
	// when it is opened with no record live.
	path = checkedPath(t, "unsalted.db")
	db, err = Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := putIn(db, "s", "before", "v"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	bdb, err = bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(btx *bolt.Tx) error {
		return btx.Bucket(ringBucket).Put(ringSaltKey, sealed(nil, ringScope, ringSaltKey))
	})
	bdb.Close()
	if err != nil {
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
