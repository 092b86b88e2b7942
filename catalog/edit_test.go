package catalog_test

import (
	"testing"

	"cdcdb/catalog"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
)

// TestEditorRollbackTo: an editor rolled back to a mark has the schemas
// it had then, under a new generation, and its storage rolled back to the
// same point holds the same; a mark serves more than once.
func TestEditorRollbackTo(t *testing.T) {
	db := storagetest.Open(t)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	ed, err := catalog.Empty().Edit(tx)
	if err != nil {
		t.Fatal(err)
	}
	add := func(name string) {
		t.Helper()
		oid, err := ed.NewOID()
		if err != nil {
			t.Fatal(err)
		}
		if err := ed.PutSchema(&catalog.Schema{OID: oid, Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	has := func(name string) bool {
		_, ok := ed.Snapshot().Schema(name)
		return ok
	}
	add("kept")
	mark, smark := ed.Mark(), mustMark(t, tx)
	for round := 0; round < 2; round++ {
		gen := ed.Snapshot().Generation()
		add("lost")
		kept, _ := ed.Snapshot().Schema("kept")
		if err := ed.DropSchema(kept.OID); err != nil {
			t.Fatal(err)
		}
		if err := tx.RollbackTo(smark); err != nil {
			t.Fatal(err)
		}
		ed.RollbackTo(mark)
		if !has("kept") || has("lost") {
			t.Fatalf("round %d: after RollbackTo kept=%v lost=%v", round, has("kept"), has("lost"))
		}
		if ed.Snapshot().Generation() == gen {
			t.Errorf("round %d: the generation did not change", round)
		}
	}
	// The OID the rolled-back schema took is given out again, as storage
	// forgot it too.
	add("again")
	again, _ := ed.Snapshot().Schema("again")
	kept, _ := ed.Snapshot().Schema("kept")
	if again.OID != kept.OID+1 {
		t.Errorf("OIDs: kept %d, again %d", kept.OID, again.OID)
	}
}

func mustMark(t *testing.T, tx *storage.Tx) storage.Mark {
	t.Helper()
	m, err := tx.Mark()
	if err != nil {
		t.Fatal(err)
	}
	return m
}
