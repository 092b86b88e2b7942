package storage

// spaceChanges remembers, for each keyspace a commit changed since the
// database was opened, the version of the last such commit, so that a
// transaction that read an older snapshot can learn whether what it read has
// changed since (the SQL layer's REPEATABLE READ and SERIALIZABLE checks).
// A keyspace missing from it has not changed since the database was opened;
// a dropped keyspace is forgotten, so that a session making and dropping
// temporary tables does not grow it without bound. Guarded by DB.mu.
type spaceChanges map[string]uint64

// note records that the commit at version changed the keyspaces ws touched.
func (c *spaceChanges) note(ws *writeSet, version uint64) {
	for name, ts := range ws.touched {
		if ts.unchanged() {
			continue
		}
		if ts.reset && !ts.exists {
			delete(*c, name)
			continue
		}
		if *c == nil {
			*c = spaceChanges{}
		}
		(*c)[name] = version
	}
}

// ChangedAfter reports whether a commit newer than version (a read
// transaction's Version) changed keyspace name: wrote to it, or dropped and
// made it again. It answers for the commits published so far, so a write
// transaction asking it sees every commit before its own, as no other can
// publish while it holds the writer slot. A keyspace dropped since is not
// reported (see spaceChanges).
func (tx *Tx) ChangedAfter(name string, version uint64) bool {
	tx.db.mu.Lock()
	defer tx.db.mu.Unlock()
	return tx.db.changes[name] > version
}

// GetCommitted is Get as the commits before this transaction left the
// keyspace: without the write transaction's own changes (for a read
// transaction, the same as Get). It lets a writer compare what it reads
// with an older snapshot without its own writes getting in the way.
func (s *Space) GetCommitted(key []byte) []byte {
	tx := s.tx
	if tx.closed {
		return nil
	}
	if tx.parked {
		tx.unpark()
	}
	src := resolveSpace(nil, tx.view, s.name)
	var fileRuns []*fileRun
	if src.file && tx.btx != nil && tx.db.fileSpaces.has(tx, s.name) {
		runs, err := tx.db.fileRuns(tx.btx, s.name)
		if err != nil {
			panic(err) // corrupt; see fileRunIter
		}
		fileRuns = runs
	}
	return tx.getIn(src.runs, fileRuns, key)
}

// WrittenKeys calls fn, in key order and once each, with every key the
// write transaction has put or deleted in keyspace name so far (its own and
// those of the forks it joined) and the value it put last (nil for a
// delete), so that a layer above can record what a commit changed without
// keeping its own list or reading the keys again. A keyspace the
// transaction made or dropped reports only the keys written since. fn must
// not write to the keyspace; key and value are valid only during the call.
func (tx *Tx) WrittenKeys(name string, fn func(key, value []byte) error) error {
	if tx.ws == nil {
		return nil
	}
	st, ok := tx.ws.touched[name]
	if !ok {
		return nil
	}
	runs := make([]*memRun, 0, 1+len(st.runs))
	if st.tree != nil && st.tree.count > 0 {
		runs = append(runs, runFromTree(st.tree))
	}
	runs = append(runs, st.runs...)
	if len(runs) == 0 {
		return nil
	}
	it := newMergedIter(runs)
	for it.first(); it.valid(); it.next() {
		v, live := it.value()
		if !live {
			v = nil
		}
		if err := fn(it.key(), v); err != nil {
			return err
		}
	}
	return nil
}
