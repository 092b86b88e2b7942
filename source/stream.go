package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// pollTimeout bounds the read of upstream's WAL position, which only
// feeds Status.
const pollTimeout = 5 * time.Second

// txBuffer is the upstream transaction being received: pgoutput sends a
// transaction whole, at its commit, between Begin and Commit.
type txBuffer struct {
	xid        uint32
	commitLSN  LSN
	commitTime time.Time
	// skip: the Sink already holds this transaction.
	skip bool
	// visible: upstream shows this transaction to new snapshots (the
	// catalog read after a Relation message waits for it).
	visible bool
	// tables are the tables as this transaction's changes see them: the
	// committed ones, with the columns its Relation messages added.
	tables  []Table
	added   []AddedColumns
	changes []Change
	lastSeq int64
}

// streamState is what a session knows of the replication stream.
type streamState struct {
	// relations are the Relation messages of this stream, by OID; checked
	// says which of them were compared with the table they describe.
	relations map[uint32]*pglogrepl.RelationMessage
	checked   map[uint32]bool
	tx        *txBuffer
	// safe is a position every transaction committed before which was
	// received and handled (committed, or holding nothing to commit).
	safe       LSN
	nextStatus time.Time
}

// follow streams from the slot at the checkpoint's position until an error.
func (s *session) follow(ctx context.Context) error {
	f := s.f
	plain, err := s.plainConn(ctx)
	if err != nil {
		return err
	}
	if err := s.checkSlotBeforeStreaming(ctx, plain); err != nil {
		return err
	}
	if s.repl == nil {
		if s.repl, err = connect(ctx, f.cfg.Connection, true); err != nil {
			return err
		}
	}
	err = pglogrepl.StartReplication(ctx, s.repl, s.cp.Slot, pglogrepl.LSN(s.cp.Position), pglogrepl.StartReplicationOptions{
		Mode: pglogrepl.LogicalReplication,
		PluginArgs: []string{
			"proto_version '1'",
			// A list of identifiers, written as a string literal.
			"publication_names " + quoteLiteral(quoteIdent(f.cfg.Publication)),
		},
	})
	if err != nil {
		return fmt.Errorf("start replication from slot %q at %s: %w", s.cp.Slot, s.cp.Position, err)
	}
	f.setState(StateStreaming)
	f.log.Info("streaming", slog.String("slot", s.cp.Slot), slog.String("from", s.cp.Position.String()))
	s.stream = streamState{
		relations:  map[uint32]*pglogrepl.RelationMessage{},
		checked:    map[uint32]bool{},
		safe:       s.cp.Position,
		nextStatus: time.Now(),
	}
	for {
		if err := s.housekeeping(ctx); err != nil {
			return err
		}
		recvCtx, cancel := context.WithDeadline(ctx, s.wakeAt())
		msg, err := s.repl.ReceiveMessage(recvCtx)
		cancel()
		if err != nil {
			if ctx.Err() == nil && pgconn.Timeout(err) {
				continue
			}
			return fmt.Errorf("replication stream: %w", err)
		}
		switch msg := msg.(type) {
		case *pgproto3.CopyData:
			if err := s.handleCopyData(ctx, msg.Data); err != nil {
				return err
			}
		case *pgproto3.ErrorResponse:
			return fmt.Errorf("replication stream: %w", pgconn.ErrorResponseToPgError(msg))
		case *pgproto3.CopyDone:
			return errors.New("upstream ended the replication stream")
		}
	}
}

