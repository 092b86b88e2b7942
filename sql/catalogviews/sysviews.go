package catalogviews

import (
	"strings"
	"time"

	"cdcdb/catalog"
	"cdcdb/source"
	"cdcdb/types"
)

// cdcdb.flows: one row per AUTO CDC flow, with its progress.
func init() {
	ts := types.Of(types.Timestamptz)
	registerSystemTable(&Relation{schema: "cdcdb", name: "flows", cols: []Column{
		{Name: "name", Type: types.Of(types.Text)}, {Name: "source", Type: types.Of(types.Text)}, {Name: "target", Type: types.Of(types.Text)},
		{Name: "stored_as", Type: types.Of(types.Text)}, {Name: "keys", Type: types.Of(types.TextArray)}, {Name: "sequence_by", Type: types.Of(types.Text)},
		{Name: "events_applied", Type: types.Of(types.Int8)}, {Name: "rows_upserted", Type: types.Of(types.Int8)}, {Name: "rows_deleted", Type: types.Of(types.Int8)},
		{Name: "last_sequence", Type: types.Of(types.Text)}, {Name: "created_at", Type: ts}, {Name: "last_applied_at", Type: ts},
		// The flow's kind (changes, snapshot, change feed); for snapshot
		// flows (spec §7) the newest version applied and what their last
		// snapshot inserted, updated and deleted.
		{Name: "kind", Type: types.Of(types.Text)}, {Name: "last_version", Type: types.Of(types.Text)},
		{Name: "snapshot_inserted", Type: types.Of(types.Int8)}, {Name: "snapshot_updated", Type: types.Of(types.Int8)}, {Name: "snapshot_deleted", Type: types.Of(types.Int8)},
	}, rows: func(sess Session) ([]Row, error) {
		cat := sess.Catalog()
		var rows []Row
		for _, f := range cat.Flows() {
			st := catalog.ReadFlowStats(sess.Storage(), f.OID)
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
			rows = append(rows, Row{f.Name, relationName(cat, f.Source), relationName(cat, f.Target), string(f.StoredAs), keys,
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
	registerSystemTable(&Relation{schema: "cdcdb", name: "storage", cols: []Column{
		{Name: "commits", Type: types.Of(types.Int8)}, {Name: "flushes", Type: types.Of(types.Int8)},
		{Name: "checkpoints", Type: types.Of(types.Int8)}, {Name: "checkpoint_transactions", Type: types.Of(types.Int8)},
		{Name: "checkpoint_seconds", Type: types.Of(types.Float8)}, {Name: "commit_wait_seconds", Type: types.Of(types.Float8)},
		{Name: "flush_seconds", Type: types.Of(types.Float8)}, {Name: "durable_wait_seconds", Type: types.Of(types.Float8)},
		{Name: "memtable_bytes", Type: types.Of(types.Int8)}, {Name: "memtable_layers", Type: types.Of(types.Int8)},
		{Name: "log_ring_flushes", Type: types.Of(types.Int8)}, {Name: "log_ring_bytes", Type: types.Of(types.Int8)},
		{Name: "compactions", Type: types.Of(types.Int8)}, {Name: "compaction_transactions", Type: types.Of(types.Int8)},
		{Name: "compaction_seconds", Type: types.Of(types.Float8)},
		{Name: "block_cache_hits", Type: types.Of(types.Int8)}, {Name: "block_cache_misses", Type: types.Of(types.Int8)},
		{Name: "block_cache_bytes", Type: types.Of(types.Int8)}, {Name: "file_releases", Type: types.Of(types.Int8)},
		{Name: "covered_commits", Type: types.Of(types.Int8)},
	}, rows: func(sess Session) ([]Row, error) {
		st := sess.StorageStats()
		return []Row{{st.Commits, st.Flushes, st.Checkpoints, st.CheckpointSteps,
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
	registerSystemTable(&Relation{schema: "cdcdb", name: "sources", cols: []Column{
		{Name: "name", Type: types.Of(types.Text)}, {Name: "connection", Type: types.Of(types.Text)}, {Name: "publication", Type: types.Of(types.Text)},
		{Name: "slot", Type: types.Of(types.Text)}, {Name: "tables", Type: types.Of(types.TextArray)},
		{Name: "state", Type: types.Of(types.Text)}, {Name: "position", Type: types.Of(types.Text)}, {Name: "last_commit_time", Type: ts},
		{Name: "upstream_wal_end", Type: types.Of(types.Text)}, {Name: "lag_bytes", Type: types.Of(types.Int8)},
		{Name: "rows_received", Type: types.Of(types.Int8)}, {Name: "transactions_received", Type: types.Of(types.Int8)},
		{Name: "last_error", Type: types.Of(types.Text)}, {Name: "last_error_time", Type: ts},
	}, rows: func(sess Session) ([]Row, error) {
		cat := sess.Catalog()
		var rows []Row
		for _, src := range cat.Sources() {
			connName := ""
			if c, ok := cat.ConnectionByOID(src.Connection); ok {
				connName = c.Name
			}
			tables := types.ArrayValue{Elem: types.Text}
			for _, st := range src.Tables {
				tables.Elems = append(tables.Elems, relationName(cat, st.Table))
			}
			st, running := sess.SourceStatus(src.OID)
			var cp source.Checkpoint
			if b := catalog.ReadSourceCheckpoint(sess.Storage(), src.OID); b != nil {
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
			rows = append(rows, Row{src.Name, connName, src.Publication, slot, tables, state, position, commitTime,
				walEnd, st.LagBytes, st.Rows, st.Transactions, lastErr, errTime})
		}
		return rows, nil
	}})
}

// cdcdb.connections: one row per connection (CREATE CONNECTION), without
// its password.
func init() {
	registerSystemTable(&Relation{schema: "cdcdb", name: "connections", cols: []Column{
		{Name: "name", Type: types.Of(types.Text)}, {Name: "kind", Type: types.Of(types.Text)}, {Name: "host", Type: types.Of(types.Text)}, {Name: "port", Type: types.Of(types.Int8)},
		{Name: "user", Type: types.Of(types.Text)}, {Name: "database", Type: types.Of(types.Text)}, {Name: "ssl_mode", Type: types.Of(types.Text)},
		{Name: "created_at", Type: types.Of(types.Timestamptz)},
	}, rows: func(sess Session) ([]Row, error) {
		var rows []Row
		for _, c := range sess.Catalog().Connections() {
			port := int64(c.Port)
			if port == 0 {
				port = 5432
			}
			mode := c.SSLMode
			if mode == "" {
				mode = string(source.SSLPrefer)
			}
			rows = append(rows, Row{c.Name, string(c.Kind), c.Host, port, c.User, c.Database, mode, time.UnixMicro(c.CreatedAt).UTC()})
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
