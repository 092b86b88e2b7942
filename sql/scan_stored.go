package sql

import (
	"cdcdb/history"
	"cdcdb/rowcodec"
	"cdcdb/sql/eval"
)

// Sending a scan's rows from their stored encoding.
//
// A query that returns a table's columns as they are (SELECT a, b FROM t,
// with any WHERE its period tests decide) spends most of its time turning
// stored rows into values - each boxed in an interface, an allocation
// apiece - only for the result sink to turn them straight back into bytes.
// For such a query the portal asks the plan for rows still in storage's
// encoding instead, one encoded value per output column, and the sink
// writes the common kinds (integers, strings, booleans) from those bytes
// (appendStoredWire), decoding only the values it has no shortcut for. A
// row the scan has to decode anyway - its filter needs evaluating - comes
// back decoded, and is sent the usual way.

// storedRowIter is a rowIter that can yield rows in their stored
// encoding. next and nextStored step through the same rows, so a caller
// may switch from one to the other.
type storedRowIter interface {
	rowIter
	// nextStored returns the next row, either as the stored encodings of
	// its output columns (nil for NULL) or decoded, as next would; both
	// are nil at the end. The slices are valid until the next call.
	nextStored() (encoded [][]byte, row eval.Row, err error)
}

// storedOutput returns it as a storedRowIter when every column it yields
// can come from the stored encoding, or nil.
func storedOutput(it rowIter) storedRowIter {
	p, ok := it.(*projectIter)
	if !ok {
		return nil
	}
	scan, ok := p.in.(*scanIter)
	if !ok {
		return nil
	}
	for _, e := range p.exprs {
		if c, ok := e.(*eval.ColRef); !ok || c.Level != 0 || c.Idx >= len(scan.s.cols) {
			return nil
		}
	}
	sp := &storedProjectIter{projectIter: p, scan: scan}
	sp.positions, sp.values = sp.positionSpace[:0], sp.valueSpace[:0]
	for _, e := range p.exprs {
		sp.positions = append(sp.positions, scan.s.phys[e.(*eval.ColRef).Idx])
	}
	return sp
}

// storedProjectIter is a projection of a scan's columns that can hand
// over their stored encoding.
type storedProjectIter struct {
	*projectIter
	scan *scanIter
	// positions are the stored tuple positions of the output columns
	// (in positionSpace when they fit: one allocation for the iterator).
	positions     []int
	positionSpace [8]int
	// values are the encodings of the last row's stored values, out those
	// of its output columns; both are reused from row to row.
	values, out [][]byte
	// outSpace holds out when it fits, valueSpace values.
	outSpace, valueSpace [8][]byte
}

func (it *storedProjectIter) nextStored() ([][]byte, eval.Row, error) {
	for {
		k, v, filterHolds, err := it.scan.advance()
		if err != nil || k == nil {
			return nil, nil, err
		}
		if it.scan.s.filter == nil || filterHolds {
			if tuple, ok := history.Tuple(v); ok {
				if values, ok := rowcodec.SplitRow(it.values[:0], tuple); ok {
					if it.out == nil {
						// Never nil, which would say the rows ended: a
						// SELECT of no columns still returns its rows.
						it.out = it.outSpace[:0]
					}
					it.values, it.out = values, it.out[:0]
					for _, p := range it.positions {
						var enc []byte
						if p < len(values) {
							enc = values[p]
						}
						it.out = append(it.out, enc)
					}
					return it.out, nil, nil
				}
			}
		}
		// The filter has to see the row, or the row is damaged (decoding
		// reports it): the usual way.
		row, ok, err := it.scan.decodeAndFilter(k, v, filterHolds)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			out, err := it.project(row)
			return nil, out, err
		}
	}
}
