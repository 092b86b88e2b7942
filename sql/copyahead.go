package sql

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/settings"
	"cdcdb/storage"
	"cdcdb/types"
	"cdcdb/wire"
)

// A COPY into a flow's source that is the whole of its transaction (the
// only statement of a simple Query, outside a block) writes its rows ahead
// of itself: before the flows apply them, it commits them, with what else
// redoing the COPY needs, under a key of pendingCopiesSpace
// (storage.Tx.PutAhead). That small commit's durable write goes on while the
// flows work, and the COPY's own commit then waits for it alone
// (storage.Tx.CommitCovered), not for its own record's, which the log
// writer writes afterwards. Should the server stop before that record is on
// disk, the rows are still in pendingCopiesSpace when it starts again, and
// redoPendingCopies runs the COPY again from them, before any session can
// see the database: to the same result, as it starts from the same state
// (nothing else committed in between), at the same commit time, with the
// same session settings and transaction start time for the flows'
// expressions.
//
// Why: in the benchmark's SCD TYPE 2 feed a COPY of 1,000 change events
// waited about 1 ms for its commit's fsync, a fifth of its time, with the
// session idle (docs/findings.md). Only a transaction made of nothing but the
// COPY can be redone from its rows, and only one whose rows say all it did:
// a column filled from a sequence advanced the sequence too, so a COPY that
// defaults one commits as before.
//
// A COPY that fails after writing its rows ahead deletes them again in a
// transaction of its own, durably, before it reports the error (the storage
// transaction's Rollback does).

// pendingCopiesSpace holds the rows of COPYs written ahead whose own commit
// is not yet known to be on disk, by commit time.
const pendingCopiesSpace = "pending_copies"

// pendingCopyFormat is the first byte of a pending copy's value.
const pendingCopyFormat = 1

// maxRowsAhead bounds what a COPY writes ahead: one with more bytes of rows
// commits as before, its work dwarfing the wait for its record, which a
// put ahead of its size would only lengthen.
const maxRowsAhead = 4 << 20

// pendingCopy is what redoing a COPY needs: the rows it stored, complete
// tuples as the table stores them, and the context its flows ran in.
type pendingCopy struct {
	table    catalog.OID
	commitTS int64 // microseconds
	// txStart and stmtStart are now() and statement_timestamp().
	txStart, stmtStart time.Time
	// settings are the session's parameters that differ from their
	// defaults, name and value.
	settings [][2]string
	tuples   [][]types.Value
}

func (p *pendingCopy) key() []byte { return binary.BigEndian.AppendUint64(nil, uint64(p.commitTS)) }

func (p *pendingCopy) encode() ([]byte, error) {
	b := []byte{pendingCopyFormat}
	b = binary.AppendUvarint(b, uint64(p.table))
	b = binary.AppendVarint(b, p.commitTS)
	b = binary.AppendVarint(b, p.txStart.UnixMicro())
	b = binary.AppendVarint(b, p.stmtStart.UnixMicro())
	b = binary.AppendUvarint(b, uint64(len(p.settings)))
	for _, kv := range p.settings {
		b = appendString(appendString(b, kv[0]), kv[1])
	}
	b = binary.AppendUvarint(b, uint64(len(p.tuples)))
	var row []byte
	for _, t := range p.tuples {
		var err error
		if row, err = rowcodec.EncodeRow(row[:0], t); err != nil {
			return nil, err
		}
		b = appendString(b, string(row))
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

var errPendingCopyMalformed = errors.New("a pending copy's stored value is malformed")

func decodePendingCopy(b []byte) (*pendingCopy, error) {
	if len(b) == 0 || b[0] != pendingCopyFormat {
		return nil, errPendingCopyMalformed
	}
	b = b[1:]
	fail := false
	uvarint := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			fail = true
			return 0
		}
		b = b[n:]
		return v
	}
	varint := func() int64 {
		v, n := binary.Varint(b)
		if n <= 0 {
			fail = true
			return 0
		}
		b = b[n:]
		return v
	}
	bytesField := func() []byte {
		n := uvarint()
		if fail || n > uint64(len(b)) {
			fail = true
			return nil
		}
		out := b[:n]
		b = b[n:]
		return out
	}
	p := &pendingCopy{table: catalog.OID(uvarint()), commitTS: varint()}
	p.txStart = time.UnixMicro(varint()).UTC()
	p.stmtStart = time.UnixMicro(varint()).UTC()
	for n := uvarint(); !fail && n > 0; n-- {
		k := string(bytesField())
		v := string(bytesField())
		p.settings = append(p.settings, [2]string{k, v})
	}
	for n := uvarint(); !fail && n > 0; n-- {
		row := bytesField()
		if fail {
			break
		}
		t, err := rowcodec.DecodeRow(row)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errPendingCopyMalformed, err)
		}
		p.tuples = append(p.tuples, t)
	}
	if fail || len(b) != 0 {
		return nil, errPendingCopyMalformed
	}
	return p, nil
}

