package sql_test

import (
	"context"
	"testing"

	"cdcdb/sql/sqltest"
	"cdcdb/wire"
)

// TestEmptyValuesAreNotNull: a value with no bytes (” as text, or in
// binary format) is sent as an empty value, not as NULL, also when it is
// the only value of the row.
func TestEmptyValuesAreNotNull(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	for q, want := range map[string]string{
		"SELECT ''":             "\n",
		"SELECT ''::bytea":      "\\x\n",
		"SELECT '', ''":         "|\n",
		"SELECT NULL::text, ''": "NULL|\n",
		"SELECT ''::varchar(3)": "\n",
		"SELECT array_to_string(ARRAY[]::text[], ',')": "\n",
	} {
		if got := c.MustExec(q).String(); got != want {
			t.Errorf("%s: got %q, want %q", q, got, want)
		}
	}
	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	sts, err := s.Parse(ctx, "SELECT ''::text", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sts[0].Bind(ctx, nil, nil, []int16{1})
	if err != nil {
		t.Fatal(err)
	}
	w := &rawRows{}
	if _, _, err := p.Execute(ctx, 0, w); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if len(w.rows) != 1 || w.rows[0][0] == nil || len(w.rows[0][0]) != 0 {
		t.Errorf("binary '': got %#v", w.rows)
	}
}

// rawRows keeps a copy of each row's values as sent, nil for NULL.
type rawRows struct{ rows [][][]byte }

func (w *rawRows) WriteRow(values [][]byte) error {
	row := make([][]byte, len(values))
	for i, v := range values {
		if v != nil {
			row[i] = append([]byte{}, v...)
		}
	}
	w.rows = append(w.rows, row)
	return nil
}
func (w *rawRows) Notice(*wire.NoticeInfo)                    {}
func (w *rawRows) ParameterChanged(string, string)            {}
func (w *rawRows) CopyIn(bool, int) (wire.CopyReader, error)  { return nil, nil }
func (w *rawRows) CopyOut(bool, int) (wire.CopyWriter, error) { return nil, nil }
