package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"time"
)

// Checking bbolt's pages before bbolt reads them.
//
// bbolt checksums its two meta pages and nothing else: it follows the
// page numbers and offsets in its branch and leaf pages as they are. A
// damaged one makes it panic (an assertion, an index out of range), read
// outside its memory map (a fault no recover catches), or, when it opens a
// file writable, panic in a goroutine of its own while it lists the file's
// free pages: the process dies. So Open reads the pages of an existing
// file itself first, through plain reads of the file, and refuses one
// whose structure is damaged with what it found and where.
//
// The walk goes from the meta page bbolt will use (the valid one with the
// higher transaction ID) down every bucket's B+tree, and checks what
// bbolt takes on trust: each page's header (its number, its type, its
// overflow within the file), that its elements are laid out as bbolt lays
// them out (packed one after another from the end of the element array,
// so every element's offset and lengths are where the previous one's
// end; the last one's end on the page's last overflow page), that its keys
// are in order and within the bounds its parent's keys set, that every
// child and nested bucket is a page of the file no other element points
// to, and that an inline bucket is a well-formed leaf inside its value.
// Values themselves are not read: cdcdb's are sealed (seal.go). It reads a
// page's first bytes and whatever keys or bucket headers lie beyond them,
// so its cost is about that of bbolt's own walk of the file's pages at
// every writable open.

// bbolt's on-disk layout (go.etcd.io/bbolt/internal/common): page headers,
// elements and bucket headers are little-endian on the machines cdcdb runs
// on, as bbolt writes them from memory.
const (
	boltMagic          = 0xED0CDAED
	boltVersion        = 2
	boltPageHeader     = 16 // id u64, flags u16, count u16, overflow u32
	boltElementSize    = 16 // branch: pos, ksize u32, pgid u64; leaf: flags, pos, ksize, vsize u32
	boltBucketHeader   = 16 // root pgid u64, sequence u64
	boltMetaSize       = 56 // what the meta's checksum covers (its checksum follows)
	boltBranchPage     = 0x01
	boltLeafPage       = 0x02
	boltMetaPage       = 0x04
	boltFreelistPage   = 0x10
	boltBucketLeafFlag = 0x01
	boltNoFreelist     = ^uint64(0)
	// walkPrefix is how much of a page the walk reads at first.
	walkPrefix = 4096
)

type boltMeta struct {
	pageSize          uint32
	root              uint64
	freelist, hiWater uint64
	txid              uint64
}

// parseBoltMeta reads the meta in a meta page's first bytes, or says why it
// is not valid (as bbolt's Validate does).
func parseBoltMeta(page []byte) (boltMeta, error) {
	if len(page) < boltPageHeader+boltMetaSize+8 {
		return boltMeta{}, errors.New("too short")
	}
	m := page[boltPageHeader:]
	le := binary.LittleEndian
	if le.Uint32(m) != boltMagic {
		return boltMeta{}, errors.New("not a bbolt meta page")
	}
	if le.Uint32(m[4:]) != boltVersion {
		return boltMeta{}, fmt.Errorf("bbolt format version %d", le.Uint32(m[4:]))
	}
	h := fnv.New64a()
	h.Write(m[:boltMetaSize])
	if h.Sum64() != le.Uint64(m[boltMetaSize:]) {
		return boltMeta{}, errors.New("its checksum does not match")
	}
	return boltMeta{
		pageSize: le.Uint32(m[8:]), root: le.Uint64(m[16:]),
		freelist: le.Uint64(m[32:]), hiWater: le.Uint64(m[40:]), txid: le.Uint64(m[48:]),
	}, nil
}

// checkFileStructure checks the structure of the bbolt file at path, if
// there is one (a missing or empty file is a new one, which bbolt makes),
// under the lock an open for writing (exclusive) or reading takes, waiting
// for it up to timeout (zero: for ever).
func checkFileStructure(path string, exclusive bool, timeout time.Duration) error {
	return walkFile(path, func(f *os.File) (func(), error) { return lockWhileWalking(f, exclusive, timeout) })
}

// walkFile checks the structure of the bbolt file at path, if there is
// one, after lock (which returns the lock's release).
func walkFile(path string, lock func(*os.File) (func(), error)) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	release, err := lock(f)
	if err != nil {
		return err
	}
	defer release()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Size() == 0 {
		return nil
	}
	w := &pageWalker{f: f, size: info.Size()}
	return w.walk()
}

