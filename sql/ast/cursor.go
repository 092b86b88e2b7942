package ast

// DeclareCursor is DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE]
// [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query.
type DeclareCursor struct {
	Name   string
	Binary bool
	Scroll bool
	Hold   bool
	Query  *Select
	Pos    int
}

// FetchCursor is FETCH or MOVE [direction] [FROM | IN] name. Direction is
// one of NEXT, PRIOR, FIRST, LAST, ABSOLUTE, RELATIVE, FORWARD, BACKWARD;
// Count goes with ABSOLUTE, RELATIVE, FORWARD and BACKWARD, and All with
// FORWARD and BACKWARD (plain ALL is FORWARD ALL, a plain count FORWARD n).
type FetchCursor struct {
	Name      string
	Move      bool
	Direction string
	Count     int64
	All       bool
	Pos       int
}

// CloseCursor is CLOSE name | ALL ("" for ALL).
type CloseCursor struct {
	Name string
	Pos  int
}

func (*DeclareCursor) node() {}
func (*FetchCursor) node()   {}
func (*CloseCursor) node()   {}
func (*DeclareCursor) stmt() {}
func (*FetchCursor) stmt()   {}
func (*CloseCursor) stmt()   {}
