// Package copyfmt reads and writes the data of COPY in its three formats,
// text, CSV and binary, as PostgreSQL 15 does.
//
// # What it owns
//
// The COPY options that shape the data (FORMAT, DELIMITER, NULL, QUOTE,
// ESCAPE, HEADER and HEADER MATCH, FORCE_QUOTE, FORCE_NOT_NULL, FORCE_NULL,
// ENCODING): parsing them and refusing, with PostgreSQL's SQLSTATE and
// message, the ones that do not fit the format or the direction. Reading:
// cutting incoming COPY data, which arrives in chunks that split lines
// anywhere, into rows of fields (text and CSV: strings, nil for NULL;
// binary: values of the columns' types), with text COPY's backslash
// escapes, CSV's quoting, the end-of-data marker \. and PostgreSQL's line
// numbering for errors. Writing: the header line or binary signature, one
// row of fields, and the binary trailer.
//
// # What it must not do
//
// It knows nothing of tables, sessions or transactions: it never imports
// cdcdb/sql (nor the catalog), and it does no I/O of its own. The sql
// package binds the statement (which table, which columns, privileges),
// turns text fields into values with the session's settings, writes rows
// and speaks to wire; it hands this package column names and types only.
//
// # How data passes
//
// ParseOptions turns the statement's option list into Options; CheckForced
// and ResolveForced fit the CSV column options to the direction and to the
// columns copied. COPY FROM: ReadText or ReadBinary pull chunks from a
// ChunkReader (wire's CopyReader is one) and call back once per row; the
// fields passed are valid only until the callback returns. COPY TO: the
// Append functions append to a byte slice that the caller sends as one
// CopyData message per row, as PostgreSQL does.
//
// # Files
//
//	options.go      Format, Options: parsing and checking the options
//	read_text.go    text and CSV rows out of chunks: lines, escapes, quoting
//	read_binary.go  binary rows out of chunks: signature, fields, trailer
//	write.go        header, rows and trailer appended for COPY TO
//	copyfmt_test.go the formats' edge cases, read in every chunking
package copyfmt
