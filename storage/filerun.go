package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// A file run is what a checkpoint writes of one keyspace of a memtable
// layer, or what a compaction makes of several such runs: its entries
// sorted by key, one per key, tombstones included, in blocks stored as
// values of the keyspace's bucket under runsBucket:
//
//	'b' runID blockNo   -> block            (uint64, uint32, big-endian)
//	'm' runID           -> the run's meta   (runMeta: order, counts, block index, filter)
//
// A run never changes once its meta is written, and it is written last, in
// the file transaction that makes the run part of the keyspace: blocks
// without a meta are the remains of a run whose writing a crash cut short,
// which Open removes. Newer runs hide older ones (a run's order, not its
// ID, says which is newer: a compaction's run takes the order of the newest
// run it replaces), and the keyspace's bucket under rootBucket, where files
// made before runs kept their entries, lies under them all.
//
// A block is written in one piece, so a run's bytes reach the disk as a few
// large sequential writes however scattered its keys, and no page of the
// file is rewritten for a key that changed: what a B+tree checkpoint would
// do for every leaf a layer's keys land on.
//
// Block layout: the entries, each
//
//	uvarint klen, uvarint vtag (0: tombstone, else vlen+1), key, value
//
// then a little-endian uint32 per entry giving where it starts, then the
// entry count as a little-endian uint32.

var runsBucket = []byte("runs")

const (
	runBlockPrefix = 'b'
	runMetaPrefix  = 'm'
)

func runBlockKey(id uint64, block uint32) []byte {
	k := make([]byte, 13)
	k[0] = runBlockPrefix
	binary.BigEndian.PutUint64(k[1:], id)
	binary.BigEndian.PutUint32(k[9:], block)
	return k
}

func runMetaKey(id uint64) []byte {
	k := make([]byte, 9)
	k[0] = runMetaPrefix
	binary.BigEndian.PutUint64(k[1:], id)
	return k
}

// block is a decoded view of a stored block; its slices point into it.
type block struct {
	data []byte // the entries
	offs []byte // the offsets
	n    int
}

func parseBlock(b []byte) (block, error) {
	if len(b) < 4 {
		return block{}, corrupt("run block of %d bytes", len(b))
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-4:]))
	end := len(b) - 4 - 4*n
	if n <= 0 || end < 0 {
		return block{}, corrupt("run block with %d entries in %d bytes", n, len(b))
	}
	return block{data: b[:end], offs: b[end : len(b)-4], n: n}, nil
}

// entry returns entry i's key and value (live false: a tombstone). A
// malformed entry reads as an empty key, which no lookup matches.
func (b *block) entry(i int) (key, value []byte, live bool) {
	off := int(binary.LittleEndian.Uint32(b.offs[4*i:]))
	if off >= len(b.data) {
		return nil, nil, false
	}
	d := b.data[off:]
	klen, w1 := binary.Uvarint(d)
	vtag, w2 := binary.Uvarint(d[max(w1, 0):])
	if w1 <= 0 || w2 <= 0 {
		return nil, nil, false
	}
	d = d[w1+w2:]
	vlen := uint64(0)
	if vtag > 0 {
		vlen = vtag - 1
	}
	if klen > uint64(len(d)) || vlen > uint64(len(d))-klen {
		return nil, nil, false
	}
	key = d[:klen:klen]
	if vtag == 0 {
		return key, nil, false
	}
	return key, d[klen : klen+vlen : klen+vlen], true
}

func (b *block) key(i int) []byte {
	k, _, _ := b.entry(i)
	return k
}

