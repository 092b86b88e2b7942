package sql_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// BenchmarkFlowIngestCopy copies batches of 1,000 change events (over
// 10,000 keys) into a source read by an SCD TYPE 2 flow; ns/op is per
// batch.
func BenchmarkFlowIngestCopy(b *testing.B) {
	c := sqltest.Open(b).Conn()
	c.CopyChunk = 64 << 10
	c.MustExec("CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec("CREATE FLOW f AS AUTO CDC INTO tgt FROM ev KEYS (id) APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2")
	seq := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var sb strings.Builder
		for j := 0; j < 1000; j++ {
			seq++
			op := "UPDATE"
			if seq%10 == 0 {
				op = "DELETE"
			}
			fmt.Fprintf(&sb, "%d\tname%d\tcity%d\t%s\t%d\n", seq%10000, seq%7, seq%13, op, seq)
		}
		if _, err := c.Copy("COPY ev FROM STDIN", sb.String()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFlowIngestLateFeed replays the shape of cdcbench's ingest
// workloads at a fifth of their size: 200,000 change events over 20,000
// keys, 10% deletes, 20% arriving one to five batches late, COPY batches of
// 1,000, into an SCD TYPE 2 flow and into a BITEMPORAL one (whose feed also
// backdates 15% of its events in business time and corrects 5%). One op is
// the whole feed; events/s is reported.
func BenchmarkFlowIngestLateFeed(b *testing.B) {
	for _, bitemporal := range []bool{false, true} {
		name := "scd2"
		if bitemporal {
			name = "bitemporal"
		}
		b.Run(name, func(b *testing.B) { benchmarkLateFeed(b, bitemporal) })
	}
}

func benchmarkLateFeed(b *testing.B, bitemporal bool) {
	const events, keys, batch = 200_000, 20_000, 1000
	rng := rand.New(rand.NewPCG(1, 2))
	type placed struct {
		line string
		pos  float64
	}
	feed := make([]placed, events)
	businessTimes := map[int][]int{} // per key, for corrections
	for i := range events {
		id := 1 + rng.IntN(keys)
		seq, st := i+1, i+1
		if bitemporal {
			switch r := rng.Float64(); {
			case r < 0.05 && len(businessTimes[id]) > 0:
				seq = businessTimes[id][rng.IntN(len(businessTimes[id]))]
			case r < 0.20:
				seq = max(1, st-1-rng.IntN(2*keys))
			}
			businessTimes[id] = append(businessTimes[id], seq)
		}
		line := fmt.Sprintf("%d\t\\N\t\\N\tDELETE\t%d", id, seq)
		if rng.Float64() >= 0.10 {
			line = fmt.Sprintf("%d\tuser%d\tcity%d\tUPSERT\t%d", id, id, rng.IntN(16), seq)
		}
		if bitemporal {
			line += fmt.Sprintf("\t%d", st)
		}
		pos := float64(i)
		if rng.Float64() < 0.20 {
			pos += float64((1+rng.IntN(5))*batch) + 0.5
		}
		feed[i] = placed{line + "\n", pos}
	}
	slices.SortStableFunc(feed, func(a, b placed) int { return cmp.Compare(a.pos, b.pos) })
	var copies []string
	for start := 0; start < events; start += batch {
		var sb strings.Builder
		for _, p := range feed[start:min(start+batch, events)] {
			sb.WriteString(p.line)
		}
		copies = append(copies, sb.String())
	}
	source := "CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint)"
	flow := "CREATE FLOW f AS AUTO CDC INTO tgt FROM ev KEYS (id) APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2"
	if bitemporal {
		source = "CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint, st bigint)"
		flow = "CREATE FLOW f AS AUTO CDC INTO tgt FROM ev KEYS (id) APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq SYSTEM SEQUENCE BY st COLUMNS * EXCEPT (op, seq, st) STORED AS BITEMPORAL"
	}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		c := sqltest.Open(b).Conn()
		c.CopyChunk = 64 << 10
		c.MustExec(source)
		c.MustExec("CREATE STREAMING TABLE tgt")
		c.MustExec(flow)
		b.StartTimer()
		for _, rows := range copies {
			if _, err := c.Copy("COPY ev FROM STDIN", rows); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
