package storage

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Space is a keyspace: a sorted map from byte keys to byte values, valid for
// the life of the Tx that returned it. What it reads is the transaction's
// own changes (a writer's), then the memtable layers of its view, newest
// first, each as of the view's version, then the file's runs, newest first;
// the first of them that has a key decides its value (a tombstone: no
// value). The file's bucket says whether the keyspace exists and holds its
// sequence.
type Space struct {
	tx   *Tx
	name string
	gen  uint64
	src  spaceSources
	// bucket is the keyspace's bucket in the file, opened only for its
	// sequence (fileSequence); exists says whether the file has it.
	bucket *bolt.Bucket
	// fileRuns are the keyspace's runs in the file, newest first (when
	// src.file).
	fileRuns []*fileRun
	exists   bool
	// gets counts the Gets made through it (pointreads.go).
	gets int64
}

func (s *Space) resolve() {
	tx := s.tx
	s.gen = tx.gen
	var mine *txSpace
	if tx.ws != nil {
		mine = tx.ws.touched[s.name]
	}
	if mine == nil && tx.hidden != nil {
		tx.checkReadable(s.name)
	}
	s.src = resolveSpace(mine, tx.view, s.name)
	s.bucket, s.fileRuns = nil, nil
	if s.src.file {
		s.exists = tx.btx != nil && tx.db.fileSpaces.has(tx, s.name)
		if lost := tx.db.lostSpaces[s.name]; !s.exists && lost != nil {
			panic(lost) // see fileRunIter
		}
		if s.exists {
			runs, err := tx.db.fileRuns(tx.btx, s.name)
			if err != nil {
				panic(err) // corrupt; see fileRunIter
			}
			s.fileRuns = runs
		}
	} else {
		s.exists = s.src.exists
	}
}

// refresh resolves the sources again if they may have changed.
func (s *Space) refresh() {
	if s.tx.parked {
		s.tx.unpark()
	}
	if s.gen != s.tx.gen && !s.tx.closed {
		s.resolve()
	}
}

// mineTree is the writer's own tree of the keyspace (nil: none).
func (s *Space) mineTree() *memtree {
	if s.src.mine == nil {
		return nil
	}
	return s.src.mine.tree
}

// Name returns the keyspace's name.
func (s *Space) Name() string { return s.name }

// Get returns the value stored under key, or nil if there is none. The slice
// is valid only until the Tx ends and must not be modified.
func (s *Space) Get(key []byte) []byte {
	if s.tx.closed {
		return nil
	}
	s.refresh()
	s.gets++
	if t := s.mineTree(); t != nil {
		slabs := t.ar.slabs()
		if e, ok := t.get(slabs, key); ok {
			v, _ := entryValue(slabs, e)
			return v
		}
	}
	return s.tx.getIn(s.src.runs, s.fileRuns, key)
}

// getIn looks key up in memtable runs, then file runs, newest first: the
// first that has it decides (a tombstone: nil).
func (tx *Tx) getIn(runs []*memRun, fileRuns []*fileRun, key []byte) []byte {
	for _, r := range runs {
		if v, live, found := r.get(key); found {
			if !live {
				return nil
			}
			if v == nil {
				v = []byte{}
			}
			return v
		}
	}
	br := tx.blockReader()
	for _, r := range fileRuns {
		if v, live, found := r.get(&br, key); found {
			if !live {
				return nil
			}
			if v == nil {
				v = []byte{}
			}
			return v
		}
	}
	return nil
}

// Put stores value under key, replacing any previous value. It copies key and
// value, so the caller may reuse both buffers at once. A nil value is stored
// as an empty value.
func (s *Space) Put(key, value []byte) error {
	if err := s.tx.checkWrite(); err != nil {
		return err
	}
	if len(key) == 0 {
		return ErrKeyRequired
	}
	if len(key) > MaxKeySize {
		return ErrKeyTooLarge
	}
	if len(value) > MaxValueSize {
		return ErrValueTooLarge
	}
	if !s.live() {
		return fmt.Errorf("storage: put in %q: %w", s.name, ErrSpaceNotFound)
	}
	if st := s.src.mine; st != nil && st.tree != nil {
		// The transaction has its own state of the keyspace, which live
		// just resolved: write through it rather than find it by name
		// (touch, the write set and the log record: three map lookups).
		st.put(key, value)
		s.tx.rec.putIn(st, s.name, key, value)
		return nil
	}
	s.tx.touch(s.name)
	s.tx.ws.put(s.name, key, value)
	s.tx.rec.put(s.name, key, value)
	return nil
}

