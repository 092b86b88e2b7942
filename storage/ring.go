package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"log/slog"
	"os"
	"slices"
	"sync"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// The log ring: where commits' log records go, in the file but outside
// bbolt's transactions.
//
// A bbolt transaction that makes a record durable costs two fsyncs (its
// pages, then its meta page) and the work of allocating and writing pages;
// a commit waits for all of it. The ring is space reserved once in the file,
// as segments: each the one value of a bucket of its own under ringBucket,
// which nothing ever writes again, so its pages stay where they are (bbolt
// copies a leaf's values to new pages when it changes the leaf, so a second
// value beside a segment would move it). A flush writes the records into
// that space at the file offsets bbolt placed it at, each write durable by
// itself (writeDurably: on Linux a write that waits for its own bytes, not
// for what bbolt has written to the file and not synced yet). bbolt
// neither reads nor moves those pages, and its free list counts them as
// used, as they are.
//
// Records are laid out one after another from the ring's start, each at a
// multiple of ringAlign bytes, and wrap around to the start; a record is
// live until the checkpoint that puts its changes into the keyspaces
// completes, and space is reused only behind the oldest live record. When
// a batch of records does not fit, it goes to the log bucket in a bbolt
// transaction (wal.go) as before, and the flusher adds a segment, doubling
// the ring up to maxRingBytes.
//
// A record:
//
//	[0:4)    ringMagic
//	[4:8)    CRC-32C of the ring's salt, then [8:24+n)
//	[8:16)   version
//	[16:20)  n, the record's length
//	[20:24)  the record's place in its flush: its version less the flush's
//	         first (records written before this field, under
//	         legacyRingMagic, have zero)
//	[24:24+n) the record, as replayRecord reads it
//
// Open reads every record of the ring the checksum accepts (a record cut
// short by a crash fails it) and replays, with the log bucket's, those the
// keyspaces do not hold yet, in version order, stopping at the first
// version missing: commits are flushed in version order, and one flush's
// records are acknowledged together after its fsync, so a record after a
// gap was never acknowledged. A record whose space was reused is behind a
// completed checkpoint, so its version is one the keyspaces hold; stale
// records that still pass the checksum are skipped for that reason.
//
// A flush starts only once the one before it is on disk, so the records
// after a missing version can only be the rest of the flush the missing
// one was in, which a crash cut short. A record of a later flush there
// (its flush's first version after the missing one), or one in the log
// bucket (whose flushes are bbolt transactions, whole or not at all),
// means the missing record was on disk and is damaged: Open refuses the
// file rather than drop it and every commit after it. What no check can
// tell is damage to the records of the very last flush from a crash that
// cut that flush short: their commits are lost as if it had (as in any
// write-ahead log, PostgreSQL's too).
//
// The salt is random bytes the ring is made with. Records hold what clients
// wrote, and a checksum alone would let a value that holds a well-formed
// record pass for one when the scan meets it in a stale record's body; a
// client cannot compute a checksum over a salt it never sees.
//
// The log writer writes the ring while the flusher may be in a bbolt
// transaction: they touch different pages, and bbolt's fdatasync finds
// none of the ring's dirty, as its writes are durable when they return.
// mu guards the ring's state,
// which the log writer changes by writing, the flusher by releasing
// records and growing it.
type ring struct {
	mu   sync.Mutex
	file *os.File
	sync bool // writes are durable when they return (Options.NoSync clears it)
	segs []ringSegment
	size int64  // of all segments
	seed uint32 // the CRC-32C of the salt, where records' checksums start
	// head is where the next record goes (a ring offset); live are the
	// records not yet checkpointed, oldest first.
	head int64
	live []ringRecord
	// grow asks the flusher for another segment: a batch did not fit. max
	// is what the ring may grow to (maxRingBytes but in tests).
	grow bool
	max  int64
	// scratch is where write lays out a batch's records, kept from batch
	// to batch (up to maxRingScratch bytes): a fresh buffer of a record's
	// size cost, on the path every commit waits on, its zeroing and the
	// faults of touching new pages.
	scratch []byte
	// log takes failed writes; fault is Options.InjectLogWriteFault.
	log   *slog.Logger
	fault func(off int64, n int) LogWriteFault
}

// maxRingScratch bounds the scratch buffer a ring keeps between writes.
const maxRingScratch = 4 << 20

