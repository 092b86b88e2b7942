package catalog

import (
	"encoding/binary"
	"encoding/json"
	"sort"
	"sync/atomic"

	"cdcdb/pgerror"
	"cdcdb/storage"
)

// Space is the storage space the catalog lives in.
const Space = "catalog"

// Keys inside the catalog space. Objects are stored under a kind prefix and
// their OID so that loading reads them in OID order.
const (
	keyVersion = "version"
	keyNextOID = "next_oid"
	prefSchema = "s/"
	prefTable  = "t/"
	prefFlow   = "f/"
	prefStats  = "stats/"
	// Connections, sources and the sources' checkpoints.
	prefConnection       = "conn/"
	prefSource           = "src/"
	prefSourceCheckpoint = "srcpos/"
	prefRole             = "role/"
)

// Snapshot is an immutable view of the catalog at one version. Share it
// freely; change it only through Edit.
type Snapshot struct {
	Version uint64
	nextOID OID
	// gen identifies this snapshot's contents within the process: every
	// snapshot made and every edit gets a new one. Version alone does not:
	// an uncommitted version number is reused after a rollback, and the
	// statements of one transaction all edit the same version.
	gen uint64

	schemas      map[OID]*Schema
	schemaByName map[string]*Schema
	tables       map[OID]*Table
	flows        map[OID]*Flow
	connections  map[OID]*Connection
	sources      map[OID]*Source
	roles        map[OID]*Role
	sequences    map[OID]*Sequence // sequences.go
}

// Empty returns the catalog of a new database: the built-in schemas only.
func Empty() *Snapshot {
	s := &Snapshot{
		gen:          generations.Add(1),
		nextOID:      FirstUserOID,
		schemas:      map[OID]*Schema{},
		schemaByName: map[string]*Schema{},
		tables:       map[OID]*Table{},
		flows:        map[OID]*Flow{},
		connections:  map[OID]*Connection{},
		sources:      map[OID]*Source{},
		roles:        map[OID]*Role{BootstrapRoleOID: bootstrapRole()},
		sequences:    map[OID]*Sequence{},
	}
	for _, sc := range builtinSchemas() {
		s.schemas[sc.OID] = sc
		s.schemaByName[sc.Name] = sc
	}
	return s
}

var generations atomic.Uint64

// Generation identifies the snapshot's contents: two snapshots (or one
// snapshot before and after an edit) with the same generation are the same
// catalog. Plans compiled against a catalog check it, not Version.
func (s *Snapshot) Generation() uint64 { return s.gen }

func builtinSchemas() []*Schema {
	return []*Schema{
		{OID: PgCatalogNamespace, Name: "pg_catalog", System: true, Comment: "system catalog schema"},
		{OID: PublicNamespace, Name: "public", Comment: "standard public schema"},
		{OID: InformationSchemaNamespace, Name: "information_schema", System: true},
		{OID: CdcdbNamespace, Name: "cdcdb", System: true, Comment: "cdcdb system views"},
	}
}

// Schema finds a schema by name.
func (s *Snapshot) Schema(name string) (*Schema, bool) {
	sc, ok := s.schemaByName[name]
	return sc, ok
}

// SchemaByOID finds a schema by OID.
func (s *Snapshot) SchemaByOID(oid OID) (*Schema, bool) {
	sc, ok := s.schemas[oid]
	return sc, ok
}

