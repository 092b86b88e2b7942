// Package catalog owns the database's metadata: schemas, tables (plain and
// streaming), columns, constraints, indexes, views, AUTO CDC flows, and the
// connections and sources that follow external systems (sources.go), and
// the object identifiers (OIDs) clients see for them. A connection's
// password is stored here; no view shows it. Roles (roles.go) are stored
// here too, with their SCRAM-SHA-256 verifiers (never a password), their
// memberships and default privileges; tables and schemas carry their owner
// and ACL; the bootstrap superuser exists in every catalog, stored or not.
//
// Progress is data, not metadata: flow counters and each source's
// checkpoint live in the catalog space beside the objects, written in the
// transaction of the data they describe, without a new catalog version.
//
// Metadata lives in the same storage file as the data, in the space named
// "catalog", one JSON document per object, so a DDL statement commits or rolls
// back with the data it touches. In memory the catalog is an immutable
// Snapshot: readers share one, and a DDL statement edits a private copy
// (Snapshot.Edit) that becomes the shared one only when its transaction
// commits; Editor.Mark and Editor.RollbackTo take an edit back to a
// savepoint, beside storage's own rollback to a mark. A version counter stored beside the objects tells a reader whether
// the cached snapshot matches the storage snapshot it reads.
//
// A Flow's Kind says whether it reads change events or snapshots; a snapshot
// flow records where its versions come from and the tables its queries read
// (FlowStats holds its newest version applied).
//
// The catalog knows nothing of SQL text beyond the expressions it stores as
// strings (column defaults, check constraints, flow definitions); parsing and
// planning them is the sql package's job.
package catalog
