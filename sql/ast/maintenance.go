package ast

// SetConstraints is SET CONSTRAINTS { ALL | name [, ...] } { DEFERRED |
// IMMEDIATE }: the checking time, for the rest of the transaction, of
// deferrable constraints.
type SetConstraints struct {
	All      bool
	Names    []QualifiedName
	Deferred bool
	Pos      int
}

// Vacuum is VACUUM [(options)] [table [, ...]] and ANALYZE [(options)]
// [table [, ...]]; Verb says which. Options are the options given, by
// lower-case name, with their values ("" when none); the old forms' words
// (VACUUM FULL FREEZE VERBOSE ANALYZE) become options too.
type Vacuum struct {
	Verb    string // "VACUUM" or "ANALYZE"
	Options map[string]string
	// OptionPos is where each parenthesized option was written, for
	// errors about it.
	OptionPos map[string]int
	Tables    []VacuumTarget
	Pos       int
}

// VacuumTarget is one table of VACUUM or ANALYZE, with its column list.
type VacuumTarget struct {
	Name    QualifiedName
	Columns []string
}

func (*SetConstraints) node() {}
func (*SetConstraints) stmt() {}
func (*Vacuum) node()         {}
func (*Vacuum) stmt()         {}
