package storage

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"sync"
)

// blockCache keeps copies of the run blocks that read transactions read, so
// that a block read again is found in memory. Finding a block in the file
// costs every transaction a descent of bbolt's blocks bucket (and opening
// that bucket first), which for a point query was a tenth of its work;
// here it costs a hash and a short lock.
//
// Runs never change and their IDs are never reused, so a cached block is
// never stale: a block of a run that a compaction replaced is only never
// asked for again, and the clock evicts it. Write transactions (a flow's
// batch, a checkpoint, a compaction) read around the cache: they read many
// blocks once each, so copying them would cost them time and push out the
// blocks readers keep using.
//
// The cache is split into shards by block, each with its own lock, so that
// concurrent readers seldom wait for each other. A shard evicts by the clock
// algorithm: a block read since the hand last passed it gets another round.
type blockCache struct {
	shards [blockCacheShards]blockCacheShard
}

const blockCacheShards = 16

type blockCacheShard struct {
	mu    sync.Mutex
	index map[blockKey]int // where each cached block is in ring
	ring  []cachedBlock
	free  []int // slots of ring whose block was evicted
	hand  int
	// bytes is what the cached blocks take; limit what they may.
	bytes, limit int
	// missed remembers blocks missed once (admit), up to remember of
	// them, about as many as the shard holds.
	missed   map[blockKey]struct{}
	remember int
	// hits and misses count lookups (Stats), in the shard rather than
	// the cache so that concurrent readers do not share the counters'
	// cache line.
	hits, misses uint64
}

type cachedBlock struct {
	key  blockKey
	blk  block
	size int // 0: a free slot
	used bool
}

// newBlockCache returns a cache of at most limit bytes of blocks, or nil
// (no cache) for a limit of zero or less.
func newBlockCache(limit int) *blockCache {
	if limit <= 0 {
		return nil
	}
	c := new(blockCache)
	for i := range c.shards {
		s := &c.shards[i]
		s.limit = limit / blockCacheShards
		s.index = map[blockKey]int{}
		s.missed = map[blockKey]struct{}{}
		s.remember = max(s.limit/(32<<10), 16)
	}
	return c
}

func (c *blockCache) shard(k blockKey) *blockCacheShard {
	// Consecutive blocks of a run go to consecutive shards, and runs'
	// first blocks spread by their IDs.
	id, bi := binary.BigEndian.Uint64(k[:8]), binary.BigEndian.Uint32(k[8:])
	return &c.shards[(id*0x9e3779b97f4a7c15+uint64(bi))%blockCacheShards]
}

// get returns the cached block k, if it is cached (never, without a
// cache).
func (c *blockCache) get(k blockKey) (block, bool) {
	if c == nil {
		return block{}, false
	}
	s := c.shard(k)
	s.mu.Lock()
	i, ok := s.index[k]
	var blk block
	if ok {
		e := &s.ring[i]
		e.used = true
		blk = e.blk
		s.hits++
	} else {
		s.misses++
	}
	s.mu.Unlock()
	return blk, ok
}

// admit returns block k, which raw holds as the file has it. A block's
// first miss only parses it (in place: raw is valid for the caller's
// transaction); a miss of it again while the shard still remembers the
// first copies, indexes and caches it. A scan, which reads each block once,
// then copies nothing and pushes nothing out, and neither do random reads
// of a table far larger than the cache, which seldom come back to a block
// before it is forgotten.
func (c *blockCache) admit(k blockKey, space string, raw []byte) (block, error) {
	s := c.shard(k)
	s.mu.Lock()
	_, again := s.missed[k]
	if again {
		delete(s.missed, k)
	} else {
		if len(s.missed) >= s.remember {
			clear(s.missed)
		}
		s.missed[k] = struct{}{}
	}
	s.mu.Unlock()
	if !again {
		return parseBlock(k, space, raw)
	}
	own := bytes.Clone(raw)
	blk, err := parseBlock(k, space, own)
	if err != nil {
		return block{}, err
	}
	// The cache holds checked blocks, which are not checked again.
	if !blk.checkWhole() {
		return block{}, corrupt("fails its checksum")
	}
	if blk.index, err = newBlockIndex(blk); err != nil {
		return block{}, err
	}
	s.mu.Lock()
	s.add(k, blk, len(own)+8*blk.n)
	s.mu.Unlock()
	return blk, nil
}

