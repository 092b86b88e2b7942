package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fault is what the model Sink does wrong on one Commit.
type fault uint8

const (
	noFault fault = iota
	// failBefore: Commit fails and commits nothing.
	failBefore
	// failAfter: Commit commits, then fails (the outcome of a commit the
	// caller could not learn).
	failAfter
	// crashBefore, crashAfter: cdcdb dies during Commit, before or after
	// the commit is durable: the Follower is killed.
	crashBefore
	crashAfter
)

// modelSink is the Sink of the tests: an in-memory source whose Commit is
// atomic (a batch is applied to a copy, swapped in whole), which checks
// every rule of the Sink contract as it goes and can be made to fail or
// crash at chosen commits.
type modelSink struct {
	mu    sync.Mutex
	state modelState
	// decide picks the fault of each Commit (nil: none); crash kills the
	// current Follower without waiting for it.
	decide func(b *Batch) fault
	crash  func()
	// violations are broken rules of the contract, each a Follower bug.
	violations []string
	commits    int
	resets     int
}

// modelState is one committed state of the model source.
type modelState struct {
	cp      Checkpoint
	columns map[string][]Column
	// existing holds, per table and column, the value rows written
	// before the column was added take in it.
	existing map[string][]Value
	rows     map[string][]modelRow
	// latest indexes, per table and key, the latest 'r', 'c' or 'u' row:
	// where unchanged TOAST values come from.
	latest map[string]map[string]int
	// log is every row in the order committed, across tables.
	log []rowRef
	// txs are the upstream transactions committed, in order.
	txs []modelTx
	// snapshotPosition is where streaming started after the snapshot.
	snapshotPosition LSN
	snapshotRows     int
	// unchanged counts the unchanged TOAST values resolved from earlier
	// rows; added lists the columns added, with their existing values.
	unchanged int
	added     []AddedColumns
}

type rowRef struct {
	table string
	index int
}

type modelRow struct {
	op         Op
	seq        int64
	values     []Value // as committed, unchanged TOAST values resolved
	keyOnly    bool
	commitTime time.Time
	xid        uint32
}

type modelTx struct {
	xid        uint32
	commitLSN  LSN
	commitTime time.Time
	rows       []rowRef
}

func newModelSink() *modelSink {
	return &modelSink{state: emptyModelState()}
}

func emptyModelState() modelState {
	return modelState{columns: map[string][]Column{}, existing: map[string][]Value{}, rows: map[string][]modelRow{}, latest: map[string]map[string]int{}}
}

func (m *modelSink) Checkpoint(context.Context) (Checkpoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state.cp, nil
}

func (m *modelSink) Commit(_ context.Context, b *Batch) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	f := noFault
	if m.decide != nil {
		f = m.decide(b)
	}
	switch f {
	case failBefore:
		return errors.New("model sink: commit failed (injected)")
	case crashBefore:
		m.crash()
		return errors.New("model sink: crashed before the commit (injected)")
	}
	next, err := m.state.apply(b)
	if err != nil {
		m.violations = append(m.violations, err.Error())
		return Permanent(fmt.Errorf("model sink: %w", err))
	}
	m.state = next
	m.commits++
	if b.Reset {
		m.resets++
	}
	switch f {
	case failAfter:
		return errors.New("model sink: committed, then failed (injected)")
	case crashAfter:
		m.crash()
		return errors.New("model sink: crashed after the commit (injected)")
	}
	return nil
}

// snapshot returns the committed state (its maps are not to be changed).
func (m *modelSink) snapshot() modelState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

func (m *modelSink) checkNoViolations(t testing.TB) {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, v := range m.violations {
		t.Errorf("the Follower broke the Sink contract: %s", v)
	}
}

