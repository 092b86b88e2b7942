package sql

import (
	"testing"
	"time"

	"cdcdb/rowcodec"
	"cdcdb/rowcodec/rowcodectest"
	"cdcdb/types"
)

// TestStoredInstantMatchesDecodedValues: integers and times read from their
// encodings as the instants the decoded values are (valueInstant), NULL as
// NULL, and every other kind as no instant at all.
func TestStoredInstantMatchesDecodedValues(t *testing.T) {
	for _, v := range rowcodectest.RowSamples() {
		row, err := rowcodec.EncodeRow(nil, []types.Value{v})
		if err != nil {
			t.Fatal(err)
		}
		got := storedInstant(row[1:])
		want, isInstant := valueInstant(v)
		switch {
		case v == nil:
			if got.kind != instantNull {
				t.Errorf("NULL read as %+v", got)
			}
		case isInstant && got != want:
			t.Errorf("%v: read as %+v, want %+v", v, got, want)
		case !isInstant && got.kind != instantNone:
			t.Errorf("%v (%T) read as the instant %+v", v, v, got)
		}
	}
	if got := storedInstant(nil); got.kind != instantNull {
		t.Errorf("a position past the tuple read as %+v, not NULL", got)
	}
}

// TestStoredWireMatchesTheDecodedEncoders holds appendStoredWire, which
// formats stored values for the client without decoding them, to the
// encoders of decoded values: for every sample and column type, in text and
// binary, it must give what types.AppendText / types.AppendBinary give, or
// decline. It must not decline the kinds it exists for.
func TestStoredWireMatchesTheDecodedEncoders(t *testing.T) {
	oids := []types.OID{types.Int2, types.Int4, types.Int8, types.Text, types.Varchar, types.Bpchar, types.Name,
		types.Bool, types.Char, types.Float8, types.Numeric, types.Oid, types.Regclass, types.Bytea}
	for _, v := range rowcodectest.RowSamples() {
		tuple, err := rowcodec.EncodeRow(nil, []types.Value{v})
		if err != nil {
			t.Fatal(err)
		}
		vals, ok := rowcodec.SplitRow(nil, tuple)
		if !ok || len(vals) != 1 {
			t.Fatalf("SplitRow(%v) = %d values, %v", v, len(vals), ok)
		}
		for _, oid := range oids {
			typ := types.Of(oid)
			for _, binaryFmt := range []bool{false, true} {
				got, null, ok := appendStoredWire([]byte("prefix"), vals[0], oid, binaryFmt)
				want := fastKind(v, oid)
				if ok != want {
					t.Errorf("%T %v as %s (binary %v): handled %v, want %v", v, v, types.FormatType(typ), binaryFmt, ok, want)
				}
				if !ok {
					continue
				}
				if null != (v == nil) {
					t.Errorf("%v as %s: NULL %v", v, types.FormatType(typ), null)
				}
				wantBytes := []byte("prefix")
				switch {
				case v == nil:
				case binaryFmt:
					if wantBytes, err = types.AppendBinary(wantBytes, typ, v); err != nil {
						t.Fatal(err)
					}
				default:
					wantBytes = types.AppendText(wantBytes, typ, v, time.UTC)
				}
				if string(got) != string(wantBytes) {
					t.Errorf("%T %v as %s (binary %v) = %q, want %q", v, v, types.FormatType(typ), binaryFmt, got, wantBytes)
				}
			}
		}
	}
	// A position past the tuple (a column added after the row) is NULL.
	if _, null, ok := appendStoredWire(nil, nil, types.Int8, false); !ok || !null {
		t.Error("a missing value is not NULL")
	}
}

// fastKind says which values appendStoredWire exists to format itself.
func fastKind(v types.Value, oid types.OID) bool {
	switch v.(type) {
	case nil:
		return true
	case int64:
		return oid == types.Int2 || oid == types.Int4 || oid == types.Int8
	case string:
		return oid == types.Text || oid == types.Varchar || oid == types.Bpchar || oid == types.Name
	case bool:
		return oid == types.Bool
	}
	return false
}
