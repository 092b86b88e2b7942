package sql

import (
	"time"

	"cdcdb/catalog"
	"cdcdb/types"
)

// SpoolsJoined reads how many COPY statements stored their source rows
// through a sourceSpool (sourcespool.go).
func SpoolsJoined() int64 { return spoolsJoined.Load() }

// SetRowsWrittenAhead sets the function each COPY's put ahead is given
// (copyahead.go); nil stops it.
func SetRowsWrittenAhead(f func(key, value []byte)) { rowsWrittenAhead = f }

// PendingCopiesSpace is the keyspace of the COPYs written ahead.
const PendingCopiesSpace = pendingCopiesSpace

// FlowBatchSize is how many rows a statement gives its flows at once.
const FlowBatchSize = flowBatchSize

// EncodePendingCopy makes the key and value a COPY of tuples into table,
// committed at commitTS, writes ahead.
func EncodePendingCopy(table uint32, commitTS int64, tuples [][]types.Value) (key, value []byte, err error) {
	at := time.UnixMicro(commitTS).UTC()
	p := &pendingCopy{table: catalog.OID(table), commitTS: commitTS, txStart: at, stmtStart: at, tuples: tuples}
	value, err = p.encode()
	return p.key(), value, err
}

// FastPathsTaken reads how many of the session's statements went through a
// generic plan of their numbers, how many scans sent stored encodings, how
// many keys its flows continued on stored encodings, and how many of their
// batches they shared with a helper goroutine.
func (s *Session) FastPathsTaken() (numberedPlans, storedRowScans, encodedSCD2Keys, sharedBatches int) {
	f := s.fastPaths
	return f.numberedPlans, f.storedRowScans, f.encodedSCD2Keys, f.sharedBatches
}
