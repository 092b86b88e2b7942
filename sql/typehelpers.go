package sql

import (
	"time"

	"cdcdb/types"
)

func unknownT() types.T { return types.Of(types.Unknown) }

func boolT() types.T { return types.Of(types.Bool) }

func textT() types.T { return types.Of(types.Text) }

func int8T() types.T { return types.Of(types.Int8) }

func int4T() types.T { return types.Of(types.Int4) }

// arrayOf returns the array type whose elements have type t (OID 0 if none).
func arrayOf(t types.T) types.T {
	info, ok := types.Lookup(t.OID)
	if !ok || info.ArrayOID == 0 {
		return types.T{OID: 0, Typmod: -1}
	}
	return types.T{OID: info.ArrayOID, Typmod: t.Typmod}
}

// typeName is a type as error messages spell it.
func typeName(t types.T) string {
	if t.OID == types.Unknown {
		return "unknown"
	}
	return types.FormatType(t)
}

// wallClockUTC keeps t's wall-clock reading as a UTC time: the
// representation of timestamp without time zone.
func wallClockUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}