// redoable reports whether a COPY that gives the columns in given can be
// redone from its rows: nothing but the rows comes of filling the columns
// it leaves out. A column filled from a sequence advanced it (and a default
// that calls nextval is taken to do so).
func (w *tableWriter) redoable(given map[int16]bool) bool {
	for _, c := range w.table.LiveColumns() {
		if given[c.Attnum] {
			continue
		}
		if c.Sequence != "" || strings.Contains(strings.ToLower(c.Default), "nextval") {
			return false
		}
	}
	return true
}

// putRowsAhead writes the statement's rows ahead (see above), when the
// COPY may: it is the whole of its transaction, redoable, and its flows
// have not taken any of its rows yet (all of them are in appended).
func (w *tableWriter) putRowsAhead(x *execCtx) error {
	t := x.tx
	if !w.redo || w.flowsApplied || len(w.appended) == 0 || !t.sole || t.wroteAhead || !x.sess.engine.pendingCopies ||
		x.sess.engine.opts.FastPathsOff.CopyAhead {
		return nil
	}
	p := &pendingCopy{table: w.table.OID, commitTS: t.commitTS, txStart: x.now, stmtStart: x.stmtNow, tuples: w.appended}
	for name, v := range x.sess.settings {
		// A value at the built-in default needs no record, unless the
		// server sets another default, which the redo's session would
		// start with instead.
		if d, ok := settings.Lookup(name); ok && (!d.Context.Settable() || v == d.Default && x.sess.engine.settingDefault(name, d) == d.Default) {
			continue
		}
		p.settings = append(p.settings, [2]string{name, v})
	}
	slices.SortFunc(p.settings, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	value, err := p.encode()
	if err != nil {
		return err
	}
	if len(value) > maxRowsAhead {
		return nil // commits as before
	}
	key := p.key()
	if err := t.st.PutAhead(pendingCopiesSpace, key, value); err != nil {
		return err
	}
	t.wroteAhead = true
	if hook := rowsWrittenAhead; hook != nil {
		hook(key, value)
	}
	return nil
}

// rowsWrittenAhead, when set (by tests), is given each put ahead.
var rowsWrittenAhead func(key, value []byte)

// dropPendingCopy deletes a pending COPY that fails when redone.
func (e *Engine) dropPendingCopy(key []byte) error {
	return e.db.Update(func(tx *storage.Tx) error {
		sp := tx.Space(pendingCopiesSpace)
		if sp == nil {
			return nil
		}
		return sp.Delete(key)
	})
}

// preparePendingCopies makes pendingCopiesSpace if the file has none yet
// and redoes the COPYs left in it (see above).
func (e *Engine) preparePendingCopies() error {
	var pending [][2][]byte
	exists := false
	err := e.db.View(func(tx *storage.Tx) error {
		sp := tx.Space(pendingCopiesSpace)
		if sp == nil {
			return nil
		}
		exists = true
		c := sp.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			pending = append(pending, [2][]byte{slices.Clone(k), slices.Clone(v)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if e.db.ReadOnly() {
		if len(pending) > 0 {
			e.log.Warn("a read-only file holds COPYs to redo; the next writable start redoes them", "copies", len(pending))
		}
		return nil
	}
	if !exists {
		err := e.db.Update(func(tx *storage.Tx) error {
			_, err := tx.CreateSpace(pendingCopiesSpace)
			return err
		})
		if err != nil {
			return err
		}
	}
	e.pendingCopies = true
	for _, kv := range pending {
		if err := e.redoCopy(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// redoCopy runs a pending COPY again, in a transaction that also deletes
// it. A COPY that fails again (as it must have failed before, its client
// never told it succeeded) is deleted alone.
func (e *Engine) redoCopy(key, value []byte) error {
	p, err := decodePendingCopy(value)
	if err != nil {
		return err
	}
	ctx := context.Background()
	// A session as the COPY's was: its user (current_user), then its
	// settings.
	var user string
	for _, kv := range p.settings {
		if kv[0] == "session_authorization" {
			user = kv[1]
		}
	}
	s, err := newSession(e, wire.StartupInfo{User: user})
	if err != nil {
		return err
	}
	defer s.Close()
	for _, kv := range p.settings {
		if err := s.setSetting(kv[0], kv[1], false); err != nil {
			e.log.Warn("redoing a COPY: a session setting no longer applies", "setting", kv[0], "value", kv[1], "err", err)
		}
	}
	redoErr := e.redoCopyIn(ctx, s, p, key)
	if redoErr == nil {
		e.log.Info("redid a COPY whose commit had not reached the disk", "table", p.table, "rows", len(p.tuples))
		return nil
	}
	if !failedOnItsData(redoErr) {
		return redoErr // the server's trouble, not the COPY's: keep it for the next start
	}
	e.log.Warn("a COPY written ahead fails when redone; dropping it", "table", p.table, "rows", len(p.tuples), "err", redoErr)
	return e.dropPendingCopy(key)
}

func (e *Engine) redoCopyIn(ctx context.Context, s *Session, p *pendingCopy, key []byte) error {
	t, err := e.beginTxn(ctx, s, true)
	if err != nil {
		return err
	}
	defer t.rollback()
	cat := t.catalog()
	tbl, ok := cat.TableByOID(p.table)
	if !ok {
		return fmt.Errorf("table %d is gone", p.table)
	}
	schema, _ := cat.SchemaByOID(tbl.Schema)
	if t.commitTS, err = history.NextCommitTime(t.st, p.commitTS); err != nil {
		return err
	}
	x := &execCtx{ctx: ctx, sess: s, tx: t, now: p.txStart, stmtNow: p.stmtStart}
	pc := &planCtx{sess: s, cat: cat, params: &paramSlots{}}
	w, err := pc.newTableWriter(tbl, schema)
	if err != nil {
		return err
	}
	for _, tuple := range p.tuples {
		if len(tuple) != w.width {
			return fmt.Errorf("a row of %d values for a table of %d columns", len(tuple), w.width)
		}
		if _, err := w.insert(x, tuple); err != nil {
			return err
		}
	}
	if err := w.finish(x); err != nil {
		return err
	}
	if err := t.st.Space(pendingCopiesSpace).Delete(key); err != nil {
		return err
	}
	return t.commit()
}

// failedOnItsData reports whether err is a statement's own failure (a
// constraint its rows break, say) rather than the server's: a write error
// (class 58), an internal error or corruption (XX), a lack of resources
// (53).
func failedOnItsData(err error) bool {
	switch pgerror.CodeOf(err)[:2] {
	case "58", "XX", "53":
		return false
	}
	return true
}
