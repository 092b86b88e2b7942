package sql

import (
	"context"
	"time"

	"cdcdb/catalog"
	"cdcdb/source"
	"cdcdb/types"
	"cdcdb/wire"
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

// CreateSourceForTest creates source name over tables, as CREATE SOURCE
// does once upstream described them, without starting a follower, and
// returns the source's Sink: tests feed it batches as a Follower would.
func CreateSourceForTest(e *Engine, name string, tables []source.Table) (source.Sink, error) {
	ctx := context.Background()
	sess, err := newSession(e, wire.StartupInfo{User: "cdcdb"})
	if err != nil {
		return nil, err
	}
	tx, err := e.beginTxn(ctx, sess, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	x := internalExecCtx(ctx, sess, tx)
	pc := x.planCtx()
	ed, err := tx.edit()
	if err != nil {
		return nil, err
	}
	conn := &catalog.Connection{Name: name + "_connection", Kind: catalog.ConnectionPostgres, Host: "upstream", User: "u", Database: "d"}
	if conn.OID, err = ed.NewOID(); err != nil {
		return nil, err
	}
	if err := ed.PutConnection(conn); err != nil {
		return nil, err
	}
	src := &catalog.Source{Name: name, Connection: conn.OID, Publication: "pub"}
	if src.OID, err = ed.NewOID(); err != nil {
		return nil, err
	}
	schema, _ := pc.cat.Schema("public")
	for _, ut := range tables {
		t, err := x.newSourceTable(pc, schema, src, ut)
		if err != nil {
			return nil, err
		}
		src.Tables = append(src.Tables, catalog.SourceTable{UpstreamSchema: ut.Upstream.Schema, UpstreamName: ut.Upstream.Name, Table: t.OID})
	}
	if err := ed.PutSource(src); err != nil {
		return nil, err
	}
	if err := tx.commit(); err != nil {
		return nil, err
	}
	return &sourceSink{e: e, oid: src.OID, name: name, sess: sess}, nil
}

// SpillsMade reads how many operators have gone to temporary files past
// work_mem (memory.go).
func SpillsMade() int64 { return spillsMade.Load() }
