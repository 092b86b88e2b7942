package sql_test

import (
	"strings"
	"testing"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
	"cdcdb/storage"
)

// The actions of a foreign key that write the referencing table.
var writingFKActions = []string{
	"ON DELETE CASCADE", "ON DELETE SET NULL", "ON DELETE SET DEFAULT",
	"ON UPDATE CASCADE", "ON UPDATE SET NULL", "ON UPDATE SET DEFAULT",
}

const empFlow = "CREATE FLOW emp_flow AS AUTO CDC INTO emp_current FROM emp_cdf KEYS (id) SEQUENCE BY seq"

// empSchema makes a referenced table dept (1 and 2), an empty streaming
// table and the change log emp_cdf with one event per department; fk is
// the column's REFERENCES clause, or "".
func empSchema(c *sqltest.Conn, fk string) {
	c.MustExec("CREATE TABLE dept (id int PRIMARY KEY)")
	c.MustExec("INSERT INTO dept VALUES (1), (2)")
	c.MustExec("CREATE STREAMING TABLE emp_current")
	c.MustExec("CREATE TABLE emp_cdf (id int, dept int " + fk + ", seq int)")
	c.MustExec("INSERT INTO emp_cdf VALUES (10, 1, 1), (11, 2, 1)")
}

func requireErrorMentions(t *testing.T, e *pgerror.Error, words ...string) {
	t.Helper()
	text := e.Message + "\n" + e.Detail + "\n" + e.Hint
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Errorf("error does not mention %q:\n%s", w, text)
		}
	}
	if e.Hint == "" {
		t.Errorf("error %q has no hint", e.Message)
	}
}

// A foreign key that would rewrite or delete a flow's source rows behind
// the flow is refused whichever comes first, the key or the flow.
func TestFlowSourceRefusesWritingForeignKey(t *testing.T) {
	for _, action := range writingFKActions {
		t.Run(action+"/key first", func(t *testing.T) {
			c := sqltest.Open(t).Conn()
			empSchema(c, "DEFAULT 2 REFERENCES dept "+action)
			e := c.ExpectError(pgerror.WrongObjectType, empFlow)
			requireErrorMentions(t, e, `flow "emp_flow"`, `"emp_cdf"`, `"emp_cdf_dept_fkey"`, action, "DROP CONSTRAINT emp_cdf_dept_fkey")
			if e.Position != strings.Index(empFlow, "emp_cdf")+1 {
				t.Errorf("position %d, want the source's name", e.Position)
			}
			if got := c.MustExec("SELECT count(*) FROM cdcdb.flows").String(); got != "0\n" {
				t.Fatalf("flows after the refusal: %q", got)
			}
		})
		t.Run(action+"/flow first", func(t *testing.T) {
			c := sqltest.Open(t).Conn()
			empSchema(c, "DEFAULT 2")
			c.MustExec(empFlow)
			e := c.ExpectError(pgerror.WrongObjectType, "ALTER TABLE emp_cdf ADD CONSTRAINT emp_dept FOREIGN KEY (dept) REFERENCES dept "+action)
			requireErrorMentions(t, e, `"emp_dept"`, `"emp_cdf"`, `flow "emp_flow"`, action)
			if got := c.MustExec("SELECT count(*) FROM pg_constraint WHERE conrelid = 'emp_cdf'::regclass").String(); got != "0\n" {
				t.Fatalf("constraints of emp_cdf after the refusal: %q", got)
			}
			// Without a flow the source is an ordinary table again.
			c.MustExec("DROP FLOW emp_flow")
			c.MustExec("ALTER TABLE emp_cdf ADD CONSTRAINT emp_dept FOREIGN KEY (dept) REFERENCES dept " + action)
		})
	}
}

// NO ACTION and RESTRICT only refuse the referenced table's change, so a
// flow's source may have them, and they keep it and the target intact.
func TestFlowSourceKeepsNonWritingForeignKey(t *testing.T) {
	for _, action := range []string{"", "ON DELETE NO ACTION ON UPDATE NO ACTION", "ON DELETE RESTRICT ON UPDATE RESTRICT"} {
		t.Run(action, func(t *testing.T) {
			c := sqltest.Open(t).Conn()
			empSchema(c, "REFERENCES dept "+action)
			c.MustExec(empFlow)
			c.MustExec("ALTER TABLE emp_cdf ADD CONSTRAINT emp_dept2 FOREIGN KEY (dept) REFERENCES dept " + action)
			c.ExpectError(pgerror.ForeignKeyViolation, "DELETE FROM dept WHERE id = 1")
			c.ExpectError(pgerror.ForeignKeyViolation, "UPDATE dept SET id = 3 WHERE id = 2")
			if got := c.MustExec("SELECT * FROM emp_current ORDER BY id").String(); got != "10|1|1\n11|2|1\n" {
				t.Fatalf("target: %q", got)
			}
		})
	}
}

