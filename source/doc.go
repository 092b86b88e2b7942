// Package source follows external systems and writes their changes into
// cdcdb's source tables exactly once. PostgreSQL logical replication is the
// first kind: a Follower reads one upstream database's publication through
// a replication slot, with PostgreSQL's own pgoutput plugin, decoded by
// github.com/jackc/pglogrepl (no replication message is written by hand).
// docs/sources.md tells the design in full.
//
// What it owns: the upstream side. Connecting (libpq's SSL modes, the
// password kept out of every message, log line and Status), checking that
// upstream can be followed (wal_level, the publication, the tables),
// creating, reading from and dropping the replication slot, the initial
// snapshot, decoding the stream into rows, the _lsn sequence, noticing
// schema changes, confirming positions upstream, retrying with backoff,
// and the Status that cdcdb.sources shows.
//
// What it must not do: write anything of cdcdb's itself, or know SQL
// statements, the catalog or storage. Everything it produces goes through
// the Sink interface declared here, which the SQL layer implements over
// one source's tables; tests implement it with a model. It imports no
// other cdcdb package but pgerror (for the SQLSTATE of a refused
// configuration). Values stay upstream's text: parsing them into cdcdb's
// types is the Sink's work.
//
// How data passes:
//
//	upstream ──COPY (snapshot)──┐
//	upstream ──pgoutput stream──┴─> Follower ──Batch──> Sink.Commit (rows + Checkpoint, atomically)
//	                                   └── confirms Checkpoint.Position upstream, after Commit returned
//
// A Batch is one atomic unit for the Sink: one whole upstream transaction
// (its changes, commit LSN and commit time), a part of the snapshot, or a
// position alone. It carries the Checkpoint to commit with it; on every
// (re)start the Follower reads the Sink's Checkpoint and resumes from it,
// so the Sink's atomic commit is what makes delivery exactly once.
//
// Files: follower.go (lifecycle, retries, Status bookkeeping), snapshot.go
// (the initial snapshot), stream.go (the replication stream), decode.go
// (pgoutput messages into Changes, schema changes), upstream.go (catalog
// queries, slots), copytext.go (COPY's text format), sink.go (the Sink
// contract and its types), describe.go (what CREATE SOURCE asks upstream
// before it commits), config.go, status.go, errors.go.
package source
