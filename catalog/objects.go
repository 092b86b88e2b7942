package catalog

import (
	"strings"

	"cdcdb/types"
)

// OID is an object identifier, shared by every kind of object as in
// PostgreSQL's pg_class / pg_namespace / pg_type numbering.
type OID = uint32

// FirstUserOID is where OIDs of user objects start, as in PostgreSQL.
const FirstUserOID OID = 16384

// Well-known OIDs of built-in schemas, matching PostgreSQL 15.
const (
	PgCatalogNamespace         OID = 11
	PublicNamespace            OID = 2200
	InformationSchemaNamespace OID = 13000 // PostgreSQL's varies by install; clients look it up by name
	CdcdbNamespace             OID = 16383 // cdcdb's own system views (cdcdb.flows)
)

// Schema is a namespace.
type Schema struct {
	OID     OID    `json:"oid"`
	Name    string `json:"name"`
	Comment string `json:"comment,omitempty"`
	// System schemas are built in and cannot be dropped.
	System bool `json:"-"`
	// Owner is the owning role; 0 (a schema written before owners) means
	// the bootstrap superuser.
	Owner OID `json:"owner,omitempty"`
	// ACL holds USAGE ('U') and CREATE ('C') grants; nil until the first
	// GRANT or REVOKE, meaning PostgreSQL's default (package acl's SchemaACL).
	ACL []ACLItem `json:"acl,omitempty"`
}

// TableKind says what a relation is.
type TableKind string

// Relation kinds.
const (
	KindTable     TableKind = "table"
	KindStreaming TableKind = "streaming" // target of AUTO CDC flows; written only by flows
	KindView      TableKind = "view"
)

// Column is one column of a table. Attnum is stable for the life of the
// column and never reused, so stored rows are laid out by Attnum: a row's
// value for a column is at index Attnum-1 of the stored tuple.
type Column struct {
	Name    string  `json:"name"`
	Type    types.T `json:"type"`
	Attnum  int16   `json:"attnum"`
	NotNull bool    `json:"not_null,omitempty"`
	// Default is the default expression in SQL text, "" for none.
	Default string `json:"default,omitempty"`
	// Identity marks serial columns: Default then reads nextval of the
	// table's sequence named here.
	Sequence string `json:"sequence,omitempty"`
	// Identity is pg_attribute.attidentity: IdentityAlways or
	// IdentityByDefault for an identity column, whose Default then reads
	// nextval of the free-standing sequence its column owns; "" otherwise.
	Identity string `json:"identity,omitempty"`
	Comment  string `json:"comment,omitempty"`
	Dropped  bool   `json:"dropped,omitempty"`
}

// Constraint is a UNIQUE, CHECK or FOREIGN KEY constraint (the primary key
// is Table.PrimaryKey; NOT NULL lives on the column).
type Constraint struct {
	OID  OID    `json:"oid"`
	Name string `json:"name"`
	// Kind is "u" unique, "c" check, "f" foreign key, "p" primary key — the
	// letters of pg_constraint.contype.
	Kind    string  `json:"kind"`
	Columns []int16 `json:"columns,omitempty"` // attnums
	Check   string  `json:"check,omitempty"`   // CHECK expression text
	// Foreign key target.
	RefTable   OID     `json:"ref_table,omitempty"`
	RefColumns []int16 `json:"ref_columns,omitempty"`
	OnDelete   string  `json:"on_delete,omitempty"`
	OnUpdate   string  `json:"on_update,omitempty"`
	// Deferrable and InitiallyDeferred are a foreign key's timing
	// (pg_constraint.condeferrable, condeferred): a deferred one is checked
	// at commit (sql/foreignkey_deferred.go).
	Deferrable        bool `json:"deferrable,omitempty"`
	InitiallyDeferred bool `json:"initially_deferred,omitempty"`
	// Index is the OID of the index that enforces a unique or primary key
	// constraint.
	Index OID `json:"index,omitempty"`
}

// Index is a secondary index: its keys are the indexed columns followed by
// the row's storage key, in the space IndexSpace(OID).
type Index struct {
	OID     OID     `json:"oid"`
	Name    string  `json:"name"`
	Columns []int16 `json:"columns"` // attnums
	Desc    []bool  `json:"desc,omitempty"`
	Unique  bool    `json:"unique,omitempty"`
	Primary bool    `json:"primary,omitempty"`
}

