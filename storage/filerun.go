package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"

	bolt "go.etcd.io/bbolt"
)

// A file run is what a checkpoint writes of one keyspace of a memtable
// layer, or what a compaction makes of several such runs: its entries
// sorted by key, one per key, tombstones included, in blocks stored as
// bbolt values, and a meta that describes them:
//
//	blocksBucket:         runID blockNo -> block            (uint64, uint32, big-endian)
//	runsBucket/keyspace:  runID         -> the run's meta   (runMeta: order, counts, block index, filter)
//
// A meta is sealed (seal.go) under its key in its keyspace, and a block's
// entries each carry a checksum (below). The keyspace's record
// (spacerec.go) lists its runs' IDs, so a meta that went missing, or one of
// another keyspace, is found out.
//
// Run IDs are unique in the file (the runs bucket's sequence), so every
// block is in one bucket, which a reader opens once per transaction.
// A run never changes once its meta is written, and it is written last, in
// the file transaction that makes the run part of the keyspace: blocks
// without a meta are the remains of a run whose writing a crash cut short,
// which Open removes. Newer runs hide older ones (a run's order, not its
// ID, says which is newer: a compaction's run takes the order of the newest
// run it replaces). The keyspace's bucket under rootBucket keeps only its
// existence and sequence: files made before runs kept their entries there,
// and Open rewrites those as runs (migrate.go) before anything reads them.
//
// A block is written in one piece, so a run's bytes reach the disk as a few
// large sequential writes however scattered its keys, and no page of the
// file is rewritten for a key that changed: what a B+tree checkpoint would
// do for every leaf a layer's keys land on.
//
// Block layout: the entries, each
//
//	uvarint klen, uvarint vtag (0: tombstone, else vlen+1), key, value,
//	big-endian uint32 CRC-32C of the entry (entrySum)
//
// then a little-endian uint32 per entry giving where it starts, then the
// entry count as a little-endian uint32, then a big-endian uint32 CRC-32C
// of all of the block before it, under the block's key (blockSeed).
//
// Two checksums, because reads differ: a lookup reads a dozen of a block's
// hundreds of entries, and checks those, each under its block's key and
// its place in it (an offset or a count that is damaged makes the entries
// read through it fail their checks); a walk from one block into the next
// reads them all, and checks the whole block at once, which CRC-32C does
// four times faster than entry by entry. Checking the whole block at every
// lookup that read it from the file made such a lookup four to five times
// slower.

var (
	runsBucket   = []byte("runs")
	blocksBucket = []byte("blocks")
)

// blockKey is a block's key: its run's ID, then its number in the run.
type blockKey [12]byte

func runBlockKey(id uint64, block uint32) blockKey {
	var k blockKey
	binary.BigEndian.PutUint64(k[:], id)
	binary.BigEndian.PutUint32(k[8:], block)
	return k
}

func runMetaKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// newRunID takes the next run ID from the runs bucket's sequence. The
// sequence is in bbolt's header of the bucket, which no checksum covers:
// an ID that blocks are stored under already would have the new run's
// blocks written over another's, so it is refused as damage.
func newRunID(btx *bolt.Tx) (uint64, error) {
	id, err := btx.Bucket(runsBucket).NextSequence()
	if err != nil {
		return 0, err
	}
	prefix := runMetaKey(id)
	if k, _ := btx.Bucket(blocksBucket).Cursor().Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) {
		return 0, corrupt("the runs' sequence gave run ID %d, which blocks are stored under already", id)
	}
	return id, nil
}

// block is a decoded view of a stored block; its slices point into it.
type block struct {
	data []byte // the entries
	offs []byte // the offsets
	n    int
	// whole is the block before its checksum, sum that checksum; seed is
	// where its checksums start. checked says its entries have all been
	// checked (checkWhole: a cached block's, a walk's), and legacy that it
	// has no checksums (a block written before them, which only the
	// rewrite of its file reads).
	whole   []byte
	sum     uint32
	seed    uint32
	checked bool
	legacy  bool
	// at and space are the block's key and keyspace, for what a damaged
	// entry reports.
	at    blockKey
	space string
	// index speeds up search; only blocks in the block cache have one.
	index *blockIndex
}

// blockNumber is the number in its run of the block under k, runID its
// run's ID.
func (k blockKey) blockNumber() int { return int(binary.BigEndian.Uint32(k[8:])) }
func (k blockKey) runID() uint64    { return binary.BigEndian.Uint64(k[:8]) }

