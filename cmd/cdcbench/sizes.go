package main

import "time"

// sizes are the knobs of one run. The full sizes are the (1,000,000
// events over 100,000 keys, 10% deletes, 20% up to five batches late, COPY
// batches of 1,000); durations and repetitions are chosen so that a full run
// takes under an hour on 2 cores while every median is over three
// repetitions (each of which is a whole 1,000,000-event ingest, or 10 s of
// load).
type sizes struct {
	scd2, bitemporal         feedShape
	scd2Reps, bitemporalReps int

	// Time-travel reads: readEvents change events over readKeys keys, then
	// readGrowth times as many (each key's history grows that much).
	readKeys, readEvents, readGrowth int
	readClients                      int
	readFor                          time.Duration
	readReps                         int
	readSample                       int // queries whose rows are compared before timing

	// The change feed: changeKeys rows, each updated changeRounds times
	// (10x as many for the grown history), changeChunk keys a commit; the
	// window read is changeWindowCommits commits of changeWindowKeys.
	changeKeys, changeRounds, changeChunk int
	changeWindowCommits, changeWindowKeys int

	kvRows      int
	pgbenchFor  time.Duration
	pgbenchReps int

	commitFor  time.Duration
	commitReps int

	// Concurrent transfers (writers.go): each client count runs for
	// writersFor, one transaction idling for writersHold in the middle.
	writersFor, writersHold time.Duration
	writersReps             int

	// followChanges are made upstream over followKeys keys while cdcdb
	// follows (follow.go).
	followChanges, followKeys int

	// snapshots is the FROM SNAPSHOT workload's feed (the issue's: a
	// 1,000,000-row table, ten versions, 1% changed, 0.5% deleted, 0.5%
	// new between versions).
	snapshots    snapshotShape
	snapshotReps int

	// System-versioned UPDATEs: a table of sysverRows rows; rounds of
	// sysverOps1 UPDATEs one to a transaction and of sysverOps100 in
	// transactions of 100, from 1 and from 8 clients, sysverReps times
	// each; then, per repetition, sysverReadFor of point reads and
	// sysverTableReadFor of whole-table reads (which take seconds each at
	// full size once the history is long, so they need the longer window
	// for a count of queries that means something).
	sysverRows               int
	sysverOps1, sysverOps100 int
	sysverReps               int
	sysverReadFor            time.Duration
	sysverTableReadFor       time.Duration

	// quietAtMost bounds the wait for a quiet disk before each side of an
	// ingest repetition (quietDisk).
	quietAtMost time.Duration
}

func fullSizes() sizes {
	scd2 := feedShape{events: 1_000_000, keys: 100_000, batch: 1000, deletes: 0.10, late: 0.20, maxLate: 5, seed: 1}
	bi := scd2
	bi.bitemporal, bi.seed = true, 2
	return sizes{
		scd2: scd2, bitemporal: bi,
		scd2Reps: 3, bitemporalReps: 3,
		readKeys: 10_000, readEvents: 100_000, readGrowth: 10,
		readClients: 8, readFor: 10 * time.Second, readReps: 3, readSample: 500,
		changeKeys: 10_000, changeRounds: 10, changeChunk: 1000, changeWindowCommits: 10, changeWindowKeys: 100,
		kvRows: 100_000, pgbenchFor: 10 * time.Second, pgbenchReps: 3,
		commitFor: 10 * time.Second, commitReps: 3,
		writersFor: 15 * time.Second, writersHold: 5 * time.Second, writersReps: 3,
		followChanges: 1_000_000, followKeys: 100_000,
		snapshots:    snapshotShape{rows: 1_000_000, versions: 10, changed: 0.01, deleted: 0.005, inserted: 0.005, seed: 3},
		snapshotReps: 1,
		sysverRows:   100_000, sysverOps1: 20_000, sysverOps100: 100_000, sysverReps: 3,
		sysverReadFor: 10 * time.Second, sysverTableReadFor: 30 * time.Second,
		quietAtMost: time.Minute,
	}
}

// quickSizes keep every code path (late events, deletes, identical updates,
// backdated and restated bitemporal events, grown history) at a size that
// finishes in well under two minutes, build included.
func quickSizes() sizes {
	scd2 := feedShape{events: 6_000, keys: 600, batch: 200, deletes: 0.10, late: 0.20, maxLate: 5, seed: 1}
	bi := scd2
	bi.bitemporal, bi.seed = true, 2
	return sizes{
		scd2: scd2, bitemporal: bi,
		scd2Reps: 1, bitemporalReps: 1,
		readKeys: 200, readEvents: 2_000, readGrowth: 10,
		readClients: 8, readFor: time.Second, readReps: 1, readSample: 100,
		changeKeys: 200, changeRounds: 3, changeChunk: 100, changeWindowCommits: 5, changeWindowKeys: 20,
		kvRows: 1_000, pgbenchFor: time.Second, pgbenchReps: 1,
		commitFor: time.Second, commitReps: 1,
		writersFor: 3 * time.Second, writersHold: time.Second, writersReps: 1,
		followChanges: 5_000, followKeys: 500,
		snapshots:    snapshotShape{rows: 5_000, versions: 4, changed: 0.01, deleted: 0.005, inserted: 0.005, seed: 3},
		snapshotReps: 1,
		sysverRows:   1_000, sysverOps1: 200, sysverOps100: 200, sysverReps: 1,
		sysverReadFor: time.Second, sysverTableReadFor: time.Second,
		quietAtMost: 3 * time.Second, // the tests beside it keep the disk busy
	}
}

// setReps overrides every repetition count (for a quicker look, or a
// profile, at full sizes).
func (s *sizes) setReps(n int) {
	s.scd2Reps, s.bitemporalReps, s.readReps, s.pgbenchReps, s.commitReps, s.snapshotReps, s.sysverReps, s.writersReps = n, n, n, n, n, n, n, n
}