// pageWalker walks a bbolt file's pages (checkFileStructure).
type pageWalker struct {
	f        *os.File
	size     int64
	pageSize int64
	hiWater  uint64
	// seen marks the pages some element points to (or their overflow).
	seen []uint64
	buf  []byte
	// visit, when set, is told of each page the walk checks: its number,
	// type, the pages it spans, and where it is (tests).
	visit func(id uint64, flags uint16, pages int64, where string)
}

func (w *pageWalker) walk() error {
	meta, err := w.meta()
	if err != nil {
		return err
	}
	w.hiWater = meta.hiWater
	if meta.hiWater < 3 || int64(meta.hiWater) > w.size/w.pageSize {
		return corrupt("the file has %d bytes, its meta page says %d pages of %d", w.size, meta.hiWater, w.pageSize)
	}
	w.seen = make([]uint64, (meta.hiWater+63)/64)
	w.mark(0)
	w.mark(1)
	var free []uint64
	if meta.freelist != boltNoFreelist {
		// cdcdb does not write bbolt's free list (it is rebuilt at each
		// open), but a file bbolt made, or wrote without cdcdb, has one.
		if free, err = w.freelist(meta.freelist); err != nil {
			return err
		}
	}
	if err := w.bucket("the file's top level", meta.root); err != nil {
		return err
	}
	for _, id := range free {
		if w.mark(id) {
			return corrupt("bbolt's free list holds page %d, which is in use", id)
		}
	}
	return nil
}

// meta reads the file's page size and the meta page bbolt will use.
func (w *pageWalker) meta() (boltMeta, error) {
	first := make([]byte, min(walkPrefix, w.size))
	if _, err := w.f.ReadAt(first, 0); err != nil {
		return boltMeta{}, err
	}
	m0, err0 := parseBoltMeta(first)
	pageSize := int64(m0.pageSize)
	if err0 != nil {
		// Page 0 is damaged: the page size is where page 1 holds a
		// valid meta (bbolt looks the same way).
		for size := int64(1024); size <= 1<<24 && size+walkPrefix <= w.size; size *= 2 {
			buf := make([]byte, walkPrefix)
			if _, err := w.f.ReadAt(buf, size); err != nil {
				return boltMeta{}, err
			}
			if m, err := parseBoltMeta(buf); err == nil && int64(m.pageSize) == size {
				pageSize = size
				break
			}
		}
		if pageSize == 0 {
			return boltMeta{}, corrupt("both of bbolt's meta pages are damaged (page 0: %v)", err0)
		}
	}
	if pageSize < 1024 || pageSize > 1<<24 || pageSize&(pageSize-1) != 0 {
		return boltMeta{}, corrupt("bbolt's meta page says pages of %d bytes", pageSize)
	}
	w.pageSize = pageSize
	second := make([]byte, min(walkPrefix, max(w.size-pageSize, 0)))
	if _, err := w.f.ReadAt(second, pageSize); err != nil && !errors.Is(err, io.EOF) {
		return boltMeta{}, err
	}
	m1, err1 := parseBoltMeta(second)
	switch {
	case err0 != nil && err1 != nil:
		return boltMeta{}, corrupt("both of bbolt's meta pages are damaged (page 0: %v; page 1: %v)", err0, err1)
	case err0 == nil && err1 == nil && m0.pageSize != m1.pageSize:
		return boltMeta{}, corrupt("bbolt's meta pages disagree on the page size")
	case err1 != nil || (err0 == nil && m0.txid >= m1.txid):
		return m0, nil
	}
	return m1, nil
}

// mark notes that page id is used, and reports whether it was already.
func (w *pageWalker) mark(id uint64) (already bool) {
	word, bit := id/64, uint64(1)<<(id%64)
	already = w.seen[word]&bit != 0
	w.seen[word] |= bit
	return already
}

