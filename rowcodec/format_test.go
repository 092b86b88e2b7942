package rowcodec_test

import (
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"cdcdb/rowcodec"
	"cdcdb/rowcodec/rowcodectest"
	"cdcdb/types"
)

var updateFormat = flag.Bool("update-format", false, "record testdata/format.txt again from the current encodings")

// formatFile records the bytes of the key and row encodings of every sample
// value (rowcodectest.RowSamples).
const formatFile = "testdata/format.txt"

// encodingsOf lists the encodings formatFile records, a line each: every
// sample as a one-value row and as an ascending and a descending key, all
// the samples as one row, and some integers as AppendKeyInt writes them.
func encodingsOf(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	samples := rowcodectest.RowSamples()
	for i, v := range samples {
		row, err := rowcodec.EncodeRow(nil, []types.Value{v})
		if err != nil {
			t.Fatalf("sample %d (%#v): EncodeRow: %v", i, v, err)
		}
		asc, err := rowcodec.AppendKey(nil, v)
		if err != nil {
			t.Fatalf("sample %d (%#v): AppendKey: %v", i, v, err)
		}
		desc, err := rowcodec.AppendKeyDesc(nil, v)
		if err != nil {
			t.Fatalf("sample %d (%#v): AppendKeyDesc: %v", i, v, err)
		}
		fmt.Fprintf(&b, "sample %d row %s\n", i, hex.EncodeToString(row))
		fmt.Fprintf(&b, "sample %d key %s\n", i, hex.EncodeToString(asc))
		fmt.Fprintf(&b, "sample %d desc %s\n", i, hex.EncodeToString(desc))
	}
	all, err := rowcodec.EncodeRow(nil, samples)
	if err != nil {
		t.Fatalf("EncodeRow of every sample: %v", err)
	}
	fmt.Fprintf(&b, "all row %s\n", hex.EncodeToString(all))
	for _, n := range []int64{0, 1, -1, 255, 256, -256, -257, math.MaxInt64, math.MinInt64} {
		fmt.Fprintf(&b, "int %d key %s\n", n, hex.EncodeToString(rowcodec.AppendKeyInt(nil, n)))
	}
	return b.String()
}

// TestFormatUnchanged holds the key and row encodings to the bytes recorded
// in testdata/format.txt. Both formats are on disk in every data file, so
// they may change only on purpose, with a conversion of the files written
// before; then record them again with go test ./rowcodec/ -run
// TestFormatUnchanged -update-format.
func TestFormatUnchanged(t *testing.T) {
	got := encodingsOf(t)
	if *updateFormat {
		if err := os.WriteFile(formatFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	wantLines, gotLines := strings.Split(string(raw), "\n"), strings.Split(got, "\n")
	for i := range max(len(wantLines), len(gotLines)) {
		var w, g string
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if w != g {
			t.Errorf("%s line %d:\n got  %s\n want %s", formatFile, i+1, g, w)
		}
	}
}
