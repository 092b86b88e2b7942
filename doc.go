// Package cdcdb holds no code: it documents how the module's packages are
// layered, and its test (imports_test.go) enforces it.
//
// # Layers
//
// Every package belongs to one layer, and imports only packages of its own
// layer or of the layers below it, never of a layer above. From the bottom:
//
//	base       pgerror (SQLSTATE errors), types (PostgreSQL's types and
//	           codecs), temporal (pure SCD and period logic)
//	storage    storage: bytes in the one bbolt file
//	records    what is kept there: catalog (metadata), history (versions),
//	           acl (who holds which privilege, over the catalog)
//	flows      cdcexec: change events applied to targets in the write's
//	           transaction
//	protocol   wire: the PostgreSQL protocol; it knows a SQL session only
//	           through the interfaces it declares
//	front end  sql/ast, sql/parse, sql/pgdefs: text to syntax trees, and
//	           PostgreSQL's own definitions
//	sql parts  the packages split out of sql (sql/eval, sql/builtins,
//	           sql/copyfmt, sql/catalogviews), none of which imports sql
//	sql        sessions, binder, planner, executor, flows' DDL
//	harness    what tests drive the server with: sql/sqltest,
//	           storage/storagetest, pgtests and its pgserver and corpus
//	commands   cmd/cdcdb, cmd/cdcbench, sql/pgdefs/gen
//
// wire sits below sql although a client's bytes reach wire first: sql
// implements the interfaces wire declares, so the import points from sql
// down to wire, and wire never imports sql.
//
// On top of the layers, some packages promise more in their doc.go, and
// the test holds them to it: pgerror imports no cdcdb package and types
// only pgerror; temporal imports none and does no I/O and reads no clock;
// wire imports only pgerror; sql/parse only sql/ast and pgerror; only
// storage imports bbolt and only wire pgproto3; pgtests reaches the server
// only through the wire (and storage, to check a data file after the server
// has exited).
//
// Test files may import more: the harness layer from anywhere, any outside
// module (a test may be a pgproto3 client), and none of the narrower
// promises above apply to them, except pgtests's.
//
// # Adding a package
//
// A package the rules table (packageRules in imports_test.go) does not
// place fails the test, and so does an entry for a package that is gone:
// a new package gets one line there, naming its layer and, if its doc.go
// promises more, the narrower list of what it may import.
package cdcdb
