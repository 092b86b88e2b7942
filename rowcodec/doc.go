// Package rowcodec turns typed values into the bytes storage holds and
// back: the order-preserving key encoding (key.go), the row encoding
// (row.go), and readers of single values of an encoded row that decode
// nothing else (rowview.go). It owns both formats, which are on disk in
// every data file: a change to either is a change of the file format.
//
// It does no I/O and keeps no state: every function maps bytes and
// values to bytes and values. It must not import the packages above it
// (catalog, history, cdcexec, sql, wire); it imports types for the values
// and storage only for storage's error for damage, and storage does not
// import it (storage holds bytes and knows nothing of types).
//
// How data passes: the layers above build a key with AppendKey and
// AppendKeyDesc (and AppendKeyInt for a bare integer) and a row with
// EncodeRow, or AppendRowHeader then AppendRowValue per value, and hand
// the bytes to a storage Tx; they read back with DecodeKey, KeyPrefix,
// DecodeRow and DecodeRowInto, or with SplitRow, RowValuePair and the
// RowValue readers when they want one or two values of a row without
// decoding the rest. Bytes that do not decode are damage to the file:
// the error is a *storage.CorruptError (errors.Is(err, storage.ErrCorrupt)
// holds), which the layers above report as XX001 naming the table.
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
// (numeric scale, interval fields). Decoded values never alias the input,
// so a row may be decoded from bytes a storage Tx lends until it ends; the
// values of SplitRow and RowValuePair do alias it.
//
// Tests: codec_test.go holds the encodings to types.Compare and to round
// trips (with fuzzing of both decoders), rowview_test.go holds the
// readers to DecodeRow, and format_test.go holds both formats to the bytes
// recorded in testdata/format.txt, so that no change of them goes
// unnoticed; rowcodectest.RowSamples gives tests elsewhere a value of every
// kind the row format knows.
package rowcodec