func (s *blockCacheShard) add(k blockKey, blk block, size int) {
	if size > s.limit {
		return
	}
	if _, ok := s.index[k]; ok {
		return // another reader cached it meanwhile
	}
	for s.bytes+size > s.limit {
		e := &s.ring[s.hand]
		switch {
		case e.size == 0:
		case e.used:
			e.used = false
		default:
			delete(s.index, e.key)
			s.bytes -= e.size
			*e = cachedBlock{}
			s.free = append(s.free, s.hand)
		}
		s.hand = (s.hand + 1) % len(s.ring)
	}
	at := len(s.ring)
	if n := len(s.free); n > 0 {
		at, s.free = s.free[n-1], s.free[:n-1]
	} else {
		s.ring = append(s.ring, cachedBlock{})
	}
	s.ring[at] = cachedBlock{key: k, blk: blk, size: size}
	s.index[k] = at
	s.bytes += size
}

// blockIndex is what a search of a cached block needs to narrow it down
// before it decodes entries: the prefix the block's keys all share, and
// each key's next 8 bytes after it as an integer. A block holds some
// hundreds of entries in 32 KiB, and each step of a search over the
// entries themselves reads an offset and an entry, two cache misses; over
// next, the whole search touches a few cache lines of one small array and
// then decodes the entries that share the key's 8 bytes, usually a few.
type blockIndex struct {
	common []byte
	next   []uint64
}

// newBlockIndex indexes blk, or reports a malformed entry.
func newBlockIndex(blk block) (*blockIndex, error) {
	first, _, _ := blk.entry(0)
	last, _, _ := blk.entry(blk.n - 1)
	n := 0
	for n < len(first) && n < len(last) && first[n] == last[n] {
		n++
	}
	// The keys are sorted, so what the first and last share, all do.
	x := &blockIndex{common: first[:n:n], next: make([]uint64, blk.n)}
	for i := range blk.n {
		k, _, _ := blk.entry(i)
		if len(k) == 0 || len(k) < n {
			return nil, corrupt("entry %d fails its checksum or is malformed", i)
		}
		x.next[i] = next8(k[n:])
	}
	return x, nil
}

// next8 is b's first 8 bytes as a big-endian integer, zeros past its end:
// for two keys, next8(a) < next8(b) means a < b (equal values decide
// nothing).
func next8(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var pad [8]byte
	copy(pad[:], b)
	return binary.BigEndian.Uint64(pad[:])
}

// narrow returns lo <= hi such that every entry before lo is < key, every
// entry from hi on is > key, and those in between share key's 8 bytes past
// the common prefix, so that only they need comparing whole: the first
// entry >= key is one of them, or entry hi.
func (x *blockIndex) narrow(key []byte) (lo, hi int) {
	n := len(x.next)
	c := len(x.common)
	if len(key) < c || !bytes.Equal(key[:c], x.common) {
		// Every entry starts with common, so the key is below or above
		// them all.
		if bytes.Compare(key, x.common) < 0 {
			return 0, 0
		}
		return n, n
	}
	p := next8(key[c:])
	lo, _ = slices.BinarySearch(x.next, p)
	hi = n
	if p < math.MaxUint64 {
		hi, _ = slices.BinarySearch(x.next[lo:], p+1)
		hi += lo
	}
	return lo, hi
}

// stats returns the lookups that found their block, the lookups that did
// not, and the bytes cached.
func (c *blockCache) stats() (hits, misses uint64, bytes int64) {
	if c == nil {
		return 0, 0, 0
	}
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		hits, misses, bytes = hits+s.hits, misses+s.misses, bytes+int64(s.bytes)
		s.mu.Unlock()
	}
	return hits, misses, bytes
}
