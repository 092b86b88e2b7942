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
