package source

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// snapshot takes the initial snapshot: every followed table's rows as of
// the point the stream will start from, handed to the Sink as 'r' changes
// in batches, the last of which moves the source to PhaseStreaming.
//
// A snapshot that did not finish (the Sink's phase is still
// PhaseSnapshotting) is started over: its slot, when this source made it,
// is dropped and made again, and the first batch resets the Sink.
func (s *session) snapshot(ctx context.Context) error {
	f := s.f
	plain, err := s.plainConn(ctx)
	if err != nil {
		return err
	}
	version, err := checkServer(ctx, plain)
	if err != nil {
		return err
	}
	if err := checkPublication(ctx, plain, f.cfg.Publication); err != nil {
		return err
	}
	if s.repl, err = connect(ctx, f.cfg.Connection, true); err != nil {
		return err
	}

	// The slot: the one the checkpoint names (an earlier attempt's),
	// else the configured one, else a new name.
	name := s.cp.Slot
	if name == "" {
		name = f.cfg.Slot
	}
	if name == "" {
		name = generatedSlotName(f.cfg.Name)
	}
	existing, err := readSlot(ctx, plain, name)
	if err != nil {
		return err
	}
	if existing != nil && s.cp.SlotCreated && s.cp.Slot == name {
		// Ours, from a snapshot that did not finish: its consistent point
		// belongs to rows the reset below throws away.
		f.log.Info("dropping the slot of an unfinished snapshot", slog.String("slot", name))
		if err := dropSlot(ctx, s.repl, name); err != nil {
			return err
		}
		existing = nil
	}
	f.setState(StateSnapshotting)
	reset := s.cp.Phase != PhaseNew
	intent := Checkpoint{Phase: PhaseSnapshotting, Slot: name, SlotCreated: existing == nil}
	if existing != nil {
		if err := existing.usable(name, f.cfg.Connection.Database); err != nil {
			return err
		}
	}
	// The slot's name is committed before the slot is made, so that a
	// crash right after leaves no slot upstream that no one knows of
	// (it would hold WAL there for ever).
	if err := s.commit(ctx, &Batch{Reset: reset, Checkpoint: intent}); err != nil {
		return err
	}

	// The snapshot comes from a slot made now with an exported snapshot:
	// the source's own slot, or beside a slot the user made (which can
	// export none any more) a temporary one, gone with its connection
	// once the snapshot is read. Either way streaming starts at that
	// slot's consistent point: the snapshot holds every transaction that
	// committed before it, the stream every one after. The user's slot
	// stands at or before that point (it was read before), so it still
	// has every change after it, and PostgreSQL starts decoding at the
	// later of the two.
	snapshotRepl, snapshotSlot, temporary := s.repl, name, existing != nil
	if temporary {
		if snapshotRepl, err = connect(ctx, f.cfg.Connection, true); err != nil {
			return err
		}
		defer closeConn(snapshotRepl)
		snapshotSlot = generatedSlotName(f.cfg.Name + "_snapshot")
	}
	position, snapshotName, err := createSlot(ctx, snapshotRepl, snapshotSlot, temporary)
	if err != nil {
		return err
	}
	f.log.Info("created replication slot", slog.String("slot", snapshotSlot), slog.Bool("temporary", temporary),
		slog.String("consistent_point", position.String()))
	if err := exec(ctx, plain, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); err != nil {
		return fmt.Errorf("begin the snapshot's transaction: %w", err)
	}
	if err := exec(ctx, plain, "SET TRANSACTION SNAPSHOT "+quoteLiteral(snapshotName)); err != nil {
		return fmt.Errorf("use the slot's snapshot: %w", err)
	}

	snapshotTime, err := transactionTime(ctx, plain)
	if err != nil {
		return err
	}
	var tables []snapshotTable
	for _, ref := range f.cfg.Tables {
		t, err := readTable(ctx, plain, version, f.cfg.Publication, ref)
		if err != nil {
			return err
		}
		tables = append(tables, t)
	}
	described := make([]Table, len(tables))
	for i, t := range tables {
		described[i] = t.table
	}
	if err := lockSnapshotTables(ctx, plain, described, position); err != nil {
		return err
	}

	checkpoint := intent
	checkpoint.Tables = described
	batch := &Batch{NewTables: described, CommitTime: snapshotTime, Checkpoint: checkpoint}
	var seq int64
	for _, t := range tables {
		table := t.table
		lines := &copyLines{row: func(line []byte) error {
			values, err := decodeCopyText(line, len(table.Columns), make([]Value, 0, len(table.Columns)))
			if err != nil {
				return fmt.Errorf("snapshot of %s: %w", table.Upstream, err)
			}
			seq++
			batch.Changes = append(batch.Changes, Change{Table: table.Name, Op: OpSnapshot, Seq: seq, Values: values})
			if len(batch.Changes) < f.cfg.SnapshotBatchRows {
				return nil
			}
			batch.Checkpoint.LastSeq = seq
			if err := s.commit(ctx, batch); err != nil {
				return err
			}
			batch = &Batch{CommitTime: snapshotTime, Checkpoint: checkpoint}
			return nil
		}}
		if _, err := plain.CopyTo(ctx, lines, t.copy); err != nil {
			return fmt.Errorf("read upstream table %s: %w", table.Upstream, err)
		}
		if err := lines.finish(); err != nil {
			return err
		}
	}
	if err := exec(ctx, plain, "COMMIT"); err != nil {
		return fmt.Errorf("end the snapshot's transaction: %w", err)
	}

	checkpoint.Phase = PhaseStreaming
	checkpoint.Position = position
	checkpoint.LastSeq = seq
	batch.Checkpoint = checkpoint
	if err := s.commit(ctx, batch); err != nil {
		return err
	}
	f.log.Info("snapshot complete", slog.Int64("rows", seq), slog.String("position", position.String()))
	return nil
}

// transactionTime returns the start of the snapshot's transaction
// upstream, the _commit_ts of snapshot rows.
func transactionTime(ctx context.Context, conn *pgconn.PgConn) (time.Time, error) {
	rows, err := query(ctx, conn, "SELECT (extract(epoch FROM pg_catalog.now()) * 1000000)::int8")
	if err != nil {
		return time.Time{}, fmt.Errorf("read the snapshot's time: %w", err)
	}
	micros, err := strconv.ParseInt(rows[0].text(0), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("the snapshot's time %q: %w", rows[0].text(0), err)
	}
	return time.UnixMicro(micros).UTC(), nil
}
