package sql_test

import (
	"testing"

	"cdcdb/sql/sqltest"
)

// SQL cursors move as PostgreSQL's do (the expectations are PostgreSQL 15's
// answers to the same statements), and end with their transaction unless
// declared WITH HOLD.
func TestCursors(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("BEGIN")
	c.MustExec("DECLARE c SCROLL CURSOR FOR SELECT g FROM generate_series(1, 5) g")
	c.MustExec("DECLARE h CURSOR WITH HOLD FOR SELECT 'kept'")
	steps := []struct{ stmt, rows, tag string }{
		{"FETCH 2 IN c", "1\n2\n", "FETCH 2"},
		{"FETCH NEXT FROM c", "3\n", "FETCH 1"},
		{"FETCH PRIOR FROM c", "2\n", "FETCH 1"},
		{"FETCH LAST FROM c", "5\n", "FETCH 1"},
		{"FETCH ABSOLUTE 2 FROM c", "2\n", "FETCH 1"},
		{"MOVE FORWARD 10 IN c", "", "MOVE 3"},
		{"FETCH BACKWARD 2 FROM c", "5\n4\n", "FETCH 2"},
		{"FETCH RELATIVE 0 FROM c", "4\n", "FETCH 1"},
		{"FETCH ALL FROM c", "5\n", "FETCH 1"},
		{"FETCH c", "", "FETCH 0"},
	}
	for _, s := range steps {
		r := c.MustExec(s.stmt)
		if r.String() != s.rows || r.Tag != s.tag {
			t.Errorf("%s: got %q %s, want %q %s", s.stmt, r.String(), r.Tag, s.rows, s.tag)
		}
	}
	c.MustExec("COMMIT")
	c.ExpectError("34000", "FETCH 1 FROM c")
	if r := c.MustExec("FETCH 1 FROM h"); r.String() != "kept\n" {
		t.Errorf("WITH HOLD cursor after COMMIT: %q", r.String())
	}
	c.MustExec("CLOSE h")
	c.ExpectError("34000", "CLOSE h")
	c.ExpectError("25P01", "DECLARE x CURSOR FOR SELECT 1")
}
