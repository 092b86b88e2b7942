package pgtests

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// scriptOutcomes runs each statement and describes what it gave: its rows
// (for a query) or its command tag, or its error's SQLSTATE, message,
// detail, hint and position: what a test compares between cdcdb and PostgreSQL 15.
func scriptOutcomes(t *testing.T, conn *pgx.Conn, stmts []string) []string {
	t.Helper()
	var out []string
	for _, sql := range stmts {
		var pe *pgconn.PgError
		lines, err := rowLines(testContext(t), conn, "|", func(v any) string {
			if v == nil {
				return "NULL"
			}
			return fmt.Sprint(v)
		}, sql)
		switch {
		case errors.As(err, &pe):
			out = append(out, fmt.Sprintf("%s: ERROR %s %s [%s] [%s] at %d", sql, pe.Code, pe.Message, pe.Detail, pe.Hint, pe.Position))
		case err != nil:
			t.Fatalf("%s: %v", sql, err)
		default:
			out = append(out, sql+": "+strings.Join(lines, "; "))
		}
	}
	return out
}

// compareOutcomes runs a script on cdcdb and on PostgreSQL 15 and reports
// every statement whose outcome differs. It returns cdcdb's outcomes.
func compareOutcomes(t *testing.T, stmts []string) []string {
	t.Helper()
	var results [][]string
	for _, tg := range bothTargets(t) {
		results = append(results, scriptOutcomes(t, connect(t, tg.URL), stmts))
	}
	if len(results) == 2 {
		for i := range results[0] {
			if results[0][i] != results[1][i] {
				t.Errorf("cdcdb:      %s\nPostgreSQL: %s", results[0][i], results[1][i])
			}
		}
	}
	return results[0]
}

