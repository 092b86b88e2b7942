package sql

import (
	"bytes"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/storage"
	"cdcdb/types"
)

// tableScan reads a table's current rows from its data space. When the
// WHERE clause fixes every primary key column, it reads one key instead of
// scanning.
type tableScan struct {
	table *catalog.Table
	cols  []outCol
	// phys[i] is the stored tuple position of output column i.
	phys   []int
	filter eval.Expr
	// keyExprs, when set, give the value of each primary key column.
	keyExprs []eval.Expr
	// prefixExprs, when set, give the value of each KEYS column of a
	// streaming table: the scan reads only the rows under that key prefix.
	prefixExprs []eval.Expr
	// keyTerms are the filter's conjuncts that the key the scan reads
	// under (keyExprs or prefixExprs) makes true for every row it reads,
	// so they need no evaluating (see keyEquality.exact).
	keyTerms []eval.Expr
	// asOf is the instant of a FOR BUSINESS_TIME AS OF read of an SCD TYPE 2
	// or BITEMPORAL target (single-column period). Under a key prefix the
	// rows follow in business start order (the start is the next part of
	// the storage key, see cdcexec's targetRow), and only rows starting at
	// or before the instant can hold it, so a key range scan stops there.
	// SCD TYPE 2 versions of a key never overlap, so only the last of them
	// can: that scan reads one row, however long the key's history.
	asOf eval.Expr
	// withKey appends each row's storage key as a last, hidden column, for
	// UPDATE and DELETE.
	withKey bool
	// sysTime reads committed versions (FOR SYSTEM_TIME) instead of the
	// current rows.
	sysTime *systemTimeRead
}

func (s *tableScan) copy() *tableScan {
	c := *s
	return &c
}

func newTableScan(t *catalog.Table) *tableScan {
	s := &tableScan{table: t}
	for _, c := range t.LiveColumns() {
		s.cols = append(s.cols, outCol{name: c.Name, t: c.Type, tableOID: t.OID, attnum: c.Attnum})
		s.phys = append(s.phys, int(c.Attnum-1))
	}
	return s
}

func (s *tableScan) columns() []outCol {
	if s.withKey {
		return append(append([]outCol(nil), s.cols...), outCol{name: "ctid", t: types.Of(types.Bytea)})
	}
	return s.cols
}

func (s *tableScan) explain(depth int, out *[]string) {
	name := s.table.Name
	switch {
	case s.sysTime != nil && s.keyExprs != nil && s.sysTime.op == ast.PeriodAsOf:
		explainLine(out, depth, "History Seek using %s on %s (system time %s)", pkIndexName(s.table), name, s.sysTime.op)
	case s.sysTime != nil && s.sysTime.op == ast.PeriodAll:
		explainLine(out, depth, "History Scan on %s (every version)", name)
	case s.sysTime != nil:
		explainLine(out, depth, "History Scan on %s (current rows + versions ended after the lower bound)", name)
	case s.keyExprs != nil:
		explainLine(out, depth, "Index Scan using %s on %s", pkIndexName(s.table), name)
	case s.prefixExprs != nil && s.asOf != nil && s.table.StoredAs == catalog.SCD2:
		explainLine(out, depth, "Key Range Scan on %s (flow keys, last version starting at or before AS OF)", name)
	case s.prefixExprs != nil && s.asOf != nil:
		explainLine(out, depth, "Key Range Scan on %s (flow keys, versions starting at or before AS OF)", name)
	case s.prefixExprs != nil:
		explainLine(out, depth, "Key Range Scan on %s (flow keys)", name)
	case s.keyedAsOf():
		explainLine(out, depth, "Seq Scan on %s (each flow key's last version starting at or before AS OF)", name)
	default:
		explainLine(out, depth, "Seq Scan on %s", name)
	}
	if s.filter != nil {
		explainLine(out, depth+1, "Filter")
	}
}