// checkSlotBeforeStreaming makes sure streaming from the slot at the
// checkpoint's position gives every change after it: a slot that is gone,
// or has moved past the position, or an upstream whose WAL ends before it
// (restored from a backup) would silently leave changes out.
func (s *session) checkSlotBeforeStreaming(ctx context.Context, plain *pgconn.PgConn) error {
	slot, err := readSlot(ctx, plain, s.cp.Slot)
	if err != nil {
		return err
	}
	if slot == nil {
		return Permanent(fmt.Errorf("replication slot %q no longer exists upstream: the changes after %s cannot be read any more (drop the source and create it again)", s.cp.Slot, s.cp.Position))
	}
	if s.repl != nil && slot.activePID == strconv.Itoa(int(s.repl.PID())) {
		slot.activePID = "" // held by this session's own connection, which made it
	}
	if err := slot.usable(s.cp.Slot, s.f.cfg.Connection.Database); err != nil {
		return err
	}
	if slot.confirmedFlush > s.cp.Position {
		return Permanent(fmt.Errorf("replication slot %q has moved on to %s, past this source's position %s: the changes in between are lost to it (was the slot used by another client?)",
			s.cp.Slot, slot.confirmedFlush, s.cp.Position))
	}
	wal, err := currentWAL(ctx, plain)
	if err != nil {
		return err
	}
	if wal < s.cp.Position {
		return Permanent(fmt.Errorf("upstream's WAL ends at %s, before this source's position %s (was upstream restored from a backup?)", wal, s.cp.Position))
	}
	s.f.serverAt(wal)
	return nil
}

// wakeAt is when the receive loop must wake even if upstream is silent.
func (s *session) wakeAt() time.Time {
	at := s.stream.nextStatus
	if s.advanceDue() {
		at = s.lastCommit.Add(s.f.cfg.AdvanceInterval)
	}
	return at
}

// advanceDue says a position-only commit is waiting for its time.
func (s *session) advanceDue() bool {
	return s.stream.tx == nil && s.stream.safe > s.cp.Position
}

// housekeeping sends the periodic status update, reads upstream's WAL end
// for the lag, and commits the position past WAL that held nothing for
// this source.
func (s *session) housekeeping(ctx context.Context) error {
	now := time.Now()
	if !now.Before(s.stream.nextStatus) {
		s.pollWALEnd(ctx)
		if err := s.sendStatus(ctx); err != nil {
			return err
		}
		s.stream.nextStatus = now.Add(s.f.cfg.StatusInterval)
	}
	if s.advanceDue() && now.Sub(s.lastCommit) >= s.f.cfg.AdvanceInterval {
		checkpoint := s.cp
		checkpoint.Position = s.stream.safe
		if err := s.commit(ctx, &Batch{Checkpoint: checkpoint}); err != nil {
			return err
		}
		return s.sendStatus(ctx)
	}
	return nil
}

// pollWALEnd reads upstream's current WAL position for Status's lag. It
// is best effort: a failure only leaves the lag as last known.
func (s *session) pollWALEnd(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	plain, err := s.plainConn(ctx)
	if err == nil {
		var wal LSN
		if wal, err = currentWAL(ctx, plain); err == nil {
			s.f.serverAt(wal)
			return
		}
	}
	s.f.log.Debug("could not read upstream's WAL position", slog.String("error", s.f.redact.text(err.Error())))
	closeConn(s.plain)
	s.plain = nil
}

// sendStatus confirms the committed position upstream: the slot may then
// free the WAL before it.
func (s *session) sendStatus(ctx context.Context) error {
	p := pglogrepl.LSN(s.cp.Position)
	err := pglogrepl.SendStandbyStatusUpdate(ctx, s.repl, pglogrepl.StandbyStatusUpdate{WALWritePosition: p, WALFlushPosition: p, WALApplyPosition: p})
	if err != nil {
		return fmt.Errorf("send status upstream: %w", err)
	}
	return nil
}

// handleCopyData handles one message of the replication stream.
func (s *session) handleCopyData(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	switch data[0] {
	case pglogrepl.PrimaryKeepaliveMessageByteID:
		k, err := pglogrepl.ParsePrimaryKeepaliveMessage(data[1:])
		if err != nil {
			return Permanent(fmt.Errorf("replication stream: %w", err))
		}
		end := LSN(k.ServerWALEnd)
		s.f.serverAt(end)
		// Between transactions, the server has sent every transaction
		// that committed before the position it reports.
		if s.stream.tx == nil {
			s.stream.safe = max(s.stream.safe, end)
		}
		if k.ReplyRequested {
			return s.sendStatus(ctx)
		}
	case pglogrepl.XLogDataByteID:
		x, err := pglogrepl.ParseXLogData(data[1:])
		if err != nil {
			return Permanent(fmt.Errorf("replication stream: %w", err))
		}
		m, err := parseMessage(x.WALData)
		if err != nil {
			return err
		}
		return s.handleMessage(ctx, m, LSN(x.WALStart))
	}
	return nil
}

