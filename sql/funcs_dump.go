package sql

import (
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/catalogviews"
	"cdcdb/types"
)

// The statements and binding pg_dump uses that other clients rarely do
// (its functions are catalogviews').

// lockTable is LOCK TABLE. cdcdb takes no table locks; what pg_dump asks of
// ACCESS SHARE MODE, that the tables it dumps stay as they were for the
// rest of its transaction, a REPEATABLE READ or SERIALIZABLE transaction's
// snapshot already gives (a DROP or ALTER committed meanwhile is not in
// it), so that mode is accepted there and every other use refused rather
// than ignored.
func (x *execCtx) lockTable(st *ast.LockTable) error {
	if x.sess.block == nil || x.sess.block.implicit {
		return pgerror.New(pgerror.NoActiveSQLTransaction, "LOCK TABLE can only be used in transaction blocks")
	}
	pc := x.planCtx()
	for _, q := range st.Tables {
		t, _, err := pc.lookupRelation(q)
		if err != nil {
			return err
		}
		// PostgreSQL's LockTableAclCheck for ACCESS SHARE: any of these.
		if !x.sess.holdsAnyTablePrivilege(x.tx.catalog(), t, catalog.PrivSelect, catalog.PrivUpdate, catalog.PrivDelete, catalog.PrivTruncate) {
			return permissionDenied(t)
		}
	}
	if st.Mode != "ACCESS SHARE" {
		return pgerror.New(pgerror.FeatureNotSupported, "LOCK TABLE IN %s MODE is not supported", st.Mode).WithPosition(st.Pos + 1).
			WithHint("cdcdb takes no table locks; only ACCESS SHARE MODE, in a REPEATABLE READ or SERIALIZABLE transaction, is accepted.")
	}
	if x.sess.block.modes.isolation < repeatableRead {
		return pgerror.New(pgerror.FeatureNotSupported, "LOCK TABLE IN ACCESS SHARE MODE is supported only in a REPEATABLE READ or SERIALIZABLE transaction").WithPosition(st.Pos + 1).
			WithHint("cdcdb takes no table locks; such a transaction's snapshot keeps the tables it reads as they were.")
	}
	return nil
}

// tableOID binds the system column tableoid, which pg_dump reads from
// every catalog it queries: the OID of the table a row comes from. cdcdb
// has no inheritance, so it is a constant of each relation in the FROM
// clause (of this query level or an outer one) that is a table or a
// system catalog; a view, a subquery or a function in FROM has none. ok is
// false when no such relation has the name.
func (b *binder) tableOID(e *ast.ColumnRef) (x eval.Expr, ok bool, err error) {
	var relName string
	if len(e.Parts) >= 2 {
		relName = e.Parts[len(e.Parts)-2]
	}
	for sc := b.sc; sc != nil; sc = sc.parent {
		if sc.probe {
			continue
		}
		var found []uint32
		for _, r := range sc.rels {
			if relName != "" && r.name != relName {
				continue
			}
			if oid := r.relOID; oid != 0 {
				found = append(found, oid)
			}
		}
		switch {
		case len(found) > 1:
			return nil, false, pgerror.New(pgerror.AmbiguousColumn, "column reference \"tableoid\" is ambiguous").WithPosition(e.Pos + 1)
		case len(found) == 1:
			return &eval.Const{V: int64(found[0]), T: types.Of(types.Oid)}, true, nil
		}
	}
	return nil, false, nil
}

// nameLength is PostgreSQL's NAMEDATALEN: a name is a fixed array of that
// many "char"s, NUL-padded.
const nameLength = 64

// bindNameSubscript binds name[i]: PostgreSQL stores a name as a fixed
// array of 64 "char"s indexed from 0, so name[i] is its byte i ("" past its
// end, where the padding is NUL, and NULL outside 0..63). pg_dump asks
// typname[0] = '_' to find array types. A name has no slices.
func (b *binder) bindNameSubscript(e *ast.Subscript, x eval.Expr) (eval.Expr, error) {
	if e.Slice {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "slices of fixed-length arrays not implemented").WithPosition(e.Pos + 1)
	}
	idx, err := b.bindAs(e.Index, eval.Int4T(), "array subscript")
	if err != nil {
		return nil, err
	}
	return &eval.FuncCall{Name: "name_subscript", Args: []eval.Expr{x, idx}, Strict: true, T: types.Of(types.Char),
		Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
			s, i := a[0].(string), a[1].(int64)
			switch {
			case i < 0 || i >= nameLength:
				return nil, nil
			case i >= int64(len(s)):
				return "", nil
			}
			return s[i : i+1], nil
		}}, nil
}

// planSequenceRelation reads a sequence as a relation, as pg_dump does
// (SELECT last_value, is_called FROM seq): one row, whose last_value is
// the last value drawn and is_called true, or, before the first (or after
// setval(..., false) or RESTART), the next value and false; log_cnt, the values PostgreSQL has logged ahead, is
// 0, as cdcdb logs none. notFound is lookupTable's error for the name; ok
// is false when no sequence has the name either.
func (pc *planCtx) planSequenceRelation(t *ast.TableRef, notFound error) (p plan, rels []*scopeRel, ok bool, err error) {
	if pgerror.CodeOf(notFound) != pgerror.UndefinedTable || len(t.Name.Parts) > 2 {
		return nil, nil, false, nil
	}
	name := t.Name.Name()
	schemas := pc.searchPath()
	if s := pc.schemaName(t.Name.Schema()); s != "" {
		schemas = []string{s}
	}
	seqs := catalogviews.SerialSequences(pc.cat)
	for _, sname := range schemas {
		sc, found := pc.cat.Schema(sname)
		if !found {
			continue
		}
		for _, seq := range seqs {
			if seq.Schema != sc.OID || seq.Name != name {
				continue
			}
			if len(t.Periods) > 0 {
				return nil, nil, false, periodOnNonTemporal(t)
			}
			tf := &builtins.SetFunc{Gen: func(ec eval.Context, _ []types.Value) ([]eval.Row, error) {
				last, called, err := sequencePosition(stmtOf(ec), seq) // ddl_sequence.go
				if err != nil {
					return nil, err
				}
				return []eval.Row{{last, int64(0), called}}, nil
			}}
			cols := make([]outCol, len(catalogviews.SequenceColumns))
			for i, c := range catalogviews.SequenceColumns {
				cols[i] = outCol{name: c.Name, t: c.Type, tableOID: seq.OID, attnum: int16(i + 1)}
			}
			rel := relFromColumns(name, cols)
			rel.schema, rel.relOID = sc.Name, seq.OID
			if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
				return nil, nil, false, err
			}
			return &tableFuncScan{name: name, tf: tf, cols: cols}, []*scopeRel{rel}, true, nil
		}
	}
	return nil, nil, false, nil
}

// sequenceLastValue is the last value a sequence drew, or NULL before the
// first or after setval(..., false) or RESTART (pg_sequence_last_value).
func sequenceLastValue(x *execCtx, s catalogviews.SerialSequence) types.Value {
	last, called, err := sequencePosition(x, s) // ddl_sequence.go
	if err != nil || !called {
		return nil
	}
	return last
}
