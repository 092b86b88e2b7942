package cdcexec

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/types"
)

// A snapshot is compared with the flow's log key by key, so its rows must
// come in key order, and a snapshot is usually big. SnapshotRows keeps each
// row as bytes (its encoded KEYS tuple and its encoded values) in one
// buffer; past a memory budget it sorts the buffer and writes it to a
// temporary file as a run, and reading merges the runs. Memory stays near
// the budget whatever the snapshot's size.

// DefaultSnapshotMemory is the bytes of encoded rows a snapshot keeps in
// memory before it spills a sorted run to a temporary file.
const DefaultSnapshotMemory = 64 << 20

// SnapshotRows collects one snapshot's rows for ApplySnapshot.
type SnapshotRows struct {
	f       *Flow
	version []types.Value
	// buf holds the rows in memory, each as key length, key, row; offs
	// where each starts.
	buf    []byte
	offs   []int
	budget int
	dir    string
	runs   []string
	n      int
	rowBuf []byte
	// collapseIdentical makes identical rows one row (CollapseIdentical).
	collapseIdentical bool
	// unsorted says a row came with a key lower than the one before it
	// (since the last spill): a table read in key order needs no sort.
	unsorted bool
}

// NewSnapshotRows starts collecting a snapshot of f at version. Runs that
// do not fit in budget bytes (0: DefaultSnapshotMemory) are written to
// temporary files in dir ("": the system's).
func (f *Flow) NewSnapshotRows(version []types.Value, budget int, dir string) *SnapshotRows {
	if budget <= 0 {
		budget = DefaultSnapshotMemory
	}
	return &SnapshotRows{f: f, version: version, budget: budget, dir: dir}
}

// CollapseIdentical makes two identical rows (same key, same values) one
// row instead of a duplicate key: for a table of labelled snapshots, where
// a loader's retry writes a version's rows again.
func (s *SnapshotRows) CollapseIdentical() { s.collapseIdentical = true }

// Len is the number of rows added.
func (s *SnapshotRows) Len() int { return s.n }

// Add adds a row: the target's data values (the layout of Event.Values).
// It refuses a NULL key. It does not keep values.
func (s *SnapshotRows) Add(values []types.Value) error {
	f := s.f
	start := len(s.buf)
	s.buf = append(s.buf, 0, 0, 0, 0)
	for k, p := range f.KeyPositions {
		if values[p] == nil {
			s.buf = s.buf[:start]
			return pgerror.New(pgerror.NotNullViolation, "key column \"%s\" is NULL in snapshot %s of flow \"%s\"", f.KeyNames[k], f.FormatSeq(s.version), f.Name).
				WithHint("Every row of a snapshot needs a key; nothing of the snapshot was applied.")
		}
		var err error
		if s.buf, err = rowcodec.AppendKey(s.buf, values[p]); err != nil {
			return err
		}
	}
	row, err := rowcodec.EncodeRow(s.rowBuf[:0], values)
	if err != nil {
		s.buf = s.buf[:start]
		return err
	}
	s.rowBuf = row
	return s.added(start, row)
}

// AddEncoded adds a row given as its KEYS values and its data values
// already encoded as a row (rowcodec's row format, as EncodeRow writes it):
// a table read in its stored form. It refuses a NULL key.
func (s *SnapshotRows) AddEncoded(key []types.Value, row []byte) error {
	f := s.f
	start := len(s.buf)
	s.buf = append(s.buf, 0, 0, 0, 0)
	for k, v := range key {
		if v == nil {
			s.buf = s.buf[:start]
			return pgerror.New(pgerror.NotNullViolation, "key column \"%s\" is NULL in snapshot %s of flow \"%s\"", f.KeyNames[k], f.FormatSeq(s.version), f.Name).
				WithHint("Every row of a snapshot needs a key; nothing of the snapshot was applied.")
		}
		var err error
		if s.buf, err = rowcodec.AppendKey(s.buf, v); err != nil {
			return err
		}
	}
	return s.added(start, row)
}

// added finishes a row whose key Add or AddEncoded appended at start.
func (s *SnapshotRows) added(start int, row []byte) error {
	binary.LittleEndian.PutUint32(s.buf[start:], uint32(len(s.buf)-start-4))
	if len(s.offs) > 0 && !s.unsorted {
		prev, _ := s.entry(len(s.offs) - 1)
		if bytes.Compare(s.buf[start+4:], prev) < 0 {
			s.unsorted = true
		}
	}
	s.buf = append(s.buf, row...)
	s.offs = append(s.offs, start)
	s.n++
	if len(s.buf) >= s.budget {
		return s.spill()
	}
	return nil
}

// entry splits the in-memory row starting at off into key and row.
func (s *SnapshotRows) entry(i int) (key, row []byte) {
	off := s.offs[i]
	end := len(s.buf)
	if i+1 < len(s.offs) {
		end = s.offs[i+1]
	}
	kl := int(binary.LittleEndian.Uint32(s.buf[off:]))
	return s.buf[off+4 : off+4+kl], s.buf[off+4+kl : end]
}

// sortMemory orders the in-memory rows by key (stable: equal keys keep
// their order, which only matters for the duplicate error).
func (s *SnapshotRows) sortMemory() []int {
	idx := make([]int, len(s.offs))
	for i := range idx {
		idx[i] = i
	}
	if !s.unsorted {
		return idx
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ka, _ := s.entry(a)
		kb, _ := s.entry(b)
		return bytes.Compare(ka, kb)
	})
	return idx
}