// blockSeed is where the checksums of the entries of block k start: a
// checksum of its key, so an entry read in another block fails its check.
func blockSeed(k blockKey) uint32 { return crc32.Checksum(k[:], castagnoli) }

// entrySum is the checksum of entry i of a block whose seed is seed, body
// being its bytes before the checksum. The seed differs by entry (a CRC's
// initial value changes its result for every input), so an entry read at
// another place in its block fails its check too.
func entrySum(seed uint32, i int, body []byte) uint32 {
	return crc32.Update(seed^uint32(i), castagnoli, body)
}

// parseBlock parses block k of keyspace space as the file stores it; its
// entries are checked as they are read (entry), or all at once
// (checkWhole).
func parseBlock(k blockKey, space string, b []byte) (block, error) {
	if len(b) < sealSize {
		return block{}, corrupt("run block of %d bytes", len(b))
	}
	whole := b[:len(b)-sealSize]
	blk, err := parseBlockLayout(whole)
	blk.whole, blk.sum = whole, binary.BigEndian.Uint32(b[len(whole):])
	blk.at, blk.space, blk.seed = k, space, blockSeed(k)
	return blk, err
}

// checkWhole checks all of the block at once against its checksum, after
// which its entries are not checked one by one.
func (b *block) checkWhole() bool {
	if !b.checked && crc32.Update(b.seed, castagnoli, b.whole) == b.sum {
		b.checked = true
	}
	return b.checked
}

// parseLegacyBlock parses a block written before entries had checksums.
func parseLegacyBlock(b []byte) (block, error) {
	blk, err := parseBlockLayout(b)
	blk.legacy = true
	return blk, err
}

