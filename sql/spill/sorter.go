package spill

import (
	"container/heap"
	"slices"

	"cdcdb/types"
)

// mergeFanIn is how many runs one merge pass reads at once: more runs
// than this are merged in passes, each turning the first mergeFanIn runs
// into one, so a merge holds at most this many file buffers.
const mergeFanIn = 64

// Sorter sorts rows of any number, stably, within work_mem: it keeps rows
// until they would pass workMem, then sorts them and writes them to a
// temporary file as a run; Finish merges the runs. With a bound (the rows
// a LIMIT will take) it keeps only the first bound rows of the order, in
// a heap (TopN), for as long as they fit in workMem.
type Sorter struct {
	cfg   SortConfig
	rows  [][]types.Value
	size  int64
	top   *TopN
	runs  []*RowFile
	spilt bool
	// inMemoryOnly: the codec refused a value, so rows stay in memory
	// (accounted to the budget) rather than go to a file.
	inMemoryOnly bool
}

// SortConfig says how a Sorter orders, encodes and bounds its rows.
type SortConfig struct {
	// Compare orders two rows as the sort must (Add's rows, whole).
	Compare func(a, b []types.Value) int
	Codec   Codec
	// Dir is where temporary files go ("": the system's).
	Dir string
	// WorkMem is the bytes of rows kept in memory before a run is written.
	WorkMem int64
	// Account holds the rows kept in memory; the Sorter grows and shrinks it.
	Account *Account
	// Bound, when above 0, is how many rows of the order will be read: the
	// rest may be dropped.
	Bound int64
	// Interrupted, when set, is asked every few thousand rows of a run
	// written or merged, and its error (a cancel, a timeout) ends the sort.
	Interrupted func() error
}

// interruptEvery is how many rows a sort writes or merges between two
// looks at SortConfig.Interrupted.
const interruptEvery = 4096

func (c *SortConfig) interrupted(n int64) error {
	if c.Interrupted == nil || n%interruptEvery != 0 {
		return nil
	}
	return c.Interrupted()
}

// NewSorter makes a Sorter.
func NewSorter(cfg SortConfig) *Sorter {
	s := &Sorter{cfg: cfg}
	if cfg.Bound > 0 {
		s.top = NewTopN(cfg.Bound, cfg.Compare)
	}
	return s
}

// Spilled reports whether rows went to temporary files.
func (s *Sorter) Spilled() bool { return s.spilt }

