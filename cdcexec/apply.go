package cdcexec

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/temporal"
	"cdcdb/types"
)

// Prepare creates a new flow's private state spaces.
func Prepare(tx *storage.Tx, f *Flow) error {
	for _, part := range []string{logPart, truncatePart} {
		if tx.Space(catalog.FlowSpace(f.OID, part)) == nil {
			if _, err := tx.CreateSpace(catalog.FlowSpace(f.OID, part)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Drop removes a flow's private state.
func Drop(tx *storage.Tx, flow catalog.OID) error {
	for _, part := range []string{logPart, legacyPart, truncatePart, versionsPart} {
		if tx.Space(catalog.FlowSpace(flow, part)) != nil {
			if err := tx.DropSpace(catalog.FlowSpace(flow, part)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Reset forgets every event of a flow and empties its target, for a full
// refresh. The target's rows end now (its history keeps them); the rebuild
// then writes new versions.
func Reset(tx *storage.Tx, f *Flow, target *history.Table) error {
	if err := Drop(tx, f.OID); err != nil {
		return err
	}
	if err := Prepare(tx, f); err != nil {
		return err
	}
	var keys [][]byte
	c := target.Data().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	for _, k := range keys {
		if err := target.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// keyGroup collects one key's new events of a batch.
type keyGroup struct {
	encKey []byte
	events []temporal.Event
	// What the flow's state cache had of the key (lookUpStates): at.held,
	// its state if it holds one.
	at slotRef
}

// Apply applies a batch of events, in any order. It fails, leaving the
// caller to roll back, on a NULL key or sequence, on two different events
// for one key and sequence value, or when check (nil: none) refuses a
// target row it would write. cache (nil: none) is the flow's StateCache;
// every batch of the flow must be given the same one.
func Apply(ctx context.Context, tx *storage.Tx, f *Flow, target *history.Table, batch []Event, cache *StateCache, check RowCheck) (Stats, error) {
	if cache != nil {
		cache.begin(tx)
	}
	if check != nil {
		// A compiled flow is shared by every session; the check belongs
		// to this one's statement.
		withCheck := *f
		withCheck.check = check
		f = &withCheck
	}
	st, err := apply(ctx, tx, f, target, batch, cache)
	if err == nil && st.MaxSeq != nil {
		st.MaxSeqKey, err = encodeSeq(nil, st.MaxSeq)
	}
	return st, err
}

func apply(ctx context.Context, tx *storage.Tx, f *Flow, target *history.Table, batch []Event, cache *StateCache) (Stats, error) {
	var st Stats
	a := appliers.Get().(*applier)
	defer a.release()
	*a = applier{f: f, target: target, st: &st, cache: cache, batchBuffers: a.batchBuffers, keyBuffers: a.keyBuffers}
	var truncateMark temporal.Seq
	// The batch's events, and where their keys' encodings end in keyBuf, to
	// be sorted by key: a key's events are then adjacent.
	for _, ev := range batch {
		if err := f.validate(ev); err != nil {
			return st, err
		}
		st.Events++
		if st.MaxSeq == nil || f.Rules.Compare(temporal.Seq(ev.Seq), temporal.Seq(st.MaxSeq)) > 0 {
			st.MaxSeq = ev.Seq
		}
		if ev.Kind == Truncate {
			truncateMark = f.Rules.LaterTruncateMark(truncateMark, temporal.Seq(ev.Seq))
			continue
		}
		var err error
		if a.keyBuf, err = encodeSeq(a.keyBuf, ev.Key); err != nil {
			return st, err
		}
		te := temporal.Event{Seq: temporal.Seq(ev.Seq), Kind: temporal.Upsert, Values: ev.Values, Writes: ev.Writes}
		if ev.Kind == Delete {
			te.Kind = temporal.Delete
		}
		if f.StoredAs == catalog.Bitemporal {
			te.SysSeq = temporal.Seq(ev.SysSeq)
		}
		a.events = append(a.events, te)
		a.keyEnds = append(a.keyEnds, len(a.keyBuf))
	}
	// Keys go in the order of their encoding, which is the order of their
	// log entries and target rows: each key's lookups then land after the
	// last key's in every keyspace, on pages and memtable nodes the last
	// key's lookups have just brought into the cache. Keys do not depend
	// on each other, so the order changes only the speed, and which key's
	// error a batch with several bad keys reports. Events of one key keep
	// their arrival order, which decides which of two conflicting ones an
	// error names first. The sort compares the keys' first 16 bytes as two
	// integers, which decides most comparisons without reading the keys.
	start := 0
	for i, end := range a.keyEnds {
		k := a.keyBuf[start:end:end]
		p0, p1 := storage.KeyPrefix16(k)
		a.order = append(a.order, sortKey{p0: p0, p1: p1, key: k, at: int32(i)})
		start = end
	}
	slices.SortFunc(a.order, func(x, y sortKey) int {
		switch {
		case x.p0 != y.p0:
			return cmp.Compare(x.p0, y.p0)
		case x.p1 != y.p1:
			return cmp.Compare(x.p1, y.p1)
		}
		if c := bytes.Compare(x.key, y.key); c != 0 {
			return c
		}
		return cmp.Compare(x.at, y.at)
	})
	a.sorted = slices.Grow(a.sorted[:0], len(a.order))[:len(a.order)]
	for i, o := range a.order {
		a.sorted[i] = a.events[o.at]
		if n := len(a.groups); n > 0 && bytes.Equal(a.groups[n-1].encKey, o.key) {
			a.groups[n-1].events = a.sorted[i-len(a.groups[n-1].events) : i+1 : i+1]
			continue
		}
		a.groups = append(a.groups, keyGroup{encKey: o.key, events: a.sorted[i : i+1 : i+1]})
	}
	log, err := openLog(tx, f)
	if err != nil {
		return st, err
	}
	a.log = eventWriter{log: log}
	a.cacheWhole = cache.holdsEveryKey(log, target.Data())
	mark, err := f.truncateMark(tx)
	if err != nil {
		return st, err
	}
	replayEverything := false
	if truncateMark != nil {
		newMark := f.Rules.LaterTruncateMark(mark, truncateMark)
		if mark == nil || f.Rules.Compare(newMark, mark) != 0 {
			mark = newMark
			if err := f.storeTruncateMark(tx, mark); err != nil {
				return st, err
			}
			replayEverything = true
		}
	}
	a.lookUpStates()
	if !replayEverything {
		if shared, err := a.applyShared(ctx, tx, mark); shared || err != nil {
			return st, err
		}
	}
	for i := range a.groups {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if i%parallelChunk == 0 {
			a.touchStates(a.groups[i:min(i+parallelChunk, len(a.groups))])
		}
		if err := a.applyKey(&a.groups[i], mark, !replayEverything); err != nil {
			return st, err
		}
	}
	if replayEverything {
		// A truncate affects every key: with the batch's events stored,
		// replay every key of the flow under the new mark.
		cache.Clear()
		return st, f.replayAll(ctx, log, target, mark, &st)
	}
	return st, nil
}

// applier applies one batch of a flow: what every key needs, and buffers
// reused from key to key (what storage's Put and the cache are given they
// copy) and, through appliers, from batch to batch.
type applier struct {
	f      *Flow
	log    eventWriter
	target *history.Table
	st     *Stats
	cache  *StateCache
	// cacheWhole says that a key the cache does not hold is new to the
	// flow, with no events in the log and no rows in the target
	// (StateCache.holdsEveryKey): it is applied without looking for them.
	cacheWhole bool
	// cacheMu guards cache while two goroutines apply the batch, and
	// current is the index of the key a goroutine is applying then
	// (parallel.go).
	cacheMu *sync.Mutex
	current int
	// roles is the target's layout (layout), once worked out.
	roles []int
	// touched keeps the reads of cached states' bytes that lookUpStates
	// and touchStates make to bring them into the CPU's cache from being
	// optimized away: it is written, so they are needed.
	touched byte
	batchBuffers
	keyBuffers
}

// batchBuffers hold a batch's events grouped by key: the events, their
// keys' encodings (keyBuf, each ending at its keyEnds), their order by key,
// the events in that order and the groups of them.
type batchBuffers struct {
	events  []temporal.Event
	keyBuf  []byte
	keyEnds []int
	order   []sortKey
	sorted  []temporal.Event
	groups  []keyGroup
}

// sortKey is an event's place in the sort by key: its key's first 16 bytes
// as integers, its key, and its arrival.
type sortKey struct {
	p0, p1 uint64
	key    []byte
	at     int32
}

// keyBuffers are what one key's application needs: seqBuf holds the
// encodings seqs point into, valBuf and vals those of the data values
// (encodeValues); split and open are the open SCD TYPE 2 version's;
// rowBuf and versionKeyBuf hold the last target row continueSCD2Encoded
// put together and its key.
type keyBuffers struct {
	seqBuf, valBuf        []byte
	seqs                  []eventSeqs
	vals                  [][][]byte
	valSlots              [][]byte
	ends                  []int // where encodings end, while encoding
	split, open           [][]byte
	rowBuf, versionKeyBuf []byte
	// held are the key states this goroutine has not put in a cache it
	// shares with another yet (putState).
	held heldStates
}

// appliers keeps appliers, with their buffers, from one batch to the next:
// a batch of a thousand events needs some hundred kilobytes of them.
var appliers = sync.Pool{New: func() any { return new(applier) }}

// release empties the buffers of what they refer to (the batch's values,
// the transaction's storage) and returns the applier to appliers.
func (a *applier) release() {
	clear(a.events)
	clear(a.sorted)
	clear(a.order)
	clear(a.groups)
	clear(a.vals)
	clear(a.valSlots)
	clear(a.split)
	clear(a.open)
	// States still held back were not put in because a put panicked: the
	// next batch must not put them in.
	a.held.reset()
	b := a.batchBuffers
	*a = applier{keyBuffers: a.keyBuffers, batchBuffers: batchBuffers{
		events: b.events[:0], keyBuf: b.keyBuf[:0], keyEnds: b.keyEnds[:0],
		order: b.order[:0], sorted: b.sorted[:0], groups: b.groups[:0],
	}}
	appliers.Put(a)
}

// eventSeqs are an event's sequence values as order-preserving encodings,
// which compare as the values do: the log key suffix (suffix) is seq then
// sys (sys empty but for BITEMPORAL flows).
type eventSeqs struct{ seq, sys, suffix []byte }

// encodeSeqs encodes the sequence values of a key's events into a.seqs.
func (a *applier) encodeSeqs(events []temporal.Event) error {
	a.seqBuf, a.seqs = a.seqBuf[:0], a.seqs[:0]
	// Where each event's encodings end (its sequence's, then its system
	// sequence's), as the buffer may move as it grows.
	a.ends = a.ends[:0]
	for _, e := range events {
		var err error
		if a.seqBuf, err = encodeSeq(a.seqBuf, []types.Value(e.Seq)); err != nil {
			return err
		}
		seqEnd := len(a.seqBuf)
		if e.SysSeq != nil {
			if a.seqBuf, err = encodeSeq(a.seqBuf, []types.Value(e.SysSeq)); err != nil {
				return err
			}
		}
		a.ends = append(a.ends, seqEnd, len(a.seqBuf))
	}
	start, b := 0, a.seqBuf
	for i := 0; i < len(a.ends); i += 2 {
		seq, sys := a.ends[i], a.ends[i+1]
		a.seqs = append(a.seqs, eventSeqs{seq: b[start:seq:seq], sys: b[seq:sys:sys], suffix: b[start:sys:sys]})
		start = sys
	}
	return nil
}

// encodeValues encodes the data values of a key's events (vals[i][j] is
// event i's value j, as a stored row holds it).
func (a *applier) encodeValues(events []temporal.Event) error {
	a.valBuf, a.vals, a.valSlots = a.valBuf[:0], a.vals[:0], a.valSlots[:0]
	width := len(a.f.DataAttnums)
	a.ends = a.ends[:0]
	for _, e := range events {
		for j := range width {
			var v types.Value
			if j < len(e.Values) {
				v = e.Values[j]
			}
			var err error
			if a.valBuf, err = rowcodec.AppendRowValue(a.valBuf, v); err != nil {
				return err
			}
			a.ends = append(a.ends, len(a.valBuf))
		}
	}
	off := 0
	for _, end := range a.ends {
		a.valSlots = append(a.valSlots, a.valBuf[off:end:end])
		off = end
	}
	for i := range events {
		a.vals = append(a.vals, a.valSlots[i*width:(i+1)*width:(i+1)*width])
	}
	return nil
}

// applyKey stores a key's new events and, when rewrite is set, brings its
// target rows up to date. New events that all come after the key's stored
// ones (events mostly arrive in order) continue the replay from the state
// the target's rows hold; any other batch, and a key's first, replays the
// key's whole history and replaces all its rows.
func (a *applier) applyKey(g *keyGroup, mark temporal.Seq, rewrite bool) error {
	f, log := a.f, a.log.log
	// Merge with no history sorts the batch, drops retries within it and
	// refuses conflicts within it.
	incoming, err := f.Rules.Merge(nil, g.events)
	if err != nil {
		return f.conflictError(err)
	}
	if err := a.encodeSeqs(incoming); err != nil {
		return err
	}
	known, at, cached := g.at.held.state(), g.at, g.at.holds()
	// A key new to the flow has no events in the log and no target rows:
	// nothing is looked up for it.
	isNew := !cached && a.cacheWhole
	if f.StoredAs == catalog.Bitemporal {
		if cached && rewrite && a.laterOnBothAxes(known) {
			for i, e := range incoming {
				if err := a.log.append(g.encKey, e, a.seqs[i].suffix, nil); err != nil {
					return err
				}
			}
			next, err := f.continueBitemporal(a.target, g.encKey, incoming, known, a.st)
			if err == nil {
				next.lastSeq = a.seqs[len(a.seqs)-1].seq
				for _, s := range a.seqs {
					if next.lastSysSeq == nil || bytes.Compare(s.sys, next.lastSysSeq) > 0 {
						next.lastSysSeq = s.sys
					}
				}
				a.putState(g.encKey, at, next)
			}
			return err
		}
	} else {
		lastSeq := known.lastSeq
		if !cached && !isNew {
			lastSeq = lastLogged(log, g.encKey)
		}
		// A key the log has no events of goes the slow way: its target
		// rows, if any, are not this flow's (a dropped flow left them, or
		// the table had them before this flow), and the rewrite replaces
		// them where a continuation would build on them.
		if lastSeq != nil && bytes.Compare(a.seqs[0].seq, lastSeq) > 0 {
			var vals [][][]byte
			if a.encodedSCD2(incoming) {
				if err := a.encodeValues(incoming); err != nil {
					return err
				}
				vals = a.vals
			}
			for i, e := range incoming {
				var v [][]byte
				if vals != nil {
					v = vals[i]
				}
				if err := a.log.append(g.encKey, e, a.seqs[i].suffix, v); err != nil {
					return err
				}
			}
			if !rewrite {
				return nil
			}
			var next keyState
			var from *keyState
			if cached {
				from = &known
			}
			switch {
			case f.StoredAs == catalog.SCD1:
				next, err = f.continueSCD1(a.target, g.encKey, incoming, mark, from, a.st)
			case vals != nil:
				next, err = a.continueSCD2Encoded(g.encKey, incoming, from)
				a.st.EncodedSCD2Keys++
			default:
				next, err = f.continueSCD2(a.target, g.encKey, incoming, from, a.st)
			}
			if err == nil {
				next.lastSeq = a.seqs[len(a.seqs)-1].seq
				a.putState(g.encKey, at, next)
			}
			return err
		}
	}
	var hist []temporal.Event
	if !isNew {
		if hist, err = loadHistory(log, g.encKey); err != nil {
			return err
		}
	}
	merged, err := f.Rules.Merge(hist, incoming)
	if err != nil {
		return f.conflictError(err)
	}
	if len(merged) == len(hist) {
		return nil // only retries: nothing changes
	}
	if err := f.appendNew(&a.log, g.encKey, hist, incoming); err != nil {
		return err
	}
	if !rewrite {
		return nil
	}
	lastKey, lastRow, err := f.rewriteKey(a.target, g.encKey, merged, mark, !isNew, a.st)
	if err != nil || a.cache == nil {
		return err
	}
	if err := a.encodeSeqs(merged); err != nil {
		return err
	}
	ks := keyState{lastSeq: a.seqs[len(a.seqs)-1].seq, lastKey: lastKey, lastRow: lastRow}
	if f.StoredAs == catalog.Bitemporal {
		for _, s := range a.seqs {
			if ks.lastSysSeq == nil || bytes.Compare(s.sys, ks.lastSysSeq) > 0 {
				ks.lastSysSeq = s.sys
			}
		}
	}
	a.putState(g.encKey, at, ks)
	return nil
}

// lookUpStates looks every key of the batch up in the flow's state cache
// before any is applied. The cache holds every recently touched key of the
// flow, far more than the CPU's caches, so each lookup and the first read
// of the entry it finds are cache misses; in a loop that does nothing else
// the CPU has several under way at once, where between two keys' work it
// would wait for each in turn. (A key's entry does not change before its
// own turn: each key is applied once per batch, and a Clear on the way
// only drops references, which put notices.)
func (a *applier) lookUpStates() {
	if a.cache == nil {
		return
	}
	var touch byte
	for i := range a.groups {
		g := &a.groups[i]
		g.at = a.cache.find(g.encKey)
		if g.at.holds() {
			touch ^= g.at.held.buf[0]
		}
	}
	a.touched = touch
}

// touchStates reads every cache line of the cached states of groups, the
// next few keys to apply, so that their misses are waited for together, on
// the goroutine about to apply them. lookUpStates's read of each state's
// first byte is not enough: it was made on the session's CPU, not the
// helper's, and by the time a batch's later keys come up the batch's own
// writes have pushed it out of the CPU's nearer caches (in a profile of the
// SCD TYPE 2 feed, comparing the first new sequence value with the cached
// last one took 150 ms of 3 s of samples without this, 10 ms with it, for
// 30 ms here).
func (a *applier) touchStates(groups []keyGroup) {
	touch := a.touched
	for i := range groups {
		if g := &groups[i]; g.at.holds() && len(g.at.held.buf) > 0 {
			buf := g.at.held.buf
			for j := 0; j < len(buf); j += 64 {
				touch ^= buf[j]
			}
			touch ^= buf[len(buf)-1]
		}
	}
	a.touched = touch
}

// laterOnBothAxes reports whether a key's new events (sorted, as Merge
// sorts them, with their encodings in a.seqs) come after everything the
// key has, in business and in system time, with system times not
// decreasing in business order: what ContinueBitemporal takes.
func (a *applier) laterOnBothAxes(known keyState) bool {
	if known.lastSeq != nil && bytes.Compare(a.seqs[0].seq, known.lastSeq) <= 0 {
		return false
	}
	for i, s := range a.seqs {
		if known.lastSysSeq != nil && bytes.Compare(s.sys, known.lastSysSeq) <= 0 {
			return false
		}
		if i > 0 && (bytes.Equal(a.seqs[i-1].seq, s.seq) || bytes.Compare(a.seqs[i-1].sys, s.sys) > 0) {
			return false
		}
	}
	return true
}

func (f *Flow) compareSystem(a, b temporal.Seq) int {
	if f.Rules.CompareSystem != nil {
		return f.Rules.CompareSystem(a, b)
	}
	return f.Rules.Compare(a, b)
}

// appendNew stores the events of incoming that hist does not have (both are
// sorted; an event of incoming with the identity of one in hist is a retry,
// Merge having refused any conflict).
func (f *Flow) appendNew(w *eventWriter, encKey []byte, hist, incoming []temporal.Event) error {
	i := 0
	for _, e := range incoming {
		for i < len(hist) && f.compareIdentity(hist[i], e) < 0 {
			i++
		}
		if i < len(hist) && f.compareIdentity(hist[i], e) == 0 {
			continue
		}
		seqs, err := appendSeqs(nil, e)
		if err != nil {
			return err
		}
		if err := w.append(encKey, e, seqs, nil); err != nil {
			return err
		}
	}
	return nil
}

func (f *Flow) compareIdentity(a, b temporal.Event) int {
	if c := f.Rules.Compare(a.Seq, b.Seq); c != 0 || a.SysSeq == nil || b.SysSeq == nil {
		return c
	}
	return f.compareSystem(a.SysSeq, b.SysSeq)
}

// validate refuses events the contract cannot order.
func (f *Flow) validate(ev Event) error {
	for i, v := range ev.Seq {
		if v == nil {
			what := "SEQUENCE BY value"
			if len(ev.Seq) > 1 {
				what = fmt.Sprintf("SEQUENCE BY field %d", i+1)
			}
			return pgerror.New(pgerror.NotNullViolation, "%s is NULL in a change event for flow \"%s\"", what, f.Name).
				WithHint("Every change event needs a sequence value to be ordered; the statement was not applied.")
		}
	}
	if f.StoredAs == catalog.Bitemporal {
		for _, v := range ev.SysSeq {
			if v == nil {
				return pgerror.New(pgerror.NotNullViolation, "SYSTEM SEQUENCE BY value is NULL in a change event for flow \"%s\"", f.Name)
			}
		}
	}
	if ev.Kind == Truncate {
		return nil
	}
	for i, v := range ev.Key {
		if v == nil {
			return pgerror.New(pgerror.NotNullViolation, "key column \"%s\" is NULL in a change event for flow \"%s\"", f.KeyNames[i], f.Name).
				WithHint("Only a TRUNCATE event may have NULL keys; the statement was not applied.")
		}
	}
	return nil
}

// encodeSeq appends the order-preserving encoding of a tuple: a KEYS tuple
// (the prefix of every log entry and target row of that key) or a sequence
// value.
func encodeSeq(dst []byte, seq []types.Value) ([]byte, error) {
	var err error
	for _, v := range seq {
		if dst, err = rowcodec.AppendKey(dst, v); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

func (f *Flow) conflictError(err error) error {
	ce, ok := err.(*temporal.ConflictError)
	if !ok {
		return err
	}
	keyVals := make([]string, len(ce.Key))
	for i, v := range ce.Key {
		keyVals[i] = fmt.Sprint(v)
		if v == nil {
			keyVals[i] = "null"
		}
	}
	seq := f.FormatSeq(ce.Seq)
	if ce.SysSeq != nil {
		seq += ", system sequence " + f.FormatSeq(ce.SysSeq)
	}
	return pgerror.New(pgerror.CardinalityViolation, "flow \"%s\" received two different change events for one key and sequence value", f.Name).
		WithDetail("Key (%s)=(%s) at sequence %s.", strings.Join(f.KeyNames, ", "), strings.Join(keyVals, ", "), seq).
		WithHint("Events for a key need distinct sequence values; an identical retry is accepted. The statement was not applied.")
}

// replayAll replays every key of the flow, after a truncate moved the
// mark: each key's rows are rewritten where they change. Every target row
// comes from some key's events, so visiting the histories visits every row.
// The cursor walks the log while rewriteKey writes only the target space.
func (f *Flow) replayAll(ctx context.Context, log *storage.Space, target *history.Table, mark temporal.Seq, st *Stats) error {
	ec := log.Cursor()
	var encKey []byte
	var hist []temporal.Event
	flush := func() error {
		if encKey == nil {
			return nil
		}
		_, _, err := f.rewriteKey(target, encKey, hist, mark, true, st)
		return err
	}
	for k, v := ec.First(); k != nil; k, v = ec.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if encKey == nil || !bytes.HasPrefix(k, encKey) {
			if err := flush(); err != nil {
				return err
			}
			n, err := f.keyPrefixLen(k)
			if err != nil {
				return err
			}
			encKey, hist = bytes.Clone(k[:n]), hist[:0]
		}
		e, err := decodeEvent(v)
		if err != nil {
			return err
		}
		hist = append(hist, e)
	}
	return flush()
}

// keyPrefixLen is the length of the KEYS tuple at the start of a log key.
func (f *Flow) keyPrefixLen(k []byte) (int, error) {
	rest := k
	for range f.KeyPositions {
		_, r, err := rowcodec.DecodeKey(rest)
		if err != nil {
			return 0, err
		}
		rest = r
	}
	return len(k) - len(rest), nil
}

// truncateMark reads the flow's latest truncate mark (nil if none).
func (f *Flow) truncateMark(tx *storage.Tx) (temporal.Seq, error) {
	sp := tx.Space(catalog.FlowSpace(f.OID, truncatePart))
	if sp == nil {
		return nil, nil
	}
	v := sp.Get([]byte("mark"))
	if v == nil {
		return nil, nil
	}
	vals, err := rowcodec.DecodeRow(v)
	if err != nil {
		return nil, err
	}
	return temporal.Seq(vals), nil
}

func (f *Flow) storeTruncateMark(tx *storage.Tx, mark temporal.Seq) error {
	sp := tx.Space(catalog.FlowSpace(f.OID, truncatePart))
	v, err := rowcodec.EncodeRow(nil, []types.Value(mark))
	if err != nil {
		return err
	}
	return sp.Put([]byte("mark"), v)
}