// ringSegment is one value of ringBucket: its place in the file.
type ringSegment struct{ off, size int64 }

type ringRecord struct {
	version   uint64
	pos, size int64 // ring offset and length, padding included
	// flushFirst is the first version of the flush that wrote it (0:
	// unknown, a record written before records said).
	flushFirst uint64
}

var (
	ringBucket = []byte("logring")
	// ringSaltKey is the salt's key in ringBucket, beside the segments'
	// buckets (sealed). Rings made before it had none, and keep an empty
	// one while their records are live: their records' checksums start
	// from nothing.
	ringSaltKey = []byte("salt")
	ringMagic   = [4]byte{'c', 'd', 'c', 'R'}
	// legacyRingMagic marks records written before they said their
	// place in their flush.
	legacyRingMagic = [4]byte{'c', 'd', 'c', 'L'}
	castagnoli      = crc32.MakeTable(crc32.Castagnoli)
)

const (
	ringAlign      = 512
	ringHeader     = 24
	firstRingBytes = 1 << 20
	// minRingBytes is the smallest segment: bbolt keeps a bucket no
	// larger than a quarter of a page inside its parent's page, where it
	// moves with every change of the parent; a segment must have pages of
	// its own.
	minRingBytes    = 64 << 10
	maxSegmentBytes = 16 << 20
	maxRingBytes    = 64 << 20
)

func ringSegmentKey(i int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(i)) }

// ringSegmentValue is the key of a segment's value in its bucket.
var ringSegmentValue = []byte{0}

// eachRingSegment calls fn with each segment's value, in ring order. The
// segments' values are rewritten outside bbolt and carry no seal, so their
// sizes are checked against the rule they were made by (addRingSegment):
// each twice the one before, up to maxSegmentBytes.
func eachRingSegment(btx *bolt.Tx, fn func(v []byte) error) error {
	b := btx.Bucket(ringBucket)
	if b == nil {
		return nil
	}
	i, prev := 0, 0
	return b.ForEach(func(k, v []byte) error {
		if v != nil {
			if !bytes.Equal(k, ringSaltKey) {
				return corrupt("the log ring holds a value under %x", k)
			}
			return nil
		}
		v = b.Bucket(k).Get(ringSegmentValue)
		if len(k) != 4 || binary.BigEndian.Uint32(k) != uint32(i) || len(v) == 0 {
			return corrupt("log ring segment %x", k)
		}
		size := len(v)
		if size < minRingBytes || size%ringAlign != 0 || (i > 0 && size != min(2*prev, maxSegmentBytes)) {
			return corrupt("log ring segment %d has %d bytes", i, size)
		}
		i, prev = i+1, size
		return fn(v)
	})
}

// ringSeed is where the ring's records' checksums start, and whether the
// ring has a salt (a ring made before salts has none).
func ringSeed(btx *bolt.Tx) (seed uint32, salted bool, err error) {
	b := btx.Bucket(ringBucket)
	if b == nil {
		return 0, false, nil
	}
	salt, ok := unseal(b.Get(ringSaltKey), ringScope, ringSaltKey)
	if !ok {
		return 0, false, corrupt("the log ring's salt is missing or fails its checksum")
	}
	return crc32.Update(0, castagnoli, salt), len(salt) > 0, nil
}

// loadRingSegments finds the segments' file offsets: a value's bytes in a
// read transaction are bbolt's memory map of the file.
func loadRingSegments(bdb *bolt.DB) ([]ringSegment, error) {
	var segs []ringSegment
	err := bdb.View(func(btx *bolt.Tx) error {
		base := bdb.Info().Data
		return eachRingSegment(btx, func(v []byte) error {
			off := int64(uintptr(unsafe.Pointer(unsafe.SliceData(v))) - base)
			segs = append(segs, ringSegment{off: off, size: int64(len(v))})
			return nil
		})
	})
	return segs, err
}

