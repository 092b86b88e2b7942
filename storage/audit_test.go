package storage

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestMemtableBackpressure: while the checkpointer cannot keep up (here the
// flusher is held inside a flush), commits must wait once the active layer
// is full and maxFrozenLayers frozen layers wait for their checkpoint, so
// that memtables never hold much more than twice MemtableSize.
func TestMemtableBackpressure(t *testing.T) {
	const memtable = 16 << 10
	db, err := Open(filepath.Join(t.TempDir(), "bp.db"), Options{NoSync: true, MemtableSize: memtable, CheckpointAfterIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	var once sync.Once
	hold := func() error {
		once.Do(func() { <-gate })
		return nil
	}
	db.hookFlush.Store(&hold)
	const writers = 8
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Update(func(tx *Tx) error {
				// Each commit alone fills a memtable.
				for i := range 40 {
					if err := tx.Space("s").Put([]byte(fmt.Sprintf("w%d-%03d", w, i)), bytes.Repeat([]byte{'v'}, 512)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	// Let every writer that is not made to wait commit.
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) && db.queueLen() < writers-1 {
		time.Sleep(5 * time.Millisecond)
	}
	st := db.Stats()
	close(gate)
	wg.Wait()
	t.Logf("while the flusher was held: %d layers, %d bytes in memtables", st.Layers, st.MemtableBytes)
	if st.Layers > maxFrozenLayers+2 || st.MemtableBytes > 4*memtable {
		t.Errorf("%d layers holding %d bytes (MemtableSize %d): commits did not wait for the checkpointer", st.Layers, st.MemtableBytes, memtable)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBeginWriteAfterClose: a write transaction asked for during or after
// Close is refused; it does not wait forever for a writer slot that Close
// keeps.
func TestBeginWriteAfterClose(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "c.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	// One writer waits for the slot while Close waits for it too.
	waiting := make(chan error, 1)
	go func() {
		tx, err := db.Begin(true)
		if err == nil {
			tx.Rollback()
		}
		waiting <- err
	}()
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	time.Sleep(20 * time.Millisecond)
	tx.Rollback()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	after := make(chan error, 1)
	go func() {
		_, err := db.Begin(true)
		after <- err
	}()
	for name, ch := range map[string]chan error{"waiting during Close": waiting, "after Close": after} {
		select {
		case err := <-ch:
			if name == "after Close" && err == nil {
				t.Errorf("Begin(true) %s succeeded", name)
			}
		case <-time.After(2 * time.Second):
			t.Errorf("Begin(true) %s never returned", name)
		}
	}
}
