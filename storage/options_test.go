package storage

import (
	"path/filepath"
	"testing"
	"time"
)

// TestOptionsZeroIsTheDefault: a size left at zero is its Default, one
// given is taken as it is, NoBlockCache keeps no cache, and what has no
// meaning (a negative size or duration) is refused rather than read as the
// default.
func TestOptionsZeroIsTheDefault(t *testing.T) {
	open := func(opts Options) (*DB, error) {
		t.Helper()
		opts.NoSync = true
		db, err := Open(filepath.Join(t.TempDir(), "o.db"), opts)
		if err == nil {
			t.Cleanup(func() { db.Close() })
		}
		return db, err
	}
	db, err := open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if db.memtable != DefaultMemtableSize || db.idleAfter != DefaultCheckpointAfterIdle {
		t.Errorf("zero Options: memtable %d, idle %v; want %d, %v", db.memtable, db.idleAfter, DefaultMemtableSize, DefaultCheckpointAfterIdle)
	}
	if db.blockCache == nil || db.blockCache.shards[0].limit*blockCacheShards != DefaultBlockCacheSize {
		t.Error("zero Options: no block cache of DefaultBlockCacheSize")
	}

	db, err = open(Options{MemtableSize: 8 << 20, BlockCacheSize: 16 << 20, CheckpointAfterIdle: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if db.memtable != 8<<20 || db.idleAfter != time.Minute || db.blockCache.shards[0].limit*blockCacheShards != 16<<20 {
		t.Errorf("given sizes not taken: memtable %d, idle %v", db.memtable, db.idleAfter)
	}

	db, err = open(Options{BlockCacheSize: NoBlockCache})
	if err != nil {
		t.Fatal(err)
	}
	if db.blockCache != nil {
		t.Error("NoBlockCache: a block cache was made")
	}

	for _, bad := range []Options{
		{MemtableSize: -1}, {MmapSize: -1}, {CheckpointAfterIdle: -time.Second}, {BlockCacheSize: -2},
	} {
		if _, err := open(bad); err == nil {
			t.Errorf("%+v: opened, want an error", bad)
		}
	}
}