// Schemas lists every schema in OID order.
func (s *Snapshot) Schemas() []*Schema {
	out := make([]*Schema, 0, len(s.schemas))
	for _, sc := range s.schemas {
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// Table finds a relation by schema OID and name.
func (s *Snapshot) Table(schema OID, name string) (*Table, bool) {
	for _, t := range s.tables {
		if t.Schema == schema && t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// TableByOID finds a relation by OID.
func (s *Snapshot) TableByOID(oid OID) (*Table, bool) {
	t, ok := s.tables[oid]
	return t, ok
}

// Tables lists every relation in OID order.
func (s *Snapshot) Tables() []*Table {
	out := make([]*Table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// Flow finds a flow by schema and name.
func (s *Snapshot) Flow(schema OID, name string) (*Flow, bool) {
	for _, f := range s.flows {
		if f.Schema == schema && f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// Flows lists every flow in OID order.
func (s *Snapshot) Flows() []*Flow {
	out := make([]*Flow, 0, len(s.flows))
	for _, f := range s.flows {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// FlowsFrom lists the flows that read a source table, in OID order.
func (s *Snapshot) FlowsFrom(source OID) []*Flow {
	var out []*Flow
	for _, f := range s.Flows() {
		if f.Source == source {
			out = append(out, f)
		}
	}
	return out
}

// FlowsFromOfKind lists the flows of one kind that read a table, in OID
// order: FlowChanges for the flows that take its rows as change events
// (which make it an append-only change log).
func (s *Snapshot) FlowsFromOfKind(source OID, kind FlowKind) []*Flow {
	var out []*Flow
	for _, f := range s.FlowsFrom(source) {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// FlowsInto lists the flows that write a target table, in OID order.
func (s *Snapshot) FlowsInto(target OID) []*Flow {
	var out []*Flow
	for _, f := range s.Flows() {
		if f.Target == target {
			out = append(out, f)
		}
	}
	return out
}

// Load reads the catalog from a storage transaction. A database with no
// catalog space yet gets the empty catalog (the space is created by the
// first edit).
func Load(tx *storage.Tx) (*Snapshot, error) {
	s := Empty()
	sp := tx.Space(Space)
	if sp == nil {
		return s, nil
	}
	if v := sp.Get([]byte(keyVersion)); len(v) == 8 {
		s.Version = binary.BigEndian.Uint64(v)
	}
	if v := sp.Get([]byte(keyNextOID)); len(v) == 4 {
		s.nextOID = binary.BigEndian.Uint32(v)
	}
	c := sp.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		key := string(k)
		var err error
		switch {
		case hasPrefix(key, prefSchema):
			sc := &Schema{}
			if err = json.Unmarshal(v, sc); err == nil {
				s.schemas[sc.OID] = sc
				s.schemaByName[sc.Name] = sc
			}
		case hasPrefix(key, prefTable):
			t := &Table{}
			if err = json.Unmarshal(v, t); err == nil {
				s.tables[t.OID] = t
			}
		case hasPrefix(key, prefFlow):
			f := &Flow{}
			if err = json.Unmarshal(v, f); err == nil {
				s.flows[f.OID] = f
			}
		case hasPrefix(key, prefConnection):
			c := &Connection{}
			if err = json.Unmarshal(v, c); err == nil {
				s.connections[c.OID] = c
			}
		case hasPrefix(key, prefRole):
			r := &Role{}
			if err = json.Unmarshal(v, r); err == nil {
				s.roles[r.OID] = r
			}
		case hasPrefix(key, prefSequence):
			q := &Sequence{}
			if err = json.Unmarshal(v, q); err == nil {
				s.sequences[q.OID] = q
			}
		case hasPrefix(key, prefSource):
			src := &Source{}
			if err = json.Unmarshal(v, src); err == nil {
				s.sources[src.OID] = src
			}
		}
		if err != nil {
			return nil, pgerror.New(pgerror.DataCorrupted, "catalog entry %q is corrupt: %v", key, err)
		}
	}
	return s, nil
}

// StoredVersion reads the catalog version a storage transaction sees,
// cheaply, so a cached Snapshot can be checked against it.
func StoredVersion(tx *storage.Tx) uint64 {
	sp := tx.Space(Space)
	if sp == nil {
		return 0
	}
	if v := sp.Get([]byte(keyVersion)); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

func oidKey(prefix string, oid OID) []byte {
	b := make([]byte, len(prefix)+4)
	copy(b, prefix)
	binary.BigEndian.PutUint32(b[len(prefix):], oid)
	return b
}

// ReadFlowStats reads a flow's counters (zero if none were stored yet).
func ReadFlowStats(tx *storage.Tx, flow OID) FlowStats {
	var st FlowStats
	sp := tx.Space(Space)
	if sp == nil {
		return st
	}
	if v := sp.Get(oidKey(prefStats, flow)); v != nil {
		_ = json.Unmarshal(v, &st) // counters only; a bad entry reads as zero
	}
	return st
}

// WriteFlowStats stores a flow's counters. It does not change the catalog
// version: counters are data, not metadata.
func WriteFlowStats(tx *storage.Tx, flow OID, st FlowStats) error {
	sp, err := catalogSpace(tx)
	if err != nil {
		return err
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return sp.Put(oidKey(prefStats, flow), b)
}

func catalogSpace(tx *storage.Tx) (*storage.Space, error) {
	if sp := tx.Space(Space); sp != nil {
		return sp, nil
	}
	return tx.CreateSpace(Space)
}

// ReadSourceCheckpoint returns a source's checkpoint as its follower
// encoded it, nil when none was written yet.
func ReadSourceCheckpoint(tx *storage.Tx, src OID) []byte {
	sp := tx.Space(Space)
	if sp == nil {
		return nil
	}
	if v := sp.Get(oidKey(prefSourceCheckpoint, src)); v != nil {
		return append([]byte(nil), v...)
	}
	return nil
}

// WriteSourceCheckpoint stores a source's checkpoint, in the transaction
// that writes the rows it describes. Like flow counters, it does not
// change the catalog version.
func WriteSourceCheckpoint(tx *storage.Tx, src OID, checkpoint []byte) error {
	sp, err := catalogSpace(tx)
	if err != nil {
		return err
	}
	return sp.Put(oidKey(prefSourceCheckpoint, src), checkpoint)
}