// Table is a relation: a plain table, a streaming table or a view.
type Table struct {
	OID     OID       `json:"oid"`
	Schema  OID       `json:"schema"`
	Name    string    `json:"name"`
	Kind    TableKind `json:"kind"`
	Columns []Column  `json:"columns"`
	// PrimaryKey lists the attnums of the primary key; empty means rows are
	// keyed by a hidden row number.
	PrimaryKey     []int16      `json:"primary_key,omitempty"`
	PrimaryKeyName string       `json:"primary_key_name,omitempty"`
	PrimaryKeyOID  OID          `json:"primary_key_oid,omitempty"`
	Constraints    []Constraint `json:"constraints,omitempty"`
	Indexes        []Index      `json:"indexes,omitempty"`
	// ExprIndexes are the indexes on expressions or with a predicate
	// (exprindex.go).
	ExprIndexes []ExprIndex `json:"expr_indexes,omitempty"`
	// NextAttnum is the attnum the next added column gets.
	NextAttnum int16 `json:"next_attnum"`
	// ViewQuery is a view's defining query text.
	ViewQuery string `json:"view_query,omitempty"`
	// ViewSearchPath is the schemas, in order, that the view's unqualified
	// names were looked up in when it was created: its query is planned
	// again at each use, and must name the same relations whatever the
	// reading session's search_path (PostgreSQL binds them at creation).
	// Empty for views made before it was recorded: those use the reader's.
	ViewSearchPath []string `json:"view_search_path,omitempty"`
	Comment        string   `json:"comment,omitempty"`
	// Options are reloptions set by ALTER TABLE ... SET (k = v).
	Options map[string]string `json:"options,omitempty"`
	// StoredAs is the form of a flow target ("" for a table no flow
	// writes); set by the first flow into it.
	StoredAs StoredAs `json:"stored_as,omitempty"`
	// SchemaFromFlow is true for a streaming table declared without
	// columns: its first flow gives it its columns.
	SchemaFromFlow bool `json:"schema_from_flow,omitempty"`
	// KeyColumns are the attnums of a streaming table's flow KEYS: its rows'
	// storage keys begin with them, so a lookup by key reads only that key's
	// rows (its versions, in start order).
	KeyColumns []int16 `json:"key_columns,omitempty"`
	// RowType is the OID of the table's composite type in pg_type.
	RowType OID `json:"row_type"`
	// Source is the source (CREATE SOURCE) whose follower writes this
	// table, 0 for the tables users write.
	Source OID `json:"source,omitempty"`
	// Owner is the role that owns the table (its creator); 0 in a catalog
	// written before roles existed means the bootstrap superuser.
	Owner OID `json:"owner,omitempty"`
	// ACL holds the privileges granted on the table, nil when none was
	// ever granted or revoked (the owner's implicit rights only, as a NULL
	// relacl in PostgreSQL).
	ACL []ACLItem `json:"acl,omitempty"`
}

// LiveColumns returns the columns that are not dropped, in attnum order.
func (t *Table) LiveColumns() []Column {
	out := make([]Column, 0, len(t.Columns))
	for _, c := range t.Columns {
		if !c.Dropped {
			out = append(out, c)
		}
	}
	return out
}

