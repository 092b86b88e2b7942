package sql

import (
	"math"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// nextval, currval, setval and lastval over the sequences of serial
// columns (cdcdb has no free-standing sequences). ORMs call them to read a
// new key or to move a sequence past rows loaded with explicit keys
// (SELECT setval(pg_get_serial_sequence('t', 'id'), max(id)) FROM t).
//
// nextval and setval change the database, so a query calling them runs in
// a write transaction (planCtx.writes); like every change in cdcdb, a
// rollback undoes them, but a rollback to a savepoint does not, as in
// PostgreSQL (savepoint.go). currval and lastval report what this session drew,
// as in PostgreSQL.

func init() {
	writing := func(name string, params ...types.OID) func(eval.Binder, []eval.Expr) ([]eval.Expr, types.T, error) {
		sig := sequenceSignature(params...)
		return func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			out, t, err := sig(b, args)
			if err == nil {
				pc := b.(*binder).pc
				pc.writesBy = name
				if name == "nextval" && mayDrawFreeSequence(pc, out[0]) { // ddl_sequence.go
					pc.drawsFreeSequence = true
				}
			}
			return out, t, err
		}
	}
	builtins.Register("nextval", &builtins.Func{Resolve: writing("nextval", types.Regclass), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		s, err := serialSequenceArg(x, a[0])
		if err != nil {
			return nil, err
		}
		if s.Free != nil {
			return nextFree(x, s) // ddl_sequence.go
		}
		return nextSerial(x, s.Table, s.Column)
	}})
	builtins.Register("currval", &builtins.Func{Resolve: sequenceSignature(types.Regclass), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		s, err := serialSequenceArg(x, a[0])
		if err != nil {
			return nil, err
		}
		v, ok := x.sess.seqValues[s.OID]
		if !ok {
			return nil, pgerror.New(pgerror.ObjectNotInPrerequisiteState, "currval of sequence \"%s\" is not yet defined in this session", s.Name)
		}
		return v, nil
	}})
	builtins.Register("lastval", &builtins.Func{Resolve: builtins.Signature(types.Int8), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		if x.sess.lastSeq == 0 {
			return nil, pgerror.New(pgerror.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
		}
		return x.sess.seqValues[x.sess.lastSeq], nil
	}})
	setval := func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		s, err := serialSequenceArg(x, a[0])
		if err != nil {
			return nil, err
		}
		v := a[1].(int64)
		called := len(a) < 3 || a[2].(bool)
		if s.Free != nil {
			return v, setvalFree(x, s, v, called) // ddl_sequence.go
		}
		hi := serialMax(s.Column.Type.OID)
		if v < 1 || v > hi {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence \"%s\" (1..%d)", v, s.Name, hi)
		}
		sp := x.tx.st.Space(sequenceSpace(s.Table.OID, s.Column.Attnum))
		if sp == nil {
			return nil, pgerror.New(pgerror.DataCorrupted, "sequence \"%s\" is missing", s.Name)
		}
		next := uint64(v)
		if !called {
			next-- // the next nextval returns v itself
		}
		if err := sp.RestartSequence(next); err != nil {
			return nil, err
		}
		x.tx.noteSequence(sequenceSpace(s.Table.OID, s.Column.Attnum), next)
		if called {
			x.sess.noteSequence(s.OID, v, false)
		}
		return v, nil
	}
	builtins.Register("setval", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 3 {
			return writing("setval", types.Regclass, types.Int8, types.Bool)(b, args)
		}
		return writing("setval", types.Regclass, types.Int8)(b, args)
	}, Strict: true, Call: setval})
}

// sequenceSignature is signature(int8, params...) whose first argument
// names a sequence: a name that resolves to no relation is reported as
// such (42P01 at the literal), not as a missing function.
func sequenceSignature(params ...types.OID) func(eval.Binder, []eval.Expr) ([]eval.Expr, types.T, error) {
	sig := builtins.Signature(types.Int8, params...)
	return func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == len(params) {
			if _, err := b.Coerce(args[0], types.Of(types.Regclass)); err != nil && pgerror.CodeOf(err) != pgerror.DatatypeMismatch {
				return nil, types.T{}, err
			}
		}
		return sig(b, args)
	}
}

// serialMax is the largest value of a serial column's sequence: its
// type's maximum, as for PostgreSQL's serial, smallserial and bigserial.
func serialMax(t types.OID) int64 {
	switch t {
	case types.Int2:
		return math.MaxInt16
	case types.Int4:
		return math.MaxInt32
	}
	return math.MaxInt64
}

// serialSequenceArg resolves a regclass argument to a serial sequence; a
// relation that is not one is refused as PostgreSQL refuses a table.
func serialSequenceArg(x *execCtx, v types.Value) (catalogviews.SerialSequence, error) {
	oid := uint32(v.(int64))
	cat := x.catalogOf()
	if s, ok := catalogviews.SequenceByOID(cat, oid); ok {
		return s, nil
	}
	if t, ok := cat.TableByOID(oid); ok {
		return catalogviews.SerialSequence{}, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a sequence", t.Name)
	}
	return catalogviews.SerialSequence{}, pgerror.New(pgerror.UndefinedTable, "could not open relation with OID %d", oid)
}

// noteSequence records a value this session drew from (or, with setval,
// set on) a sequence, for currval; drawn values also become lastval's.
func (s *Session) noteSequence(seq uint32, v int64, drawn bool) {
	if s == nil {
		return
	}
	if s.seqValues == nil {
		s.seqValues = map[uint32]int64{}
	}
	s.seqValues[seq] = v
	if drawn {
		s.lastSeq = seq
	}
}

// noteSerialDrawn is noteSequence for a value nextSerial drew for column c
// of table t.
func (x *execCtx) noteSerialDrawn(t *catalog.Table, c *catalog.Column, v int64) {
	x.sess.noteSequence(catalogviews.SequenceOID(t.OID, c.Attnum), v, true)
}