// TestAlterColumnType: ALTER TABLE ... ALTER COLUMN ... TYPE [USING]
// rewrites the rows, rebuilds the indexes on the column, keeps NOT NULL,
// CHECK and defaults, and refuses what does not convert with PostgreSQL
// 15's errors.
func TestAlterColumnType(t *testing.T) {
	got := compareOutcomes(t, []string{
		"CREATE TABLE act (id int PRIMARY KEY, a text, b int DEFAULT 5, c varchar(10), d numeric(6,2) CHECK (d > 0))",
		"CREATE INDEX act_a ON act (a)",
		"CREATE UNIQUE INDEX act_b ON act (b)",
		"INSERT INTO act VALUES (1, '10', 1, 'x', 1.25), (2, '20', 2, 'yy', 2.5)",
		"UPDATE act SET a = '11' WHERE id = 1",
		"ALTER TABLE act ALTER COLUMN a TYPE int",
		"ALTER TABLE act ALTER COLUMN a TYPE int USING a::int",
		"SELECT id, a, pg_typeof(a) FROM act ORDER BY id",
		"SELECT id FROM act WHERE a = 20",
		"ALTER TABLE act ALTER COLUMN b TYPE text",
		"SELECT b, pg_typeof(b) FROM act WHERE b = '2'",
		"ALTER TABLE act ALTER COLUMN b TYPE bigint USING b::bigint * 10",
		"INSERT INTO act VALUES (3, 30, 30, 'z', 3)",
		"ALTER TABLE act ALTER COLUMN b TYPE int USING b / 100",
		"ALTER TABLE act ALTER COLUMN c TYPE varchar(1)",
		"ALTER TABLE act ALTER COLUMN c SET DATA TYPE varchar(20)",
		"ALTER TABLE act ALTER COLUMN id TYPE bigint",
		"ALTER TABLE act ALTER COLUMN d TYPE int USING round(d)",
		"ALTER TABLE act ALTER COLUMN d TYPE numeric USING d - 3",
		"ALTER TABLE act ALTER COLUMN a TYPE boolean USING a > 15",
		"ALTER TABLE act ALTER COLUMN a TYPE int USING 'x'",
		"ALTER TABLE act ALTER COLUMN a TYPE date",
		"ALTER TABLE act ALTER COLUMN a SET NOT NULL",
		"ALTER TABLE act ALTER COLUMN a TYPE int USING CASE WHEN a THEN 1 END",
		"ALTER TABLE act ALTER COLUMN b SET DEFAULT 7",
		"ALTER TABLE act ALTER COLUMN b TYPE date USING NULL",
		"ALTER TABLE act ALTER COLUMN nothere TYPE int",
		"ALTER TABLE act ALTER COLUMN b TYPE nosuchtype",
		"ALTER TABLE act ALTER COLUMN b TYPE int USING max(b)",
		"BEGIN",
		"ALTER TABLE act ALTER COLUMN c TYPE int USING length(c)",
		"ROLLBACK",
		"SELECT * FROM act ORDER BY id",
		"SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_attribute a WHERE a.attrelid = 'act'::regclass AND a.attnum > 0 ORDER BY a.attnum",
		"INSERT INTO act (id, a, c, d) VALUES (4, true, 'w', 4) RETURNING *",
		"ALTER TABLE act ALTER COLUMN b TYPE text, ALTER COLUMN b TYPE int",
		"ALTER TABLE act ALTER COLUMN b TYPE numeric, ALTER COLUMN c TYPE text USING c || id",
		"SELECT pg_typeof(b)::text, pg_typeof(c)::text, c FROM act WHERE id = 1",
		"CREATE VIEW act_v AS SELECT id, a FROM act",
		"ALTER TABLE act ALTER COLUMN a TYPE text",
	})
	if want := "SELECT * FROM act ORDER BY id: 1|false|10|x|1; 2|true|20|yy|3; 3|true|30|z|3"; !contains(got, want) {
		t.Errorf("no %q in\n%s", want, strings.Join(got, "\n"))
	}
	// PostgreSQL evaluates a USING against the row as it was before the
	// statement; cdcdb refuses one that reads a column the statement
	// converted before it, rather than give it the converted value.
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE act2 (a text, b text)")
	_, err := conn.Exec(testContext(t), "ALTER TABLE act2 ALTER COLUMN a TYPE int USING length(a), ALTER COLUMN b TYPE text USING b || a")
	requireSQLState(t, err, "0A000")
	mustExec(t, conn, "ALTER TABLE act2 ALTER COLUMN b TYPE text USING b || a, ALTER COLUMN a TYPE int USING length(a)")
}

