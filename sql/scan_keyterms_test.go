package sql_test

import (
	"fmt"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestKeyEqualitiesMatchFilter reads tables through key equalities that
// the scan may take as decided by the key it reads under (a primary key
// point read, a flow key range) and compares each answer with the same
// condition wrapped so that only the filter decides it. Casts on either
// side, values that compare equal in other bytes (numeric scale, char
// padding), two equalities on one column and NULL are among the cases:
// where the key only narrows the read, the filter must still run.
func TestKeyEqualitiesMatchFilter(t *testing.T) {
	c := sqltest.Open(t).Conn()
	type keyed struct {
		typ    string
		values []string // literals to store, in key order
		probes []string // right-hand sides to look up
	}
	cases := []keyed{
		{"int", []string{"1", "2", "3"}, []string{"2", "2.0", "1.5", "2.5", "'2'", "2::bigint", "'2'::smallint", "NULL", "4"}},
		{"bigint", []string{"-1", "0", "5000000000"}, []string{"5000000000", "0", "-1::int", "0.4", "'0'"}},
		{"text", []string{"''", "'a'", "'ab'"}, []string{"'a'", "'a '", "''", "'ab'::varchar", "'ab'::char(3)"}},
		{"varchar(3)", []string{"'a'", "'ab'"}, []string{"'a'", "'ab'::text", "'ab '"}},
		{"char(3)", []string{"'a'", "'ab'"}, []string{"'a'", "'a  '", "'ab'::text"}},
		{"numeric", []string{"1.0", "2", "2.50"}, []string{"1", "1.00", "2.5", "2.500", "'2.0'"}},
		{"double precision", []string{"0", "1.5", "'NaN'"}, []string{"-0.0", "1.5", "'NaN'", "1.5::real"}},
		{"boolean", []string{"false", "true"}, []string{"true", "'t'", "'yes'"}},
		{"date", []string{"'2025-01-01'", "'2025-01-02'"}, []string{"'2025-01-02'", "'2025-01-02'::timestamp", "'2025-01-02 00:00:01'::timestamp"}},
		{"timestamptz", []string{"'2025-01-01 00:00+00'", "'2025-01-02 00:00+00'"}, []string{"'2025-01-02 02:00+02'", "'2025-01-02'::date", "'2025-01-02 00:00:00.5+00'"}},
		{"uuid", []string{"'00000000-0000-0000-0000-000000000001'"}, []string{"'00000000-0000-0000-0000-000000000001'", "'00000000-0000-0000-0000-000000000002'"}},
	}
	compared := 0
	check := func(name, table, keyCol, probe string) {
		t.Helper()
		for _, where := range []string{
			"%[1]s = %[2]s",
			"%[2]s = %[1]s",
			"%[1]s = %[2]s AND %[1]s = %[2]s",
			"%[1]s = %[2]s AND v <> 'x'",
		} {
			cond := fmt.Sprintf(where, keyCol, probe)
			q := "SELECT * FROM " + table + " WHERE %s ORDER BY 1, 2"
			want, wantErr := c.Exec(fmt.Sprintf(q, "("+cond+") IS TRUE"))
			got, gotErr := c.Exec(fmt.Sprintf(q, cond))
			if (gotErr == nil) != (wantErr == nil) || got.String() != want.String() {
				t.Errorf("%s WHERE %s: %q (%v), want %q (%v)", name, cond, got.String(), gotErr, want.String(), wantErr)
			}
			compared++
		}
	}
	for i, k := range cases {
		table := fmt.Sprintf("pk%d", i)
		c.MustExec(fmt.Sprintf("CREATE TABLE %s (k %s PRIMARY KEY, v text)", table, k.typ))
		for j, v := range k.values {
			c.MustExec(fmt.Sprintf("INSERT INTO %s VALUES (%s, 'v%d')", table, v, j))
		}
		for _, p := range k.probes {
			check(k.typ+" primary key", table, "k", p)
		}
		// Two different values for the key: at most one can be it.
		if len(k.probes) > 1 {
			check(k.typ+" primary key", table, "k", k.probes[0]+" AND k = "+k.probes[1])
		}
	}
	// Flow keys of an SCD TYPE 2 target, read AS OF and over all versions.
	c.MustExec("CREATE TABLE ev (id int, code text, v text, seq bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec("CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id, code) SEQUENCE BY seq COLUMNS * EXCEPT (seq) STORED AS SCD TYPE 2")
	for i := 1; i <= 12; i++ {
		c.MustExec(fmt.Sprintf("INSERT INTO ev VALUES (%d, '%s', 'v%d', %d)", i%3, []string{"a", "ab", "a "}[i%2], i%4, i))
	}
	for _, read := range []string{"tgt", "tgt FOR BUSINESS_TIME AS OF 7", "tgt FOR BUSINESS_TIME AS OF 12"} {
		for _, probe := range []string{"1 AND code = 'a'", "1.0 AND code = 'ab'", "1.5 AND code = 'a'", "2 AND code = 'a '::char(2)", "0 AND code = 'a' AND id = 1"} {
			check("flow keys of "+read, read, "id", probe)
		}
	}
	// Parameters, typed by the column (exact) and by a cast (not).
	for _, q := range []string{"SELECT * FROM pk0 WHERE k = $1", "SELECT * FROM pk0 WHERE k = $1::numeric"} {
		for _, p := range []string{"2", "3"} {
			want := c.MustExec("SELECT * FROM pk0 WHERE (k = " + p + ") IS TRUE").String()
			if got := c.MustExec(q, p).String(); got != want {
				t.Errorf("%s with $1 = %s: %q, want %q", q, p, got, want)
			}
		}
	}
	if got := c.MustExec("SELECT * FROM pk5 WHERE k = $1::numeric", "2.5").String(); got != "2.50|v2\n" {
		t.Errorf("numeric key = 2.5: %q", got)
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}
