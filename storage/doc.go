// Package storage owns cdcdb's one bbolt file: keyspaces, transactions, the
// write-ahead log and memtable in front of them. It holds bytes only.
//
// It is the only package that imports bbolt. It knows nothing of SQL, tables,
// catalogs or typed values: the layers above decide which keyspaces exist and
// what their keys and values mean, and build keys and rows from values with
// package rowcodec, which owns those encodings (and imports storage only for
// CorruptError, to report bytes that do not decode as damage).
//
// How data passes through it: a caller opens a Tx (Begin, View or Update),
// reaches a Space by name, and reads or writes raw byte keys and values. A read
// Tx is a consistent snapshot; a write Tx sees its own writes and makes them
// visible to others only when Commit returns. Rollback discards everything the
// Tx did, so a failed statement leaves nothing behind. A write Tx can also
// take back part of its changes: Mark notes where they stand, RollbackTo
// discards what came after (savepoint.go; SQL's savepoints use it).
//
// # Write-ahead log, memtable, runs in the file
//
// Writing every commit's changes into B+trees would rewrite, for each
// changed key, the page it is on and every page above it, and random keys
// touch a different page each: a batch of a thousand change events rewrote
// megabytes. So a commit writes only a log record of its changes (in
// version order, see below) and keeps the changes themselves in
// memory: a transaction collects its own in a private tree (memtree.go), and
// its commit turns each keyspace's part of it into an immutable sorted run
// of the active memtable layer (memrun.go), which a merger goroutine merges
// with the keyspace's other runs as they pile up (merger.go). A read looks
// in the newest layer first, then older ones, then the file; the first
// source that has a key decides its value, a tombstone hiding it. Once the
// active layer has collected MemtableSize bytes, the next commit freezes it
// and starts a new one (an idle database freezes it too), and the flusher
// checkpoints frozen layers into the file (checkpoint.go).
//
// The file holds each keyspace as a few sorted runs too (filerun.go),
// which its bucket's record lists: a
// checkpoint writes one run per keyspace of its layer, in blocks stored as
// large bbolt values, so its writes are sequential however scattered the
// keys; compaction (compaction.go) merges a keyspace's runs as they pile
// up, so there are about log2 of its checkpoints of them, and the runs a
// compaction or a drop leaves behind are deleted a chunk per transaction
// later (garbage.go); a Bloom filter per
// run of a keyspace that is point-read (pointreads.go) spares most lookups
// of absent keys the run's blocks. Read
// transactions find the blocks they read again in a block cache
// (blockcache.go, Options.BlockCacheSize), copies indexed for search, and
// so skip bbolt's descent to them. A checkpoint's
// last transaction makes the log records it covered redundant (their ring
// space is reused, the log bucket's are deleted). After a crash, Open
// replays the records the file does not hold yet, and removes
// the blocks of runs a crash cut short; it also rewrites, once, the
// keyspaces of a file made before runs as runs, and converts a file of an
// earlier version (see Damage below).
//
// Durability and group commit: Commit queues its record, lets the next
// writer start, and returns once the log writer goroutine has written the
// record into the log ring, space the file reserves for the log that
// bbolt's transactions never touch, and the write is on disk (unless
// Options.NoSync); every commit queued meanwhile shares that write
// (ring.go). A record that does not fit the ring goes to the log bucket in
// a bbolt transaction. Readers see only durable commits (the durable view);
// the writer builds on the newest, durable or not (the head).
// A failed flush fails its commits and every later one, and the database then
// accepts no more writes (after a failed fsync the file on disk can only be
// trusted again once a restart has replayed the log). The commits of the
// flush whose write failed may be on disk: they are answered 08007, their
// outcome unknown; those refused after it, whose records were never
// written, 58030 (failures.go). Every failed write or sync of the file is
// logged (Options.Logger): the log ring's with the file, the offset, the
// length and the OS error, bbolt's with what bbolt reports of them.
//
// Keyspaces are created and dropped like any other change: a layer records
// the creation or drop, which hides whatever the file holds under that name,
// and the checkpoint creates or deletes the bucket (and its name in the
// file's directory of keyspaces).
//
// Lifetimes: byte slices returned by Get and by cursors are valid only until
// the Tx ends; copy them (or decode them with rowcodec's DecodeRow and
// DecodeKey, which copy) to keep them. Put copies its arguments, so callers may reuse their buffers.
//
// Concurrency: any number of read transactions run at once with one write
// transaction; BeginContext(ctx, true) waits for the current writer to
// commit or roll back, or for ctx to end. Detached write transactions
// (BeginDetached, detached.go) hold no writer slot: each buffers its
// changes over a snapshot, and takes the slot only at Attach or Commit;
// keyspace sequences draw from one counter across all of them. A bbolt commit that grows the file
// past its memory map (Options.MmapSize) must remap it and waits for every
// open read transaction, so long-lived readers can delay checkpoints and
// flushes; meanwhile new transactions wait too, as a write Tx holds a read
// snapshot of the file like any reader. A Tx must not be used from several
// goroutines at once; to share a write transaction's work with another
// goroutine, Fork it and Join the fork (fork.go).
//
// # Damage
//
// Every value the package puts into bbolt carries a CRC-32C of its key and
// bytes (seal.go), checked when it is read: a run block's entries as a
// lookup reads them from the file, each with its own checksum, or the
// whole block as a walk reads it (the block cache holds checked copies), a
// run's meta with its block index and filter, each keyspace's record of
// its sequence and its runs (spacerec.go), the file's directory of
// keyspaces, the state bucket's numbers, the log bucket's records (the
// log ring's segments aside, which bbolt does not write): the log ring's
// records carry
// checksums of their own, and a record missing before a later flush's is
// damage, not the end of the log (ring.go). bbolt checksums only its meta
// pages, and trusts its branch and leaf pages: Open reads every page of an
// existing file's B+trees first and refuses a damaged structure, naming
// the file and the page (pagewalk.go), and a panic of bbolt's met later is
// turned into the same error. Damage found is a *CorruptError (file,
// keyspace, run, block, what), which wraps ErrCorrupt and reaches a client
// as XX001; the layers above name the table a keyspace holds. Damage Open
// finds in one keyspace is logged and left for that keyspace's reads to
// report; damage to the file's structure, its state or its log makes Open
// refuse the file. CheckFile checks a whole closed file (cdcdb check).
//
// Backup (backup.go) copies the database as one read transaction sees it
// into a new file while writers go on, through a second DB opened on that
// file, and gives the copy its name only once it is complete and synced.
//
// A read that finds the file damaged panics with its *CorruptError, as Get
// and Cursor have no error to return; View and Update return it as their
// error, and the sql package reports it as the statement's.
//
// Files written by earlier versions, whose values have no seals, are
// converted once, at their first writable open, before anything reads
// them: their runs rewritten as sealed runs, their keyspaces given records,
// their other values sealed (migrate.go). A read-only open refuses a file
// not converted yet; no reader meets a value without its seal.
//
// This package must not import types, rowcodec, sql/, catalog/, cdcexec/ or
// wire/; of the module it imports only pgerror.
package storage
