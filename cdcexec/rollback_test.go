package cdcexec

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"cdcdb/history"
)

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// TestRolledBackBatchIsNotKept: a flow's cache must not keep a rolled-back
// transaction's buffers (its write set, log record and the memtable layers
// of its view) alive until the flow's next batch.
func TestRolledBackBatchIsNotKept(t *testing.T) {
	db, f := openFlow(t)
	cache := NewStateCache()
	base := heapInUse()
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	target, err := history.Open(tx, uint32(f.Target.OID), 1, true, true)
	if err != nil {
		t.Fatal(err)
	}
	city := strings.Repeat("x", 400)
	var batch []Event
	for i := range 50000 {
		batch = append(batch, testEvent(int64(i), 1, city))
	}
	if _, err := Apply(context.Background(), tx, f, target, batch, cache, nil); err != nil {
		t.Fatal(err)
	}
	batch, target = nil, nil
	during := heapInUse() - base
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	tx = nil
	after := max(heapInUse()-base, 0) // the heap can end below where it started
	t.Logf("heap over the start: %d MiB with the batch applied, %d MiB after its rollback", during>>20, after>>20)
	if after > during/4 {
		t.Errorf("%d MiB still in use after the rollback (%d MiB during it)", after>>20, during>>20)
	}
	runtime.KeepAlive(cache)
}
