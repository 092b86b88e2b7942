package cdcexec

import (
	"math/rand/v2"
	"testing"

	"cdcdb/storage"
)

// BenchmarkApplyInOrder applies batches of 1,000 in-order events over
// 100,000 keys, each key's new events after its stored ones, through a state
// cache that holds every key: the path most of an SCD TYPE 2 feed takes.
// Every key has its first event before the timer starts. ns/op is per event.
func BenchmarkApplyInOrder(b *testing.B) {
	const keys, batch = 100_000, 1000
	db, f := openFlowOf(b, testFlow(100))
	cache := NewStateCache()
	cities := []string{"", "Oaxaca", "Leon", "Puebla", "Toluca", "Merida", "Durango", "Saltillo", "Veracruz", "Morelia"}
	rng := rand.New(rand.NewPCG(1, 2))
	seq := int64(0)
	makeBatch := func(ids func(int) int64) []Event {
		events := make([]Event, batch)
		for i := range events {
			seq++
			events[i] = testEvent(ids(i), seq, cities[rng.IntN(len(cities))])
		}
		return events
	}
	apply := func(events []Event) {
		err := db.Update(func(tx *storage.Tx) error {
			applyCached(b, tx, f, events, cache)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for start := int64(0); start < keys; start += batch {
		apply(makeBatch(func(i int) int64 { return start + int64(i) }))
	}
	if n := cache.len(); n != keys {
		b.Fatalf("%d keys cached, want %d", n, keys)
	}
	b.ResetTimer()
	for done := 0; done < b.N; done += batch {
		b.StopTimer()
		events := makeBatch(func(int) int64 { return rng.Int64N(keys) })
		b.StartTimer()
		apply(events)
	}
}
