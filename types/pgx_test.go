package types

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// TestPgxInterop decodes what AppendBinary and FormatText produce with pgx's
// own codecs and encodes the result again with pgx: pgx must read our bytes
// and write the same bytes back, so pgx and lib/pq clients see PostgreSQL's
// formats.
func TestPgxInterop(t *testing.T) {
	m := pgtype.NewMap()
	n := 0
	for _, l := range readLines(t, "testdata/binary.golden") {
		f := strings.Split(l, "\t")
		typName, input := f[0], f[1]
		typ, _ := parseTypeName(typName)
		if _, ok := m.TypeForOID(uint32(typ.OID)); !ok {
			continue
		}
		v, err := ParseText(typ, input)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := AppendBinary(nil, typ, v)
		if err != nil {
			t.Fatal(err)
		}
		if pgxCannotRoundTrip(typ, v) {
			continue
		}
		// binary -> pgx -> binary
		decoded := scanTarget(typ)
		if err := m.Scan(uint32(typ.OID), pgtype.BinaryFormatCode, ours, decoded); err != nil {
			t.Errorf("%s %q: pgx cannot scan our binary %x: %v", typName, input, ours, err)
			continue
		}
		again, err := m.Encode(uint32(typ.OID), pgtype.BinaryFormatCode, deref(decoded), nil)
		if err != nil {
			t.Errorf("%s %q: pgx cannot encode %#v: %v", typName, input, decoded, err)
			continue
		}
		if !bytes.Equal(again, ours) && !pgxKnownDiff(typ, ours, again) {
			t.Errorf("%s %q: pgx re-encodes our binary\n ours %x\n pgx  %x", typName, input, ours, again)
		}
		// text -> pgx -> binary
		text := FormatText(typ, v)
		fromText := scanTarget(typ)
		if err := m.Scan(uint32(typ.OID), pgtype.TextFormatCode, []byte(text), fromText); err != nil {
			t.Errorf("%s %q: pgx cannot scan our text %q: %v", typName, input, text, err)
			continue
		}
		bin, err := m.Encode(uint32(typ.OID), pgtype.BinaryFormatCode, deref(fromText), nil)
		if err != nil {
			t.Errorf("%s %q: pgx cannot encode %#v: %v", typName, input, fromText, err)
			continue
		}
		if !bytes.Equal(bin, ours) && !pgxKnownDiff(typ, ours, bin) {
			t.Errorf("%s %q: pgx reads our text %q as\n pgx  %x\n ours %x", typName, input, text, bin, ours)
		}
		// pgx's binary -> ours
		back, err := ParseBinary(typ, bin)
		if err != nil {
			t.Errorf("%s %q: ParseBinary(pgx's %x): %v", typName, input, bin, err)
			continue
		}
		if !Equal(typ, back, v) {
			t.Errorf("%s %q: ParseBinary(pgx's bytes) = %s, want %s", typName, input, FormatText(typ, back), text)
		}
		n++
	}
	t.Logf("%d values round-tripped through pgx", n)
	if n < 200 {
		t.Errorf("only %d values checked", n)
	}
}

// pgxCannotRoundTrip names values that pgx, decoding into `any`, cannot
// give back as they were: infinite dates and timestamps (pgx decodes them to
// an InfinityModifier it cannot encode again), multidimensional and empty
// arrays (pgx flattens them to one-dimensional []any) and jsonb arrays (pgx
// unmarshals the elements). The golden test holds those to PostgreSQL's bytes.
func pgxCannotRoundTrip(typ T, v Value) bool {
	if a, ok := v.(ArrayValue); ok {
		if len(a.Dims) > 1 || len(a.Elems) == 0 || a.Elem == JSONB || a.Elem == JSON {
			return true
		}
		for _, e := range a.Elems {
			if pgxCannotRoundTrip(Of(a.Elem), e) {
				return true
			}
		}
	}
	if tm, ok := v.(time.Time); ok && IsInfinite(tm) != 0 {
		return true
	}
	if s, ok := v.(string); ok && typ.OID == Char && s != "" && s[0] >= 0x80 {
		return true // pgx reads "char" text as one byte, not as \ooo
	}
	return false
}

// scanTarget is where pgx decodes a value: JSON into a string, so that pgx
// keeps its bytes instead of unmarshalling them into Go maps.
func scanTarget(typ T) any {
	switch typ.OID {
	case JSON, JSONB:
		return new(string)
	}
	return new(any)
}

func deref(p any) any {
	switch x := p.(type) {
	case *string:
		return *x
	case *any:
		return *x
	}
	return p
}

// pgxKnownDiff accepts the encodings where pgx itself differs from
// PostgreSQL (the golden test holds us to PostgreSQL's bytes).
func pgxKnownDiff(typ T, ours, pgx []byte) bool {
	switch typ.OID {
	case Numeric, NumericArray, Float8, Float8Array, Float4, Float4Array:
		// pgx writes numeric infinities with dscale 0 where PostgreSQL
		// writes 32, drops the scale of zero, and writes Go's NaN (with a
		// payload bit) for float NaN; the values are the same.
		a, err1 := ParseBinary(typ, ours)
		b, err2 := ParseBinary(typ, pgx)
		return err1 == nil && err2 == nil && Equal(typ, a, b)
	}
	return false
}