func parseBlockLayout(b []byte) (block, error) {
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

// entry returns entry i's key and value (live false: a tombstone), or a nil
// key for an entry that is malformed or fails its checksum; readers use
// wellFormed, which panics on one (or on an empty key, which no entry
// has).
//
// Each entry is checked as it is read, not the whole block: a lookup reads
// a dozen of a block's hundreds of entries, and a checksum of a whole
// block read from the file took five times what the rest of the lookup
// did.
func (b *block) entry(i int) (key, value []byte, live bool) {
	return b.decode(i, !b.checked && !b.legacy)
}

// decode is entry i, checked against its checksum when check is set.
func (b *block) decode(i int, check bool) (key, value []byte, live bool) {
	off := int(binary.LittleEndian.Uint32(b.offs[4*i:]))
	if off >= len(b.data) {
		return nil, nil, false
	}
	d := b.data[off:]
	var klen, vtag uint64
	head := 2
	if len(d) >= 2 && d[0] < 0x80 && d[1] < 0x80 {
		// Most keys and values are shorter than 127 bytes, so both
		// varints are one byte; a search decodes a dozen entries, and
		// binary.Uvarint's loop took a sixth of its time
		// (BenchmarkBlockSearch).
		klen, vtag = uint64(d[0]), uint64(d[1])
	} else {
		var w1, w2 int
		klen, w1 = binary.Uvarint(d)
		vtag, w2 = binary.Uvarint(d[max(w1, 0):])
		if w1 <= 0 || w2 <= 0 {
			return nil, nil, false
		}
		head = w1 + w2
	}
	d = d[head:]
	vlen := uint64(0)
	if vtag > 0 {
		vlen = vtag - 1
	}
	sum := uint64(sealSize)
	if b.legacy {
		sum = 0
	}
	if klen > uint64(len(d)) || vlen > uint64(len(d))-klen || sum > uint64(len(d))-klen-vlen {
		return nil, nil, false
	}
	if check {
		body := b.data[off : off+head+int(klen+vlen)]
		if entrySum(b.seed, i, body) != binary.BigEndian.Uint32(d[klen+vlen:]) {
			return nil, nil, false
		}
	}
	key = d[:klen:klen]
	if vtag == 0 {
		return key, nil, false
	}
	return key, d[klen : klen+vlen : klen+vlen], true
}

// wellFormed is entry i, or a panic with ErrCorrupt when it is malformed
// or fails its checksum (fileRunIter says why reads panic).
func (b *block) wellFormed(i int) (key, value []byte, live bool) {
	key, value, live = b.entry(i)
	if len(key) == 0 { // (no key is empty: Put refuses those)
		panic(spaceCorrupt(b.space, b.at.runID(), b.at.blockNumber(), "entry %d fails its checksum or is malformed", i))
	}
	return key, value, live
}

func (b *block) key(i int) []byte {
	k, _, _ := b.wellFormed(i)
	return k
}

// search returns the index of the first entry whose key is >= key.
//
// It compares key with the entries it halves the block at without checking
// their checksums, then checks the two entries its answer lies between:
// entries that pass their checks, at adjacent places, bound it exactly, as
// the block's entries are in key order. So a lookup checks two entries,
// not the dozen it reads; one misled by a damaged entry ends between two
// entries that do not bound its key, which is damage too.
func (b *block) search(key []byte) int {
	lo, hi := 0, b.n
	if b.index != nil {
		lo, hi = b.index.narrow(key)
	}
	check := !b.checked && !b.legacy
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		k, _, _ := b.decode(m, false)
		if len(k) == 0 {
			b.wellFormed(m) // panics: malformed
		}
		if bytes.Compare(k, key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if check {
		if lo > 0 && bytes.Compare(b.key(lo-1), key) >= 0 || lo < b.n && bytes.Compare(b.key(lo), key) < 0 {
			panic(spaceCorrupt(b.space, b.at.runID(), b.at.blockNumber(), "its entries %d and %d are out of order", lo-1, lo))
		}
	}
	return lo
}

// fileRun is what a reader keeps of a run: its meta, decoded once and
// shared (runCache); the blocks are read through the reader's own file
// transaction.
type fileRun struct {
	// space is the keyspace the run is one of, for what a damaged block
	// of it reports.
	space string
	id    uint64
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
	// fence holds the prefix of each block's first key, for finding a
	// key's block in a flat array before comparing whole keys.
	fence []fencePost
}

// runMetaVersion is the version encode writes. Version 1's filters hashed
// keys with FNV-1a alone (bloom.unmixed), whose low bits vary little
// between keys that differ in their last bytes. Since version 3 a run may
// have no filter (no probes, no bits; pointreads.go). Version 4 is version
// 3 sealed, its blocks too; files whose runs are older are rewritten when
// first opened (migrate.go), so a reader meets version 4 alone.
const (
	runMetaVersion       = 4
	lastLegacyRunVersion = 3
)

// encode returns the meta's payload, to be sealed under its run's key in
// its keyspace.
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

// decodeRunMeta checks and decodes the stored meta of run id of keyspace
// space.
func decodeRunMeta(space string, id uint64, v []byte) (runMeta, error) {
	payload, ok := unseal(v, []byte(space), runMetaKey(id))
	if !ok {
		return runMeta{}, spaceCorrupt(space, id, -1, "fails its checksum")
	}
	if len(payload) == 0 || payload[0] != runMetaVersion {
		return runMeta{}, spaceCorrupt(space, id, -1, "of an unknown version")
	}
	m, err := decodeRunMetaPayload(payload)
	if err != nil {
		return runMeta{}, spaceCorrupt(space, id, -1, "%s", err.Detail)
	}
	return m, nil
}

// decodeLegacyRunMeta decodes the meta of a run of a file written before
// seals (versions 1 to 3), which the rewrite of such a file reads.
func decodeLegacyRunMeta(v []byte) (runMeta, error) {
	if len(v) == 0 || v[0] < 1 || v[0] > lastLegacyRunVersion {
		return runMeta{}, corrupt("run meta of an unknown version")
	}
	m, err := decodeRunMetaPayload(v)
	if err != nil {
		return runMeta{}, err
	}
	return m, nil
}

// decodeRunMetaPayload decodes a meta's bytes, its version first; all of
// them must be the meta's.
func decodeRunMetaPayload(v []byte) (runMeta, *CorruptError) {
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
	m.filter.unmixed = v[0] == 1
	unfiltered := v[0] >= 3 && m.filter.probes == 0 && len(m.filter.bits) == 0
	filterOK := unfiltered || len(m.filter.bits) > 0 && len(m.filter.bits)%bloomBlock == 0 && m.filter.probes > 0 && m.filter.probes <= 64
	if d.err != nil || len(d.b) > 0 || len(m.firstKeys) == 0 || !filterOK {
		return runMeta{}, corrupt("unreadable run meta")
	}
	m.fence = make([]fencePost, len(m.firstKeys))
	for i, k := range m.firstKeys {
		m.fence[i].p0, m.fence[i].p1 = keyPrefix(k)
	}
	return m, nil
}

// blockFor returns the block that key would be in: the last whose first
// key is <= key (0 when key is before them all).
func (r *fileRun) blockFor(key []byte) int {
	p := newProbe(key)
	// The first block whose first key is after key.
	i, n := 0, len(r.fence)
	for i < n {
		m := int(uint(i+n) >> 1)
		c := r.fence[m].compare(&p)
		if c == 0 {
			c = bytes.Compare(r.firstKeys[m], key)
		}
		if c <= 0 {
			i = m + 1
		} else {
			n = m
		}
	}
	return max(i-1, 0)
}

// blockReader is where a transaction's reads find runs' blocks: in the
// block cache, when it reads through one, else in the file's blocks bucket,
// which it opens when it first needs it (a read whose blocks are all cached
// never does).
type blockReader struct {
	tx    *Tx          // opens b; nil when b is given
	b     *bolt.Bucket // the blocks bucket
	cache *blockCache
}

func (br *blockReader) bucket() *bolt.Bucket {
	if br.b == nil && br.tx != nil {
		br.b = br.tx.blocks()
	}
	return br.b
}

// block returns block i of r. It panics on a corrupt block, as
// fileRunIter does.
func (br *blockReader) block(r *fileRun, i int) block {
	k := runBlockKey(r.id, uint32(i))
	if blk, ok := br.cache.get(k); ok {
		return blk
	}
	raw := br.fetch(k)
	if raw == nil {
		panic(spaceCorrupt(r.space, r.id, i, "is missing"))
	}
	return br.parse(r, k, raw)
}

// fetch reads block k from the file (nil: there is none).
func (br *blockReader) fetch(k blockKey) []byte {
	defer boltPanicIsCorrupt("reading a run block")
	return br.bucket().Get(k[:])
}

// parse parses block k of r, which raw holds as the file has it, adding it
// to the cache if there is one (which checks all its entries). It panics
// on a block that is malformed.
func (br *blockReader) parse(r *fileRun, k blockKey, raw []byte) block {
	var blk block
	var err error
	if br.cache != nil {
		blk, err = br.cache.admit(k, r.space, raw)
	} else {
		blk, err = parseBlock(k, r.space, raw)
	}
	if err != nil {
		panic(spaceCorrupt(r.space, r.id, k.blockNumber(), "%v", detailOf(err)))
	}
	return blk
}

// get looks key up in the run: found false when the run has no entry for
// it, live false when its entry is a tombstone. It panics on a corrupt
// block, as fileRunIter does.
func (r *fileRun) get(br *blockReader, key []byte) (value []byte, live, found bool) {
	if !r.filter.mayContain(key) || bytes.Compare(key, r.firstKeys[0]) < 0 || bytes.Compare(key, r.lastKey) > 0 {
		return nil, false, false
	}
	blk := br.block(r, r.blockFor(key))
	i := blk.search(key)
	if i == blk.n {
		return nil, false, false
	}
	k, v, live := blk.wellFormed(i)
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
	r *fileRun
	blockReader
	bc   *bolt.Cursor // on block bcAt of r, once a block was read from the file
	bcAt int
	bi   int // the block it is in
	blk  block
	i    int // the entry within blk; valid while 0 <= i < blk.n
	ok   bool
	// The entry it is on, decoded once (at the ends, k is nil).
	k, v []byte
	live bool
}

func (it *fileRunIter) load(bi int) bool {
	if bi < 0 || bi >= len(it.r.firstKeys) {
		it.ok = false
		return false
	}
	if it.ok && bi == it.bi {
		return true
	}
	want := runBlockKey(it.r.id, uint32(bi))
	if blk, ok := it.cache.get(want); ok {
		it.bi, it.blk, it.ok = bi, blk, true
		return true
	}
	it.bi, it.blk, it.ok = bi, it.parse(it.r, want, it.read(bi, want)), true
	return true
}

// walkInto loads block bi, the one after or before the block a walk has
// read to its end: a walk reads every entry of it, so it is checked as a
// whole, once (block, above).
func (it *fileRunIter) walkInto(bi int) bool {
	if !it.load(bi) {
		return false
	}
	if !it.blk.checkWhole() {
		panic(spaceCorrupt(it.r.space, it.r.id, bi, "fails its checksum"))
	}
	return true
}

// read returns block bi of the run from the file.
func (it *fileRunIter) read(bi int, want blockKey) []byte {
	defer boltPanicIsCorrupt("reading a run block")
	// A run's blocks are consecutive keys, so a walk steps the bucket's
	// cursor to the next one instead of looking each up from the top.
	var k, v []byte
	switch {
	case it.bc == nil:
		it.bc = it.bucket().Cursor()
		k, v = it.bc.Seek(want[:])
	case bi == it.bcAt+1:
		k, v = it.bc.Next()
	case bi == it.bcAt-1:
		k, v = it.bc.Prev()
	default:
		k, v = it.bc.Seek(want[:])
	}
	if !bytes.Equal(k, want[:]) {
		// A compaction writes its run's blocks into the bucket while it
		// walks its inputs' (after theirs, as run IDs only grow), and bbolt
		// says a cursor may be off after writes: look the block up before
		// calling it lost.
		k, v = it.bc.Seek(want[:])
	}
	if !bytes.Equal(k, want[:]) {
		panic(spaceCorrupt(it.r.space, it.r.id, bi, "is missing"))
	}
	it.bcAt = bi
	return v
}

// settle decodes the entry the iterator is on.
func (it *fileRunIter) settle() {
	if it.valid() {
		it.k, it.v, it.live = it.blk.wellFormed(it.i)
		return
	}
	it.k, it.v, it.live = nil, nil, false
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

func (it *fileRunIter) valid() bool           { return it.ok && it.i >= 0 && it.i < it.blk.n }
func (it *fileRunIter) key() []byte           { return it.k }
func (it *fileRunIter) value() ([]byte, bool) { return it.v, it.live }

func (it *fileRunIter) first() {
	if it.load(0) {
		it.i = 0
	}
	it.settle()
}

func (it *fileRunIter) last() {
	if it.load(len(it.r.firstKeys) - 1) {
		it.i = it.blk.n - 1
	}
	it.settle()
}

func (it *fileRunIter) next() {
	if !it.ok {
		return
	}
	if it.i++; it.i >= it.blk.n && it.walkInto(it.bi+1) {
		it.i = 0
	}
	it.settle()
}

func (it *fileRunIter) prev() {
	if !it.ok {
		return
	}
	if it.i--; it.i < 0 && it.walkInto(it.bi-1) {
		it.i = it.blk.n - 1
	}
	it.settle()
}

func (it *fileRunIter) seekGE(key []byte) {
	if it.load(it.r.blockFor(key)) {
		if it.i = it.blk.search(key); it.i == it.blk.n && it.load(it.bi+1) {
			it.i = 0
		}
	}
	it.settle()
}

func (it *fileRunIter) seekLT(key []byte) {
	if it.load(it.r.blockFor(key)) {
		if it.i = it.blk.search(key) - 1; it.i < 0 && it.load(it.bi-1) {
			it.i = it.blk.n - 1
		}
	}
	it.settle()
}

// bloom is a Bloom filter over a run's keys, so that a lookup of a key the
// run does not have usually reads none of its blocks. It is blocked: a key's
// probes all fall in one 64-byte block of the filter, so a lookup costs one
// cache miss rather than one per probe.
type bloom struct {
	bits   []byte
	probes int
	// unmixed: the filter was built (by a version 1 run meta) from keys'
	// FNV-1a hashes as they are, not mixed.
	unmixed bool
}

// bloomBitsPerKey and bloomProbes give about a 1% false positive rate.
const (
	bloomBitsPerKey = 10
	bloomProbes     = 7
	bloomBlock      = 64
)

func newBloom(keys int) bloom {
	blocks := max((keys*bloomBitsPerKey+8*bloomBlock-1)/(8*bloomBlock), 1)
	return bloom{bits: make([]byte, blocks*bloomBlock), probes: bloomProbes}
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

// mixHash spreads every bit of h over all of the result's (the finalizer
// of MurmurHash3): a product's low bits depend only on its factors' low
// bits, so FNV-1a's low bits, which pick a key's bits in its block, take
// few values among keys that differ only in their last bytes, like
// encoded integers; their high bits, which pick the block, bunch too.
func mixHash(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// block returns the key's block of the filter and where its probes start
// and step: the block from the hash's top bits, the probes from its low
// halves' low bits (a block has 512 bits).
func (f *bloom) block(key []byte) (blk []byte, h1, h2 uint32) {
	h := keyHash(key)
	n := uint64(len(f.bits) / bloomBlock)
	if f.unmixed {
		i := (h >> 32) * n >> 32
		return f.bits[i*bloomBlock : (i+1)*bloomBlock], uint32(h), uint32(h>>17) | 1
	}
	h = mixHash(h)
	i := (h >> 32) * n >> 32 // (h's high half) / 2^32 * n, in [0, n)
	return f.bits[i*bloomBlock : (i+1)*bloomBlock], uint32(h), uint32(h>>32) | 1
}

func (f *bloom) add(key []byte) {
	if len(f.bits) == 0 {
		return // no filter
	}
	blk, h1, h2 := f.block(key)
	for i := range uint32(f.probes) {
		bit := (h1 + i*h2) % (8 * bloomBlock)
		blk[bit/8] |= 1 << (bit % 8)
	}
}

func (f *bloom) mayContain(key []byte) bool {
	if len(f.bits) == 0 {
		return true // no filter
	}
	blk, h1, h2 := f.block(key)
	for i := range uint32(f.probes) {
		bit := (h1 + i*h2) % (8 * bloomBlock)
		if blk[bit/8]&(1<<(bit%8)) == 0 {
			return false
		}
	}
	return true
}

// runBuilder encodes a run's entries, given in key order, into blocks of
// about target bytes.
type runBuilder struct {
	space  string // the keyspace it is a run of
	id     uint64
	target int
	meta   runMeta
	cur    []byte
	offs   []uint32
	seed   uint32 // the current block's (blockSeed)
	nblock uint32
	key    blockKey // the last block's
}

// newRunBuilder starts run id of keyspace space, with a filter for
// expectedKeys keys when filtered (pointreads.go says which runs are).
func newRunBuilder(space string, id, order uint64, expectedKeys, target int, filtered bool) *runBuilder {
	w := &runBuilder{space: space, id: id, target: target, meta: runMeta{order: order}}
	if filtered {
		w.meta.filter = newBloom(expectedKeys)
	}
	return w
}

// add appends an entry and returns the block it completed, if any, with
// its key, to be stored.
func (w *runBuilder) add(key, value []byte, live bool) (blockKey, blk []byte) {
	if len(w.offs) > 0 && len(w.cur)+4*len(w.offs)+len(key)+len(value)+24+2*sealSize > w.target {
		blockKey, blk = w.cut()
	}
	if len(w.offs) == 0 {
		w.meta.firstKeys = append(w.meta.firstKeys, bytes.Clone(key))
		if w.cur == nil {
			w.cur = make([]byte, 0, w.target)
		}
		w.seed = blockSeed(runBlockKey(w.id, w.nblock))
	}
	start := len(w.cur)
	w.offs = append(w.offs, uint32(start))
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
	w.cur = binary.BigEndian.AppendUint32(w.cur, entrySum(w.seed, len(w.offs)-1, w.cur[start:]))
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
	w.key = runBlockKey(w.id, w.nblock)
	w.cur = binary.BigEndian.AppendUint32(w.cur, crc32.Update(w.seed, castagnoli, w.cur))
	blk, blockKey = w.cur, w.key[:]
	w.meta.bytes += int64(len(blk))
	w.nblock++
	// bbolt keeps referring to a value until its transaction commits, so
	// the next block gets a buffer of its own.
	w.cur, w.offs = nil, w.offs[:0]
	return blockKey, blk
}

// garbage is the run as garbage, unfinished: the blocks it stored.
func (w *runBuilder) garbage() garbage {
	return garbage{runs: []uint64{w.id}, bytes: w.meta.bytes}
}

// put adds an entry and stores the block it completes, if any, in blocks;
// it returns the bytes stored.
func (w *runBuilder) put(blocks *bolt.Bucket, key, value []byte, live bool) (int, error) {
	bk, blk := w.add(key, value, live)
	if blk == nil {
		return 0, nil
	}
	return len(blk), blocks.Put(bk, blk)
}

// store ends the run: its last block goes into the blocks bucket and its
// meta into its keyspace's runs, under the run's ID, and the keyspace's
// record lists it, which makes it one of the keyspace's runs. A run
// without entries stores nothing, and stored says which it was.
func (w *runBuilder) store(btx *bolt.Tx) (stored bool, err error) {
	meta, err := w.finish(btx.Bucket(blocksBucket))
	if meta == nil || err != nil {
		return false, err
	}
	return true, listRun(btx, w.space, w.id, meta)
}

// finish stores the last block in blocks and returns the meta, sealed
// (nil if the run is empty).
func (w *runBuilder) finish(blocks *bolt.Bucket) (meta []byte, err error) {
	if len(w.offs) > 0 {
		bk, blk := w.cut()
		if err := blocks.Put(bk, blk); err != nil {
			return nil, err
		}
	}
	if w.meta.entries == 0 {
		return nil, nil
	}
	return appendSeal(w.meta.encode(), []byte(w.space), runMetaKey(w.id)), nil
}
