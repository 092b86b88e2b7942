package storage

import (
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// The write-ahead log lives in the file itself, in bucket walBucket: one
// record per committed write transaction, in a bucket of its own under its
// version, as parts of at most walPartSize (so that no single value needs a
// long run of contiguous free pages) under their numbers. A bucket of its
// own, so that a record of a page or more has pages of its own: in one
// bucket a large record shared a leaf with the records before it (bbolt
// splits a leaf only past four keys), and each commit rewrote them all,
// four times its own size. (A record under a quarter page is kept inline
// in walBucket's leaf, which it shares with other small ones; rewriting
// those costs little.)
// (Files written before kept each part directly in walBucket, under its
// version and part number; replay reads those too.) A record lists
// the transaction's changes, in the order it made them, each a kind byte and
// its fields:
//
//	opName      name                (defines the next keyspace number, from 0)
//	opPut       space, key, value   (space: uvarint keyspace number;
//	opDelete    space, key           name, key, value: uvarint length, bytes)
//	opSetSeq    space, uvarint sequence value
//	opCreate    space
//	opDrop      space
//	opRenumber                      (forgets every keyspace number defined
//	                                 so far: the next opName defines 0)
//
// A transaction's record may hold the records of the forks it joined
// (fork.go), each between two opRenumber: a fork numbers the keyspaces it
// writes in its own record, from 0, as it makes its changes on its own
// goroutine, and the join appends that record as it is instead of
// encoding the fork's changes again.
//
// Replaying the records after the file's checkpointed state rebuilds the
// memtable exactly; a checkpoint deletes the records it made redundant in the
// file transaction that writes the last of their changes into the keyspaces
// (checkpoint.go).
const (
	opPut byte = iota + 1
	opDelete
	opSetSeq
	opCreate
	opDrop
	opName
	opRenumber
)

var (
	walBucket   = []byte("wal")
	stateBucket = []byte("walstate")
	// stateFileHigh is the highest version any change in the file's
	// keyspaces comes from; stateComplete the version up to which the file
	// holds every change (the checkpoint of a layer runs between the two).
	stateFileHigh = []byte("high")
	stateComplete = []byte("complete")
)

// walPartSize bounds one stored part of a record.
const walPartSize = 4 << 20

// walKey is a record's key in walBucket: its version, big-endian, so the
// records sort in commit order; walPartKey a part's in the record's bucket.
func walKey(version uint64) []byte { return binary.BigEndian.AppendUint64(nil, version) }

func walPartKey(part uint32) []byte { return binary.BigEndian.AppendUint32(nil, part) }

// walRecord collects a transaction's operations as it makes them, in chunks
// that start small (most transactions write a few rows) and grow, so a big
// transaction's record is never copied to grow it.
type walRecord struct {
	names  map[string]uint64
	chunks [][]byte
	size   int
}

const (
	walFirstChunk = 512
	walMaxChunk   = 256 << 10
)

// buf returns the current chunk with room for n more bytes.
func (r *walRecord) buf(n int) []byte {
	if len(r.chunks) > 0 {
		if c := r.chunks[len(r.chunks)-1]; cap(c)-len(c) >= n {
			return c
		}
	}
	size := walFirstChunk
	if len(r.chunks) > 0 {
		size = min(2*cap(r.chunks[len(r.chunks)-1]), walMaxChunk)
	}
	r.chunks = append(r.chunks, make([]byte, 0, max(size, n)))
	return r.chunks[len(r.chunks)-1]
}

// op appends one operation: kind, keyspace, then up to two byte fields or
// a number.
func (r *walRecord) op(kind byte, name string, a, b []byte, nfields int, num uint64) {
	r.append(kind, r.space(name), a, b, nfields, num, true)
}

// space returns the number the record gives keyspace name, defining it
// on first use.
func (r *walRecord) space(name string) uint64 {
	space, ok := r.names[name]
	if !ok {
		if r.names == nil {
			r.names = map[string]uint64{}
		}
		space = uint64(len(r.names))
		r.names[name] = space
		r.append(opName, 0, []byte(name), nil, 1, 0, false)
	}
	return space
}

// putIn is put for a keyspace the transaction has its own state of, which
// keeps the keyspace's number in the record once known.
func (r *walRecord) putIn(st *txSpace, name string, key, value []byte) {
	if st.walSpace == 0 {
		st.walSpace = r.space(name) + 1
	}
	r.append(opPut, st.walSpace-1, key, value, 2, 0, true)
}

func (r *walRecord) append(kind byte, space uint64, a, b []byte, nfields int, num uint64, withSpace bool) {
	c := r.buf(1 + 3*binary.MaxVarintLen64 + len(a) + len(b))
	start := len(c)
	c = append(c, kind)
	if withSpace {
		c = binary.AppendUvarint(c, space)
	}
	switch nfields {
	case 0:
		if kind == opSetSeq {
			c = binary.AppendUvarint(c, num)
		}
	case 1:
		c = appendBytes(c, a)
	case 2:
		c = appendBytes(appendBytes(c, a), b)
	}
	r.chunks[len(r.chunks)-1] = c
	r.size += len(c) - start
}

func (r *walRecord) empty() bool { return r.size == 0 }

// appendJoined appends a joined fork's record f, between two opRenumber, and
// forgets the keyspace numbers r defined: what r's transaction writes next
// defines them again (spaces are its keyspaces' states, whose cached
// numbers are cleared). f's chunks become r's; f must not be used after.
func (r *walRecord) appendJoined(f *walRecord, spaces map[string]*txSpace) {
	if f.empty() {
		return
	}
	r.append(opRenumber, 0, nil, nil, 0, 0, false)
	r.chunks = append(r.chunks, f.chunks...)
	r.size += f.size
	r.append(opRenumber, 0, nil, nil, 0, 0, false)
	r.names = nil
	for _, st := range spaces {
		st.walSpace = 0
	}
}

func (r *walRecord) put(name string, key, value []byte) { r.op(opPut, name, key, value, 2, 0) }
func (r *walRecord) delete(name string, key []byte)     { r.op(opDelete, name, key, nil, 1, 0) }
func (r *walRecord) setSequence(name string, v uint64)  { r.op(opSetSeq, name, nil, nil, 0, v) }
func (r *walRecord) create(name string)                 { r.op(opCreate, name, nil, nil, 0, 0) }
func (r *walRecord) drop(name string)                   { r.op(opDrop, name, nil, nil, 0, 0) }

func appendBytes(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}

// parts returns the record's stored form, as the values of its parts.
func (r *walRecord) parts() [][]byte {
	var out [][]byte
	for _, c := range r.chunks {
		for len(c) > walPartSize { // one very large value
			out = append(out, c[:walPartSize])
			c = c[walPartSize:]
		}
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// replayRecord applies a stored record's operations to w.
func replayRecord(w *writeSet, b []byte) error {
	return (&recordReplay{w: w}).apply(b)
}

// recordReplay applies a record's operations to w, given in pieces that
// each end where an operation does (a transaction's chunks): the keyspace
// numbers the pieces define carry over from one to the next.
type recordReplay struct {
	w     *writeSet
	names []string
}

func (rp *recordReplay) apply(b []byte) error {
	w := rp.w
	d := walDecoder{b: b}
	names := rp.names
	defer func() { rp.names = names }()
	name := func() string {
		i := d.uvarint()
		if d.err == nil && i >= uint64(len(names)) {
			d.fail()
		}
		if d.err != nil {
			return ""
		}
		return names[i]
	}
	for d.err == nil && len(d.b) > 0 {
		op := d.b[0]
		d.b = d.b[1:]
		switch op {
		case opName:
			if n := d.bytes(); d.err == nil {
				names = append(names, string(n))
			}
		case opRenumber:
			names = names[:0]
		case opPut:
			sp, k := name(), d.bytes()
			v := d.bytes()
			if d.err == nil {
				w.put(sp, k, v)
			}
		case opDelete:
			sp, k := name(), d.bytes()
			if d.err == nil {
				w.delete(sp, k)
			}
		case opSetSeq:
			sp, v := name(), d.uvarint()
			if d.err == nil {
				w.setSequence(sp, v)
			}
		case opCreate:
			if sp := name(); d.err == nil {
				w.create(sp)
			}
		case opDrop:
			if sp := name(); d.err == nil {
				w.drop(sp)
			}
		default:
			d.fail()
		}
	}
	return d.err
}

type walDecoder struct {
	b   []byte
	err error
}

func (d *walDecoder) fail() {
	if d.err == nil {
		d.err = corrupt("write-ahead log record is malformed")
	}
	d.b = nil
}

func (d *walDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *walDecoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

// versionOf reads the version of a key of walBucket: a record's.
func versionOf(walKey []byte) (uint64, error) {
	if len(walKey) != 8 {
		return 0, corrupt("the log bucket holds a key %x that is no record's", walKey)
	}
	return binary.BigEndian.Uint64(walKey), nil
}

// readLogBucket returns the records of the log bucket wal whose versions
// are after complete, each checked: its parts all there, numbered from 0,
// each passing its seal. (Those up to complete are checked too, though
// the keyspaces hold their changes: a record whose key was damaged could
// pass for one of them.)
func readLogBucket(wal *bolt.Bucket, complete uint64) (map[uint64][]byte, error) {
	records := map[uint64][]byte{}
	c := wal.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		ver, err := versionOf(k)
		if err != nil {
			return nil, err
		}
		if v != nil {
			return nil, corrupt("log record %d is a value, not a bucket", ver)
		}
		var rec []byte
		part := uint32(0)
		pc := wal.Bucket(k).Cursor()
		for pk, pv := pc.First(); pk != nil; pk, pv = pc.Next() {
			body, ok := unseal(pv, k, pk)
			if len(pk) != 4 || binary.BigEndian.Uint32(pk) != part || !ok {
				return nil, corrupt("log record %d: part %x is missing or damaged", ver, pk)
			}
			rec = append(rec, body...)
			part++
		}
		if part == 0 {
			return nil, corrupt("log record %d has no parts", ver)
		}
		if ver > complete {
			records[ver] = rec
		}
	}
	return records, nil
}
