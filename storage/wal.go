package storage

import (
	"encoding/binary"
	"fmt"
)

// The write-ahead log lives in the file itself, in bucket walBucket: one
// record per committed write transaction, stored under its version (and a
// part number: a big record is cut into parts so that no single value
// needs a long run of contiguous free pages). A record lists the
// transaction's changes, in the order it made them:
//
//	uvarint count of keyspace names, then each name (uvarint length, bytes)
//	operations, each a kind byte and its fields:
//	  opPut       space, key, value   (space: uvarint index into the names;
//	  opDelete    space, key           key, value: uvarint length, bytes)
//	  opSetSeq    space, uvarint sequence value
//	  opCreate    space
//	  opDrop      space
//
// Replaying the records after the file's checkpointed state rebuilds the
// memtable exactly; a checkpoint deletes the records it made redundant in the
// same file transaction that writes their changes into the keyspaces.
const (
	opPut byte = iota + 1
	opDelete
	opSetSeq
	opCreate
	opDrop
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

// walKey is a record part's key: version, then part, big-endian, so the
// records sort in commit order.
func walKey(version uint64, part uint32) []byte {
	k := make([]byte, 12)
	binary.BigEndian.PutUint64(k, version)
	binary.BigEndian.PutUint32(k[8:], part)
	return k
}

// walRecord collects a transaction's operations as it makes them.
type walRecord struct {
	names map[string]uint64
	order []string
	ops   []byte
}

func (r *walRecord) space(name string) uint64 {
	if i, ok := r.names[name]; ok {
		return i
	}
	if r.names == nil {
		r.names = map[string]uint64{}
	}
	i := uint64(len(r.order))
	r.names[name] = i
	r.order = append(r.order, name)
	return i
}

func (r *walRecord) empty() bool { return len(r.ops) == 0 }

func (r *walRecord) put(name string, key, value []byte) {
	r.ops = append(r.ops, opPut)
	r.ops = binary.AppendUvarint(r.ops, r.space(name))
	r.ops = appendBytes(r.ops, key)
	r.ops = appendBytes(r.ops, value)
}

func (r *walRecord) delete(name string, key []byte) {
	r.ops = append(r.ops, opDelete)
	r.ops = binary.AppendUvarint(r.ops, r.space(name))
	r.ops = appendBytes(r.ops, key)
}

func (r *walRecord) setSequence(name string, v uint64) {
	r.ops = append(r.ops, opSetSeq)
	r.ops = binary.AppendUvarint(r.ops, r.space(name))
	r.ops = binary.AppendUvarint(r.ops, v)
}

func (r *walRecord) create(name string) {
	r.ops = binary.AppendUvarint(append(r.ops, opCreate), r.space(name))
}

func (r *walRecord) drop(name string) {
	r.ops = binary.AppendUvarint(append(r.ops, opDrop), r.space(name))
}

func appendBytes(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}

// encode returns the record's stored form.
func (r *walRecord) encode() []byte {
	n := 8 + len(r.ops)
	for _, name := range r.order {
		n += len(name) + 2
	}
	out := binary.AppendUvarint(make([]byte, 0, n), uint64(len(r.order)))
	for _, name := range r.order {
		out = appendBytes(out, []byte(name))
	}
	return append(out, r.ops...)
}

// replayRecord applies a stored record's operations to w.
func replayRecord(w *writeSet, b []byte) error {
	d := walDecoder{b: b}
	n := d.uvarint()
	if d.err == nil && n > uint64(len(b)) {
		d.fail()
	}
	names := make([]string, 0, min(n, 1<<16))
	for i := uint64(0); i < n && d.err == nil; i++ {
		names = append(names, string(d.bytes()))
	}
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

func versionOf(walKey []byte) (uint64, error) {
	if len(walKey) != 12 {
		return 0, fmt.Errorf("storage: write-ahead log key of %d bytes: %w", len(walKey), ErrCorrupt)
	}
	return binary.BigEndian.Uint64(walKey), nil
}
