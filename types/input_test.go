package types

import (
	"testing"
	"time"
)

// TestInputNowIsTheGivenMoment: with Input.Now set, 'now', 'today',
// 'tomorrow' and 'yesterday' are that moment (in the input's zone) for every
// date and time type, in arrays and through text casts alike.
func TestInputNowIsTheGivenMoment(t *testing.T) {
	mx, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		t.Fatal(err)
	}
	// 2025-07-18 01:30:00.123456 in Mexico City is 07:30 UTC.
	moment := time.Date(2025, 7, 18, 7, 30, 0, 123456789, time.UTC)
	in := Input{Loc: mx, Now: moment}
	day := time.Date(2025, 7, 18, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		t    OID
		text string
		want Value
	}{
		{Timestamptz, "now", moment.Truncate(time.Microsecond)},
		{Timestamp, "now", time.Date(2025, 7, 18, 1, 30, 0, 123456000, time.UTC)},
		{Date, "today", day},
		{Date, "now", day},
		{Date, "tomorrow", day.AddDate(0, 0, 1)},
		{Date, "yesterday", day.AddDate(0, 0, -1)},
		{Timestamptz, "today", time.Date(2025, 7, 18, 6, 0, 0, 0, time.UTC)}, // local midnight
		{Time, "now", TimeOfDay(((1*60+30)*60)*1e6 + 123456)},
	}
	for _, c := range cases {
		got, err := ParseTextWith(Of(c.t), c.text, in)
		if err != nil || !Equal(Of(c.t), got, c.want) {
			t.Errorf("%s '%s': %v (%v), want %v", sqlName(c.t), c.text, got, err, c.want)
		}
		cast, err := CastWith(c.text, Of(Text), Of(c.t), true, in)
		if err != nil || !Equal(Of(c.t), cast, c.want) {
			t.Errorf("'%s'::text::%s: %v (%v), want %v", c.text, sqlName(c.t), cast, err, c.want)
		}
	}
	arr, err := ParseTextWith(Of(TimestamptzArray), "{now,today}", in)
	if err != nil {
		t.Fatal(err)
	}
	if a := arr.(ArrayValue); !Equal(Of(Timestamptz), a.Elems[0], moment.Truncate(time.Microsecond)) || !Equal(Of(Timestamptz), a.Elems[1], time.Date(2025, 7, 18, 6, 0, 0, 0, time.UTC)) {
		t.Errorf("'{now,today}'::timestamptz[]: %v", a.Elems)
	}
	// Without a moment, 'now' is the clock.
	before := time.Now().Add(-time.Second)
	got, err := ParseTextWith(Of(Timestamptz), "now", Input{Loc: mx})
	if err != nil || got.(time.Time).Before(before) {
		t.Errorf("'now' without Input.Now: %v (%v), want the clock", got, err)
	}
}
