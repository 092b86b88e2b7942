// Package spill keeps what one query holds in memory bounded: the
// server-wide memory budget every statement's accounted memory is drawn
// from (Budget, Account), and the operators' workspaces that go to
// temporary files past work_mem: an external merge sort (Sorter), a
// bounded top-N (TopN) and row files (RowFile) that hash aggregation
// partitions its input into.
//
// It must not import package sql (the plan nodes use it, not the other way
// round) nor know SQL's types beyond types.Value: the caller orders rows
// (a compare function over whole rows) and encodes them (a Codec, which
// is the row codec of the data file), so a row read back from a spill is
// the row written, value for value.
//
// How data passes: an operator makes an Account of the engine's Budget,
// grows it by what it keeps (ValueSize, RowSize estimate a row's bytes in
// Go's memory), and closes it when it is done. A Sorter takes rows with
// Add, keeps up to its work_mem of them, sorts and writes them as a run to
// a temporary file each time that fills, and Finish merges the runs (in
// passes of at most mergeFanIn files) into one ordered stream. Temporary
// files are unlinked as soon as they are made, so nothing is left behind
// by a crash, a cancel or a client that goes away.
//
// File map:
//
//	budget.go   Budget, Account, the 53200 error
//	size.go     ValueSize, RowSize: what a row costs in memory
//	rowfile.go  RowFile: rows appended to an unlinked temporary file, read back in order
//	sorter.go   Sorter: external merge sort, stable
//	topn.go     TopN: the first n rows of an order, in a heap of n
package spill