// addRingSegment reserves another segment of the ring (the first, of first
// bytes, when there is none), of twice the last one's size up to
// maxSegmentBytes.
func addRingSegment(bdb *bolt.DB, first int) error {
	return bdb.Update(func(btx *bolt.Tx) error {
		b := btx.Bucket(ringBucket)
		if b == nil {
			var err error
			if b, err = btx.CreateBucket(ringBucket); err != nil {
				return err
			}
			if err := addRingSalt(btx); err != nil {
				return err
			}
		}
		n, size := 0, max(first, minRingBytes)
		err := eachRingSegment(btx, func(v []byte) error {
			n++
			size = min(2*len(v), maxSegmentBytes)
			return nil
		})
		if err != nil {
			return err
		}
		seg, err := b.CreateBucket(ringSegmentKey(n))
		if err != nil {
			return err
		}
		return seg.Put(ringSegmentValue, make([]byte, size))
	})
}

// ringSegmentAt returns the segment that holds ring offset pos and the
// offset within it (-1: pos is past the ring).
func ringSegmentAt(segs []ringSegment, pos int64) (seg int, within int64) {
	for i, s := range segs {
		if pos < s.size {
			return i, pos
		}
		pos -= s.size
	}
	return -1, 0
}

// readRing returns every record of the ring that passes the checksum, with
// its place, in version order, reading the segments through bbolt.
func readRing(bdb *bolt.DB) (recs []ringRecord, bodies map[uint64][]byte, err error) {
	bodies = map[uint64][]byte{}
	err = bdb.View(func(btx *bolt.Tx) (err error) {
		defer boltPanicAsError("reading the log ring", &err)
		seed, _, err := ringSeed(btx)
		if err != nil {
			return err
		}
		var start int64
		return eachRingSegment(btx, func(v []byte) error {
			for p := 0; p+ringHeader <= len(v); p += ringAlign {
				h := v[p : p+ringHeader]
				magic := [4]byte(h[:4])
				if magic != ringMagic && magic != legacyRingMagic {
					continue
				}
				n := int(binary.BigEndian.Uint32(h[16:]))
				place := binary.BigEndian.Uint32(h[20:])
				if n > len(v)-p-ringHeader || (magic == legacyRingMagic && place != 0) {
					continue
				}
				if crc32.Update(seed, castagnoli, v[p+8:p+ringHeader+n]) != binary.BigEndian.Uint32(h[4:]) {
					continue
				}
				version := binary.BigEndian.Uint64(h[8:])
				if _, dup := bodies[version]; dup {
					return corrupt("log ring holds version %d twice", version)
				}
				rec := ringRecord{version: version, pos: start + int64(p), size: alignRing(ringHeader + n)}
				if magic == ringMagic {
					if uint64(place) >= version {
						continue // (a checksum that passes by chance)
					}
					rec.flushFirst = version - uint64(place)
				}
				bodies[version] = slices.Clone(v[p+ringHeader : p+ringHeader+n])
				recs = append(recs, rec)
			}
			start += int64(len(v))
			return nil
		})
	})
	slices.SortFunc(recs, func(a, b ringRecord) int { return cmp.Compare(a.version, b.version) })
	return recs, bodies, err
}

func alignRing(n int) int64 { return int64((n + ringAlign - 1) &^ (ringAlign - 1)) }

// free is how many bytes the ring can take from head on before it reaches
// the oldest live record.
func (r *ring) free() int64 {
	if len(r.live) == 0 {
		return r.size
	}
	tail := r.live[0].pos
	switch {
	case tail > r.head:
		return tail - r.head
	case tail == r.head:
		// Full: write never lets head reach the oldest live record, but
		// a file written before it kept to that may have.
		return 0
	}
	return r.size - r.head + tail
}

// place returns where a record of size bytes goes: at head, or at the
// next segment's start (or the ring's) when it does not fit in the rest of
// head's segment. ok is false when it is larger than that segment.
func (r *ring) place(head, size int64) (pos int64, ok bool) {
	seg, within := ringSegmentAt(r.segs, head)
	if seg < 0 {
		seg, within, head = 0, 0, 0
	}
	if rest := r.segs[seg].size - within; rest < size {
		// Skip to the next segment.
		head += rest
		if head >= r.size {
			head = 0
		}
		seg, _ = ringSegmentAt(r.segs, head)
		if r.segs[seg].size < size {
			return 0, false // larger than a segment
		}
	}
	return head, true
}

