package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// specCase is a worked example of the spec, fed statement by statement; the
// whole target must equal want after each step.
type specCase struct {
	name       string
	bitemporal bool
	steps      []specStep
}

type specStep struct {
	events []changeEvent
	want   []string // rows as rowText gives them, any order
}

// clock turns a time of day of the spec's walk-through into seconds, which
// order as the timestamps do: only order matters to either side.
func clock(hms string) int64 {
	t, err := time.Parse("15:04:05", hms)
	if err != nil {
		panic(err)
	}
	return int64(t.Hour()*3600 + t.Minute()*60 + t.Second())
}

func up(id int64, name, city string, seq, st int64) changeEvent {
	return changeEvent{id: id, name: name, city: city, seq: seq, st: st}
}

func del(id, seq, st int64) changeEvent { return changeEvent{id: id, del: true, seq: seq, st: st} }

// specCases are spec §4's SCD TYPE 2 example (its last two events arrive
// after higher-sequenced ones) plus an identical update, which must add
// nothing; and spec §5's walk-through step by step (name holds DataPoint,
// city stays NULL, times are seconds since midnight), its smaller example,
// and that example again with its events arriving in reverse system order.
func specCases() []specCase {
	c := func(s string) string { return strconv.FormatInt(clock(s), 10) }
	n := "∅"
	scd2 := specCase{name: "spec §4 SCD TYPE 2", steps: []specStep{
		{events: []changeEvent{
			up(124, "Raul", "Oaxaca", 1, 0), up(123, "Isabel", "Monterrey", 1, 0),
			up(125, "Mercedes", "Tijuana", 2, 0), up(126, "Lily", "Cancun", 2, 0),
			del(123, 6, 0), up(125, "Mercedes", "Guadalajara", 6, 0),
		}},
		{events: []changeEvent{up(125, "Mercedes", "Mexicali", 5, 0), up(123, "Isabel", "Chihuahua", 5, 0)},
			want: []string{
				"123|Isabel|Monterrey|1|5", "123|Isabel|Chihuahua|5|6", "124|Raul|Oaxaca|1|" + n,
				"125|Mercedes|Tijuana|2|5", "125|Mercedes|Mexicali|5|6", "125|Mercedes|Guadalajara|6|" + n,
				"126|Lily|Cancun|2|" + n,
			}},
	}}
	// An event identical to the open version adds nothing.
	scd2.steps = append(scd2.steps, specStep{events: []changeEvent{up(124, "Raul", "Oaxaca", 3, 0)}, want: scd2.steps[1].want})

	walk := []string{
		"1|XFv1|" + n + "|" + c("10:01:00") + "|" + n + "|" + c("10:05:00") + "|" + n,
	}
	bi := specCase{name: "spec §5 BITEMPORAL walk-through", bitemporal: true}
	bi.steps = append(bi.steps, specStep{events: []changeEvent{up(1, "XFv1", "", clock("10:01:00"), clock("10:05:00"))}, want: walk})
	bi.steps = append(bi.steps, specStep{events: []changeEvent{up(1, "XFv2", "", clock("12:15:43"), clock("12:20:00"))}, want: []string{
		"1|XFv1|" + n + "|" + c("10:01:00") + "|" + n + "|" + c("10:05:00") + "|" + c("12:20:00"),
		"1|XFv1|" + n + "|" + c("10:01:00") + "|" + c("12:15:43") + "|" + c("12:20:00") + "|" + n,
		"1|XFv2|" + n + "|" + c("12:15:43") + "|" + n + "|" + c("12:20:00") + "|" + n,
	}})
	step3 := []string{
		"1|XFv1|" + n + "|" + c("10:01:00") + "|" + n + "|" + c("10:05:00") + "|" + c("12:20:00"),
		"1|XFv1|" + n + "|" + c("10:01:00") + "|" + c("12:15:43") + "|" + c("12:20:00") + "|" + c("12:25:00"),
		"1|XFv1|" + n + "|" + c("10:01:00") + "|" + c("12:05:00") + "|" + c("12:25:00") + "|" + n,
		"1|XFv3|" + n + "|" + c("12:05:00") + "|" + c("12:15:43") + "|" + c("12:25:00") + "|" + n,
	}
	bi.steps = append(bi.steps, specStep{events: []changeEvent{up(1, "XFv3", "", clock("12:05:00"), clock("12:25:00"))},
		want: append(slices.Clone(step3), "1|XFv2|"+n+"|"+c("12:15:43")+"|"+n+"|"+c("12:20:00")+"|"+n)})
	step4 := append(slices.Clone(step3),
		"1|XFv2|"+n+"|"+c("12:15:43")+"|"+n+"|"+c("12:20:00")+"|"+c("12:30:00"),
		"1|XFv2|"+n+"|"+c("12:15:43")+"|"+c("12:30:00")+"|"+c("12:30:00")+"|"+n,
	)
	bi.steps = append(bi.steps, specStep{events: []changeEvent{del(1, clock("12:30:00"), clock("12:30:00"))}, want: step4})
	// The smaller example, in order (key 2) and in reverse system order (key 3).
	small := func(id string) []string {
		return []string{id + "|x10|y10|10|" + n + "|100|200", id + "|x10|y10|10|20|200|" + n, id + "|x20|y20|20|" + n + "|200|" + n}
	}
	bi.steps = append(bi.steps,
		specStep{events: []changeEvent{up(2, "x10", "y10", 10, 100), up(2, "x20", "y20", 20, 200)},
			want: append(slices.Clone(step4), small("2")...)},
		specStep{events: []changeEvent{up(3, "x20", "y20", 20, 200)}},
		specStep{events: []changeEvent{up(3, "x10", "y10", 10, 100)},
			want: append(append(slices.Clone(step4), small("2")...), small("3")...)},
	)
	return []specCase{scd2, bi}
}