// page reads page id's header and first bytes (up to walkPrefix, within
// its span), after checking its number; span is what it covers, its
// overflow pages included.
func (w *pageWalker) page(where string, id uint64, wantFlags uint16) (head []byte, flags, count uint16, span int64, err error) {
	if id < 2 || id >= w.hiWater {
		return nil, 0, 0, 0, corrupt("%s: page number %d is outside the file's %d pages", where, id, w.hiWater)
	}
	off := int64(id) * w.pageSize
	n := min(walkPrefix, w.pageSize)
	if cap(w.buf) < int(n) {
		w.buf = make([]byte, n)
	}
	head = w.buf[:n]
	if _, err := w.f.ReadAt(head, off); err != nil {
		return nil, 0, 0, 0, err
	}
	le := binary.LittleEndian
	flags, count = le.Uint16(head[8:]), le.Uint16(head[10:])
	overflow := uint64(le.Uint32(head[12:]))
	switch {
	case le.Uint64(head) != id:
		return nil, 0, 0, 0, corrupt("%s: page %d says it is page %d", where, id, le.Uint64(head))
	case flags == 0 || flags&(flags-1) != 0 || flags&wantFlags != flags:
		// (one type, one of those wanted)
		return nil, 0, 0, 0, corrupt("%s: page %d is of type %#x", where, id, flags)
	case id+overflow >= w.hiWater:
		return nil, 0, 0, 0, corrupt("%s: page %d runs %d pages past the file's end", where, id, id+overflow+1-w.hiWater)
	}
	for p := id; p <= id+overflow; p++ {
		if w.mark(p) {
			return nil, 0, 0, 0, corrupt("%s: page %d is used twice", where, p)
		}
	}
	if w.visit != nil {
		w.visit(id, flags, int64(overflow+1), where)
	}
	return head, flags, count, int64(overflow+1) * w.pageSize, nil
}

// bytesAt returns n bytes at offset off of the page at byte pageOff,
// from head (the page's first bytes) when they are there.
func (w *pageWalker) bytesAt(head []byte, pageOff, off, n int64) ([]byte, error) {
	if off+n <= int64(len(head)) {
		return head[off : off+n], nil
	}
	b := make([]byte, n)
	if _, err := w.f.ReadAt(b, pageOff+off); err != nil {
		return nil, err
	}
	return b, nil
}

// freelist reads bbolt's free list, page id: the free pages, in order,
// each a page of the file (a count of 0xFFFF means the count is the first
// of the list's numbers).
func (w *pageWalker) freelist(id uint64) ([]uint64, error) {
	const where = "bbolt's free list"
	_, _, count, span, err := w.page(where, id, boltFreelistPage)
	if err != nil {
		return nil, err
	}
	body := make([]byte, span-boltPageHeader)
	if _, err := w.f.ReadAt(body, int64(id)*w.pageSize+boltPageHeader); err != nil {
		return nil, err
	}
	n, first := int64(count), int64(0)
	if count == 0xFFFF {
		n, first = int64(binary.LittleEndian.Uint64(body)), 1
	}
	if n < 0 || (first+n)*8 > int64(len(body)) {
		return nil, corrupt("%s (page %d) holds %d pages, which do not fit", where, id, n)
	}
	free := make([]uint64, n)
	for i := range free {
		free[i] = binary.LittleEndian.Uint64(body[(first+int64(i))*8:])
		if free[i] < 2 || free[i] >= w.hiWater || (i > 0 && free[i] <= free[i-1]) {
			return nil, corrupt("%s (page %d) holds page %d, out of order or outside the file", where, id, free[i])
		}
	}
	return free, nil
}

// bucket checks the B+tree of a bucket whose root is page root.
func (w *pageWalker) bucket(where string, root uint64) error {
	return w.tree(where, root, nil, nil)
}

