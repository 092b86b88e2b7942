package main

import (
	"math/rand/v2"
	"slices"
	"strconv"
)

// changeEvent is one row of a CDC feed: a key's new values or its deletion,
// with its business sequence (seq) and, for BITEMPORAL feeds, the system
// sequence at which the source learned it (st).
type changeEvent struct {
	id   int64
	name string
	city string
	del  bool
	seq  int64
	st   int64
}

// feedShape says how to generate a feed. Every field is part of the
// workload's definition, so the same shape gives the same events byte for
// byte on every run and machine.
type feedShape struct {
	events, keys int
	batch        int     // events per COPY
	deletes      float64 // fraction of events that are deletes
	late         float64 // fraction arriving late
	maxLate      int     // late events arrive 1..maxLate batches after their place
	bitemporal   bool
	seed         uint64
}

// cities is small on purpose: an update that draws the city the key already
// has is an identical event, which must add no SCD2 version. With 16 cities
// about one update in sixteen exercises that rule.
var cities = []string{
	"Oaxaca", "Monterrey", "Tijuana", "Cancun", "Guadalajara", "Mexicali", "Chihuahua", "Puebla",
	"Merida", "Leon", "Queretaro", "Toluca", "Morelia", "Durango", "Saltillo", "Veracruz",
}

// generate returns the feed in arrival order, cut into COPY batches.
//
// Events are first made in "natural" order: event i has business sequence
// i+1 and, in a bitemporal feed, system sequence i+1. A bitemporal feed then
// moves some business times earlier: 15% are backdated (the source learns of
// a change after the fact, landing between the key's earlier versions) and 5%
// restate the business time of an earlier event of the same key (a
// correction, which must supersede that event from its system time on).
//
// Arrival: a late event is moved 1..maxLate batches after its natural place,
// so batches hold events older than ones already applied — for a bitemporal
// feed, older on both axes, which makes cdcdb rewrite system history.
func generate(s feedShape) [][]changeEvent {
	rng := rand.New(rand.NewPCG(s.seed, 0x5eed_cdcb))
	type placed struct {
		ev  changeEvent
		pos float64
	}
	all := make([]placed, s.events)
	var bts map[int64][]int64 // a key's business times so far, for corrections
	if s.bitemporal {
		bts = make(map[int64][]int64)
	}
	backWindow := int64(2 * s.keys) // about two of a key's events back
	for i := range s.events {
		id := int64(1 + rng.IntN(s.keys))
		ev := changeEvent{id: id, seq: int64(i + 1), st: int64(i + 1)}
		if rng.Float64() < s.deletes {
			ev.del = true
		} else {
			ev.name = "user" + strconv.FormatInt(id, 10)
			if rng.IntN(10) == 0 {
				ev.name += "-renamed"
			}
			ev.city = cities[rng.IntN(len(cities))]
		}
		if s.bitemporal {
			switch r := rng.Float64(); {
			case r < 0.05 && len(bts[id]) > 0:
				prev := bts[id]
				ev.seq = prev[rng.IntN(len(prev))]
			case r < 0.20:
				ev.seq = max(1, ev.st-1-rng.Int64N(backWindow))
			}
			bts[id] = append(bts[id], ev.seq)
		}
		pos := float64(i)
		if rng.Float64() < s.late {
			pos += float64((1+rng.IntN(s.maxLate))*s.batch) + 0.5
		}
		all[i] = placed{ev, pos}
	}
	slices.SortStableFunc(all, func(a, b placed) int {
		switch {
		case a.pos < b.pos:
			return -1
		case a.pos > b.pos:
			return 1
		}
		return 0
	})
	var batches [][]changeEvent
	for start := 0; start < len(all); start += s.batch {
		end := min(start+s.batch, len(all))
		b := make([]changeEvent, 0, end-start)
		for _, p := range all[start:end] {
			b = append(b, p.ev)
		}
		batches = append(batches, b)
	}
	return batches
}

// copyText encodes a batch as COPY text format rows: id, name, city, op, seq
// and, for bitemporal feeds, st. Deletes carry NULL values, as in the spec's
// examples.
func copyText(dst []byte, batch []changeEvent, bitemporal bool) []byte {
	for _, e := range batch {
		dst = strconv.AppendInt(dst, e.id, 10)
		dst = append(dst, '\t')
		if e.del {
			dst = append(dst, `\N`+"\t"+`\N`+"\tDELETE\t"...)
		} else {
			dst = append(dst, e.name...)
			dst = append(dst, '\t')
			dst = append(dst, e.city...)
			dst = append(dst, "\tUPSERT\t"...)
		}
		dst = strconv.AppendInt(dst, e.seq, 10)
		if bitemporal {
			dst = append(dst, '\t')
			dst = strconv.AppendInt(dst, e.st, 10)
		}
		dst = append(dst, '\n')
	}
	return dst
}