func pkIndexName(t *catalog.Table) string {
	if t.PrimaryKeyName != "" {
		return t.PrimaryKeyName
	}
	return t.Name + "_pkey"
}

// withFilter attaches a WHERE condition, recognizing primary key equalities.
func (s *tableScan) withFilter(cond eval.Expr) plan {
	c := *s
	if c.filter == nil {
		c.filter = cond
	} else {
		c.filter = &eval.And{L: c.filter, R: cond}
	}
	if len(s.table.PrimaryKey) > 0 && c.keyExprs == nil {
		c.keyExprs, c.keyTerms = c.keyEqualities(s.table.PrimaryKey)
	}
	if len(s.table.PrimaryKey) == 0 && len(s.table.KeyColumns) > 0 && c.prefixExprs == nil {
		c.prefixExprs, c.keyTerms = c.keyEqualities(s.table.KeyColumns)
	}
	return &c
}

// keyEqualities finds, in the filter, an equality for each of the columns
// attnums: the values they give (nil unless every column has one), and
// those of their terms the key makes true (see keyEquality.exact).
func (s *tableScan) keyEqualities(attnums []int16) (vals, implied []eval.Expr) {
	eqs := map[int]keyEquality{}
	collectKeyEqualities(s.filter, eqs)
	for _, attnum := range attnums {
		eq, ok := eqs[s.outputIndex(attnum)]
		if !ok {
			return nil, nil
		}
		vals = append(vals, eq.val)
		if eq.exact {
			implied = append(implied, eq.term)
		}
	}
	return vals, implied
}

// keyEquality is a filter conjunct "column = val", val not reading the
// current row.
type keyEquality struct {
	val  eval.Expr
	term *eval.Compare
	// exact says that a row stored under val's key encoding makes the term
	// true: the column is compared as it is, with a constant or parameter
	// of its own type (see exactKeyEquality). Otherwise (a cast on either
	// side, say bigint = 1.5) the key only narrows what the term still has
	// to decide.
	exact bool
}

// collectKeyEqualities finds conjuncts "column = expression not reading the
// current row", by column index.
func collectKeyEqualities(e eval.Expr, out map[int]keyEquality) {
	switch e := e.(type) {
	case *eval.And:
		collectKeyEqualities(e.L, out)
		collectKeyEqualities(e.R, out)
	case *eval.Compare:
		if e.Op != "=" {
			return
		}
		for _, side := range [2][2]eval.Expr{{e.L, e.R}, {e.R, e.L}} {
			col, val := side[0], side[1]
			cast := false
			if c, ok := col.(*eval.Cast); ok && !c.Explicit {
				col, cast = c.X, true
			}
			ref, ok := col.(*eval.ColRef)
			if !ok || ref.Level != 0 || readsCurrentRow(val) {
				continue
			}
			out[ref.Idx] = keyEquality{val: val, term: e, exact: !cast && exactKeyEquality(ref.T, val)}
			return
		}
	}
}

// exactKeyEquality reports whether a column of type t equals val on every
// row whose key holds val's encoding: val is a constant or parameter of
// type t, and t is a type whose values compare equal whenever their key
// encodings are the same (records are not: a NULL field compares unknown;
// types not listed are left to the filter).
func exactKeyEquality(t types.T, val eval.Expr) bool {
	switch val.(type) {
	case *eval.Const, *eval.Param:
	default:
		return false
	}
	if val.Type().OID != t.OID {
		return false
	}
	switch t.OID {
	case types.Bool, types.Int2, types.Int4, types.Int8, types.Text, types.Varchar,
		types.Date, types.Timestamp, types.Timestamptz, types.UUID:
		return true
	}
	return false
}

func (s *tableScan) outputIndex(attnum int16) int {
	for i, c := range s.cols {
		if c.attnum == attnum {
			return i
		}
	}
	return -1
}