// apply returns the state after b, or the rule b breaks.
func (s modelState) apply(b *Batch) (modelState, error) {
	prev := s.cp
	if b.Reset {
		if prev.Phase == PhaseStreaming {
			return s, errors.New("a Reset after the snapshot completed")
		}
		s = emptyModelState()
	} else {
		s.columns = maps(s.columns)
		s.existing = maps(s.existing)
		s.rows = maps(s.rows)
		s.latest = maps(s.latest)
		for name, index := range s.latest {
			s.latest[name] = maps(index)
		}
	}
	lastSeq := s.cp.LastSeq
	next := b.Checkpoint
	switch {
	case prev.Phase == PhaseStreaming && next.Phase != PhaseStreaming:
		return s, fmt.Errorf("phase went back from %s to %s", prev.Phase, next.Phase)
	case prev.Phase == PhaseStreaming && next.Position < prev.Position:
		return s, fmt.Errorf("position went back from %s to %s", prev.Position, next.Position)
	case prev.Phase == PhaseStreaming && next.Slot != prev.Slot:
		return s, fmt.Errorf("slot changed from %q to %q", prev.Slot, next.Slot)
	}
	for _, t := range b.NewTables {
		if _, ok := s.columns[t.Name]; ok {
			return s, fmt.Errorf("table %q created twice", t.Name)
		}
		s.columns[t.Name] = slices.Clone(t.Columns)
		s.existing[t.Name] = make([]Value, len(t.Columns))
	}
	for _, a := range b.AddedColumns {
		cols, ok := s.columns[a.Table]
		if !ok {
			return s, fmt.Errorf("columns added to unknown table %q", a.Table)
		}
		if len(a.ExistingValues) != len(a.Columns) {
			return s, fmt.Errorf("table %q: %d added columns with %d existing values", a.Table, len(a.Columns), len(a.ExistingValues))
		}
		s.columns[a.Table] = append(slices.Clone(cols), a.Columns...)
		s.added = append(slices.Clip(s.added), a)
		s.existing[a.Table] = append(slices.Clone(s.existing[a.Table]), a.ExistingValues...)
	}
	streamed := b.Xid != 0
	if streamed && next.Phase != PhaseStreaming {
		return s, fmt.Errorf("transaction %d committed in phase %s", b.Xid, next.Phase)
	}
	if !streamed && len(b.Changes) > 0 && prev.Phase == PhaseStreaming {
		return s, errors.New("changes without a transaction after the snapshot")
	}
	if streamed {
		if i := slices.IndexFunc(s.txs, func(tx modelTx) bool { return tx.xid == b.Xid }); i >= 0 {
			return s, fmt.Errorf("transaction %d (commit %s) delivered twice", b.Xid, b.CommitLSN)
		}
		if b.CommitLSN >= next.Position || (prev.Phase == PhaseStreaming && b.CommitLSN < prev.Position) {
			return s, fmt.Errorf("transaction %d commits at %s, outside (%s, %s]", b.Xid, b.CommitLSN, prev.Position, next.Position)
		}
		if b.CommitTime.IsZero() {
			return s, fmt.Errorf("transaction %d without a commit time", b.Xid)
		}
	}
	// Appending to slices shared with the committed state is safe: it
	// never looks past its own length, and a discarded next is
	// overwritten by the one after.
	var refs []rowRef
	for _, c := range b.Changes {
		cols, ok := s.columns[c.Table]
		if !ok {
			return s, fmt.Errorf("change to unknown table %q", c.Table)
		}
		if c.Seq <= lastSeq {
			return s, fmt.Errorf("Seq %d after %d", c.Seq, lastSeq)
		}
		lastSeq = c.Seq
		switch c.Op {
		case OpSnapshot:
			if streamed {
				return s, errors.New("a snapshot row in a transaction")
			}
			s.snapshotRows++
		case OpInsert, OpUpdate, OpDelete, OpTruncate:
			if !streamed {
				return s, fmt.Errorf("an %q change outside a transaction", c.Op)
			}
		default:
			return s, fmt.Errorf("unknown op %q", c.Op)
		}
		values := slices.Clone(c.Values)
		if c.Op == OpTruncate {
			if values != nil {
				return s, errors.New("a truncate with values")
			}
		} else if len(values) != len(cols) {
			return s, fmt.Errorf("table %q: %d values for %d columns", c.Table, len(values), len(cols))
		}
		if hasUnchanged(values) {
			if c.Op != OpUpdate && c.Op != OpInsert {
				return s, fmt.Errorf("an unchanged TOAST value in a %q change", c.Op)
			}
			if err := s.resolveUnchanged(c, values); err != nil {
				return s, err
			}
		} else if c.Identity != nil {
			return s, errors.New("an Identity without unchanged values")
		}
		rows := s.rows[c.Table]
		s.rows[c.Table] = append(rows, modelRow{op: c.Op, seq: c.Seq, values: values, keyOnly: c.KeyOnly, commitTime: b.CommitTime, xid: b.Xid})
		ref := rowRef{c.Table, len(rows)}
		switch c.Op {
		case OpTruncate:
			s.latest[c.Table] = map[string]int{}
		case OpSnapshot, OpInsert, OpUpdate:
			if s.latest[c.Table] == nil {
				s.latest[c.Table] = map[string]int{}
			}
			s.latest[c.Table][identityKey(keyValues(&Table{Columns: cols}, s.padded(c.Table, values)))] = ref.index
		}
		s.log = append(s.log, ref)
		refs = append(refs, ref)
	}
	if next.LastSeq != lastSeq {
		return s, fmt.Errorf("checkpoint LastSeq %d, last change's Seq %d", next.LastSeq, lastSeq)
	}
	if streamed {
		s.txs = append(s.txs, modelTx{xid: b.Xid, commitLSN: b.CommitLSN, commitTime: b.CommitTime, rows: refs})
	}
	if prev.Phase != PhaseStreaming && next.Phase == PhaseStreaming {
		s.snapshotPosition = next.Position
	}
	s.cp = next
	return s, nil
}

