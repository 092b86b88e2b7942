package sql_test

import (
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
)

// flowForms are the three target forms with what their source needs.
var flowForms = []struct {
	storedAs, sysSeq, except string
}{
	{"SCD TYPE 1", "", "op, seq, st"},
	{"SCD TYPE 2", "", "op, seq, st"},
	{"BITEMPORAL", " SYSTEM SEQUENCE BY st", "op, seq, st"},
}

// constrainedTarget makes a source ev, a flow of the given form into tgt,
// and then gives tgt a NOT NULL name and a CHECK on city, as a user would
// after the flow has made the table.
func constrainedTarget(c *sqltest.Conn, storedAs, sysSeq, except string) {
	c.MustExec("CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint, st bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq` + sysSeq + `
		COLUMNS * EXCEPT (` + except + `) STORED AS ` + storedAs)
	c.MustExec("INSERT INTO ev VALUES (1, 'ana', 'Oaxaca', 'UPSERT', 10, 10)")
	c.MustExec("ALTER TABLE tgt ALTER COLUMN name SET NOT NULL")
	c.MustExec("ALTER TABLE tgt ADD CONSTRAINT city_known CHECK (city <> 'unknown')")
}

// state is everything a refused batch must leave as it was: the source,
// the target with its history, and the flow's counters.
func state(c *sqltest.Conn) string {
	return c.MustExec("SELECT * FROM ev ORDER BY id, seq").String() + "--\n" +
		c.MustExec("SELECT * FROM tgt FOR SYSTEM_TIME ALL").String() + "--\n" +
		c.MustExec("SELECT events_applied, rows_upserted, last_sequence FROM cdcdb.flows").String()
}

// A flow's target keeps its NOT NULL and CHECK constraints like any table:
// a batch whose events would write a row breaking one fails with
// PostgreSQL's error for that constraint, and takes its source rows with
// it, in every target form and however the batch arrives.
func TestFlowTargetEnforcesConstraints(t *testing.T) {
	for _, form := range flowForms {
		t.Run(form.storedAs, func(t *testing.T) {
			c := sqltest.Open(t).Conn()
			constrainedTarget(c, form.storedAs, form.sysSeq, form.except)
			before := state(c)

			e := c.ExpectError(pgerror.NotNullViolation, "INSERT INTO ev VALUES (2, NULL, 'Puebla', 'UPSERT', 11, 11)")
			if want := `null value in column "name" of relation "tgt" violates not-null constraint`; e.Message != want {
				t.Errorf("message %q, want %q", e.Message, want)
			}
			if e.Schema != "public" || e.Table != "tgt" || e.Column != "name" {
				t.Errorf("error fields schema %q table %q column %q, want public, tgt, name", e.Schema, e.Table, e.Column)
			}
			wantDetail := map[string]string{
				"SCD TYPE 1": "Failing row contains (2, null, Puebla).",
				"SCD TYPE 2": "Failing row contains (2, null, Puebla, 11, null).",
				"BITEMPORAL": "Failing row contains (2, null, Puebla, 11, null, 11, null).",
			}[form.storedAs]
			if e.Detail != wantDetail {
				t.Errorf("detail %q, want %q", e.Detail, wantDetail)
			}

			e = c.ExpectError(pgerror.CheckViolation, "INSERT INTO ev VALUES (1, 'ana', 'unknown', 'UPSERT', 12, 12)")
			if want := `new row for relation "tgt" violates check constraint "city_known"`; e.Message != want {
				t.Errorf("message %q, want %q", e.Message, want)
			}
			if e.Constraint != "city_known" || e.Table != "tgt" {
				t.Errorf("error fields table %q constraint %q, want tgt, city_known", e.Table, e.Constraint)
			}

			// COPY, and a bad event among good ones: the whole batch goes.
			if _, err := c.Copy("COPY ev FROM STDIN", "3\tcy\tLeon\tUPSERT\t13\t13\n1\t\\N\tLeon\tUPSERT\t14\t14\n"); pgerror.CodeOf(err) != pgerror.NotNullViolation {
				t.Errorf("COPY with a NULL name: %v, want %s", err, pgerror.NotNullViolation)
			}
			// Inside a transaction the error aborts it; ROLLBACK keeps
			// what was there.
			c.MustExec("BEGIN")
			c.MustExec("INSERT INTO ev VALUES (4, 'dee', 'Toluca', 'UPSERT', 15, 15)")
			c.ExpectError(pgerror.CheckViolation, "INSERT INTO ev VALUES (4, 'dee', 'unknown', 'UPSERT', 16, 16)")
			c.MustExec("ROLLBACK")
			if got := state(c); got != before {
				t.Fatalf("refused batches changed the database:\n%s\nwant\n%s", got, before)
			}

			// The flow's cached state of key 1 was not advanced by the
			// refused events: its next event continues from seq 10.
			c.MustExec("INSERT INTO ev VALUES (1, 'ana', 'Leon', 'UPSERT', 12, 12)")
			want := map[string]string{
				"SCD TYPE 1": "1|ana|Leon\n",
				"SCD TYPE 2": "1|ana|Oaxaca|10|12\n1|ana|Leon|12|NULL\n",
				// What was believed until system time 12, and after.
				"BITEMPORAL": "1|ana|Oaxaca|10|12|12|NULL\n1|ana|Oaxaca|10|NULL|10|12\n1|ana|Leon|12|NULL|12|NULL\n",
			}[form.storedAs]
			order := " ORDER BY id"
			if form.storedAs != "SCD TYPE 1" {
				order += ", __start_at, __end_at"
			}
			if got := c.MustExec("SELECT * FROM tgt" + order).String(); got != want {
				t.Errorf("target after a good event:\n%s\nwant\n%s", got, want)
			}
			// A delete writes no row that could break them.
			c.MustExec("INSERT INTO ev VALUES (1, NULL, NULL, 'DELETE', 20, 20)")
		})
	}
}

// An event arriving late rewrites the versions after it; a rewritten
// version that would break a constraint refuses the late event, and the
// history stays as it was.
func TestFlowTargetRefusesLateEventBreakingConstraint(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint)")
	// Declared up front this time, in the columns the flow writes.
	c.MustExec(`CREATE STREAMING TABLE tgt (id bigint, name text, city text CONSTRAINT city_known CHECK (city <> 'unknown'),
		__start_at bigint, __end_at bigint CHECK (__end_at IS NULL OR __end_at > __start_at))`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
		SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2`)
	c.MustExec("INSERT INTO ev VALUES (5, 'eve', 'Merida', 'UPSERT', 1), (5, 'eve', 'Colima', 'UPSERT', 5)")
	before := state(c)
	e := c.ExpectError(pgerror.CheckViolation, "INSERT INTO ev VALUES (5, 'eve', 'unknown', 'UPSERT', 3)")
	if e.Detail != "Failing row contains (5, eve, unknown, 3, 5)." {
		t.Errorf("detail %q, want the rewritten version between the two", e.Detail)
	}
	if got := state(c); got != before {
		t.Fatalf("the refused late event changed the database:\n%s\nwant\n%s", got, before)
	}
	c.MustExec("INSERT INTO ev VALUES (5, 'eve', 'Leon', 'UPSERT', 3)")
	if got, want := c.MustExec("SELECT * FROM tgt ORDER BY __start_at").String(), "5|eve|Merida|1|3\n5|eve|Leon|3|5\n5|eve|Colima|5|NULL\n"; got != want {
		t.Errorf("target after the good late event:\n%s\nwant\n%s", got, want)
	}
}

// A flow created over a source that already holds an event its target
// refuses fails as a whole: no flow, no rows.
func TestCreateFlowBackfillRespectsConstraints(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE ev (id bigint, name text, seq bigint)")
	c.MustExec("INSERT INTO ev VALUES (1, 'ana', 1), (2, NULL, 1)")
	c.MustExec("CREATE STREAMING TABLE tgt (id bigint, name text NOT NULL)")
	e := c.ExpectError(pgerror.NotNullViolation, "CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (seq)")
	if e.Detail != "Failing row contains (2, null)." {
		t.Errorf("detail %q", e.Detail)
	}
	if got := c.MustExec("SELECT (SELECT count(*) FROM cdcdb.flows), (SELECT count(*) FROM tgt)").String(); got != "0|0\n" {
		t.Errorf("flows and target rows after the refusal: %q", got)
	}
}