// spill writes the in-memory rows, sorted, to a new run file.
func (s *SnapshotRows) spill() error {
	file, err := os.CreateTemp(s.dir, "cdcdb-snapshot-*.run")
	if err != nil {
		return pgerror.New(pgerror.DiskFull, "could not spill a snapshot to a temporary file: %v", err)
	}
	s.runs = append(s.runs, file.Name())
	w := bufio.NewWriterSize(file, 1<<16)
	var hdr [2 * binary.MaxVarintLen64]byte
	for _, i := range s.sortMemory() {
		key, row := s.entry(i)
		n := binary.PutUvarint(hdr[:], uint64(len(key)))
		n += binary.PutUvarint(hdr[n:], uint64(len(row)))
		if _, err = w.Write(hdr[:n]); err == nil {
			if _, err = w.Write(key); err == nil {
				_, err = w.Write(row)
			}
		}
		if err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return pgerror.New(pgerror.DiskFull, "could not spill a snapshot to a temporary file: %v", err)
	}
	s.buf, s.offs, s.unsorted = s.buf[:0], s.offs[:0], false
	return nil
}

// Close removes the snapshot's temporary files.
func (s *SnapshotRows) Close() {
	for _, name := range s.runs {
		_ = os.Remove(name)
	}
	s.runs = nil
}

// rowSource yields rows in key order: key and encoded row, valid until the
// next call; a nil key at the end.
type rowSource interface {
	next() (key, row []byte, err error)
}

// sorted returns the rows in key order.
func (s *SnapshotRows) sorted() (rowSource, func(), error) {
	mem := &memorySource{s: s, idx: s.sortMemory()}
	if len(s.runs) == 0 {
		return mem, func() {}, nil
	}
	m := &mergeSource{}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			_ = f.Close()
		}
	}
	for _, name := range s.runs {
		file, err := os.Open(name)
		if err != nil {
			closeAll()
			return nil, nil, pgerror.New(pgerror.IOError, "could not read a spilled snapshot: %v", err)
		}
		files = append(files, file)
		m.inputs = append(m.inputs, &runSource{r: bufio.NewReaderSize(file, 1<<16)})
	}
	m.inputs = append(m.inputs, mem)
	if err := m.init(); err != nil {
		closeAll()
		return nil, nil, err
	}
	return m, closeAll, nil
}

type memorySource struct {
	s   *SnapshotRows
	idx []int
	i   int
}

func (m *memorySource) next() ([]byte, []byte, error) {
	if m.i >= len(m.idx) {
		return nil, nil, nil
	}
	k, r := m.s.entry(m.idx[m.i])
	m.i++
	return k, r, nil
}

type runSource struct {
	r        *bufio.Reader
	key, row []byte
}

func (r *runSource) next() ([]byte, []byte, error) {
	kl, err := binary.ReadUvarint(r.r)
	if errors.Is(err, io.EOF) {
		return nil, nil, nil
	}
	rl, err2 := binary.ReadUvarint(r.r)
	if err != nil || err2 != nil {
		return nil, nil, pgerror.New(pgerror.IOError, "a spilled snapshot is truncated")
	}
	r.key = slices.Grow(r.key[:0], int(kl))[:kl]
	r.row = slices.Grow(r.row[:0], int(rl))[:rl]
	if _, err := io.ReadFull(r.r, r.key); err != nil {
		return nil, nil, pgerror.New(pgerror.IOError, "a spilled snapshot is truncated")
	}
	if _, err := io.ReadFull(r.r, r.row); err != nil {
		return nil, nil, pgerror.New(pgerror.IOError, "a spilled snapshot is truncated")
	}
	return r.key, r.row, nil
}

// mergeSource merges sorted sources; on equal keys the earlier source comes
// first.
type mergeSource struct {
	inputs []rowSource
	heads  mergeHeap
	// last is the input whose row was returned last: it is advanced on
	// the next call, so the row stays valid until then.
	last *mergeHead
}

type mergeHead struct {
	src      rowSource
	order    int
	key, row []byte
}

type mergeHeap []*mergeHead

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	if c := bytes.Compare(h[i].key, h[j].key); c != 0 {
		return c < 0
	}
	return h[i].order < h[j].order
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(*mergeHead)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (m *mergeSource) init() error {
	for i, in := range m.inputs {
		k, r, err := in.next()
		if err != nil {
			return err
		}
		if k != nil {
			m.heads = append(m.heads, &mergeHead{src: in, order: i, key: k, row: r})
		}
	}
	heap.Init(&m.heads)
	return nil
}

func (m *mergeSource) next() ([]byte, []byte, error) {
	if h := m.last; h != nil {
		m.last = nil
		k, r, err := h.src.next()
		if err != nil {
			return nil, nil, err
		}
		if k == nil {
			heap.Pop(&m.heads)
		} else {
			h.key, h.row = k, r
			heap.Fix(&m.heads, 0)
		}
	}
	if len(m.heads) == 0 {
		return nil, nil, nil
	}
	m.last = m.heads[0]
	return m.last.key, m.last.row, nil
}

// formatEncodedKey renders an encoded KEYS tuple for a message.
func (f *Flow) formatEncodedKey(enc []byte) string {
	vals, err := decodeKeyTuple(enc, len(f.KeyPositions))
	if err != nil {
		return "?"
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = formatKeyValue(v)
	}
	return strings.Join(parts, ", ")
}