// search returns the index of the first entry whose key is >= key.
func (b *block) search(key []byte) int {
	lo, hi := 0, b.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(b.key(m), key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// fileRun is what a reader keeps of a run: its meta, decoded once and
// shared (runCache); the blocks are read through the reader's own file
// transaction.
type fileRun struct {
	id uint64
	runMeta
}

// runMeta is a run's stored description.
type runMeta struct {
	// order says which of a keyspace's runs is newer (higher).
	order uint64
	// entries counts the run's entries, tombstones of them.
	entries, tombstones int
	// bytes is what its blocks take.
	bytes int64
	// firstKeys holds each block's first key; lastKey is the run's last.
	firstKeys [][]byte
	lastKey   []byte
	filter    bloom
}

const runMetaVersion = 1

func (m *runMeta) encode() []byte {
	n := 64 + len(m.lastKey) + len(m.filter.bits)
	for _, k := range m.firstKeys {
		n += len(k) + 2
	}
	b := make([]byte, 0, n)
	b = append(b, runMetaVersion)
	b = binary.AppendUvarint(b, m.order)
	b = binary.AppendUvarint(b, uint64(m.entries))
	b = binary.AppendUvarint(b, uint64(m.tombstones))
	b = binary.AppendUvarint(b, uint64(m.bytes))
	b = binary.AppendUvarint(b, uint64(len(m.firstKeys)))
	for _, k := range m.firstKeys {
		b = appendBytes(b, k)
	}
	b = appendBytes(b, m.lastKey)
	b = binary.AppendUvarint(b, uint64(m.filter.probes))
	return appendBytes(b, m.filter.bits)
}

func decodeRunMeta(v []byte) (runMeta, error) {
	if len(v) == 0 || v[0] != runMetaVersion {
		return runMeta{}, corrupt("run meta of an unknown version")
	}
	d := walDecoder{b: v[1:]}
	var m runMeta
	m.order = d.uvarint()
	m.entries = int(d.uvarint())
	m.tombstones = int(d.uvarint())
	m.bytes = int64(d.uvarint())
	nblocks := d.uvarint()
	if d.err == nil && nblocks > uint64(len(d.b)) {
		d.fail()
	}
	if d.err == nil {
		m.firstKeys = make([][]byte, 0, nblocks)
		for range nblocks {
			m.firstKeys = append(m.firstKeys, bytes.Clone(d.bytes()))
		}
	}
	m.lastKey = bytes.Clone(d.bytes())
	m.filter.probes = int(d.uvarint())
	m.filter.bits = bytes.Clone(d.bytes())
	if d.err != nil || len(m.firstKeys) == 0 {
		return runMeta{}, corrupt("unreadable run meta")
	}
	return m, nil
}

// blockFor returns the block that key would be in: the last whose first
// key is <= key (0 when key is before them all).
func (r *fileRun) blockFor(key []byte) int {
	i, found := slices.BinarySearchFunc(r.firstKeys, key, bytes.Compare)
	if found {
		return i
	}
	return max(i-1, 0)
}

// readBlock reads block i of r from the keyspace's run bucket.
func (r *fileRun) readBlock(b *bolt.Bucket, i int) (block, error) {
	raw := b.Get(runBlockKey(r.id, uint32(i)))
	if raw == nil {
		return block{}, corrupt("run %d lost its block %d", r.id, i)
	}
	return parseBlock(raw)
}

// get looks key up in the run: found false when the run has no entry for
// it, live false when its entry is a tombstone. It panics on a corrupt
// block, as fileRunIter does.
func (r *fileRun) get(b *bolt.Bucket, key []byte) (value []byte, live, found bool) {
	if !r.filter.mayContain(key) || bytes.Compare(key, r.firstKeys[0]) < 0 || bytes.Compare(key, r.lastKey) > 0 {
		return nil, false, false
	}
	blk, err := r.readBlock(b, r.blockFor(key))
	if err != nil {
		panic(err)
	}
	i := blk.search(key)
	if i == blk.n {
		return nil, false, false
	}
	k, v, live := blk.entry(i)
	if !bytes.Equal(k, key) {
		return nil, false, false
	}
	return v, live, true
}

// fileRunIter walks a run through one file transaction's bucket.
//
// A block it cannot read means the file is corrupt, and reads have no way
// to return an error (Get and Cursor never fail in a sound file), so it
// panics with the error (wrapping ErrCorrupt): the statement that read it
// fails, and the flusher's steps turn it back into an error (catchCorrupt).
type fileRunIter struct {
	r   *fileRun
	b   *bolt.Bucket
	bi  int // the block it is in
	blk block
	i   int // the entry within blk; valid while 0 <= i < blk.n
	ok  bool
}

func (it *fileRunIter) load(bi int) bool {
	if bi < 0 || bi >= len(it.r.firstKeys) {
		it.ok = false
		return false
	}
	blk, err := it.r.readBlock(it.b, bi)
	if err != nil {
		panic(err)
	}
	it.bi, it.blk, it.ok = bi, blk, true
	return true
}

// catchCorrupt turns a panic of a corrupt read (fileRunIter's) back into an
// error, leaving other panics be.
func catchCorrupt(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(error); ok && errors.Is(e, ErrCorrupt) {
			*err = e
			return
		}
		panic(r)
	}
}

func (it *fileRunIter) valid() bool { return it.ok && it.i >= 0 && it.i < it.blk.n }
func (it *fileRunIter) key() []byte { return it.blk.key(it.i) }
func (it *fileRunIter) value() ([]byte, bool) {
	_, v, live := it.blk.entry(it.i)
	return v, live
}

func (it *fileRunIter) first() {
	if it.load(0) {
		it.i = 0
	}
}

func (it *fileRunIter) last() {
	if it.load(len(it.r.firstKeys) - 1) {
		it.i = it.blk.n - 1
	}
}

func (it *fileRunIter) next() {
	if !it.ok {
		return
	}
	if it.i++; it.i >= it.blk.n && it.load(it.bi+1) {
		it.i = 0
	}
}

func (it *fileRunIter) prev() {
	if !it.ok {
		return
	}
	if it.i--; it.i < 0 && it.load(it.bi-1) {
		it.i = it.blk.n - 1
	}
}

func (it *fileRunIter) seekGE(key []byte) {
	if !it.load(it.r.blockFor(key)) {
		return
	}
	if it.i = it.blk.search(key); it.i == it.blk.n && it.load(it.bi+1) {
		it.i = 0
	}
}

func (it *fileRunIter) seekLT(key []byte) {
	if !it.load(it.r.blockFor(key)) {
		return
	}
	if it.i = it.blk.search(key) - 1; it.i < 0 && it.load(it.bi-1) {
		it.i = it.blk.n - 1
	}
}

// bloom is a Bloom filter over a run's keys, so that a lookup of a key the
// run does not have usually reads none of its blocks.
type bloom struct {
	bits   []byte
	probes int
}

// bloomBitsPerKey gives about a 1% false positive rate with 7 probes.
const (
	bloomBitsPerKey = 10
	bloomProbes     = 7
)

func newBloom(keys int) bloom {
	nbits := max(keys*bloomBitsPerKey, 64)
	return bloom{bits: make([]byte, (nbits+7)/8), probes: bloomProbes}
}

// keyHash is FNV-1a, 64 bits: stable across processes, as the filter is
// stored.
func keyHash(key []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range key {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func (f *bloom) add(key []byte) {
	h := keyHash(key)
	h1, h2 := uint32(h), uint32(h>>32)|1
	m := uint32(len(f.bits) * 8)
	for i := range uint32(f.probes) {
		bit := (h1 + i*h2) % m
		f.bits[bit/8] |= 1 << (bit % 8)
	}
}

func (f *bloom) mayContain(key []byte) bool {
	if len(f.bits) == 0 {
		return true
	}
	h := keyHash(key)
	h1, h2 := uint32(h), uint32(h>>32)|1
	m := uint32(len(f.bits) * 8)
	for i := range uint32(f.probes) {
		bit := (h1 + i*h2) % m
		if f.bits[bit/8]&(1<<(bit%8)) == 0 {
			return false
		}
	}
	return true
}

// runBuilder encodes a run's entries, given in key order, into blocks of
// about target bytes.
type runBuilder struct {
	id     uint64
	target int
	meta   runMeta
	cur    []byte
	offs   []uint32
	nblock uint32
}

func newRunBuilder(id, order uint64, expectedKeys, target int) *runBuilder {
	return &runBuilder{id: id, target: target, meta: runMeta{order: order, filter: newBloom(expectedKeys)}}
}

// add appends an entry and returns the block it completed, if any, with
// its key, to be stored.
func (w *runBuilder) add(key, value []byte, live bool) (blockKey, blk []byte) {
	if len(w.offs) > 0 && len(w.cur)+4*len(w.offs)+len(key)+len(value)+24 > w.target {
		blockKey, blk = w.cut()
	}
	if len(w.offs) == 0 {
		w.meta.firstKeys = append(w.meta.firstKeys, bytes.Clone(key))
		if w.cur == nil {
			w.cur = make([]byte, 0, w.target)
		}
	}
	w.offs = append(w.offs, uint32(len(w.cur)))
	w.cur = binary.AppendUvarint(w.cur, uint64(len(key)))
	if live {
		w.cur = binary.AppendUvarint(w.cur, uint64(len(value))+1)
	} else {
		w.cur = binary.AppendUvarint(w.cur, 0)
		w.meta.tombstones++
	}
	w.cur = append(w.cur, key...)
	if live {
		w.cur = append(w.cur, value...)
	}
	w.meta.entries++
	w.meta.filter.add(key)
	w.meta.lastKey = append(w.meta.lastKey[:0], key...)
	return blockKey, blk
}

// cut ends the current block.
func (w *runBuilder) cut() (blockKey, blk []byte) {
	for _, o := range w.offs {
		w.cur = binary.LittleEndian.AppendUint32(w.cur, o)
	}
	w.cur = binary.LittleEndian.AppendUint32(w.cur, uint32(len(w.offs)))
	blk, blockKey = w.cur, runBlockKey(w.id, w.nblock)
	w.meta.bytes += int64(len(blk))
	w.nblock++
	// bbolt keeps referring to a value until its transaction commits, so
	// the next block gets a buffer of its own.
	w.cur, w.offs = nil, w.offs[:0]
	return blockKey, blk
}

// finish returns the last block (nil if the run is empty) and the meta.
func (w *runBuilder) finish() (blockKey, blk []byte, meta []byte) {
	if len(w.offs) > 0 {
		blockKey, blk = w.cut()
	}
	if w.meta.entries == 0 {
		return nil, nil, nil
	}
	return blockKey, blk, w.meta.encode()
}