// Column finds a live column by name (names are compared exactly: the
// parser has already folded unquoted names).
func (t *Table) Column(name string) (*Column, bool) {
	for i := range t.Columns {
		c := &t.Columns[i]
		if !c.Dropped && c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// ColumnByAttnum finds a column by attnum, dropped or not.
func (t *Table) ColumnByAttnum(attnum int16) *Column {
	for i := range t.Columns {
		if t.Columns[i].Attnum == attnum {
			return &t.Columns[i]
		}
	}
	return nil
}

// DataSpace is the storage space holding a table's rows.
func DataSpace(table OID) string { return "t/" + oidString(table) }

// IndexSpace is the storage space holding an index's entries.
func IndexSpace(index OID) string { return "i/" + oidString(index) }

// HistorySpace is the storage space holding a table's superseded row
// versions with their commit-time periods.
func HistorySpace(table OID) string { return "h/" + oidString(table) }

// FlowSpace is the storage space holding a flow's private state (its
// per-key event history), under the given suffix.
func FlowSpace(flow OID, part string) string { return "f/" + oidString(flow) + "/" + part }

func oidString(o OID) string {
	var b [10]byte
	i := len(b)
	if o == 0 {
		return "0"
	}
	for o > 0 {
		i--
		b[i] = byte('0' + o%10)
		o /= 10
	}
	return string(b[i:])
}

// FlowKind says what a flow reads.
type FlowKind string

const (
	FlowChanges    FlowKind = ""            // change events from a table (AUTO CDC)
	FlowSnapshot   FlowKind = "snapshot"    // whole copies of a table (AUTO CDC FROM SNAPSHOT)
	FlowChangeFeed FlowKind = "change feed" // a table's change feed (stream(cdcdb.table_changes))
)

// SnapshotVersioning says where a snapshot flow's versions come from.
type SnapshotVersioning string

const (
	// VersionByCommitTime: one snapshot per due point, versioned by the
	// commit time of the transaction taking it (no version clause).
	VersionByCommitTime SnapshotVersioning = "commit time"
	// VersionByQuery: WITH VERSION (query), Lakeflow's pull loop.
	VersionByQuery SnapshotVersioning = "with version"
	// VersionByColumn: VERSION BY expr over a table of labelled snapshots.
	VersionByColumn SnapshotVersioning = "version by"
)

// Flow is an AUTO CDC flow: it applies the rows written to Source to Target.
// A snapshot flow (Kind FlowSnapshot) compares whole snapshots instead; its
// Source is the first table its queries read (0 when they read none).
type Flow struct {
	OID    OID    `json:"oid"`
	Schema OID    `json:"schema"`
	Name   string `json:"name"`
	Source OID    `json:"source"`
	Target OID    `json:"target"`
	// Definition is the CREATE FLOW statement as written; the flow's
	// expressions are planned from it.
	Definition string `json:"definition"`
	// Owner is the role that created the flow; it writes the target with
	// the owner's rights. 0 in a catalog written before roles existed
	// means the bootstrap superuser.
	Owner OID `json:"owner,omitempty"`
	// Dialect names the sql/parse Dialect the definition was written in
	// ("postgres" or "databricks", as parse.DialectNamed reads them).
	Dialect    string   `json:"dialect,omitempty"`
	StoredAs   StoredAs `json:"stored_as"`
	Keys       []string `json:"keys"`
	SequenceBy string   `json:"sequence_by"`
	Once       bool     `json:"once,omitempty"`
	Comment    string   `json:"comment,omitempty"`
	CreatedAt  int64    `json:"created_at"` // unix microseconds
	// Kind says what the flow reads of Source: its rows as change events
	// (the default), whole snapshots, or its change feed.
	Kind FlowKind `json:"kind,omitempty"`
	// FeedStart is, for a change feed flow, the commit version its feed
	// starts at (stream(cdcdb.table_changes('t', start))): what a REFRESH
	// replays from.
	FeedStart int64 `json:"feed_start,omitempty"`
	// Versioning, TriggerOnUpdate and Reads describe a snapshot flow:
	// where its versions come from, whether a commit writing one of Reads
	// (every table its queries read, views expanded) takes a snapshot.
	Versioning      SnapshotVersioning `json:"versioning,omitempty"`
	TriggerOnUpdate bool               `json:"trigger_on_update,omitempty"`
	Reads           []OID              `json:"reads,omitempty"`
}

// ReadsTable reports whether a snapshot flow's queries read table t.
func (f *Flow) ReadsTable(t OID) bool {
	for _, r := range f.Reads {
		if r == t {
			return true
		}
	}
	return false
}

// FlowStats are a flow's running counters, stored apart from the flow so
// that applying events does not rewrite the catalog version.
type FlowStats struct {
	EventsApplied uint64 `json:"events_applied"`
	RowsUpserted  uint64 `json:"rows_upserted"`
	RowsDeleted   uint64 `json:"rows_deleted"`
	// LastSequence is the text form of the highest sequence value applied;
	// LastSequenceKey its order-preserving encoding, to compare with.
	LastSequence    string `json:"last_sequence,omitempty"`
	LastSequenceKey []byte `json:"last_sequence_key,omitempty"`
	LastAppliedAt   int64  `json:"last_applied_at,omitempty"` // unix microseconds
	// A snapshot flow's newest version applied (text), and what its last
	// snapshot did.
	LastVersion      string `json:"last_version,omitempty"`
	SnapshotInserted uint64 `json:"snapshot_inserted,omitempty"`
	SnapshotUpdated  uint64 `json:"snapshot_updated,omitempty"`
	SnapshotDeleted  uint64 `json:"snapshot_deleted,omitempty"`
}

// IsSystemSchemaName reports names clients may not create or drop.
func IsSystemSchemaName(name string) bool {
	return name == "pg_catalog" || name == "information_schema" || name == "cdcdb" || strings.HasPrefix(name, "pg_toast")
}