// write appends a batch's records to the ring, durably. It
// returns false, having written nothing, when they do not fit; the caller
// then writes them in a bbolt transaction, and the ring asks to grow.
func (r *ring) write(batch []*pendingCommit) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	type piece struct {
		pos int64
		buf []byte
	}
	var pieces []piece
	var placed []ringRecord
	// Each record's place first: a batch that does not fit is refused
	// before anything is laid out. used counts the bytes the batch takes
	// from head on: its records and the segment ends they skip. It stays
	// below free, never reaching it: a head that met the oldest live
	// record would look like an empty ring's.
	head, used, free := r.head, int64(0), r.free()
	total := 0
	for _, pc := range batch {
		size := alignRing(ringHeader + recordLen(pc.record))
		pos, ok := r.place(head, size)
		if !ok {
			r.grow = true
			return false, nil
		}
		if pos < head {
			used += r.size - head + pos + size // wrapped to the start
		} else {
			used += pos - head + size
		}
		if used >= free {
			r.grow = true
			return false, nil
		}
		placed = append(placed, ringRecord{version: pc.version, pos: pos, size: size, flushFirst: batch[0].version})
		total += int(size)
		head = pos + size
		if head >= r.size {
			head = 0
		}
	}
	// Then the records, one after another in out, which has room for all
	// of them: out never moves, so records that follow each other in one
	// segment of the ring also do in out, and are one write.
	out := r.scratch[:0]
	if cap(out) < total {
		out = make([]byte, 0, total)
	}
	if cap(out) <= maxRingScratch {
		r.scratch = out
	}
	for i, pc := range batch {
		rec, n := placed[i], recordLen(pc.record)
		start := len(out)
		out = out[:start+ringHeader]
		h := out[start:]
		copy(h, ringMagic[:])
		binary.BigEndian.PutUint64(h[8:], pc.version)
		binary.BigEndian.PutUint32(h[16:], uint32(n))
		binary.BigEndian.PutUint32(h[20:], uint32(pc.version-batch[0].version))
		for _, part := range pc.record {
			out = append(out, part...)
		}
		binary.BigEndian.PutUint32(h[4:], crc32.Update(r.seed, castagnoli, out[start+8:]))
		out = out[:start+int(rec.size)]
		clear(out[start+ringHeader+n:]) // the padding is zeros
		if k := len(pieces); k > 0 && pieces[k-1].pos+int64(len(pieces[k-1].buf)) == rec.pos && sameSegment(r.segs, pieces[k-1].pos, rec.pos) {
			pieces[k-1].buf = pieces[k-1].buf[:len(pieces[k-1].buf)+int(rec.size)]
		} else {
			pieces = append(pieces, piece{rec.pos, out[start:]})
		}
	}
	for _, p := range pieces {
		seg, within := ringSegmentAt(r.segs, p.pos)
		if err := r.writeAt(p.buf, r.segs[seg].off+within); err != nil {
			// Earlier pieces are on disk, this one may be in part: the
			// batch's outcome is unknown (flushed).
			return false, err
		}
	}
	r.head = head
	r.live = append(r.live, placed...)
	return true, nil
}

// writeAt writes b at file offset off, durably unless the ring does not
// sync (Options.NoSync), and logs a failure with where it was.
func (r *ring) writeAt(b []byte, off int64) error {
	fault := LogWriteOK
	if r.fault != nil {
		fault = r.fault(off, len(b))
	}
	var err error
	switch {
	case fault == LogWriteFailsBefore:
		err = &os.PathError{Op: "write", Path: r.file.Name(), Err: errInjectedWriteFault}
	case r.sync:
		err = writeDurably(r.file, b, off)
	default:
		_, err = r.file.WriteAt(b, off)
	}
	if err == nil && fault == LogWriteFailsAfter {
		err = &os.PathError{Op: "fdatasync", Path: r.file.Name(), Err: errInjectedWriteFault}
	}
	if err != nil {
		r.log.Error("writing commits' log records to the database file failed", "file", r.file.Name(), "offset", off, "length", len(b), "err", err)
	}
	return err
}

// writeThenSync writes b at off in f, then syncs the file: the durable
// write where the system has none of its own (writeDurably).
func writeThenSync(f *os.File, b []byte, off int64) error {
	if _, err := f.WriteAt(b, off); err != nil {
		return err
	}
	return fdatasync(f)
}

// recordLen is how many bytes a record's parts hold together.
func recordLen(parts [][]byte) int {
	n := 0
	for _, part := range parts {
		n += len(part)
	}
	return n
}