// Delete removes key. Deleting an absent key is not an error.
func (s *Space) Delete(key []byte) error {
	if err := s.tx.checkWrite(); err != nil {
		return err
	}
	if !s.live() {
		return fmt.Errorf("storage: delete in %q: %w", s.name, ErrSpaceNotFound)
	}
	if s.Get(key) == nil {
		return nil // nothing to hide: no tombstone needed
	}
	s.tx.touch(s.name)
	s.tx.ws.delete(s.name, key)
	s.tx.rec.delete(s.name, key)
	return nil
}

// live reports whether the keyspace still exists in its transaction.
func (s *Space) live() bool {
	s.refresh()
	return s.exists
}

// NextSequence increments and returns the keyspace's sequence counter, which
// starts at 0 (so the first call returns 1). The increment is part of the Tx:
// a rollback undoes it.
func (s *Space) NextSequence() (uint64, error) {
	if err := s.tx.checkWrite(); err != nil {
		return 0, err
	}
	n := s.tx.db.drawSequence(s.tx, s.name, s.Sequence())
	return n, s.SetSequence(n)
}

// Sequence returns the keyspace's sequence counter without changing it.
func (s *Space) Sequence() uint64 {
	if s.tx.closed {
		return 0
	}
	s.refresh()
	if m := s.src.mine; m != nil && m.hasSeq {
		return m.seq
	}
	if s.src.seqKnown {
		return s.src.seq
	}
	return s.fileSequence()
}

// fileSequence is the keyspace's sequence as the file's snapshot has it
// (its record, spacerec.go), when it is read from the file and there, and
// 0 when not. Like any read, it panics with the error on a damaged file.
func (s *Space) fileSequence() uint64 {
	defer boltPanicIsCorrupt("reading a keyspace's sequence")
	if s.bucket == nil && s.exists && s.src.file {
		if root := s.tx.rootBucket(); root != nil {
			s.bucket = root.Bucket([]byte(s.name))
		}
	}
	if s.bucket == nil {
		return 0
	}
	rec, err := readSpaceRecord(s.bucket, s.name)
	if err != nil {
		panic(err)
	}
	return rec.seq
}

// SetSequence sets the keyspace's sequence counter.
func (s *Space) SetSequence(v uint64) error {
	if err := s.tx.checkChange(); err != nil {
		return err
	}
	if !s.live() {
		return fmt.Errorf("storage: set sequence of %q: %w", s.name, ErrSpaceNotFound)
	}
	s.tx.touch(s.name)
	s.tx.ws.setSequence(s.name, v)
	s.tx.rec.setSequence(s.name, v)
	s.tx.db.noteSequence(s.name, v, false)
	return nil
}

// RestartSequence sets the keyspace's sequence counter to v even below
// numbers other transactions drew from it (a setval): the next
// NextSequence of any transaction returns v+1.
func (s *Space) RestartSequence(v uint64) error {
	if err := s.SetSequence(v); err != nil {
		return err
	}
	s.tx.db.noteSequence(s.name, v, true)
	return nil
}

// Count returns the number of keys. Unless they are all in one file run
// without tombstones, which counts them, it visits every key.
func (s *Space) Count() int {
	if s.tx.closed {
		return 0
	}
	s.refresh()
	if s.mineTree() == nil && len(s.src.runs) == 0 {
		switch {
		case len(s.fileRuns) == 0:
			return 0
		case len(s.fileRuns) == 1 && s.fileRuns[0].tombstones == 0:
			return s.fileRuns[0].entries
		}
	}
	n := 0
	c := s.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n
}

// Cursor returns a cursor over the keyspace, valid until the Tx ends.
func (s *Space) Cursor() *Cursor {
	c := &Cursor{s: s}
	c.build()
	return c
}
