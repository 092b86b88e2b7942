package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The damage test: a file with known contents is damaged, 16 bytes at a
// time, at offsets across all of it - every kind of page bbolt has, every
// bucket's leaves, run blocks spanning pages, the log ring's live records,
// free pages - and each damaged copy is checked, opened, read back whole,
// closed (a checkpoint of what the open replayed) and opened and read
// again. Each case must end in exactly the right contents or an error that
// says the file is damaged (ErrCorrupt: Open refusing the file, or a read
// failing); never other contents, never a panic. CheckFile must find
// damage in every case whose open or reads did.
//
// The one exception is written down in ring.go: damage to the records of
// the last flush before a crash cannot be told from that flush cut short
// by the crash, and its commits may be missing.

// damageSeed picks the offsets; $CDCDB_DAMAGE_SEED replaces it, to look
// further.
const damageSeed = 20261207

// damageOptions make a file of many small pages and blocks, so that the
// blocks' B+tree has branch pages, and a small log ring that does not grow
// (so that a large record goes to the log bucket).
func damageOptions() Options {
	return Options{
		NoSync: true, pageSize: 4096, blockSize: 1024, checkpointChunk: 8 << 10,
		MemtableSize: 1 << 30, CheckpointAfterIdle: time.Hour, ringBytes: minRingBytes, ringMax: minRingBytes,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

// damageFile is the file the cases damage: its bytes, what it holds
// (full), what it holds with only the first n of its last flush's commits
// (partial[n]), and where those are in the file.
type damageFile struct {
	bytes             []byte
	full              state
	partial           []state
	lastFlush         [][2]int64 // file offsets [from, to) of the last flush's records
	pageSize, hiWater int64
}

// writeDamageFile writes the file: keyspaces as tables, their indexes,
// history and flows use them, written and rewritten across checkpoints and
// compactions (runs of many blocks, some larger than a page, with and
// without filters), a keyspace dropped, then commits only in the log (in
// the ring, one in the log bucket, the last ones sharing a flush) when the
// writer crashes.
func writeDamageFile(t *testing.T) *damageFile {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damage.db")
	db, err := Open(path, damageOptions())
	if err != nil {
		t.Fatal(err)
	}
	model := state{spaces: map[string]map[string]string{}, seqs: map[string]uint64{}}
	commit := func(fn func(tx *Tx, m state) error) {
		t.Helper()
		next := model.clone()
		if err := db.Update(func(tx *Tx) error { return fn(tx, next) }); err != nil {
			t.Fatal(err)
		}
		model = next
	}
	put := func(tx *Tx, m state, space, k, v string) error {
		sp, err := spaceOrCreate(tx, space)
		if err != nil {
			return err
		}
		if m.spaces[space] == nil {
			m.spaces[space] = map[string]string{}
		}
		m.spaces[space][k] = v
		return sp.Put([]byte(k), []byte(v))
	}
	del := func(tx *Tx, m state, space, k string) error {
		delete(m.spaces[space], k)
		return tx.Space(space).Delete([]byte(k))
	}
	settle := func() {
		t.Helper()
		db.checkpointAll(t)
		// Compactions and garbage, until the flusher is quiet.
		for quiet, last := time.Now(), db.Stats(); time.Since(quiet) < 300*time.Millisecond; time.Sleep(20 * time.Millisecond) {
			if now := db.Stats(); now.CompactionSteps != last.CompactionSteps || now.CheckpointSteps != last.CheckpointSteps {
				quiet, last = time.Now(), now
			}
		}
	}
	row := func(i, round int) string {
		return fmt.Sprintf(`{"id":%d,"name":"customer %d","city":"city %d","round":%d}`, i, i, i%97, round)
	}
	for round := range 4 {
		for batch := range 20 {
			commit(func(tx *Tx, m state) error {
				for j := range 25 {
					i := (batch*25 + j) * (round + 1) % 997
					k := fmt.Sprintf("k%05d", i)
					if err := put(tx, m, "t/16384", k, row(i, round)); err != nil {
						return err
					}
					if err := put(tx, m, "i/16390", fmt.Sprintf("city %d/%s", i%97, k), ""); err != nil {
						return err
					}
					if round > 0 && j%5 == 0 {
						if err := put(tx, m, "h/16384", fmt.Sprintf("%s@%d", k, round), row(i, round-1)); err != nil {
							return err
						}
					}
				}
				if batch%4 == 0 {
					// Values larger than a page: blocks of one entry, over
					// several pages.
					if err := put(tx, m, "f/16400/log", fmt.Sprintf("e%03d-%d", batch, round), strings.Repeat(strconv.Itoa(batch), 2500)); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if round == 1 {
			commit(func(tx *Tx, m state) error {
				for i := range 100 {
					k := fmt.Sprintf("k%05d", i*3)
					if _, ok := m.spaces["t/16384"][k]; ok {
						if err := del(tx, m, "t/16384", k); err != nil {
							return err
						}
					}
				}
				sp, err := spaceOrCreate(tx, "q/16384/1")
				if err != nil {
					return err
				}
				m.spaces["q/16384/1"] = map[string]string{}
				m.seqs["q/16384/1"] = 41
				if err := sp.SetSequence(41); err != nil {
					return err
				}
				return put(tx, m, "gone", "x", "y")
			})
		}
		if round == 2 {
			commit(func(tx *Tx, m state) error {
				delete(m.spaces, "gone")
				return tx.DropSpace("gone")
			})
		}
		commit(func(tx *Tx, m state) error {
			return put(tx, m, "catalog", fmt.Sprintf("table/%d", round), fmt.Sprintf(`{"oid":%d,"name":"table %d"}`, 16384+round, round))
		})
		settle()
	}
	// Commits only in the log: some in the ring, one too large for it
	// (the log bucket), and a last flush of several.
	for i := range 12 {
		commit(func(tx *Tx, m state) error {
			return put(tx, m, "t/16384", fmt.Sprintf("late%03d", i), row(i, 9))
		})
		if i == 5 {
			commit(func(tx *Tx, m state) error {
				return put(tx, m, "f/16400/log", "huge", strings.Repeat("h", 80<<10))
			})
		}
	}
	beforeLast := model.clone()
	lastKeys := []string{"last0", "last1", "last2"}
	commitInOneFlush(t, db, "t/16384", lastKeys, "in the last flush")
	model.spaces["t/16384"]["held"] = "in the last flush"
	for _, k := range lastKeys {
		model.spaces["t/16384"][k] = "in the last flush"
	}
	// The last flush's records (the held commit's flush is the one
	// before it): where they are in the file.
	segs, err := loadRingSegments(db.bolt)
	if err != nil {
		t.Fatal(err)
	}
	f := &damageFile{full: model, pageSize: int64(db.bolt.Info().PageSize)}
	live := db.ring.live
	last := live[len(live)-1].flushFirst
	for _, r := range live {
		if r.flushFirst == last {
			seg, within := ringSegmentAt(segs, r.pos)
			f.lastFlush = append(f.lastFlush, [2]int64{segs[seg].off + within, segs[seg].off + within + r.size})
		}
	}
	if len(f.lastFlush) != len(lastKeys) {
		t.Fatalf("the last flush has %d records, want %d", len(f.lastFlush), len(lastKeys))
	}
	// "held" is in the flush before, which is not the last.
	beforeLast.spaces["t/16384"]["held"] = "in the last flush"
	firstVersion := last
	db.crash()
	if f.bytes, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	// The states a crash cutting the last flush short leaves: its first
	// n records replayed, in version order.
	inVersion := cutRingRecord(t, path, ringRecord{pos: -1}, lastKeys...)
	f.partial = append(f.partial, beforeLast)
	for n := range lastKeys {
		next := f.partial[n].clone()
		for _, k := range lastKeys {
			if inVersion[k] == firstVersion+uint64(n) {
				next.spaces["t/16384"][k] = "in the last flush"
			}
		}
		f.partial = append(f.partial, next)
	}
	return f
}

// pageKind is what a page of the file is, for choosing where to damage.
type pageKind struct {
	id    int64
	kind  string
	pages int64
}

// damageTargets lists the file's pages by kind: bbolt's meta pages, its
// branch and leaf pages by the top-level bucket they are in (the log
// ring's segments are leaves of "logring" and their overflow), the
// overflow pages of values spanning several, and pages no tree uses (free,
// or past the last page in use).
func damageTargets(t *testing.T, f *damageFile, path string) map[string][]pageKind {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	w := &pageWalker{f: file, size: int64(len(f.bytes))}
	byKind := map[string][]pageKind{"meta": {{0, "meta", 1}, {1, "meta", 1}}}
	used := map[int64]bool{0: true, 1: true}
	w.visit = func(id uint64, flags uint16, pages int64, where string) {
		top := where
		if i := strings.Index(where, `"`); i >= 0 {
			top = where[i:]
			if j := strings.Index(top[1:], `"`); j >= 0 {
				top = top[:j+2]
			}
		}
		kind := map[uint16]string{boltBranchPage: "branch", boltLeafPage: "leaf"}[flags] + " " + top
		byKind[kind] = append(byKind[kind], pageKind{int64(id), kind, 1})
		for p := int64(id); p < int64(id)+pages; p++ {
			used[p] = true
		}
		if pages > 1 {
			over := "overflow of " + top
			byKind[over] = append(byKind[over], pageKind{int64(id) + 1, over, pages - 1})
		}
	}
	if err := w.walk(); err != nil {
		t.Fatal(err)
	}
	f.hiWater = int64(w.hiWater)
	for p := int64(2); p < int64(len(f.bytes))/f.pageSize; p++ {
		switch {
		case p >= f.hiWater:
			byKind["past the last page"] = append(byKind["past the last page"], pageKind{p, "past the last page", 1})
		case !used[p]:
			byKind["free"] = append(byKind["free"], pageKind{p, "free", 1})
		}
	}
	return byKind
}

// damageCase is one case: 16 bytes at off changed (each XORed with a
// non-zero byte).
type damageCase struct {
	kind string
	off  int64
	xor  [16]byte
}

func (c damageCase) String() string {
	return fmt.Sprintf("%s, offset %d (page %d)", c.kind, c.off, c.off/4096)
}

// touches reports whether the case changes a byte in [from, to).
func (c damageCase) touches(from, to int64) bool { return c.off < to && c.off+16 > from }

// damageCases picks the cases: for each kind of page, pages of it and
// offsets in them (some at the page's header), and offsets in the log
// ring's live records and in its last flush.
func damageCases(rng *rand.Rand, f *damageFile, byKind map[string][]pageKind, perKind int) []damageCase {
	var cases []damageCase
	add := func(kind string, off int64) {
		c := damageCase{kind: kind, off: min(off, int64(len(f.bytes))-16)}
		for i := range c.xor {
			c.xor[i] = byte(1 + rng.IntN(255))
		}
		cases = append(cases, c)
	}
	kinds := make([]string, 0, len(byKind))
	for kind := range byKind {
		kinds = append(kinds, kind)
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		pages := byKind[kind]
		for i := range perKind {
			p := pages[rng.IntN(len(pages))]
			start := p.id * f.pageSize
			switch {
			case i%4 == 0 && !strings.HasPrefix(kind, "overflow"):
				add(kind, start+int64(rng.IntN(16))) // the page's header
			default:
				add(kind, start+rng.Int64N(p.pages*f.pageSize))
			}
		}
	}
	for i := range perKind {
		r := f.lastFlush[i%len(f.lastFlush)]
		add("the last flush's records", r[0]+rng.Int64N(r[1]-r[0]))
	}
	return cases
}

// damageOutcome is what a case came to.
type damageOutcome int

const (
	outcomeExact damageOutcome = iota
	outcomeExactBeforeLastFlush
	outcomeRefused
	outcomeReadFailed
)

// TestDamageIsFoundNeverServed runs the damage test (above).
func TestDamageIsFoundNeverServed(t *testing.T) {
	seed := uint64(damageSeed)
	if s := os.Getenv("CDCDB_DAMAGE_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (CDCDB_DAMAGE_SEED=%d go test ./storage -run TestDamageIsFoundNeverServed runs these cases again)", seed, seed)
	f := writeDamageFile(t)
	dir := t.TempDir()
	pristine := filepath.Join(dir, "pristine.db")
	if err := os.WriteFile(pristine, f.bytes, 0o600); err != nil {
		t.Fatal(err)
	}
	byKind := damageTargets(t, f, pristine)
	var kinds []string
	for kind, pages := range byKind {
		kinds = append(kinds, fmt.Sprintf("%s: %d", kind, len(pages)))
	}
	slices.Sort(kinds)
	t.Logf("the file's %d pages, by kind: %s", len(f.bytes)/int(f.pageSize), strings.Join(kinds, "; "))
	// The file as it is reads exactly, and checks clean.
	if got := runDamageCase(t, f, pristine); got != outcomeExact {
		t.Fatalf("the undamaged file: outcome %d", got)
	}
	perKind := 24
	if raceDetector {
		perKind = 4 // (the race detector makes each case ten times slower)
	}
	cases := damageCases(rand.New(rand.NewPCG(seed, 40)), f, byKind, perKind)
	counts := map[damageOutcome]int{}
	var mu sync.Mutex
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("case%d.db", i))
		damaged := bytes.Clone(f.bytes)
		for j, x := range c.xor {
			damaged[c.off+int64(j)] ^= x
		}
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("%03d", i), func(t *testing.T) {
			t.Logf("damage: %s", c)
			got := runDamageCase(t, f, path)
			if got == outcomeExactBeforeLastFlush && !c.touchesAny(f.lastFlush) {
				t.Errorf("%s: the last flush's commits are missing, and the damage is not in its records", c)
			}
			mu.Lock()
			counts[got]++
			mu.Unlock()
		})
		os.Remove(path)
	}
	t.Logf("%d cases: %d read exactly, %d exactly without the last flush, %d refused at open, %d failed a read",
		len(cases), counts[outcomeExact], counts[outcomeExactBeforeLastFlush], counts[outcomeRefused], counts[outcomeReadFailed])
}

func (c damageCase) touchesAny(extents [][2]int64) bool {
	for _, e := range extents {
		if c.touches(e[0], e[1]) {
			return true
		}
	}
	return false
}

// runDamageCase checks, opens and reads the file at path, then closes it,
// opens it again and reads it again, failing t on a panic, on contents
// other than f's, or on an error that is not the file's damage.
func runDamageCase(t *testing.T, f *damageFile, path string) (outcome damageOutcome) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v", r)
		}
	}()
	report, err := CheckFile(path)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	checked := len(report.Problems) == 0
	outcome = outcomeExact
	for restart := range 2 {
		db, err := Open(path, damageOptions())
		if err != nil {
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Fatalf("open %d: %v, not a damaged file's error naming it", restart, err)
			}
			if restart == 0 {
				outcome = outcomeRefused
			}
			break
		}
		got, err := readWhole(db)
		closeErr := db.Close()
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("read %d: %v, not a damaged file's error", restart, err)
			}
			if restart == 0 {
				outcome = outcomeReadFailed
			}
			continue
		}
		switch {
		case got.equal(f.full):
		case slices.ContainsFunc(f.partial, got.equal) && outcome != outcomeReadFailed:
			outcome = outcomeExactBeforeLastFlush
		default:
			t.Fatalf("read %d: wrong contents (a read's error: %v): %s", restart, err, got.diff(f.full))
		}
		if closeErr != nil && !errors.Is(closeErr, ErrCorrupt) {
			t.Fatalf("close %d: %v", restart, closeErr)
		}
	}
	if outcome == outcomeRefused || outcome == outcomeReadFailed {
		if checked {
			t.Errorf("the damage failed the open or a read, but the check found none")
		}
	}
	return outcome
}