// Add takes a row (the Sorter keeps it: the caller must not reuse it).
func (s *Sorter) Add(row []types.Value) error {
	n := RowSize(row)
	if s.top != nil {
		dropped, kept := s.top.Push(row)
		if kept {
			if err := s.cfg.Account.Grow(n); err != nil {
				return err
			}
			s.size += n
		}
		if dropped != nil {
			m := RowSize(dropped)
			s.cfg.Account.Shrink(m)
			s.size -= m
		}
		if s.size > s.cfg.WorkMem && !s.inMemoryOnly {
			// The bound's rows do not fit: sort as if unbounded, each run
			// cut to the bound.
			s.rows = s.top.Sorted()
			s.top = nil
			return s.spill()
		}
		return nil
	}
	if s.size+n > s.cfg.WorkMem && len(s.rows) > 0 && !s.inMemoryOnly {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if err := s.cfg.Account.Grow(n); err != nil {
		return err
	}
	s.rows = append(s.rows, row)
	s.size += n
	return nil
}

func (s *Sorter) sortRows() {
	slices.SortStableFunc(s.rows, s.cfg.Compare)
	if b := s.cfg.Bound; b > 0 && int64(len(s.rows)) > b {
		clear(s.rows[b:])
		s.rows = s.rows[:b]
	}
}

// spill writes the rows in memory, sorted, as a new run.
func (s *Sorter) spill() error {
	s.sortRows()
	f, err := NewRowFile(s.cfg.Dir, s.cfg.Codec)
	if err != nil {
		return err
	}
	for i, r := range s.rows {
		if err := s.cfg.interrupted(int64(i)); err != nil {
			f.Close()
			return err
		}
		if err := f.Append(r); err != nil {
			f.Close()
			if isCodecError(err) {
				// A value the codec cannot write keeps the rows here.
				s.inMemoryOnly = true
				return nil
			}
			return err
		}
	}
	s.runs = append(s.runs, f)
	s.spilt = true
	clear(s.rows)
	s.rows = s.rows[:0]
	s.cfg.Account.Shrink(s.size)
	s.size = 0
	return nil
}

// Close drops what the Sorter holds, for a sort abandoned before Finish.
func (s *Sorter) Close() {
	for _, f := range s.runs {
		f.Close()
	}
	s.runs, s.rows, s.top = nil, nil, nil
	s.cfg.Account.Close()
}

// Finish ends adding and returns the rows in order. The Sorter is done
// with: the SortedRows holds what it held, and its Close gives it back.
func (s *Sorter) Finish() (*SortedRows, error) {
	if s.top != nil {
		s.rows = s.top.Sorted()
		s.top = nil
	} else {
		s.sortRows()
	}
	out := &SortedRows{acct: s.cfg.Account, runs: s.runs, bound: s.cfg.Bound}
	if len(s.runs) == 0 {
		out.mem = s.rows
		return out, nil
	}
	// Merge in passes until one pass can read every run at once; a pass's
	// output stands where its inputs stood (they hold the earliest rows),
	// so equal rows keep their input order.
	for len(out.runs)+1 > mergeFanIn {
		merged, err := mergeRuns(out.runs[:mergeFanIn], s.cfg)
		if err != nil {
			out.Close()
			return nil, err
		}
		out.runs = append([]*RowFile{merged}, out.runs[mergeFanIn:]...)
	}
	out.merge = &mergeHeap{cmp: s.cfg.Compare}
	for i, f := range out.runs {
		if err := f.Rewind(); err != nil {
			out.Close()
			return nil, err
		}
		out.merge.sources = append(out.merge.sources, mergeSource{file: f, order: i})
	}
	// The rows still in memory came last, so they rank last among equals.
	out.merge.sources = append(out.merge.sources, mergeSource{mem: s.rows, order: len(out.runs)})
	if err := out.merge.init(); err != nil {
		out.Close()
		return nil, err
	}
	return out, nil
}

// mergeRuns merges runs into a new run and closes them.
func mergeRuns(runs []*RowFile, cfg SortConfig) (*RowFile, error) {
	m := &mergeHeap{cmp: cfg.Compare}
	for i, f := range runs {
		if err := f.Rewind(); err != nil {
			return nil, err
		}
		m.sources = append(m.sources, mergeSource{file: f, order: i})
	}
	defer func() {
		for _, f := range runs {
			f.Close()
		}
	}()
	if err := m.init(); err != nil {
		return nil, err
	}
	out, err := NewRowFile(cfg.Dir, cfg.Codec)
	if err != nil {
		return nil, err
	}
	var written int64
	for cfg.Bound <= 0 || written < cfg.Bound {
		row, err := m.next()
		if err != nil || row == nil {
			if err != nil {
				out.Close()
				return nil, err
			}
			break
		}
		if err := cfg.interrupted(written); err != nil {
			out.Close()
			return nil, err
		}
		if err := out.Append(row); err != nil {
			out.Close()
			return nil, err
		}
		written++
	}
	return out, nil
}

// SortedRows yields a Sorter's rows in order.
type SortedRows struct {
	acct  *Account
	mem   [][]types.Value
	i     int
	runs  []*RowFile
	merge *mergeHeap
	// bound, above 0, is how many rows to give at most; given counts them.
	bound, given int64
}

// Next returns the next row, nil at the end. A row from memory is the
// one added; one from a run is decoded anew.
func (r *SortedRows) Next() ([]types.Value, error) {
	if r.bound > 0 && r.given >= r.bound {
		return nil, nil
	}
	r.given++
	if r.merge != nil {
		return r.merge.next()
	}
	if r.i >= len(r.mem) {
		return nil, nil
	}
	row := r.mem[r.i]
	r.mem[r.i] = nil
	r.i++
	return row, nil
}

// Close removes the runs and gives back the memory accounted.
func (r *SortedRows) Close() {
	for _, f := range r.runs {
		f.Close()
	}
	r.runs = nil
	r.mem = nil
	r.merge = nil
	r.acct.Close()
}

// mergeSource is one sorted input of a merge: a run, or the rows left in
// memory.
type mergeSource struct {
	file  *RowFile
	mem   [][]types.Value
	order int // ranks equal rows: the lower came first in the input
	row   []types.Value
}

func (m *mergeSource) advance() error {
	if m.file != nil {
		row, err := m.file.Next()
		m.row = row
		return err
	}
	if len(m.mem) == 0 {
		m.row = nil
		return nil
	}
	m.row, m.mem[0] = m.mem[0], nil
	m.mem = m.mem[1:]
	return nil
}

// mergeHeap merges sorted sources, stably.
type mergeHeap struct {
	cmp     func(a, b []types.Value) int
	sources []mergeSource
	live    []*mergeSource
	last    *mergeSource // the source of the row given last, to advance
}

func (m *mergeHeap) init() error {
	for i := range m.sources {
		src := &m.sources[i]
		if err := src.advance(); err != nil {
			return err
		}
		if src.row != nil {
			m.live = append(m.live, src)
		}
	}
	heap.Init(m)
	return nil
}

func (m *mergeHeap) next() ([]types.Value, error) {
	if m.last != nil {
		if err := m.last.advance(); err != nil {
			return nil, err
		}
		if m.last.row == nil {
			heap.Pop(m)
		} else {
			heap.Fix(m, 0)
		}
		m.last = nil
	}
	if len(m.live) == 0 {
		return nil, nil
	}
	m.last = m.live[0]
	return m.last.row, nil
}

func (m *mergeHeap) Len() int { return len(m.live) }
func (m *mergeHeap) Less(i, j int) bool {
	if c := m.cmp(m.live[i].row, m.live[j].row); c != 0 {
		return c < 0
	}
	return m.live[i].order < m.live[j].order
}
func (m *mergeHeap) Swap(i, j int) { m.live[i], m.live[j] = m.live[j], m.live[i] }
func (m *mergeHeap) Push(x any)    { m.live = append(m.live, x.(*mergeSource)) }
func (m *mergeHeap) Pop() any {
	x := m.live[len(m.live)-1]
	m.live = m.live[:len(m.live)-1]
	return x
}