func sameSegment(segs []ringSegment, a, b int64) bool {
	sa, _ := ringSegmentAt(segs, a)
	sb, _ := ringSegmentAt(segs, b)
	return sa == sb
}

// release frees the space of the records of versions <= hi, which a
// checkpoint has put into the keyspaces.
func (r *ring) release(hi uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := 0
	for i < len(r.live) && r.live[i].version <= hi {
		i++
	}
	r.live = r.live[i:]
}

// openRing sets the ring up for writing after Open's replay: live are the
// ring's records the replay used (in version order), the newest of which
// ends where the next goes; dead are records after a version missing,
// which the replay left out. They are erased first: the versions they carry
// go to the next commits, and a later replay must not take them for those.
// A file without a ring gets its first segment, of first bytes.
func openRing(bdb *bolt.DB, file *os.File, sync bool, live, dead []ringRecord, first int, log *slog.Logger) (*ring, error) {
	segs, err := loadRingSegments(bdb)
	if err != nil {
		return nil, err
	}
	if len(segs) == 0 {
		if err := addRingSegment(bdb, first); err != nil {
			return nil, err
		}
		if segs, err = loadRingSegments(bdb); err != nil {
			return nil, err
		}
	}
	var seed uint32
	salted := false
	err = bdb.View(func(btx *bolt.Tx) (err error) {
		seed, salted, err = ringSeed(btx)
		return err
	})
	if err == nil && !salted && len(live) == 0 {
		// A ring made before salts gets one once no record of it is
		// live: records written without it would stop passing.
		err = bdb.Update(func(btx *bolt.Tx) (err error) {
			if err := addRingSalt(btx); err != nil {
				return err
			}
			seed, _, err = ringSeed(btx)
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	r := &ring{file: file, sync: sync, segs: segs, seed: seed, live: live, max: maxRingBytes, log: log}
	for _, s := range segs {
		r.size += s.size
	}
	if len(dead) > 0 {
		for _, d := range dead {
			seg, within := ringSegmentAt(segs, d.pos)
			off := segs[seg].off + within
			if _, err := file.WriteAt(make([]byte, len(ringMagic)), off); err != nil {
				log.Error("erasing a log record of a commit never acknowledged failed", "file", file.Name(), "offset", off, "length", len(ringMagic), "err", err)
				return nil, err
			}
		}
		if err := fdatasync(file); err != nil {
			log.Error("syncing the database file failed", "file", file.Name(), "err", err)
			return nil, err
		}
	}
	if n := len(live); n > 0 {
		r.head = (live[n-1].pos + live[n-1].size) % r.size
	}
	return r, nil
}

// wantsToGrow reports whether a batch did not fit the ring since it last
// grew.
func (r *ring) wantsToGrow() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.grow
}

// growRing adds a segment to the ring, unless that would make it larger
// than it may be. The segment is reserved in a bbolt transaction, while the
// log writer goes on with the ring as it is.
func (db *DB) growRing() (err error) {
	defer boltPanicAsError("growing the log ring", &err)
	r := db.ring
	r.mu.Lock()
	r.grow = false
	next := min(2*r.segs[len(r.segs)-1].size, maxSegmentBytes)
	full := r.size+next > r.max
	r.mu.Unlock()
	if full {
		return nil
	}
	if err := addRingSegment(db.bolt, firstRingBytes); err != nil {
		return err
	}
	segs, err := loadRingSegments(db.bolt)
	if err != nil {
		return err
	}
	// The new segment comes after the others: ring offsets of live records
	// do not change, and head, if it had wrapped, goes on from where it is.
	r.mu.Lock()
	defer r.mu.Unlock()
	r.segs = segs
	r.size = 0
	for _, s := range segs {
		r.size += s.size
	}
	return nil
}

// boltFile keeps the file bbolt opens, for the ring's writes.
type boltFile struct {
	mu   sync.Mutex
	file *os.File
}

func (f *boltFile) open(name string, flag int, perm os.FileMode) (*os.File, error) {
	file, err := os.OpenFile(name, flag, perm)
	if err == nil {
		f.mu.Lock()
		f.file = file
		f.mu.Unlock()
	}
	return file, err
}

func (f *boltFile) get() (*os.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.file == nil {
		return nil, errors.New("storage: the database file is not open")
	}
	return f.file, nil
}
