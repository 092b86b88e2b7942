// Package types owns PostgreSQL's data types as cdcdb represents them: type
// OIDs, names and pg_type facts (Lookup, ByName, FormatType), the Go value
// each type is held in (see Value), the text formats (ParseText, FormatText)
// and binary formats (ParseBinary, AppendBinary) clients read and write,
// ordering (Compare) and casts with PostgreSQL's rules (Cast).
//
// Values are plain Go values so every layer can pass them around without
// wrappers. The package does no I/O and knows nothing of SQL statements,
// catalogs, storage or the wire; those layers call it to turn bytes into
// values and back. It must not import any other cdcdb package but pgerror.
//
// Errors are *pgerror.Error with PostgreSQL's SQLSTATE and wording, so the
// wire layer can pass them to clients unchanged. PostgreSQL 15 is the
// reference: the golden files under testdata were produced by a real server
// (see pgoracle_test.go for how to regenerate them), and binary formats are
// also checked against pgx's codecs.
//
// Where cdcdb differs from PostgreSQL, on purpose:
//   - Arrays have no lower bounds: '[0:1]={1,2}' is refused (0A000); '[1:2]='
//     decorations are accepted.
//   - reg* types (regclass, regtype, ...) read and print numeric OIDs only;
//     resolving names needs the catalog, which is the SQL layer's.
//   - Time zone abbreviations are a fixed common set (UTC, EST, PDT, CET,
//     ...); anything else must be an IANA zone name or a numeric offset.
//   - DateStyle is always ISO, MDY and IntervalStyle postgres, PostgreSQL's
//     defaults; extra_float_digits is always 1 (shortest exact floats).
//   - 'now', 'today', 'tomorrow' and 'yesterday' stand for Input.Now, which
//     the SQL layer sets to the transaction's start as PostgreSQL does; read
//     without one (ParseText, ParseTextIn) they read the clock.
//   - json and jsonb order as their text, bytewise.
package types
