package sql

import (
	"context"
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/storage"
)

// txn is one storage transaction with the catalog it sees. A write txn
// holds the engine's writer slot until it ends.
type txn struct {
	engine *Engine
	st     *storage.Tx
	cat    *catalog.Snapshot
	editor *catalog.Editor
	writer bool
	start  time.Time
	// afterCommit runs once the storage commit succeeded (e.g. to publish
	// flow statistics).
	afterCommit []func()
}

// beginTxn starts a storage transaction; a writable one first waits (with
// ctx) for the writer slot.
func (e *Engine) beginTxn(ctx context.Context, writable bool) (*txn, error) {
	if writable {
		if err := e.acquireWriter(ctx); err != nil {
			return nil, err
		}
	}
	st, err := e.db.Begin(writable)
	if err != nil {
		if writable {
			e.releaseWriter()
		}
		return nil, err
	}
	cat, err := e.catalogFor(st)
	if err != nil {
		_ = st.Rollback()
		if writable {
			e.releaseWriter()
		}
		return nil, err
	}
	return &txn{engine: e, st: st, cat: cat, writer: writable, start: time.Now()}, nil
}

// catalog is the catalog this transaction reads, including its own DDL.
func (t *txn) catalog() *catalog.Snapshot {
	if t.editor != nil {
		return t.editor.Snapshot()
	}
	return t.cat
}

// edit returns the transaction's catalog editor, starting one on first use.
func (t *txn) edit() (*catalog.Editor, error) {
	if !t.writer {
		return nil, pgerror.New(pgerror.InternalError, "catalog change in a read-only transaction")
	}
	if t.editor == nil {
		ed, err := t.cat.Edit(t.st)
		if err != nil {
			return nil, err
		}
		t.editor = ed
	}
	return t.editor, nil
}

func (t *txn) commit() error {
	if t.st == nil {
		return nil
	}
	err := t.st.Commit()
	if err == nil && t.editor != nil {
		t.engine.installCatalog(t.editor.Snapshot())
	}
	t.finish()
	if err != nil {
		return pgerror.New(pgerror.InternalError, "could not commit: %v", err)
	}
	for _, f := range t.afterCommit {
		f()
	}
	return nil
}

func (t *txn) rollback() {
	if t.st == nil {
		return
	}
	_ = t.st.Rollback()
	t.finish()
}

func (t *txn) finish() {
	t.st = nil
	if t.writer {
		t.writer = false
		t.engine.releaseWriter()
	}
}

// catalogSnapshot is the latest committed catalog.
func (e *Engine) catalogSnapshot() *catalog.Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cat
}
