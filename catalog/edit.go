package catalog

import (
	"encoding/binary"
	"encoding/json"
	"maps"

	"cdcdb/storage"
)

// Editor is a private, writable copy of a Snapshot inside one write
// transaction. Every change is written to the transaction at once, so it
// commits or rolls back with the data; Snapshot returns the edited catalog to
// install as the shared one after the commit.
type Editor struct {
	tx   *storage.Tx
	snap *Snapshot
}

// Edit starts editing a copy of s inside tx (a write transaction). The copy
// is shallow: objects are replaced, never mutated in place, so s stays valid
// for anyone still reading it.
func (s *Snapshot) Edit(tx *storage.Tx) (*Editor, error) {
	c := &Snapshot{
		gen:          generations.Add(1),
		Version:      s.Version + 1,
		nextOID:      s.nextOID,
		schemas:      make(map[OID]*Schema, len(s.schemas)),
		schemaByName: make(map[string]*Schema, len(s.schemaByName)),
		tables:       make(map[OID]*Table, len(s.tables)),
		flows:        make(map[OID]*Flow, len(s.flows)),
		connections:  make(map[OID]*Connection, len(s.connections)),
		sources:      make(map[OID]*Source, len(s.sources)),
		roles:        maps.Clone(s.roles),
		sequences:    maps.Clone(s.sequences),
	}
	for k, v := range s.schemas {
		c.schemas[k] = v
	}
	for k, v := range s.schemaByName {
		c.schemaByName[k] = v
	}
	for k, v := range s.tables {
		c.tables[k] = v
	}
	for k, v := range s.flows {
		c.flows[k] = v
	}
	for k, v := range s.connections {
		c.connections[k] = v
	}
	for k, v := range s.sources {
		c.sources[k] = v
	}
	e := &Editor{tx: tx, snap: c}
	if err := e.writeVersion(); err != nil {
		return nil, err
	}
	return e, nil
}

// Snapshot is the edited catalog. Keep using the Editor after calling it only
// if you are prepared for the returned Snapshot to change.
func (e *Editor) Snapshot() *Snapshot { return e.snap }

func (e *Editor) writeVersion() error {
	sp, err := catalogSpace(e.tx)
	if err != nil {
		return err
	}
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], e.snap.Version)
	return sp.Put([]byte(keyVersion), v[:])
}

// NewOID allocates an object identifier.
func (e *Editor) NewOID() (OID, error) {
	oid := e.snap.nextOID
	e.snap.nextOID++
	sp, err := catalogSpace(e.tx)
	if err != nil {
		return 0, err
	}
	var v [4]byte
	binary.BigEndian.PutUint32(v[:], e.snap.nextOID)
	return oid, sp.Put([]byte(keyNextOID), v[:])
}

func (e *Editor) put(prefix string, oid OID, v any) error {
	sp, err := catalogSpace(e.tx)
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return sp.Put(oidKey(prefix, oid), b)
}

func (e *Editor) del(prefix string, oid OID) error {
	sp, err := catalogSpace(e.tx)
	if err != nil {
		return err
	}
	return sp.Delete(oidKey(prefix, oid))
}

// PutSchema adds or replaces a schema.
func (e *Editor) PutSchema(sc *Schema) error {
	e.snap.gen = generations.Add(1)
	if old, ok := e.snap.schemas[sc.OID]; ok && old.Name != sc.Name {
		delete(e.snap.schemaByName, old.Name)
	}
	e.snap.schemas[sc.OID] = sc
	e.snap.schemaByName[sc.Name] = sc
	return e.put(prefSchema, sc.OID, sc)
}

// DropSchema removes a schema (its contents must already be gone).
func (e *Editor) DropSchema(oid OID) error {
	e.snap.gen = generations.Add(1)
	if old, ok := e.snap.schemas[oid]; ok {
		delete(e.snap.schemaByName, old.Name)
	}
	delete(e.snap.schemas, oid)
	return e.del(prefSchema, oid)
}

// PutTable adds or replaces a relation. Callers pass a new *Table (or a
// Clone), never one that a Snapshot already holds.
func (e *Editor) PutTable(t *Table) error {
	e.snap.gen = generations.Add(1)
	e.snap.tables[t.OID] = t
	return e.put(prefTable, t.OID, t)
}

// DropTable removes a relation from the catalog (its spaces are the
// caller's to drop).
func (e *Editor) DropTable(oid OID) error {
	e.snap.gen = generations.Add(1)
	delete(e.snap.tables, oid)
	return e.del(prefTable, oid)
}

// PutFlow adds or replaces a flow.
func (e *Editor) PutFlow(f *Flow) error {
	e.snap.gen = generations.Add(1)
	e.snap.flows[f.OID] = f
	return e.put(prefFlow, f.OID, f)
}

// DropFlow removes a flow and its counters.
func (e *Editor) DropFlow(oid OID) error {
	e.snap.gen = generations.Add(1)
	delete(e.snap.flows, oid)
	if err := e.del(prefStats, oid); err != nil {
		return err
	}
	return e.del(prefFlow, oid)
}

// Clone returns a deep copy of t, for editing.
func (t *Table) Clone() *Table {
	c := *t
	c.Columns = append([]Column(nil), t.Columns...)
	c.PrimaryKey = append([]int16(nil), t.PrimaryKey...)
	c.KeyColumns = append([]int16(nil), t.KeyColumns...)
	c.Constraints = append([]Constraint(nil), t.Constraints...)
	c.Indexes = append([]Index(nil), t.Indexes...)
	c.ExprIndexes = append([]ExprIndex(nil), t.ExprIndexes...)
	c.ACL = append([]ACLItem(nil), t.ACL...)
	if t.Options != nil {
		c.Options = make(map[string]string, len(t.Options))
		for k, v := range t.Options {
			c.Options[k] = v
		}
	}
	return &c
}

// EditMark is the edited catalog as it stood when a savepoint was set,
// for RollbackTo.
type EditMark struct {
	e    *Editor
	snap *Snapshot
}

// Mark keeps a copy of the edited catalog as it is now. The copy is
// shallow, as Edit's is: objects are replaced, never changed in place.
func (e *Editor) Mark() EditMark { return EditMark{e: e, snap: e.snap.copyMaps()} }

// RollbackTo makes the edited catalog what it was at m again, under a new
// generation (plans made meanwhile must not serve). The transaction's
// storage must be rolled back to the same point (storage.Tx.RollbackTo),
// as that is where the catalog's objects are written.
func (e *Editor) RollbackTo(m EditMark) {
	if m.e != e {
		panic("catalog: RollbackTo a mark of another editor")
	}
	e.snap = m.snap.copyMaps()
	e.snap.gen = generations.Add(1)
}

// copyMaps returns s with maps of its own, which an Editor may change.
func (s *Snapshot) copyMaps() *Snapshot {
	return &Snapshot{
		Version:      s.Version,
		nextOID:      s.nextOID,
		gen:          s.gen,
		schemas:      maps.Clone(s.schemas),
		schemaByName: maps.Clone(s.schemaByName),
		tables:       maps.Clone(s.tables),
		flows:        maps.Clone(s.flows),
		connections:  maps.Clone(s.connections),
		sources:      maps.Clone(s.sources),
		roles:        maps.Clone(s.roles),
	}
}