// readsCurrentRow reports whether an expression reads a column of the row
// being filtered (level 0) or is volatile.
func readsCurrentRow(e eval.Expr) bool {
	switch e := e.(type) {
	case *eval.Const, *eval.Param:
		return false
	case *eval.ColRef:
		return e.Level == 0
	case *eval.Cast:
		return readsCurrentRow(e.X)
	case *eval.FuncCall:
		for _, a := range e.Args {
			if readsCurrentRow(a) {
				return true
			}
		}
		return false
	}
	return true
}

func (s *tableScan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	sp := x.tx.st.Space(catalog.DataSpace(s.table.OID))
	if sp == nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "storage for table \"%s\" is missing", s.table.Name)
	}
	it := &scanIter{s: s, x: x, env: eval.Env{Outer: outer, X: x}}
	if s.sysTime != nil {
		if err := x.tx.readTable(s.table); err != nil {
			return nil, err
		}
		return s.openVersions(x, outer)
	}
	if !x.sess.engine.opts.FastPathsOff.StoredRowScans {
		// The general path decodes every row of the range and evaluates
		// the whole filter on it.
		it.periodTests, it.testsCoverFilter = s.storedPeriodTests(&it.env)
	}
	if s.keyExprs != nil {
		key, ok, err := s.pointKey(&it.env)
		if err != nil {
			return nil, err
		}
		it.point = true
		if ok {
			if err := x.tx.readRow(s.table, key); err != nil {
				return nil, err
			}
			if v := sp.Get(key); v != nil {
				it.pointKey, it.pointVal = key, v
			}
		}
		return it, nil
	}
	if err := x.tx.readTable(s.table); err != nil {
		return nil, err
	}
	it.cur = sp.Cursor()
	if s.prefixExprs != nil {
		prefix, ok, err := s.encodeValues(&it.env, s.prefixExprs, s.table.KeyColumns)
		if err != nil {
			return nil, err
		}
		if !ok {
			return &sliceIter{}, nil
		}
		it.prefix = prefix
		if s.asOf != nil {
			at, err := s.asOf.Eval(&it.env)
			if err != nil {
				return nil, err
			}
			if at == nil {
				return &sliceIter{}, nil // AS OF NULL holds no row
			}
			// A bound the key encoding cannot express just leaves the
			// range open: the filter still decides.
			if stop, err := rowcodec.AppendKey(append([]byte(nil), prefix...), at); err == nil {
				it.stop = stop
				it.lastOnly = s.table.StoredAs == catalog.SCD2
			}
		}
	}
	if s.keyedAsOf() && !x.sess.engine.opts.FastPathsOff.StoredRowScans {
		at, err := s.asOf.Eval(&it.env)
		if err == nil && at == nil {
			return &sliceIter{}, nil // AS OF NULL holds no row
		}
		if err == nil {
			// (An error is the filter's to raise, on the first row.)
			it.keyAsOf = newAsOfKeyWalk(it.cur, s.table, at)
		}
	}
	return it, nil
}

// pointKey evaluates the key expressions into a storage key; ok is false
// when a key value is NULL or cannot be a value of the column (no row).
func (s *tableScan) pointKey(env *eval.Env) ([]byte, bool, error) {
	return s.encodeValues(env, s.keyExprs, s.table.PrimaryKey)
}

// encodeValues evaluates key expressions for the columns attnums into an
// order-preserving storage key; ok is false when a value is NULL or cannot
// be a value of its column (no row can match).
func (s *tableScan) encodeValues(env *eval.Env, exprs []eval.Expr, attnums []int16) ([]byte, bool, error) {
	x := env.X
	var key []byte
	for i, e := range exprs {
		v, err := e.Eval(env)
		if err != nil {
			return nil, false, err
		}
		if v == nil {
			return nil, false, nil
		}
		col := s.table.ColumnByAttnum(attnums[i])
		// A char(n) key is stored padded to n, and equals a value of
		// another length that differs only in trailing spaces: padding
		// the value the same way finds it.
		if t := e.Type(); t.OID != col.Type.OID || (t.OID == types.Bpchar && t.Typmod != col.Type.Typmod) {
			if v, err = eval.CastValue(x, v, e.Type(), col.Type, false); err != nil {
				return nil, false, nil
			}
		}
		if key, err = rowcodec.AppendKey(key, v); err != nil {
			return nil, false, err
		}
	}
	return key, true, nil
}