// resolveUnchanged fills unchanged TOAST values from the latest 'r', 'c'
// or 'u' row whose key is c.Identity, as the Sink contract says.
func (s *modelState) resolveUnchanged(c Change, values []Value) error {
	if len(c.Identity) == 0 {
		return fmt.Errorf("table %q: unchanged TOAST values without an Identity", c.Table)
	}
	i, ok := s.latest[c.Table][identityKey(c.Identity)]
	if !ok {
		return fmt.Errorf("table %q: no earlier row with key %v to take unchanged TOAST values from", c.Table, c.Identity)
	}
	full := s.padded(c.Table, s.rows[c.Table][i].values)
	for k, v := range values {
		if v.Kind == ValueUnchanged {
			values[k] = full[k]
			s.unchanged++
		}
	}
	return nil
}

func identityKey(key []Value) string {
	var b strings.Builder
	for _, v := range key {
		b.WriteString(v.String())
		b.WriteByte(0)
	}
	return b.String()
}

// padded returns a row's values with the columns added after it was
// written, as the source table shows them.
func (s *modelState) padded(table string, values []Value) []Value {
	existing := s.existing[table]
	if len(values) >= len(existing) {
		return values
	}
	return append(slices.Clone(values), existing[len(values):]...)
}

func maps[V any](m map[string]V) map[string]V {
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// logBuffer keeps a Follower's log lines for a test: shown when the test
// fails, searched by the password test.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// testLogger returns a debug-level logger whose lines the test prints if
// it fails.
func testLogger(t testing.TB) *slog.Logger {
	logger, _ := testLoggerBuffer(t)
	return logger
}

func testLoggerBuffer(t testing.TB) (*slog.Logger, *logBuffer) {
	buf := &logBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("follower log:\n%s", tail(buf.String(), 80))
		}
	})
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})), buf
}

// describe prints a row for failure messages.
func (r modelRow) String() string {
	vals := make([]string, len(r.values))
	for i, v := range r.values {
		vals[i] = abbreviate(v.String())
	}
	return fmt.Sprintf("%s seq=%d xid=%d keyOnly=%v [%s]", r.op, r.seq, r.xid, r.keyOnly, strings.Join(vals, ", "))
}

func abbreviate(s string) string {
	if len(s) > 60 {
		return s[:40] + fmt.Sprintf("...(%d bytes)", len(s))
	}
	return s
}
