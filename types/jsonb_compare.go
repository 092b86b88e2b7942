package types

import (
	"bytes"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// jsonb values are kept as their normalized text, but they compare and
// group as PostgreSQL's jsonb btree opclass orders them, not as text:
// numbers by value (1 = 1.0), and across kinds Null < String < Number <
// Boolean < Array < Object. Objects with more pairs and arrays with more
// elements sort after smaller ones regardless of content; equal sizes
// compare pair by pair (keys in jsonb's storage order, then values) or
// element by element. A top-level scalar is a one-element pseudo-array:
// it sorts after the empty array and before every other array.

// jsonbRank is a node kind's place in the cross-kind order.
func jsonbRank(k byte) int {
	return strings.IndexByte("zsnbao", k)
}

// parseJSONBNode reads a stored jsonb text back into nodes.
func parseJSONBNode(s string) (*jsonNode, bool) {
	p := jsonParser{s: s}
	n, err := p.document(true)
	return n, err == nil
}

// CompareJSONB orders two jsonb texts; text that does not parse (which
// stored jsonb always does) falls back to bytewise order.
func CompareJSONB(a, b string) int {
	na, okA := parseJSONBNode(a)
	nb, okB := parseJSONBNode(b)
	if !okA || !okB {
		return strings.Compare(a, b)
	}
	aRaw, bRaw := na.kind != 'a' && na.kind != 'o', nb.kind != 'a' && nb.kind != 'o'
	switch {
	case aRaw && bRaw:
		return compareJSONBNode(na, nb)
	case aRaw && nb.kind == 'a':
		// The pseudo-array has one element: sizes decide first, so only
		// the empty array sorts before a scalar.
		if len(nb.members) == 0 {
			return 1
		}
		return -1
	case bRaw && na.kind == 'a':
		if len(na.members) == 0 {
			return -1
		}
		return 1
	}
	return compareJSONBNode(na, nb)
}

func compareJSONBNode(a, b *jsonNode) int {
	if ra, rb := jsonbRank(a.kind), jsonbRank(b.kind); ra != rb {
		return cmpInt(int64(ra), int64(rb))
	}
	switch a.kind {
	case 's':
		return strings.Compare(a.str, b.str)
	case 'n':
		x, _, errX := apd.NewFromString(a.str)
		y, _, errY := apd.NewFromString(b.str)
		if errX != nil || errY != nil {
			return strings.Compare(a.str, b.str)
		}
		return compareDecimal(x, y)
	case 'b':
		return strings.Compare(a.str, b.str) // "false" < "true"
	case 'a':
		if len(a.members) != len(b.members) {
			return cmpInt(int64(len(a.members)), int64(len(b.members)))
		}
		for i := range a.members {
			if c := compareJSONBNode(a.members[i], b.members[i]); c != 0 {
				return c
			}
		}
	case 'o':
		if len(a.keys) != len(b.keys) {
			return cmpInt(int64(len(a.keys)), int64(len(b.keys)))
		}
		for i := range a.keys {
			if c := strings.Compare(a.keys[i], b.keys[i]); c != 0 {
				return c
			}
			if c := compareJSONBNode(a.members[i], b.members[i]); c != 0 {
				return c
			}
		}
	}
	return 0
}

// JSONBKey is a jsonb text's grouping identity: its text with every
// number in its shortest form, so that values CompareJSONB finds equal
// (1 and 1.00) group together.
func JSONBKey(s string) string {
	n, ok := parseJSONBNode(s)
	if !ok {
		return s
	}
	var b bytes.Buffer
	canonicalNumbers(n)
	writeJSONB(&b, n)
	return b.String()
}

func canonicalNumbers(n *jsonNode) {
	switch n.kind {
	case 'n':
		if d, _, err := apd.NewFromString(n.str); err == nil {
			d.Reduce(d)
			if d.IsZero() {
				d.Negative = false
			}
			n.str = d.Text('f')
		}
	case 'a', 'o':
		for _, m := range n.members {
			canonicalNumbers(m)
		}
	}
}
