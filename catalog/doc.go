// Package catalog owns the database's metadata: schemas, tables (plain and
// streaming), columns, constraints, indexes, views and AUTO CDC flows, and the
// object identifiers (OIDs) clients see for them.
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
// The catalog knows nothing of SQL text beyond the expressions it stores as
// strings (column defaults, check constraints, flow definitions); parsing and
// planning them is the sql package's job.
package catalog