// A streaming table is written by its flow alone: a foreign key action
// that would write it is refused on CREATE and on ALTER.
func TestStreamingTableRefusesWritingForeignKey(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE dept (id int PRIMARY KEY)")
	for _, action := range writingFKActions {
		e := c.ExpectError(pgerror.WrongObjectType, "CREATE STREAMING TABLE emp_current (id int, dept int REFERENCES dept "+action+", seq int)")
		requireErrorMentions(t, e, action, `streaming table "emp_current"`)
	}
	c.MustExec("CREATE STREAMING TABLE emp_current (id int, dept int, seq int)")
	for _, action := range writingFKActions {
		c.ExpectError(pgerror.WrongObjectType, "ALTER TABLE emp_current ADD FOREIGN KEY (dept) REFERENCES dept "+action)
	}
}

// A database whose source got a writing foreign key before CREATE FLOW and
// ALTER TABLE refused one (simulated by editing the stored catalog) keeps
// its flow: the action itself is refused when it would touch a source row,
// and a new flow from that source is refused.
func TestFlowSourceWritingForeignKeyFromOlderCatalog(t *testing.T) {
	c := flowWithOlderForeignKey(t, "emp_cdf", "CASCADE", "SET NULL")
	before := "10|1|1\n11|2|1\n"
	e := c.ExpectError(pgerror.WrongObjectType, "DELETE FROM dept WHERE id = 1")
	requireErrorMentions(t, e, "ON DELETE CASCADE", `"old_fkey"`, `"emp_cdf"`, `flow "emp_flow"`, "(id)=(1)")
	e = c.ExpectError(pgerror.WrongObjectType, "UPDATE dept SET id = 3 WHERE id = 2")
	requireErrorMentions(t, e, "ON UPDATE SET NULL", `"old_fkey"`)
	for _, q := range []string{"SELECT * FROM emp_cdf ORDER BY id", "SELECT * FROM emp_current ORDER BY id"} {
		if got := c.MustExec(q).String(); got != before {
			t.Fatalf("%s: %q, want %q", q, got, before)
		}
	}
	// A change that references no source row still runs, and the flow
	// still takes events.
	c.MustExec("INSERT INTO dept VALUES (7)")
	c.MustExec("UPDATE dept SET id = 8 WHERE id = 7")
	c.MustExec("DELETE FROM dept WHERE id = 8")
	c.MustExec("INSERT INTO emp_cdf VALUES (12, 2, 1)")
	if got := c.MustExec("SELECT count(*) FROM emp_current").String(); got != "3\n" {
		t.Fatalf("target after a new event: %q", got)
	}
	c.MustExec("CREATE STREAMING TABLE emp_other")
	c.ExpectError(pgerror.WrongObjectType, "CREATE FLOW other AS AUTO CDC INTO emp_other FROM emp_cdf KEYS (id) SEQUENCE BY seq")
}

// The same for a streaming table: its flow's writes go on, the action is
// refused when it would change a target row, and a new flow into a target
// with such a key is refused.
func TestStreamingTableWritingForeignKeyFromOlderCatalog(t *testing.T) {
	c := flowWithOlderForeignKey(t, "emp_current", "SET DEFAULT", "")
	e := c.ExpectError(pgerror.WrongObjectType, "DELETE FROM dept WHERE id = 2")
	requireErrorMentions(t, e, "ON DELETE SET DEFAULT", `"old_fkey"`, `streaming table "emp_current"`, "(id)=(2)")
	c.MustExec("INSERT INTO emp_cdf VALUES (10, 2, 2)")
	if got := c.MustExec("SELECT * FROM emp_current ORDER BY id").String(); got != "10|2|2\n11|2|1\n" {
		t.Fatalf("target: %q", got)
	}
	c.MustExec("DROP FLOW emp_flow")
	e = c.ExpectError(pgerror.WrongObjectType, empFlow)
	requireErrorMentions(t, e, `flow "emp_flow" cannot write table "emp_current"`, `"old_fkey"`)
	if e.Position != strings.Index(empFlow, "emp_current")+1 {
		t.Errorf("position %d, want the target's name", e.Position)
	}
}

// flowWithOlderForeignKey makes empSchema and empFlow, then writes a
// foreign key old_fkey from table's dept column to dept straight into the
// stored catalog, as a database made before the checks could hold it (the
// engine loads the edited catalog at its next transaction).
func flowWithOlderForeignKey(t *testing.T, table, onDelete, onUpdate string) *sqltest.Conn {
	t.Helper()
	db := sqltest.Open(t)
	c := db.Conn()
	empSchema(c, "")
	c.MustExec(empFlow)
	err := db.Store.Update(func(tx *storage.Tx) error {
		snap, err := catalog.Load(tx)
		if err != nil {
			return err
		}
		sc, _ := snap.Schema("public")
		dept, _ := snap.Table(sc.OID, "dept")
		child, _ := snap.Table(sc.OID, table)
		ed, err := snap.Edit(tx)
		if err != nil {
			return err
		}
		oid, err := ed.NewOID()
		if err != nil {
			return err
		}
		col, _ := child.Column("dept")
		child = child.Clone()
		child.Constraints = append(child.Constraints, catalog.Constraint{OID: oid, Name: "old_fkey", Kind: "f",
			Columns: []int16{col.Attnum}, RefTable: dept.OID, RefColumns: dept.PrimaryKey, OnDelete: onDelete, OnUpdate: onUpdate})
		return ed.PutTable(child)
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
