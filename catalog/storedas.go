package catalog

import "strings"

// StoredAs is the form of a flow's target (STORED AS): how the target
// keeps a key's history. A table no flow writes has none ("").
type StoredAs string

// The three target forms, by their names in STORED AS, which is how the
// catalog file keeps them and how cdcdb.flows shows them.
const (
	SCD1       StoredAs = "SCD TYPE 1" // the latest version of each key
	SCD2       StoredAs = "SCD TYPE 2" // each key's versions over business time
	Bitemporal StoredAs = "BITEMPORAL" // business time and the system's beliefs
)

// StoredAsNamed reads a STORED AS clause as written, in any case; no
// clause ("") is the default, SCD TYPE 1.
func StoredAsNamed(written string) (StoredAs, bool) {
	switch f := StoredAs(strings.ToUpper(written)); f {
	case "":
		return SCD1, true
	case SCD1, SCD2, Bitemporal:
		return f, true
	}
	return "", false
}

// KeepsHistory reports whether the form keeps a key's past versions
// (SCD TYPE 2 and BITEMPORAL), that is, has business-time periods.
func (f StoredAs) KeepsHistory() bool { return f == SCD2 || f == Bitemporal }
