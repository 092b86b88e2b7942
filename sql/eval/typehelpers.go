package eval

import (
	"time"

	"cdcdb/types"
)

func UnknownT() types.T { return types.Of(types.Unknown) }

func BoolT() types.T { return types.Of(types.Bool) }

func TextT() types.T { return types.Of(types.Text) }

func Int8T() types.T { return types.Of(types.Int8) }

func Int4T() types.T { return types.Of(types.Int4) }

// ArrayOf returns the array type whose elements have type t (OID 0 if none).
func ArrayOf(t types.T) types.T {
	info, ok := types.Lookup(t.OID)
	if !ok || info.ArrayOID == 0 {
		return types.T{OID: 0, Typmod: -1}
	}
	return types.T{OID: info.ArrayOID, Typmod: t.Typmod}
}

// TypeName is a type as error messages spell it.
func TypeName(t types.T) string {
	if t.OID == types.Unknown {
		return "unknown"
	}
	return types.FormatType(t)
}

// WallClockUTC keeps t's wall-clock reading as a UTC time: the
// representation of timestamp without time zone.
func WallClockUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}