// checkSpecExamples runs every spec case through a fresh cdcdb and through
// the PostgreSQL SQL of pg.go. A benchmark of SQL that gets the spec wrong
// would compare against the wrong thing, so this runs before any timing.
func (b *bench) checkSpecExamples(ctx context.Context) error {
	for _, sc := range specCases() {
		if err := b.checkSpecCase(ctx, sc); err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
	}
	return nil
}

func (b *bench) checkSpecCase(ctx context.Context, sc specCase) error {
	ddl, query := cdcdbSCD2DDL, scd2TargetQuery
	if sc.bitemporal {
		ddl, query = cdcdbBitemporalDDL, bitemporalTargetQuery
	}
	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	cdc, err := pgx.Connect(ctx, srv.url())
	if err != nil {
		return err
	}
	defer cdc.Close(ctx)
	if err := execScript(ctx, cdc, ddl); err != nil {
		return fmt.Errorf("cdcdb DDL: %v", err)
	}
	if err := b.pg.freshDatabase(ctx, "speccheck"); err != nil {
		return err
	}
	pg, err := newPGFlow(ctx, b.pg.URL("speccheck"), sc.bitemporal)
	if err != nil {
		return err
	}
	defer pg.close(ctx)
	for i, step := range sc.steps {
		rows := copyText(nil, step.events, sc.bitemporal)
		// The spec's events have no city; NULL it rather than send ''.
		if sc.bitemporal {
			rows = bytes.ReplaceAll(rows, []byte("\t\tUPSERT"), []byte("\t\\N\tUPSERT"))
		}
		if err := copyEvents(ctx, cdc, rows); err != nil {
			return fmt.Errorf("step %d: cdcdb: %v", i+1, err)
		}
		if err := pg.apply(ctx, rows); err != nil {
			return fmt.Errorf("step %d: PostgreSQL: %v", i+1, err)
		}
		if step.want == nil {
			continue
		}
		want := slices.Clone(step.want)
		slices.Sort(want)
		for _, side := range []struct {
			name string
			conn *pgx.Conn
		}{{"cdcdb", cdc}, {"PostgreSQL", pg.conn}} {
			got, err := tableRows(ctx, side.conn, query)
			if err != nil {
				return fmt.Errorf("step %d: %s: %v", i+1, side.name, err)
			}
			if !slices.Equal(got, want) {
				return fmt.Errorf("step %d: %s's target is not the spec's:\n%s\ngot:\n  %s", i+1, side.name,
					diffRows(got, want, side.name, "the spec", 20), strings.Join(got, "\n  "))
			}
		}
	}
	return nil
}