// handleMessage handles one pgoutput message; at is its WAL position.
func (s *session) handleMessage(ctx context.Context, m pglogrepl.Message, at LSN) error {
	st := &s.stream
	switch m := m.(type) {
	case *pglogrepl.RelationMessage:
		st.relations[m.RelationID] = m
		delete(st.checked, m.RelationID)
	case *pglogrepl.BeginMessage:
		if st.tx != nil {
			return Permanent(fmt.Errorf("replication stream: transaction %d begins inside transaction %d", m.Xid, st.tx.xid))
		}
		st.tx = s.beginTransaction(m)
	case *pglogrepl.CommitMessage:
		if st.tx == nil {
			return Permanent(errors.New("replication stream: a commit outside any transaction"))
		}
		return s.commitTransaction(ctx, m)
	case *pglogrepl.InsertMessage, *pglogrepl.UpdateMessage, *pglogrepl.DeleteMessage, *pglogrepl.TruncateMessage:
		if st.tx == nil {
			return Permanent(fmt.Errorf("replication stream: a %s outside any transaction", m.Type()))
		}
		if st.tx.skip {
			return nil
		}
		return s.addChange(ctx, m, at)
	}
	// Type, Origin and logical decoding messages carry nothing for the
	// source: types are read by OID from the catalog.
	return nil
}

func (s *session) beginTransaction(m *pglogrepl.BeginMessage) *txBuffer {
	return &txBuffer{
		xid: m.Xid, commitLSN: LSN(m.FinalLSN), commitTime: m.CommitTime, tables: s.cp.Tables, lastSeq: s.cp.LastSeq,
		// Committed before the position: the Sink holds it already. (The
		// position is where a record ends, so a commit record starts
		// either before it or at or after it.)
		skip: LSN(m.FinalLSN) < s.cp.Position,
	}
}

// addChange turns a data message into the transaction's changes.
func (s *session) addChange(ctx context.Context, m pglogrepl.Message, at LSN) error {
	if tm, ok := m.(*pglogrepl.TruncateMessage); ok {
		for _, id := range tm.RelationIDs {
			t, err := s.followedTable(ctx, id)
			if err != nil || t == nil {
				return err
			}
			s.appendChanges(at, Change{Table: t.Name, Op: OpTruncate})
		}
		return nil
	}
	var relationID uint32
	switch m := m.(type) {
	case *pglogrepl.InsertMessage:
		relationID = m.RelationID
	case *pglogrepl.UpdateMessage:
		relationID = m.RelationID
	case *pglogrepl.DeleteMessage:
		relationID = m.RelationID
	}
	t, err := s.followedTable(ctx, relationID)
	if err != nil || t == nil {
		return err
	}
	var changes []Change
	switch m := m.(type) {
	case *pglogrepl.InsertMessage:
		c, err := insertChange(t, m)
		if err != nil {
			return err
		}
		changes = []Change{c}
	case *pglogrepl.UpdateMessage:
		if changes, err = updateChanges(t, m); err != nil {
			return err
		}
	case *pglogrepl.DeleteMessage:
		c, err := deleteChange(t, m)
		if err != nil {
			return err
		}
		changes = []Change{c}
	}
	s.appendChanges(at, changes...)
	return nil
}