// tree checks the subtree at page id, whose keys must be >= lo and < hi
// (nil: no bound).
func (w *pageWalker) tree(where string, id uint64, lo, hi []byte) error {
	head, flags, count, span, err := w.page(where, id, boltBranchPage|boltLeafPage)
	if err != nil {
		return err
	}
	pageOff := int64(id) * w.pageSize
	elems := boltPageHeader + int64(count)*boltElementSize
	if elems > span || (flags == boltBranchPage && count == 0) {
		return corrupt("%s: page %d has %d elements, which do not fit", where, id, count)
	}
	arr, err := w.bytesAt(head, pageOff, boltPageHeader, elems-boltPageHeader)
	if err != nil {
		return err
	}
	arr = bytes.Clone(arr) // head's buffer is reused by the children
	le := binary.LittleEndian
	next := elems // where the next element's key must start
	type child struct {
		key   []byte
		page  uint64
		isSub bool // a nested bucket's root, not a branch's child
		value []byte
	}
	var children []child
	var prev []byte
	for i := range int64(count) {
		e := arr[i*boltElementSize:]
		elemOff := boltPageHeader + i*boltElementSize
		var pos, ksize, vsize int64
		var eflags uint32
		if flags == boltBranchPage {
			pos, ksize = int64(le.Uint32(e)), int64(le.Uint32(e[4:]))
		} else {
			eflags, pos, ksize, vsize = le.Uint32(e), int64(le.Uint32(e[4:])), int64(le.Uint32(e[8:])), int64(le.Uint32(e[12:]))
		}
		if elemOff+pos != next || ksize == 0 || next+ksize+vsize > span {
			return corrupt("%s: page %d, element %d is not where its page's layout puts it", where, id, i)
		}
		key, err := w.bytesAt(head, pageOff, next, ksize)
		if err != nil {
			return err
		}
		key = bytes.Clone(key)
		if (prev != nil && bytes.Compare(prev, key) >= 0) || (lo != nil && bytes.Compare(key, lo) < 0) || (hi != nil && bytes.Compare(key, hi) >= 0) {
			return corrupt("%s: page %d, element %d's key is out of order", where, id, i)
		}
		prev = key
		switch {
		case flags == boltBranchPage:
			children = append(children, child{key: key, page: le.Uint64(e[8:])})
		case eflags == boltBucketLeafFlag:
			v, err := w.bytesAt(head, pageOff, next+ksize, vsize)
			if err != nil {
				return err
			}
			children = append(children, child{key: key, isSub: true, value: bytes.Clone(v)})
		case eflags != 0:
			return corrupt("%s: page %d, element %d has flags %#x", where, id, i, eflags)
		}
		next += ksize + vsize
	}
	if (next+w.pageSize-1)/w.pageSize != span/w.pageSize {
		return corrupt("%s: page %d spans %d pages, its elements %d bytes", where, id, span/w.pageSize, next)
	}
	for i, c := range children {
		var err error
		switch {
		case !c.isSub:
			var bound []byte
			if i+1 < len(children) {
				bound = children[i+1].key
			} else {
				bound = hi
			}
			err = w.tree(where, c.page, c.key, bound)
		default:
			err = w.nested(bucketPath(where, c.key), c.value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// nested checks a nested bucket, value being its element's value: a bucket
// header, then for an inline bucket its leaf page.
func (w *pageWalker) nested(where string, value []byte) error {
	if len(value) < boltBucketHeader {
		return corrupt("%s: its bucket header has %d bytes", where, len(value))
	}
	root := binary.LittleEndian.Uint64(value)
	if root != 0 {
		if len(value) != boltBucketHeader {
			return corrupt("%s: a bucket with a root page has %d bytes of value", where, len(value))
		}
		return w.bucket(where, root)
	}
	return w.inline(where, value[boltBucketHeader:])
}

// inline checks an inline bucket's page: a leaf of values (no nested
// buckets: bbolt keeps a bucket inline only without them), its header
// numbered 0, laid out to fill exactly the bytes it has.
func (w *pageWalker) inline(where string, p []byte) error {
	le := binary.LittleEndian
	if len(p) < boltPageHeader || le.Uint64(p) != 0 || le.Uint16(p[8:]) != boltLeafPage || le.Uint32(p[12:]) != 0 {
		return corrupt("%s: its inline page's header is damaged", where)
	}
	count := int64(le.Uint16(p[10:]))
	next := boltPageHeader + count*boltElementSize
	if next > int64(len(p)) {
		return corrupt("%s: its inline page has %d elements, which do not fit", where, count)
	}
	var prev []byte
	for i := range count {
		e := p[boltPageHeader+i*boltElementSize:]
		eflags, pos, ksize, vsize := le.Uint32(e), int64(le.Uint32(e[4:])), int64(le.Uint32(e[8:])), int64(le.Uint32(e[12:]))
		if eflags != 0 || boltPageHeader+i*boltElementSize+pos != next || ksize == 0 || next+ksize+vsize > int64(len(p)) {
			return corrupt("%s: its inline page's element %d is damaged", where, i)
		}
		key := p[next : next+ksize]
		if prev != nil && bytes.Compare(prev, key) >= 0 {
			return corrupt("%s: its inline page's element %d's key is out of order", where, i)
		}
		prev = key
		next += ksize + vsize
	}
	if next != int64(len(p)) {
		return corrupt("%s: its inline page's elements take %d of its %d bytes", where, next, len(p))
	}
	return nil
}

// bucketPath names a nested bucket for messages.
func bucketPath(parent string, key []byte) string {
	name := fmt.Sprintf("%q", key)
	if parent == "the file's top level" {
		return "bucket " + name
	}
	return parent + "/" + name
}
