// Package storage owns cdcdb's one bbolt file: keyspaces (one bbolt bucket
// each, nested under a single root bucket), transactions, the order-preserving
// key encoding and the row codec.
//
// It is the only package that imports bbolt. It knows nothing of SQL, tables or
// catalogs: the layers above decide which keyspaces exist and what their keys
// and values mean, and build keys with AppendKey and rows with EncodeRow.
//
// How data passes through it: a caller opens a Tx (Begin, View or Update),
// reaches a Space by name, and reads or writes raw byte keys and values. A read
// Tx is a consistent snapshot; a write Tx sees its own writes and makes them
// visible to others only when Commit returns. Rollback discards everything the
// Tx did, so a failed statement leaves nothing behind.
//
// Lifetimes, as in bbolt: byte slices returned by Get and by cursors point into
// the memory-mapped file and are valid only until the Tx ends; copy them (or
// decode them with DecodeRow/DecodeKey, which copy) to keep them. Put copies its
// arguments, so callers may reuse their buffers.
//
// Concurrency, as in bbolt: any number of read transactions run at once with
// one write transaction. Begin(true) blocks while another write transaction is
// open. A commit that grows the file past its memory map (Options.MmapSize,
// 1 GiB by default) must remap it and waits for every open read transaction
// to end, so a goroutine should not hold a read transaction open while it
// commits a write transaction, and long-lived readers delay such a commit.
// A Tx must not be used from several goroutines at once.
//
// Durability: Commit fsyncs the file before returning unless the DB was opened
// with Options.NoSync (meant for tests).
//
// Keys: AppendKey and AppendKeyDesc encode a types.Value so that bytes.Compare
// of two encodings agrees with types.Compare of the values (reversed for
// Desc), NULL last ascending and first descending. Encodings are
// self-delimiting, so a composite key is the concatenation of its columns'
// encodings and compares column by column. Values that compare equal encode
// equal (1.0 and 1.00, -0 and 0, '1 mon' and '30 days'), which is what a
// unique index needs; DecodeKey therefore returns an equal value in a
// canonical form, and exact values live in the row.
//
// Rows: EncodeRow and DecodeRow store a row's values with a tag per value,
// so a row decodes without its schema and values keep their exact form
// (numeric scale, interval fields). Decoded values never alias the input.
//
// This package must not import sql/, catalog/, cdcexec/ or wire/.
package storage