// appendChanges gives each change its Seq (the _lsn) and adds it to the
// transaction. Seq is the change's own WAL position, raised to one more
// than the previous change's Seq when it is not above it already: the
// changes of a transaction that committed after another can sit earlier
// in the WAL, several changes share one WAL record (a multi-row COPY
// insert, a key-changing update's delete and insert), and snapshot rows
// count up from 1.
func (s *session) appendChanges(at LSN, changes ...Change) {
	tx := s.stream.tx
	own := int64(min(at, LSN(math.MaxInt64)))
	for _, c := range changes {
		tx.lastSeq = max(tx.lastSeq+1, own)
		c.Seq = tx.lastSeq
		tx.changes = append(tx.changes, c)
	}
}

// followedTable returns the table a change of the relation id belongs to,
// as the transaction sees it, or nil when the source does not follow that
// relation (a publication can hold more tables). The first change after a
// Relation message checks it against the table.
func (s *session) followedTable(ctx context.Context, id uint32) (*Table, error) {
	st := &s.stream
	tx := st.tx
	i := slices.IndexFunc(tx.tables, func(t Table) bool { return t.RelationID == id })
	rel := st.relations[id]
	if i < 0 {
		if rel != nil {
			name := TableName{rel.Namespace, rel.RelationName}
			if j := slices.IndexFunc(tx.tables, func(t Table) bool { return t.Upstream == name }); j >= 0 {
				return nil, Permanent(fmt.Errorf("upstream table %s was dropped and created again (its OID is now %d, was %d); cdcdb cannot follow this change (drop the source and create it again to take a new snapshot)",
					name, id, tx.tables[j].RelationID))
			}
		}
		return nil, nil
	}
	if st.checked[id] {
		return &tx.tables[i], nil
	}
	if rel == nil {
		return nil, Permanent(fmt.Errorf("replication stream: a change of relation %d before its description", id))
	}
	next, added, err := reconcile(&tx.tables[i], rel)
	if err != nil {
		return nil, err
	}
	plain, err := s.plainConn(ctx)
	if err != nil {
		return nil, err
	}
	if !tx.visible {
		if err := awaitVisible(ctx, plain, tx.xid); err != nil {
			return nil, err
		}
		tx.visible = true
	}
	if err := checkColumnNumbers(ctx, plain, &tx.tables[i]); err != nil {
		return nil, err
	}
	st.checked[id] = true
	if next == nil {
		return &tx.tables[i], nil
	}
	if len(added) > 0 {
		existing := make([]Value, len(added))
		for k := range added {
			if added[k], existing[k], err = describeAddedColumn(ctx, plain, id, added[k]); err != nil {
				return nil, err
			}
		}
		copy(next.Columns[len(next.Columns)-len(added):], added)
		tx.added = append(tx.added, AddedColumns{Table: next.Name, Columns: added, ExistingValues: existing})
		s.f.log.Info("columns added upstream", slog.String("table", next.Upstream.String()), slog.Int("columns", len(added)))
	}
	// Copy on write: the committed checkpoint's tables stay as they are.
	tables := slices.Clone(tx.tables)
	tables[i] = *next
	tx.tables = tables
	return &tx.tables[i], nil
}

// commitTransaction hands a received transaction to the Sink, then
// confirms it upstream.
func (s *session) commitTransaction(ctx context.Context, m *pglogrepl.CommitMessage) error {
	st := &s.stream
	tx := st.tx
	st.tx = nil
	end := LSN(m.TransactionEndLSN)
	if tx.skip || (len(tx.changes) == 0 && len(tx.added) == 0) {
		// Nothing to write: the position-only commit will cover it.
		st.safe = max(st.safe, end)
		return nil
	}
	checkpoint := s.cp
	checkpoint.Position = end
	checkpoint.LastSeq = tx.lastSeq
	checkpoint.Tables = tx.tables
	b := &Batch{
		AddedColumns: tx.added,
		Changes:      tx.changes,
		Xid:          tx.xid,
		CommitLSN:    LSN(m.CommitLSN),
		CommitTime:   m.CommitTime,
		Checkpoint:   checkpoint,
	}
	if err := s.commit(ctx, b); err != nil {
		return err
	}
	st.safe = max(st.safe, end)
	return s.sendStatus(ctx)
}