type scanIter struct {
	s      *tableScan
	prefix []byte // when set, only keys with this prefix
	// stop, when set, is the prefix followed by the encoded AS OF instant:
	// keys after it (and not extending it) start later. lastOnly reads
	// just the last key at or before it (see tableScan.asOf).
	stop     []byte
	lastOnly bool
	x        *execCtx
	env      eval.Env
	cur      *storage.Cursor
	started  bool
	point    bool
	pointKey []byte
	pointVal []byte
	done     bool
	// periodTests reject rows on their encoded period before they are
	// decoded (scan_period.go); testsCoverFilter says they and the key
	// decide the whole filter, so a row every test decided for (any row,
	// with no tests) needs no filtering.
	periodTests      []*storedPeriodTest
	testsCoverFilter bool
	// keyAsOf, for a whole-table AS OF read of an SCD TYPE 2 target,
	// yields only each key's last version starting at or before the
	// instant (scan_asof_keys.go).
	keyAsOf *asOfKeyWalk
	// stored is the decoded tuple of the last row and row the row
	// returned for it, in output order; both are reused, as rowIter
	// allows (a caller that keeps a row copies it).
	stored []types.Value
	row    eval.Row
}

func (it *scanIter) next() (eval.Row, error) {
	for {
		k, v, filterHolds, err := it.advance()
		if err != nil || k == nil {
			return nil, err
		}
		row, ok, err := it.decodeAndFilter(k, v, filterHolds)
		if err != nil || ok {
			return row, err
		}
	}
}

// advance moves to the next stored row of the scan's range that its
// period tests do not reject (a nil key at the end). filterHolds reports
// that the tests decided the whole filter holds for the row.
func (it *scanIter) advance() (k, v []byte, filterHolds bool, err error) {
	for {
		switch {
		case it.point:
			if it.done || it.pointVal == nil {
				return nil, nil, false, nil
			}
			it.done = true
			k, v = it.pointKey, it.pointVal
		case it.keyAsOf != nil:
			if k, v, err = it.keyAsOf.next(it.x, it.s.table.Name); err != nil {
				return nil, nil, false, err
			}
		case !it.started && it.lastOnly:
			it.started = true
			if k, v = it.cur.Seek(it.stop); k == nil {
				k, v = it.cur.Last()
			} else if !bytes.HasPrefix(k, it.stop) {
				k, v = it.cur.Prev()
			}
		case !it.started:
			it.started = true
			if it.prefix != nil {
				k, v = it.cur.Seek(it.prefix)
			} else {
				k, v = it.cur.First()
			}
		case it.lastOnly:
			return nil, nil, false, nil
		default:
			k, v = it.cur.Next()
		}
		if k == nil || (it.prefix != nil && !bytes.HasPrefix(k, it.prefix)) ||
			(it.stop != nil && bytes.Compare(k, it.stop) > 0 && !bytes.HasPrefix(k, it.stop)) {
			return nil, nil, false, nil
		}
		if err := it.x.CheckCancel(); err != nil {
			return nil, nil, false, err
		}
		if it.periodTests == nil {
			return k, v, it.testsCoverFilter, nil
		}
		rejected, allHold := it.periodVerdict(v)
		if !rejected {
			return k, v, allHold && it.testsCoverFilter, nil
		}
	}
}

