package catalog

import (
	"sort"
)

// ConnectionKind is the kind of external system a connection reaches.
type ConnectionKind string

// ConnectionPostgres is a PostgreSQL server, followed through logical
// replication.
const ConnectionPostgres ConnectionKind = "postgres"

// Connection is where and how to reach an external system (CREATE
// CONNECTION). The password is stored here, in the database file, and
// nowhere else; no view shows it.
type Connection struct {
	OID      OID            `json:"oid"`
	Name     string         `json:"name"`
	Kind     ConnectionKind `json:"kind"`
	Host     string         `json:"host"`
	Port     int            `json:"port"`
	User     string         `json:"user"`
	Password string         `json:"password,omitempty"`
	Database string         `json:"database"`
	SSLMode  string         `json:"ssl_mode,omitempty"`
	// CreatedAt is in unix microseconds.
	CreatedAt int64 `json:"created_at"`
}

// Source follows tables of an external system into source tables (CREATE
// SOURCE). Its progress (the checkpoint its follower resumes from) is data,
// stored apart with WriteSourceCheckpoint, so that following does not
// rewrite the catalog version.
type Source struct {
	OID         OID    `json:"oid"`
	Name        string `json:"name"`
	Connection  OID    `json:"connection"`
	Publication string `json:"publication"`
	// Slot is the replication slot named in CREATE SOURCE, "" when the
	// follower makes one of its own.
	Slot   string        `json:"slot,omitempty"`
	Tables []SourceTable `json:"tables"`
	// CreatedAt is in unix microseconds.
	CreatedAt int64 `json:"created_at"`
}

// SourceTable is one upstream table of a source and the table it becomes.
type SourceTable struct {
	UpstreamSchema string `json:"upstream_schema"`
	UpstreamName   string `json:"upstream_name"`
	// Table is the source table's OID; its Source field names this source.
	Table OID `json:"table"`
}

// Connection finds a connection by name.
func (s *Snapshot) Connection(name string) (*Connection, bool) {
	for _, c := range s.connections {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// ConnectionByOID finds a connection by OID.
func (s *Snapshot) ConnectionByOID(oid OID) (*Connection, bool) {
	c, ok := s.connections[oid]
	return c, ok
}

// Connections lists every connection in OID order.
func (s *Snapshot) Connections() []*Connection {
	out := make([]*Connection, 0, len(s.connections))
	for _, c := range s.connections {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// Source finds a source by name.
func (s *Snapshot) Source(name string) (*Source, bool) {
	for _, src := range s.sources {
		if src.Name == name {
			return src, true
		}
	}
	return nil, false
}

// SourceByOID finds a source by OID.
func (s *Snapshot) SourceByOID(oid OID) (*Source, bool) {
	src, ok := s.sources[oid]
	return src, ok
}

// Sources lists every source in OID order.
func (s *Snapshot) Sources() []*Source {
	out := make([]*Source, 0, len(s.sources))
	for _, src := range s.sources {
		out = append(out, src)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// SourcesUsing lists the sources that follow through a connection.
func (s *Snapshot) SourcesUsing(conn OID) []*Source {
	var out []*Source
	for _, src := range s.Sources() {
		if src.Connection == conn {
			out = append(out, src)
		}
	}
	return out
}

// PutConnection adds or replaces a connection.
func (e *Editor) PutConnection(c *Connection) error {
	e.snap.gen = generations.Add(1)
	e.snap.connections[c.OID] = c
	return e.put(prefConnection, c.OID, c)
}

// DropConnection removes a connection (no source may use it).
func (e *Editor) DropConnection(oid OID) error {
	e.snap.gen = generations.Add(1)
	delete(e.snap.connections, oid)
	return e.del(prefConnection, oid)
}

// PutSource adds or replaces a source.
func (e *Editor) PutSource(src *Source) error {
	e.snap.gen = generations.Add(1)
	e.snap.sources[src.OID] = src
	return e.put(prefSource, src.OID, src)
}

// DropSource removes a source and its checkpoint (its tables are the
// caller's to drop).
func (e *Editor) DropSource(oid OID) error {
	e.snap.gen = generations.Add(1)
	delete(e.snap.sources, oid)
	if err := e.del(prefSourceCheckpoint, oid); err != nil {
		return err
	}
	return e.del(prefSource, oid)
}