// TestAlterColumnTypeHistory: a type change converts the table's past too,
// so FOR SYSTEM_TIME reads show old versions in the new type; a past value
// that does not convert refuses the change and says so.
func TestAlterColumnTypeHistory(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	defer func() {
		conn.Close(testContext(t))
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		checkDataFile(t, s)
	}()
	mustExec(t, conn, "CREATE TABLE ath (id int PRIMARY KEY, v text)")
	mustExec(t, conn, "INSERT INTO ath VALUES (1, '1'), (2, '2')")
	mustExec(t, conn, "UPDATE ath SET v = '3' WHERE id = 1")
	mustExec(t, conn, "DELETE FROM ath WHERE id = 2")
	mustExec(t, conn, "ALTER TABLE ath ALTER COLUMN v TYPE int USING v::int + 100")
	if got, want := strings.Join(queryLines(t, conn, "SELECT id, v, pg_typeof(v) FROM ath FOR SYSTEM_TIME ALL ORDER BY id, v"), " "), "1|101|integer 1|103|integer 2|102|integer"; got != want {
		t.Errorf("history after the change: %s, want %s", got, want)
	}
	mustExec(t, conn, "CREATE TABLE ath2 (id int PRIMARY KEY, v text)")
	mustExec(t, conn, "INSERT INTO ath2 VALUES (1, 'a')")
	mustExec(t, conn, "UPDATE ath2 SET v = '5' WHERE id = 1")
	_, err := conn.Exec(testContext(t), "ALTER TABLE ath2 ALTER COLUMN v TYPE int USING v::int")
	pe := requireSQLState(t, err, "22P02")
	if !strings.Contains(pe.Detail, "past version") {
		t.Errorf("the refusal does not say the value is a past one: %+v", pe)
	}
	if got := queryString(t, conn, "SELECT pg_typeof(v)::text || ':' || v FROM ath2"); got != "text:5" {
		t.Errorf("after the refused change: %s", got)
	}
	mustExec(t, conn, "ALTER TABLE ath2 ALTER COLUMN v TYPE int USING CASE WHEN v ~ '^[0-9]+$' THEN v::int END")
	if got, want := strings.Join(queryLines(t, conn, "SELECT id, coalesce(v, -1) FROM ath2 FOR SYSTEM_TIME ALL ORDER BY 2"), " "), "1|-1 1|5"; got != want {
		t.Errorf("history after the change: %s, want %s", got, want)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// TestDeferredForeignKeys: DEFERRABLE [INITIALLY DEFERRED] foreign keys
// (as Django's migrate makes them) are checked at commit, SET CONSTRAINTS
// moves the check, savepoints take back what they roll back, and the
// catalog shows the timing, all as in PostgreSQL 15.
func TestDeferredForeignKeys(t *testing.T) {
	compareOutcomes(t, []string{
		"CREATE TABLE dp (id int PRIMARY KEY)",
		"CREATE TABLE dc (id int PRIMARY KEY, pid int REFERENCES dp DEFERRABLE INITIALLY DEFERRED)",
		"CREATE TABLE dc2 (id int PRIMARY KEY, pid int, CONSTRAINT dc2_fk FOREIGN KEY (pid) REFERENCES dp (id) DEFERRABLE)",
		"CREATE TABLE dc3 (id int PRIMARY KEY, pid int REFERENCES dp NOT DEFERRABLE INITIALLY DEFERRED)",
		"CREATE TABLE dc4 (id int PRIMARY KEY, pid int REFERENCES dp ON DELETE CASCADE INITIALLY DEFERRED)",
		// A child before its parent, in one transaction.
		"BEGIN", "INSERT INTO dc VALUES (1, 10)", "INSERT INTO dp VALUES (10)", "COMMIT",
		// No parent by commit: the COMMIT fails and takes it all back.
		"BEGIN", "INSERT INTO dp VALUES (11)", "INSERT INTO dc VALUES (2, 20)", "COMMIT",
		"SELECT count(*) FROM dp WHERE id = 11",
		// A statement of its own commits at its end.
		"INSERT INTO dc VALUES (3, 30)",
		// DEFERRABLE alone is checked at once, until SET CONSTRAINTS.
		"BEGIN", "INSERT INTO dc2 VALUES (1, 40)", "ROLLBACK",
		"BEGIN", "SET CONSTRAINTS dc2_fk DEFERRED", "INSERT INTO dc2 VALUES (1, 40)", "INSERT INTO dp VALUES (40)", "COMMIT",
		// A parent removed and put back before commit.
		"BEGIN", "SET CONSTRAINTS ALL DEFERRED", "DELETE FROM dp WHERE id = 40", "INSERT INTO dp VALUES (40)", "COMMIT",
		// SET CONSTRAINTS ... IMMEDIATE checks what was put off.
		"BEGIN", "SET CONSTRAINTS ALL DEFERRED", "DELETE FROM dp WHERE id = 40", "SET CONSTRAINTS ALL IMMEDIATE", "ROLLBACK",
		"BEGIN", "INSERT INTO dc VALUES (5, 50)", "SET CONSTRAINTS dc_pid_fkey IMMEDIATE", "ROLLBACK",
		"BEGIN", "SET CONSTRAINTS public.dc_pid_fkey IMMEDIATE", "INSERT INTO dc VALUES (5, 50)", "ROLLBACK",
		// A savepoint rolled back takes its checks with it.
		"BEGIN", "INSERT INTO dc VALUES (5, 50)", "SAVEPOINT s", "INSERT INTO dc VALUES (6, 60)", "ROLLBACK TO SAVEPOINT s",
		"INSERT INTO dp VALUES (50)", "COMMIT",
		"BEGIN", "SAVEPOINT s", "SET CONSTRAINTS ALL IMMEDIATE", "ROLLBACK TO SAVEPOINT s", "INSERT INTO dc VALUES (7, 70)", "DELETE FROM dc WHERE id = 7", "COMMIT",
		// A child row gone or changed by commit no longer counts.
		"BEGIN", "INSERT INTO dc VALUES (8, 80)", "UPDATE dc SET pid = 10 WHERE id = 8", "COMMIT",
		"BEGIN", "INSERT INTO dc VALUES (9, 90)", "UPDATE dc SET pid = 91 WHERE id = 9", "COMMIT",
		// CASCADE acts at once, whatever the timing.
		"BEGIN", "INSERT INTO dc4 VALUES (1, 10)", "COMMIT",
		"SET CONSTRAINTS ALL DEFERRED",
		"BEGIN", "SET CONSTRAINTS nosuch DEFERRED", "ROLLBACK",
		"BEGIN", "SET CONSTRAINTS dp_pkey DEFERRED", "ROLLBACK",
		"SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f' ORDER BY 1",
		"SELECT constraint_name, is_deferrable, initially_deferred FROM information_schema.table_constraints WHERE constraint_type = 'FOREIGN KEY' ORDER BY 1",
		"SELECT * FROM dc ORDER BY id",
		"SELECT * FROM dc2 ORDER BY id",
	})
}

// TestVacuumAnalyze: VACUUM and ANALYZE, as pgbench -i and vacuumdb send
// them, check their tables, columns, options and transaction as PostgreSQL
// 15 does; the options cdcdb cannot honour (FULL, FREEZE, VERBOSE, ...)
// are refused.
func TestVacuumAnalyze(t *testing.T) {
	compareOutcomes(t, []string{
		"CREATE TABLE vt (a int, b text)",
		"CREATE VIEW vv AS SELECT * FROM vt",
		"VACUUM",
		"VACUUM vt",
		"VACUUM ANALYZE vt",
		"VACUUM (ANALYZE) vt (a, b)",
		"VACUUM vt (a)",
		"VACUUM (ANALYZE, SKIP_LOCKED) vt",
		"ANALYZE",
		"ANALYZE vt (nothere)",
		"ANALYZE nothere",
		"ANALYSE vt",
		"ANALYZE (SKIP_LOCKED false) vt",
		"VACUUM (FULL false, FREEZE off, INDEX_CLEANUP auto) vt",
		"ANALYZE (full) vt",
		"VACUUM (ANALYZE, foo) vt",
		"BEGIN", "ANALYZE vt", "VACUUM vt", "ROLLBACK",
	})
	s := startServer(t)
	conn := connect(t, s.URL())
	for _, sql := range []string{"VACUUM FULL", "VACUUM (FREEZE) vt", "VACUUM VERBOSE", "ANALYZE VERBOSE", "VACUUM (PARALLEL 2)"} {
		_, err := conn.Exec(testContext(t), sql)
		requireSQLState(t, err, "0A000")
	}
}

// TestDropColumnDependents: DROP COLUMN drops the indexes and the
// constraints of the table that use the column, and a foreign key of
// another table referencing it only with CASCADE, as PostgreSQL 15 does.
func TestDropColumnDependents(t *testing.T) {
	compareOutcomes(t, []string{
		"CREATE TABLE dp5 (id int PRIMARY KEY, u int UNIQUE, w int)",
		"CREATE TABLE dc5 (id int PRIMARY KEY, pu int REFERENCES dp5 (u), x int CHECK (x > 0), y int, CHECK (x < y))",
		"CREATE INDEX dc5_x ON dc5 (x, y)",
		"INSERT INTO dp5 VALUES (1, 1, 1)",
		"INSERT INTO dc5 VALUES (1, 1, 1, 2)",
		"ALTER TABLE dp5 DROP COLUMN u",
		"ALTER TABLE dp5 DROP COLUMN u CASCADE",
		"ALTER TABLE dc5 DROP COLUMN x",
		"SELECT conname FROM pg_constraint WHERE conrelid IN ('dp5'::regclass, 'dc5'::regclass) ORDER BY 1",
		"SELECT indexname FROM pg_indexes WHERE tablename IN ('dp5', 'dc5') ORDER BY 1",
		"CREATE INDEX dc5_x ON dc5 (y)",
		"INSERT INTO dc5 VALUES (2, 99, 1)",
		"SELECT * FROM dc5 WHERE y = 1",
	})
}

// TestDjangoMigrate: Django 3.2's migrate runs an app's migrations on
// cdcdb as on PostgreSQL 15 (testdata/clients/cdcdb_django_migrate.py):
// tables with DEFERRABLE INITIALLY DEFERRED foreign keys, column type
// changes on rows already there, a foreign key column added and removed,
// the ORM's writes that need the deferred check, inspectdb, and the
// migrations undone and done again. The two transcripts must be the same.
func TestDjangoMigrate(t *testing.T) {
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	requirePythonModule(t, "django", "python3-django")
	var outs []string
	for _, tg := range bothTargets(t) {
		outs = append(outs, runClient(t, "DJANGO MIGRATE OK", nil, systemPython, clientProgram(t, "cdcdb_django_migrate.py"), tg.Host, fmt.Sprint(tg.Port), tg.DB))
	}
	for _, want := range []string{
		"constraint ('shelf_book', 'f', True, True, 'FOREIGN KEY (editor_id) REFERENCES shelf_author(id) DEFERRABLE INITIALLY DEFERRED')",
		"column ('shelf_book', 'isbn', 'integer', None, 'YES')",
		"book (2, 'Book 2', 2, 200, 9782)",
		"orphan refused at commit: 23503",
		"    editor = models.ForeignKey(ShelfAuthor, models.DO_NOTHING, blank=True, null=True)",
	} {
		if !strings.Contains(outs[0], want) {
			t.Errorf("cdcdb's transcript has no %q:\n%s", want, outs[0])
		}
	}
	if len(outs) == 2 && outs[0] != outs[1] {
		t.Errorf("cdcdb:\n%s\nPostgreSQL 15:\n%s", outs[0], outs[1])
	}
}

// TestAlterColumnTypeRollback: a type change inside a transaction, and
// inside a savepoint, is taken back whole (rows, indexes, catalog) by
// ROLLBACK, and its rebuilt index answers after COMMIT, as in PostgreSQL
// 15.
func TestAlterColumnTypeRollback(t *testing.T) {
	compareOutcomes(t, []string{
		"CREATE TABLE rb (id int PRIMARY KEY, a text, b int)",
		"CREATE INDEX rb_a ON rb (a)",
		"CREATE UNIQUE INDEX rb_b ON rb (b)",
		"INSERT INTO rb SELECT g, (g * 7 % 100)::text, g FROM generate_series(1, 200) g",
		"BEGIN",
		"ALTER TABLE rb ALTER COLUMN a TYPE int USING a::int",
		"SELECT count(*) FROM rb WHERE a = 7",
		"SAVEPOINT s1",
		"ALTER TABLE rb ALTER COLUMN b TYPE text",
		"SELECT count(*) FROM rb WHERE b = '7'",
		"ROLLBACK TO SAVEPOINT s1",
		"SELECT count(*) FROM rb WHERE b = 7",
		"ROLLBACK",
		"SELECT count(*), min(pg_typeof(a)::text) FROM rb WHERE a = '7'",
		"BEGIN",
		"ALTER TABLE rb ALTER COLUMN a TYPE int USING a::int",
		"COMMIT",
		"INSERT INTO rb VALUES (201, 7, 201)",
		"SELECT count(*) FROM rb WHERE a = 7",
		"SELECT count(*) FROM rb WHERE a > 90",
		"INSERT INTO rb VALUES (202, 8, 201)",
	})
}

// TestDeferredForeignKeySimpleQuery: a simple Query's only statement whose
// deferred foreign key fails at its commit reports the error in place of
// its command tag, as PostgreSQL 15 (which commits before the tag) does.
func TestDeferredForeignKeySimpleQuery(t *testing.T) {
	for _, tg := range bothTargets(t) {
		conn := connect(t, tg.URL)
		mustExec(t, conn, "CREATE TABLE sqp (id int PRIMARY KEY)")
		mustExec(t, conn, "CREATE TABLE sqc (id int PRIMARY KEY, pid int REFERENCES sqp DEFERRABLE INITIALLY DEFERRED)")
		results, err := conn.PgConn().Exec(testContext(t), "INSERT INTO sqc VALUES (1, 2)").ReadAll()
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "23503" {
			t.Errorf("%s: error %v, want 23503", tg.Name, err)
		}
		for _, r := range results {
			if r.CommandTag.String() != "" {
				t.Errorf("%s: a command tag %q came with the error", tg.Name, r.CommandTag)
			}
		}
		if n := queryString(t, conn, "SELECT count(*)::text FROM sqc"); n != "0" {
			t.Errorf("%s: %s rows after the failed commit", tg.Name, n)
		}
	}
}

// TestAlterColumnTypeForeignKeys: a type change of a column a foreign key
// uses, on either side, is accepted while the key's columns still compare
// and refused as PostgreSQL 15 refuses it otherwise; the keys are checked
// again and keep working.
func TestAlterColumnTypeForeignKeys(t *testing.T) {
	compareOutcomes(t, []string{
		"create table fp (id int primary key, code varchar(10) unique)",
		"create table fc (id int primary key, pid int references fp, pcode varchar(10) references fp (code), self int references fc)",
		"insert into fp values (1, 'a'), (2, 'b')",
		"insert into fc values (1, 1, 'a', null), (2, 2, 'b', 1)",
		"alter table fc alter column pid type bigint",
		"alter table fc alter column pid type text",
		"alter table fp alter column id type bigint",
		"alter table fp alter column id type text",
		"alter table fp alter column code type varchar(20)",
		"alter table fc alter column pcode type text",
		"alter table fc alter column self type bigint",
		"alter table fc alter column self type numeric",
		"alter table fc alter column self type text",
		"insert into fc values (3, 1, 'b', 2)",
		"insert into fc values (4, 1, 'c', 2)",
		"insert into fc values (5, 3, 'a', 2)",
		"insert into fc values (6, 1, 'a', 9)",
		"delete from fp where id = 1",
		"select a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod) from pg_attribute a where a.attrelid in ('fp'::regclass, 'fc'::regclass) and a.attnum > 0 order by 1, a.attnum",
	})
}

// TestForeignKeyColumnTypes: which column types may reference which, as
// PostgreSQL 15's btree operator families and implicit casts decide (an
// integer may reference a numeric, not the reverse).
func TestForeignKeyColumnTypes(t *testing.T) {
	compareOutcomes(t, []string{
		"create table kp (i int primary key, n numeric unique, t text unique, d date unique, f float8 unique, c char(3) unique, ts timestamptz unique)",
		"create table k1 (a numeric references kp (i))",
		"create table k2 (a int references kp (n))",
		"create table k3 (a varchar(5) references kp (t))",
		"create table k4 (a timestamp references kp (d))",
		"create table k5 (a float4 references kp (f))",
		"create table k6 (a int8 references kp (f))",
		"create table k7 (a text references kp (c))",
		"create table k8 (a char(3) references kp (t))",
		"create table k9 (a date references kp (ts))",
		"create table k10 (a smallint references kp (i))",
		"create table k11 (a float8 references kp (n))",
	})
}
