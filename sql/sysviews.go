package sql

import (
	"strings"
	"time"

	"cdcdb/catalog"
	"cdcdb/source"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// cdcdb.flows: one row per AUTO CDC flow, with its progress.
func init() {
	ts := types.Of(types.Timestamptz)
	registerSystemTable(&systemTable{schema: "cdcdb", name: "flows", cols: []outCol{
		{name: "name", t: eval.TextT()}, {name: "source", t: eval.TextT()}, {name: "target", t: eval.TextT()},
		{name: "stored_as", t: eval.TextT()}, {name: "keys", t: types.Of(types.TextArray)}, {name: "sequence_by", t: eval.TextT()},
		{name: "events_applied", t: eval.Int8T()}, {name: "rows_upserted", t: eval.Int8T()}, {name: "rows_deleted", t: eval.Int8T()},
		{name: "last_sequence", t: eval.TextT()}, {name: "created_at", t: ts}, {name: "last_applied_at", t: ts},
		// The flow's kind (changes, snapshot, change feed); for snapshot
		// flows (spec §7) the newest version applied and what their last
		// snapshot inserted, updated and deleted.
		{name: "kind", t: eval.TextT()}, {name: "last_version", t: eval.TextT()},
		{name: "snapshot_inserted", t: eval.Int8T()}, {name: "snapshot_updated", t: eval.Int8T()}, {name: "snapshot_deleted", t: eval.Int8T()},
	}, rows: func(x *execCtx) ([]eval.Row, error) {
		cat := x.catalogOf()
		var rows []eval.Row
		for _, f := range cat.Flows() {
			st := catalog.ReadFlowStats(x.tx.st, f.OID)
			keys := types.ArrayValue{Elem: types.Text}
			for _, k := range f.Keys {
				keys.Elems = append(keys.Elems, k)
			}
			var last, applied types.Value
			if st.LastSequence != "" {
				last = st.LastSequence
			}
			if st.LastAppliedAt != 0 {
				applied = time.UnixMicro(st.LastAppliedAt).UTC()
			}
			// The kind as catalog names it ("snapshot", "change feed"),
			// "changes" for a flow of change events.
			kind := string(f.Kind)
			if f.Kind == catalog.FlowChanges {
				kind = "changes"
			}
			var lastVersion, inserted, updated, deleted types.Value
			if f.Kind == catalog.FlowSnapshot {
				if st.LastVersion != "" {
					lastVersion = st.LastVersion
				}
				inserted, updated, deleted = int64(st.SnapshotInserted), int64(st.SnapshotUpdated), int64(st.SnapshotDeleted)
			}
			rows = append(rows, eval.Row{f.Name, relationName(cat, f.Source), relationName(cat, f.Target), string(f.StoredAs), keys,
				f.SequenceBy, int64(st.EventsApplied), int64(st.RowsUpserted), int64(st.RowsDeleted), last,
				time.UnixMicro(f.CreatedAt).UTC(), applied, kind, lastVersion, inserted, updated, deleted})
		}
		return rows, nil
	}})
}

// cdcdb.storage: the storage engine's counters since the server started
// (one row), for operators watching commits, flushes, checkpoints and
// compactions. New columns go at the end, so queries by position keep
// working.
func init() {
	registerSystemTable(&systemTable{schema: "cdcdb", name: "storage", cols: []outCol{
		{name: "commits", t: eval.Int8T()}, {name: "flushes", t: eval.Int8T()},
		{name: "checkpoints", t: eval.Int8T()}, {name: "checkpoint_transactions", t: eval.Int8T()},
		{name: "checkpoint_seconds", t: types.Of(types.Float8)}, {name: "commit_wait_seconds", t: types.Of(types.Float8)},
		{name: "flush_seconds", t: types.Of(types.Float8)}, {name: "durable_wait_seconds", t: types.Of(types.Float8)},
		{name: "memtable_bytes", t: eval.Int8T()}, {name: "memtable_layers", t: eval.Int8T()},
		{name: "log_ring_flushes", t: eval.Int8T()}, {name: "log_ring_bytes", t: eval.Int8T()},
		{name: "compactions", t: eval.Int8T()}, {name: "compaction_transactions", t: eval.Int8T()},
		{name: "compaction_seconds", t: types.Of(types.Float8)},
		{name: "block_cache_hits", t: eval.Int8T()}, {name: "block_cache_misses", t: eval.Int8T()},
		{name: "block_cache_bytes", t: eval.Int8T()}, {name: "file_releases", t: eval.Int8T()},
		{name: "covered_commits", t: eval.Int8T()},
	}, rows: func(x *execCtx) ([]eval.Row, error) {
		st := x.sess.engine.db.Stats()
		return []eval.Row{{st.Commits, st.Flushes, st.Checkpoints, st.CheckpointSteps,
			st.CheckpointTime.Seconds(), st.FullWait.Seconds(), st.FlushTime.Seconds(), st.DurableWait.Seconds(),
			st.MemtableBytes, int64(st.Layers),
			st.RingFlushes, st.RingBytes, st.Compactions, st.CompactionSteps, st.CompactionTime.Seconds(),
			int64(st.BlockCacheHits), int64(st.BlockCacheMisses), st.BlockCacheBytes, st.FileReleases,
			st.CoveredCommits}}, nil
	}})
}

// relationName is schema.table, or just table in public.
func relationName(cat *catalog.Snapshot, oid catalog.OID) string {
	t, ok := cat.TableByOID(oid)
	if !ok {
		return ""
	}
	sc, _ := cat.SchemaByOID(t.Schema)
	if sc == nil || sc.Name == "public" {
		return t.Name
	}
	return strings.Join([]string{sc.Name, t.Name}, ".")
}

// cdcdb.sources: one row per source (CREATE SOURCE), with what its
// follower is doing. The connection's password is in no column.
func init() {
	ts := types.Of(types.Timestamptz)
	registerSystemTable(&systemTable{schema: "cdcdb", name: "sources", cols: []outCol{
		{name: "name", t: eval.TextT()}, {name: "connection", t: eval.TextT()}, {name: "publication", t: eval.TextT()},
		{name: "slot", t: eval.TextT()}, {name: "tables", t: types.Of(types.TextArray)},
		{name: "state", t: eval.TextT()}, {name: "position", t: eval.TextT()}, {name: "last_commit_time", t: ts},
		{name: "upstream_wal_end", t: eval.TextT()}, {name: "lag_bytes", t: eval.Int8T()},
		{name: "rows_received", t: eval.Int8T()}, {name: "transactions_received", t: eval.Int8T()},
		{name: "last_error", t: eval.TextT()}, {name: "last_error_time", t: ts},
	}, rows: func(x *execCtx) ([]eval.Row, error) {
		cat := x.catalogOf()
		var rows []eval.Row
		for _, src := range cat.Sources() {
			connName := ""
			if c, ok := cat.ConnectionByOID(src.Connection); ok {
				connName = c.Name
			}
			tables := types.ArrayValue{Elem: types.Text}
			for _, st := range src.Tables {
				tables.Elems = append(tables.Elems, relationName(cat, st.Table))
			}
			st, running := x.sess.engine.sources.status(src.OID)
			var cp source.Checkpoint
			if b := catalog.ReadSourceCheckpoint(x.tx.st, src.OID); b != nil {
				_ = cp.UnmarshalBinary(b) // a checkpoint it cannot read shows as none
			}
			state := source.StateStopped.String()
			if running {
				state = st.State.String()
			}
			var slot, position, walEnd, lastErr, commitTime, errTime types.Value
			if s := firstNonEmpty(st.Slot, cp.Slot); s != "" {
				slot = s
			}
			if p := max(st.Position, cp.Position); p != 0 {
				position = p.String()
			}
			if st.ServerWALEnd != 0 {
				walEnd = st.ServerWALEnd.String()
			}
			if !st.LastCommitTime.IsZero() {
				commitTime = st.LastCommitTime.UTC()
			}
			if st.LastError != "" {
				lastErr, errTime = st.LastError, st.LastErrorTime.UTC()
			}
			rows = append(rows, eval.Row{src.Name, connName, src.Publication, slot, tables, state, position, commitTime,
				walEnd, st.LagBytes, st.Rows, st.Transactions, lastErr, errTime})
		}
		return rows, nil
	}})
}

// cdcdb.connections: one row per connection (CREATE CONNECTION), without
// its password.
func init() {
	registerSystemTable(&systemTable{schema: "cdcdb", name: "connections", cols: []outCol{
		{name: "name", t: eval.TextT()}, {name: "kind", t: eval.TextT()}, {name: "host", t: eval.TextT()}, {name: "port", t: eval.Int8T()},
		{name: "user", t: eval.TextT()}, {name: "database", t: eval.TextT()}, {name: "ssl_mode", t: eval.TextT()},
		{name: "created_at", t: types.Of(types.Timestamptz)},
	}, rows: func(x *execCtx) ([]eval.Row, error) {
		var rows []eval.Row
		for _, c := range x.catalogOf().Connections() {
			port := int64(c.Port)
			if port == 0 {
				port = 5432
			}
			mode := c.SSLMode
			if mode == "" {
				mode = string(source.SSLPrefer)
			}
			rows = append(rows, eval.Row{c.Name, string(c.Kind), c.Host, port, c.User, c.Database, mode, time.UnixMicro(c.CreatedAt).UTC()})
		}
		return rows, nil
	}})
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
