package sql

import (
	"reflect"
	"testing"
	"time"

	"cdcdb/types"
)

// TestPendingCopyRoundTrip: what a COPY writes ahead decodes to what it
// encoded, NULLs and awkward text included, and a damaged value is refused.
func TestPendingCopyRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 3, 12, 30, 0, 123456000, time.UTC)
	p := &pendingCopy{
		table: 16400, commitTS: at.UnixMicro(), txStart: at, stmtStart: at.Add(time.Millisecond),
		settings: [][2]string{{"datestyle", "German, DMY"}, {"timezone", "America/Mexico_City"}},
		tuples: [][]types.Value{
			{int64(1), "ana", nil, "UPSERT", int64(10)},
			{int64(-2), "tab\there\nand \\N", "Oaxaca", "DELETE", int64(11)},
		},
	}
	b, err := p.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodePendingCopy(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("decoded %+v\nwant %+v", got, p)
	}
	for _, bad := range [][]byte{nil, {2}, b[:len(b)-1], append(append([]byte{}, b...), 0)} {
		if _, err := decodePendingCopy(bad); err == nil {
			t.Errorf("a damaged value of %d bytes decoded", len(bad))
		}
	}
}
