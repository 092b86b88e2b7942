package parse

// dialectNames are the dialects' names, as the cdcdb.dialect setting, the
// server's -dialect flag and a flow's recorded definition spell them.
var dialectNames = [...]string{DialectPostgres: "postgres", DialectDatabricks: "databricks"}

// String is the dialect's name.
func (d Dialect) String() string { return dialectNames[d] }

// Dialects lists every dialect, in the order of their values.
func Dialects() []Dialect { return []Dialect{DialectPostgres, DialectDatabricks} }

// DialectNamed is the dialect of that name (exactly as String spells it);
// ok is false for any other name.
func DialectNamed(name string) (d Dialect, ok bool) {
	for i, n := range dialectNames {
		if n == name {
			return Dialect(i), true
		}
	}
	return DialectPostgres, false
}
