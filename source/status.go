package source

import (
	"strconv"
	"time"
)

// State is what a Follower is doing.
type State uint8

const (
	// StateStarting: connecting and reading the Sink's checkpoint.
	StateStarting State = iota
	// StateSnapshotting: reading the initial snapshot.
	StateSnapshotting
	// StateStreaming: following the replication stream.
	StateStreaming
	// StateRetrying: the last attempt failed (LastError says why); the
	// Follower tries again after a wait.
	StateRetrying
	// StateFailed: stopped on an error retrying cannot cure (LastError).
	StateFailed
	// StateStopped: stopped by Close or Drop.
	StateStopped
)

var stateNames = [...]string{
	StateStarting:     "starting",
	StateSnapshotting: "snapshotting",
	StateStreaming:    "streaming",
	StateRetrying:     "retrying",
	StateFailed:       "failed",
	StateStopped:      "stopped",
}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state(" + strconv.Itoa(int(s)) + ")"
}

// Status is a Follower's state as cdcdb.sources shows it.
type Status struct {
	State State
	Slot  string
	// Position is the last position the Sink committed (see Checkpoint);
	// the Follower confirms it upstream right after.
	Position LSN
	// LastCommitTime is the upstream commit time of the last transaction
	// committed (zero: none since the Follower started).
	LastCommitTime time.Time
	// ServerWALEnd is the latest upstream WAL position the Follower heard
	// of; LagBytes is how far the position confirmed upstream is behind
	// it.
	ServerWALEnd LSN
	LagBytes     int64
	// Rows and Transactions count what this Follower committed to the
	// Sink since it started: rows (snapshot rows included, a truncate
	// counting one) and upstream transactions.
	Rows         int64
	Transactions int64
	// LastError is the last error met (retried or not), without the
	// password; LastErrorTime when.
	LastError     string
	LastErrorTime time.Time
}