// decodeAndFilter decodes a stored row and applies the scan's filter
// (unless filterHolds already says it holds); ok is false for a row the
// filter rejects.
func (it *scanIter) decodeAndFilter(k, v []byte, filterHolds bool) (row eval.Row, ok bool, err error) {
	if row, err = it.decode(k, v); err != nil {
		return nil, false, err
	}
	if it.s.filter != nil && !filterHolds {
		it.env.Row = row
		holds, err := it.s.filter.Eval(&it.env)
		if err != nil || holds != true {
			return nil, false, err
		}
	}
	return row, true, nil
}

func (it *scanIter) close() {}

// periodVerdict tests the stored row v on its encoded period without
// decoding it: rejected when some test decided against it, allHold when
// every test decided for it.
func (it *scanIter) periodVerdict(v []byte) (rejected, allHold bool) {
	tuple, ok := history.Tuple(v)
	if !ok {
		return false, false
	}
	allHold = true
	for _, t := range it.periodTests {
		holds, decided := t.holds(tuple)
		if decided && !holds {
			return true, false
		}
		allHold = allHold && decided
	}
	return false, allHold
}

// decode turns a stored row into the scan's output row.
func (it *scanIter) decode(k, v []byte) (eval.Row, error) {
	tuple, ok := history.Tuple(v)
	if !ok {
		return nil, pgerror.New(pgerror.DataCorrupted, "corrupt row in table \"%s\": stored row too short", it.s.table.Name)
	}
	stored, err := rowcodec.DecodeRowInto(it.stored, tuple)
	if err != nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "corrupt row in table \"%s\": %v", it.s.table.Name, err)
	}
	it.stored = stored
	it.row = it.s.projectInto(it.row, k, stored)
	return it.row, nil
}

// project lays a stored tuple out as the scan's output row.
func (s *tableScan) project(k []byte, stored []types.Value) eval.Row {
	return s.projectInto(nil, k, stored)
}

// projectInto is project into dst's storage, when it is large enough.
func (s *tableScan) projectInto(dst eval.Row, k []byte, stored []types.Value) eval.Row {
	n := len(s.cols)
	if s.withKey {
		n++
	}
	row := dst
	if cap(row) < n {
		row = make(eval.Row, n)
	}
	row = row[:n]
	for i, p := range s.phys {
		row[i] = nil
		if p < len(stored) {
			row[i] = stored[p]
		}
	}
	if s.withKey {
		row[len(s.cols)] = append([]byte(nil), k...)
	}
	return row
}

// openVersions reads the committed versions a FOR SYSTEM_TIME clause
// selects: one seek per key for AS OF with the whole primary key given,
// otherwise the current rows plus the versions that ended inside or after
// the range (never older history).
func (s *tableScan) openVersions(x *execCtx, outer *eval.Env) (rowIter, error) {
	env := &eval.Env{Outer: outer, X: x}
	from, to, empty, err := s.sysTime.bounds(env)
	if err != nil || empty {
		return &sliceIter{}, err
	}
	var rows []eval.Row
	keep := func(v history.Version) error {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		row := s.project(v.Key, storedTuple(s.table, v.Tuple))
		if s.filter != nil {
			env.Row = row
			ok, err := s.filter.Eval(env)
			if err != nil || ok != true {
				return err
			}
		}
		rows = append(rows, row)
		return nil
	}
	switch {
	case s.sysTime.op == ast.PeriodAsOf && s.keyExprs != nil:
		key, ok, err := s.pointKey(&eval.Env{Outer: outer, X: x})
		if err != nil || !ok {
			return &sliceIter{}, err
		}
		v, found, err := history.GetAsOf(x.tx.st, s.table.OID, key, from)
		if err != nil {
			return nil, err
		}
		if found {
			if err := keep(v); err != nil {
				return nil, err
			}
		}
	case s.sysTime.op == ast.PeriodAsOf:
		err = history.ScanAsOf(x.tx.st, s.table.OID, from, keep)
	default:
		err = history.ScanOverlapping(x.tx.st, s.table.OID, from, to, keep)
	}
	if err != nil {
		return nil, err
	}
	return &sliceIter{rows: rows}, nil
}
