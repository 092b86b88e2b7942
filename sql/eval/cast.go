package eval

import (
	"time"

	"cdcdb/types"
)

// IsRegType reports the object-identifier alias types (regclass, ...),
// whose text forms need the catalog.
func IsRegType(oid types.OID) bool {
	switch oid {
	case types.Regclass, types.Regtype, types.Regnamespace, types.Regproc, types.Regprocedure, types.Regrole, types.Regoper:
		return true
	}
	return false
}

// CastValue converts a non-NULL value between types. x may be nil where no
// session applies (then times use UTC and reg* names are not resolved).
func CastValue(x Context, v types.Value, from, to types.T, explicit bool) (types.Value, error) {
	in := types.Input{Loc: time.UTC}
	if x != nil {
		in = types.Input{Loc: x.Location(), Now: x.TransactionStart()}
	}
	if IsRegType(to.OID) && TypeCategory(from.OID) == 'S' && x != nil {
		return x.ParseRegValue(to.OID, v.(string))
	}
	if IsRegType(from.OID) && TypeCategory(to.OID) == 'S' && x != nil {
		s := x.FormatRegValue(from.OID, v.(int64))
		return types.CastWith(s, types.Of(types.Text), to, explicit, in)
	}
	if IsRegType(to.OID) || IsRegType(from.OID) {
		if n, ok := v.(int64); ok && TypeCategory(to.OID) == 'N' {
			return n, nil
		}
	}
	return types.CastWith(v, from, to, explicit, in)
}

// TypeCategory is PostgreSQL's pg_type.typcategory, which drives implicit
// conversions between types.
func TypeCategory(oid types.OID) byte {
	switch oid {
	case types.Int2, types.Int4, types.Int8, types.Float4, types.Float8, types.Numeric,
		types.Oid, types.Regclass, types.Regtype, types.Regproc, types.Regnamespace, types.Regrole, types.Regprocedure:
		return 'N'
	case types.Text, types.Varchar, types.Bpchar, types.Name, types.Char, types.Unknown:
		return 'S'
	case types.Date, types.Timestamp, types.Timestamptz, types.Time:
		return 'D'
	case types.Interval:
		return 'T'
	case types.Bool:
		return 'B'
	case types.JSON, types.JSONB:
		return 'J'
	case types.UUID:
		return 'U'
	case types.Bytea:
		return 'X'
	case types.Record:
		return 'R'
	}
	if info, ok := types.Lookup(oid); ok && info.ElemOID != 0 {
		return 'A'
	}
	return 'U'
}
