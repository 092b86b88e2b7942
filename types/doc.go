// Package types owns PostgreSQL's data types as cdcdb represents them: type
// OIDs and names, the Go value each type is held in, the text and binary
// formats clients read and write, comparison, and casts with PostgreSQL's rules.
//
// Values are plain Go values (see Value) so every layer can pass them around
// without wrappers. The package does no I/O and knows nothing of SQL statements,
// storage or the wire; those layers call it to turn bytes into values and back.
package types