// readWhole reads every keyspace of db whole: each entry through a cursor
// both ways and through Get, and each sequence.
func readWhole(db *DB) (got state, err error) {
	got = state{spaces: map[string]map[string]string{}, seqs: map[string]uint64{}}
	err = db.View(func(tx *Tx) error {
		for _, name := range tx.Spaces("") {
			sp := tx.Space(name)
			kv := map[string]string{}
			c := sp.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				kv[string(k)] = string(v)
			}
			n := 0
			for k, v := c.Last(); k != nil; k, v = c.Prev() {
				if kv[string(k)] != string(v) {
					return fmt.Errorf("keyspace %s: walking back, %q holds %.20q, forward %.20q", name, k, v, kv[string(k)])
				}
				n++
			}
			if n != len(kv) {
				return fmt.Errorf("keyspace %s: %d entries walking back, %d forward", name, n, len(kv))
			}
			for k, v := range kv {
				if got := sp.Get([]byte(k)); string(got) != v {
					return fmt.Errorf("keyspace %s: Get(%q) = %.20q, the cursor %.20q", name, k, got, v)
				}
			}
			got.spaces[name] = kv
			if seq := sp.Sequence(); seq != 0 {
				got.seqs[name] = seq
			}
		}
		return nil
	})
	return got, err
}

func (s state) equal(o state) bool { return s.diff(o) == "" }

// diff describes how s differs from want ("" when it does not).
func (s state) diff(want state) string {
	for name, kv := range want.spaces {
		have, ok := s.spaces[name]
		if !ok {
			return fmt.Sprintf("keyspace %s is missing", name)
		}
		for k, v := range kv {
			if h, ok := have[k]; !ok || h != v {
				return fmt.Sprintf("keyspace %s: %q holds %.30q (there: %v), want %.30q", name, k, h, ok, v)
			}
		}
		for k := range have {
			if _, ok := kv[k]; !ok {
				return fmt.Sprintf("keyspace %s: %q is there, and should not be", name, k)
			}
		}
		if s.seqs[name] != want.seqs[name] {
			return fmt.Sprintf("keyspace %s: sequence %d, want %d", name, s.seqs[name], want.seqs[name])
		}
	}
	for name := range s.spaces {
		if _, ok := want.spaces[name]; !ok {
			return fmt.Sprintf("keyspace %s is there, and should not be", name)
		}
	}
	return ""
}
