package sql_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql"
	"cdcdb/sql/sqltest"
	"cdcdb/storage/storagetest"
)

// The spec's FROM SNAPSHOT example (spec §7, Lakeflow's documentation).
var (
	snapshot1 = []string{"(1, 'Oaxaca')", "(2, 'Monterrey')", "(3, 'Tijuana')"}
	snapshot2 = []string{"(2, 'Carmel')", "(3, 'Los Angeles')", "(4, 'Death Valley')"}
)

const specSnapshotSCD2 = "1|Oaxaca|1|2\n2|Monterrey|1|2\n2|Carmel|2|NULL\n3|Tijuana|1|2\n3|Los Angeles|2|NULL\n4|Death Valley|2|NULL\n"
const specSnapshotSCD1 = "2|Carmel\n3|Los Angeles\n4|Death Valley\n"

func labelled(version int, rows []string) string {
	var out []string
	for _, r := range rows {
		out = append(out, "("+strconv.Itoa(version)+", "+strings.TrimPrefix(r, "("))
	}
	return strings.Join(out, ", ")
}

func TestSnapshotVersionBySpecExample(t *testing.T) {
	for _, storedAs := range []string{"SCD TYPE 1", "SCD TYPE 2"} {
		for _, order := range [][]int{{1, 2}, {2, 1}} {
			c := sqltest.Open(t).Conn()
			c.MustExec(`CREATE TABLE snaps (v int, userId int, city text)`)
			c.MustExec(`CREATE STREAMING TABLE users`)
			c.MustExec(`CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (userId) STORED AS ` + storedAs)
			for _, v := range order {
				rows := snapshot1
				if v == 2 {
					rows = snapshot2
				}
				c.MustExec("INSERT INTO snaps VALUES " + labelled(v, rows))
			}
			want, query := specSnapshotSCD1, "SELECT * FROM users ORDER BY userId"
			if storedAs == "SCD TYPE 2" {
				want, query = specSnapshotSCD2, "SELECT * FROM users ORDER BY userId, __START_AT"
			}
			if got := c.MustExec(query).String(); got != want {
				t.Errorf("%s, versions in order %v:\n got\n%s\nwant\n%s", storedAs, order, got, want)
			}
			// An identical repeat changes nothing, whether the first rows
			// are still there (a loader's retry) or not; a different one is
			// refused.
			c.MustExec("INSERT INTO snaps VALUES " + labelled(1, snapshot1))
			if got := c.MustExec(query).String(); got != want {
				t.Errorf("%s after a retry:\n got\n%s", storedAs, got)
			}
			c.MustExec("DELETE FROM snaps WHERE v = 1")
			c.MustExec("INSERT INTO snaps VALUES " + labelled(1, snapshot1))
			if got := c.MustExec(query).String(); got != want {
				t.Errorf("%s after an identical repeat:\n got\n%s", storedAs, got)
			}
			pe := c.ExpectError(pgerror.CardinalityViolation, "INSERT INTO snaps VALUES (2, 9, 'Nowhere')")
			if !strings.Contains(pe.Message, `snapshot 2 of flow "f"`) {
				t.Errorf("message %q", pe.Message)
			}
			// Removing an applied version's rows changes nothing; FULL
			// rebuilds from the versions the table still holds.
			c.MustExec("DELETE FROM snaps WHERE v = 1")
			c.MustExec("REFRESH STREAMING TABLE users")
			if got := c.MustExec(query).String(); got != want {
				t.Errorf("%s after deleting version 1's rows:\n got\n%s", storedAs, got)
			}
			c.MustExec("REFRESH STREAMING TABLE users FULL")
			wantFull := specSnapshotSCD1
			if storedAs == "SCD TYPE 2" {
				wantFull = "2|Carmel|2|NULL\n3|Los Angeles|2|NULL\n4|Death Valley|2|NULL\n"
			}
			if got := c.MustExec(query).String(); got != wantFull {
				t.Errorf("%s after FULL:\n got\n%s\nwant\n%s", storedAs, got, wantFull)
			}
		}
	}
}

func TestSnapshotWithVersionSpecExample(t *testing.T) {
	for _, storedAs := range []string{"SCD TYPE 1", "SCD TYPE 2"} {
		c := sqltest.Open(t).Conn()
		c.MustExec(`CREATE TABLE snaps (v int, userId int, city text)`)
		c.MustExec("INSERT INTO snaps VALUES " + labelled(1, snapshot1))
		c.MustExec(`CREATE STREAMING TABLE users`)
		c.MustExec(`CREATE FLOW f AS AUTO CDC INTO users
FROM SNAPSHOT (SELECT userId, city FROM snaps WHERE v = (SELECT version FROM current_snapshot_version()))
WITH VERSION (SELECT min(v) AS version FROM snaps
  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version()) OR v > (SELECT version FROM last_snapshot_version())
  HAVING min(v) IS NOT NULL)
KEYS (userId) STORED AS ` + storedAs)
		c.MustExec("INSERT INTO snaps VALUES " + labelled(2, snapshot2))
		c.MustExec("REFRESH STREAMING TABLE users")
		want, query := specSnapshotSCD1, "SELECT * FROM users ORDER BY userId"
		if storedAs == "SCD TYPE 2" {
			want, query = specSnapshotSCD2, "SELECT * FROM users ORDER BY userId, __START_AT"
		}
		if got := c.MustExec(query).String(); got != want {
			t.Errorf("%s:\n got\n%s\nwant\n%s", storedAs, got, want)
		}
		if got := c.MustExec("SELECT kind, last_version, snapshot_inserted, snapshot_updated, snapshot_deleted FROM cdcdb.flows").String(); got != "snapshot|2|1|2|1\n" {
			t.Errorf("cdcdb.flows: %s", got)
		}
		// FULL clears the target and pulls from the start.
		c.MustExec("REFRESH STREAMING TABLE users FULL")
		if got := c.MustExec(query).String(); got != want {
			t.Errorf("%s after FULL:\n got\n%s\nwant\n%s", storedAs, got, want)
		}
	}
}

func TestSnapshotWithoutVersion(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE TABLE src (userId int, city text)`)
	c.MustExec("INSERT INTO src VALUES " + strings.Join(snapshot1, ", "))
	c.MustExec(`CREATE STREAMING TABLE users`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT src KEYS (userId) STORED AS SCD TYPE 2`)
	c.MustExec("BEGIN; TRUNCATE src; INSERT INTO src VALUES " + strings.Join(snapshot2, ", ") + ", (6, 'Kings Canyon'); COMMIT")
	c.MustExec("REFRESH STREAMING TABLE users")
	// The two snapshot times numbered 0 and 1, as Lakeflow's table shows them.
	got := c.MustExec(`WITH times AS (SELECT DISTINCT __START_AT AS ts FROM users),
  r AS (SELECT ts, row_number() OVER (ORDER BY ts) - 1 AS n FROM times)
SELECT u.userId, u.city, s.n, e.n FROM users u JOIN r s ON s.ts = u.__START_AT LEFT JOIN r e ON e.ts = u.__END_AT ORDER BY 1, 3`).String()
	want := "1|Oaxaca|0|1\n2|Monterrey|0|1\n2|Carmel|1|NULL\n3|Tijuana|0|1\n3|Los Angeles|1|NULL\n4|Death Valley|1|NULL\n6|Kings Canyon|1|NULL\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A snapshot equal to the last changes nothing.
	before := c.MustExec("SELECT * FROM users ORDER BY 1, 3").String()
	c.MustExec("REFRESH STREAMING TABLE users")
	if after := c.MustExec("SELECT * FROM users ORDER BY 1, 3").String(); after != before {
		t.Errorf("an unchanged snapshot changed the target:\n%s\n%s", before, after)
	}
}

func TestSnapshotTriggerOnUpdate(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE TABLE src (userId int, city text)`)
	c.MustExec("INSERT INTO src VALUES " + strings.Join(snapshot1, ", "))
	c.MustExec(`CREATE STREAMING TABLE users`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT (SELECT * FROM src WHERE city <> 'Nowhere') TRIGGER ON UPDATE KEYS (userId)`)
	c.MustExec("BEGIN; DELETE FROM src; INSERT INTO src VALUES " + strings.Join(snapshot2, ", ") + ", (7, 'Nowhere'); COMMIT")
	if got := c.MustExec("SELECT * FROM users ORDER BY userId").String(); got != specSnapshotSCD1 {
		t.Errorf("got\n%s", got)
	}
	c.MustExec("UPDATE src SET city = 'Oakland' WHERE userId = 4")
	if got := c.MustExec("SELECT city FROM users WHERE userId = 4").String(); got != "Oakland\n" {
		t.Errorf("got %s", got)
	}
	// A rolled-back write takes no snapshot.
	c.MustExec("BEGIN; DELETE FROM src; ROLLBACK")
	if got := c.MustExec("SELECT count(*) FROM users").String(); got != "3\n" {
		t.Errorf("got %s", got)
	}
	// The table a snapshot query reads cannot go while the flow is there.
	c.ExpectError(pgerror.DependentObjectsStillExist, "DROP TABLE src")
	c.MustExec("DROP FLOW f")
	c.MustExec("DROP TABLE src")
	if got := c.MustExec("SELECT count(*) FROM users").String(); got != "3\n" {
		t.Errorf("the target lost rows with its flow: %s", got)
	}
}

func TestSnapshotRefusals(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE TABLE snaps (v int, userId int, city text)`)
	c.MustExec(`CREATE STREAMING TABLE users`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (userId)`)
	c.MustExec("INSERT INTO snaps VALUES " + labelled(1, snapshot1))
	for _, tt := range []struct{ code, sql, msg string }{
		{pgerror.UniqueViolation, "INSERT INTO snaps VALUES (2, 1, 'a'), (2, 1, 'b')", `found 2 rows for key (userid)=(1) in snapshot 2 of flow "f"`},
		{pgerror.NotNullViolation, "INSERT INTO snaps VALUES (2, NULL, 'a')", `key column "userid" is NULL in snapshot 2 of flow "f"`},
		{pgerror.NotNullViolation, "INSERT INTO snaps VALUES (NULL, 5, 'a')", `VERSION BY value is NULL`},
		{pgerror.UndefinedFunction, "SELECT * FROM last_snapshot_version()", `function last_snapshot_version() does not exist`},
		{pgerror.UndefinedFunction, "SELECT * FROM current_snapshot_version()", `function current_snapshot_version() does not exist`},
		{pgerror.SyntaxError, "CREATE FLOW g AS AUTO CDC INTO users FROM SNAPSHOT snaps KEYS (userId) SEQUENCE BY v", `SEQUENCE BY is not allowed in a flow FROM SNAPSHOT`},
		// Each version function only where Lakeflow allows it.
		{pgerror.UndefinedFunction, "CREATE FLOW g AS AUTO CDC INTO users FROM SNAPSHOT (SELECT userId, city FROM snaps WHERE v = (SELECT version FROM current_snapshot_version())) KEYS (userId)",
			`function current_snapshot_version() does not exist`},
		{pgerror.UndefinedFunction, "CREATE FLOW g AS AUTO CDC INTO users FROM SNAPSHOT (SELECT userId, city FROM snaps WHERE v > (SELECT version FROM last_snapshot_version())) WITH VERSION (SELECT 1 AS version) KEYS (userId)",
			`function last_snapshot_version() does not exist`},
		{pgerror.UndefinedFunction, "CREATE FLOW g AS AUTO CDC INTO users FROM SNAPSHOT (SELECT userId, city FROM snaps) WITH VERSION (SELECT version FROM current_snapshot_version()) KEYS (userId)",
			`function current_snapshot_version() does not exist`},
	} {
		pe := c.ExpectError(tt.code, tt.sql)
		if !strings.Contains(pe.Message, tt.msg) {
			t.Errorf("%s: message %q, want %q", tt.sql, pe.Message, tt.msg)
		}
	}
	// Rows of a version written and deleted in one transaction are no
	// snapshot: the target does not lose every row at that version.
	c.MustExec("BEGIN; INSERT INTO snaps VALUES (3, 9, 'x'); DELETE FROM snaps WHERE v = 3; COMMIT")
	// Nothing of a refused statement was kept.
	if got := c.MustExec("SELECT count(*) FROM snaps").String(); got != "3\n" {
		t.Errorf("snaps holds %s", got)
	}
	if got := c.MustExec("SELECT * FROM users ORDER BY userId").String(); got != "1|Oaxaca\n2|Monterrey\n3|Tijuana\n" {
		t.Errorf("users holds %s", got)
	}
	// WITH VERSION: a version not after the last, or NULL, is refused.
	c.MustExec(`CREATE TABLE vs (v int)`)
	c.MustExec(`CREATE STREAMING TABLE u2`)
	c.MustExec(`CREATE FLOW g AS AUTO CDC INTO u2 FROM SNAPSHOT (SELECT userId, city FROM snaps WHERE v = (SELECT version FROM current_snapshot_version()))
WITH VERSION (SELECT v AS version FROM vs WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version() l WHERE l.version = vs.v)) KEYS (userId)`)
	c.MustExec("INSERT INTO vs VALUES (1)")
	c.MustExec("REFRESH STREAMING TABLE u2")
	if got := c.MustExec("SELECT * FROM u2 ORDER BY userId").String(); got != "1|Oaxaca\n2|Monterrey\n3|Tijuana\n" {
		t.Errorf("u2 holds %s", got)
	}
	c.MustExec("UPDATE vs SET v = 0")
	pe := c.ExpectError(pgerror.DataException, "REFRESH STREAMING TABLE u2")
	if !strings.Contains(pe.Message, "snapshot version 0 of flow \"g\" is not after the last version applied, 1") {
		t.Errorf("message %q", pe.Message)
	}
	c.MustExec("UPDATE vs SET v = NULL")
	c.ExpectError(pgerror.NotNullViolation, "REFRESH STREAMING TABLE u2")
	if got := c.MustExec("SELECT last_version FROM cdcdb.flows WHERE name = 'g'").String(); got != "1\n" {
		t.Errorf("last_version %s", got)
	}
}

// snapshotModel is the reference for VERSION BY flows: the target is what
// applying every received snapshot in ascending version order gives.
type snapshotModel map[int]map[int]string // version -> key -> city

func (m snapshotModel) scd1() string {
	newest := -1
	for v := range m {
		newest = max(newest, v)
	}
	var sb strings.Builder
	for _, k := range sortedKeys(m[newest]) {
		fmt.Fprintf(&sb, "%d|%s\n", k, m[newest][k])
	}
	return sb.String()
}

func (m snapshotModel) scd2() string {
	type row struct {
		key        int
		city       string
		start, end int // end -1: open
	}
	var rows []row
	open := map[int]int{} // key -> index in rows
	versions := sortedKeys(m)
	for _, v := range versions {
		snap := m[v]
		for _, k := range sortedKeys(snap) {
			i, ok := open[k]
			if ok && rows[i].city == snap[k] {
				continue
			}
			if ok {
				rows[i].end = v
			}
			open[k] = len(rows)
			rows = append(rows, row{k, snap[k], v, -1})
		}
		for k, i := range open {
			if _, ok := snap[k]; !ok {
				rows[i].end = v
				delete(open, k)
			}
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].key != rows[j].key {
			return rows[i].key < rows[j].key
		}
		return rows[i].start < rows[j].start
	})
	var sb strings.Builder
	for _, r := range rows {
		end := "NULL"
		if r.end >= 0 {
			end = strconv.Itoa(r.end)
		}
		fmt.Fprintf(&sb, "%d|%s|%d|%s\n", r.key, r.city, r.start, end)
	}
	return sb.String()
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// TestSnapshotVersionByProperty delivers random snapshots in random orders
// and transaction splits, restarting the server in the middle, and compares
// the target with the reference after every transaction.
func TestSnapshotVersionByProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CDCDB_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (set CDCDB_SEED to repeat)", seed)
	rng := rand.New(rand.NewPCG(seed, 42))
	cities := []string{"Oaxaca", "Monterrey", "Tijuana", "Carmel"}
	for round := range 12 {
		storedAs := []string{"SCD TYPE 1", "SCD TYPE 2"}[round%2]
		nv := 2 + rng.IntN(6)
		snaps := map[int]map[int]string{}
		for v := 1; v <= nv; v++ {
			snaps[v] = map[int]string{}
			for k := 1; k <= 6; k++ {
				if rng.IntN(4) > 0 {
					snaps[v][k] = cities[rng.IntN(len(cities))]
				}
			}
		}
		order := rng.Perm(nv)
		// Half the rounds spill every snapshot to temporary files.
		memory := []int{0, 64}[round/2%2]
		db := openWithSnapshotMemory(t, memory)
		c := db.Conn()
		c.MustExec(`CREATE TABLE snaps (v int, userId int, city text)`)
		c.MustExec(`CREATE STREAMING TABLE users`)
		c.MustExec(`CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (userId) STORED AS ` + storedAs)
		restartAt := rng.IntN(nv)
		received := snapshotModel{}
		for i := 0; i < len(order); {
			n := 1 + rng.IntN(2)
			var stmts []string
			for ; n > 0 && i < len(order); n-- {
				v := order[i] + 1
				i++
				if len(snaps[v]) > 0 { // an empty snapshot has no row to carry its label
					received[v] = snaps[v]
				}
				var vals []string
				for _, k := range sortedKeys(snaps[v]) {
					vals = append(vals, fmt.Sprintf("(%d, %d, '%s')", v, k, snaps[v][k]))
				}
				if len(vals) > 0 {
					stmts = append(stmts, "INSERT INTO snaps VALUES "+strings.Join(vals, ", "))
				}
			}
			if len(stmts) > 0 {
				c.MustExec("BEGIN; " + strings.Join(stmts, "; ") + "; COMMIT")
			}
			if i > restartAt && restartAt >= 0 {
				restartAt = -1
				st := storagetest.Reopen(t, db.Store)
				e, err := sql.NewEngine(st, sql.Options{SnapshotMemory: memory})
				if err != nil {
					t.Fatal(err)
				}
				db = &sqltest.DB{T: t, Engine: e, Store: st}
				c = db.Conn()
			}
			want, query := received.scd1(), "SELECT * FROM users ORDER BY userId"
			if storedAs == "SCD TYPE 2" {
				want, query = received.scd2(), "SELECT * FROM users ORDER BY userId, __START_AT"
			}
			if got := c.MustExec(query).String(); got != want {
				t.Fatalf("seed %d round %d (%s), order %v, after %d versions:\n got\n%s\nwant\n%s", seed, round, storedAs, order, i, got, want)
			}
		}
	}
}

func openWithSnapshotMemory(t *testing.T, memory int) *sqltest.DB {
	st := storagetest.Open(t)
	e, err := sql.NewEngine(st, sql.Options{SnapshotMemory: memory})
	if err != nil {
		t.Fatal(err)
	}
	return &sqltest.DB{T: t, Engine: e, Store: st}
}

// TestSnapshotSpill applies snapshots far larger than the memory allowed
// them, so that they are sorted in runs on disk and merged.
func TestSnapshotSpill(t *testing.T) {
	db := openWithSnapshotMemory(t, 4096)
	c := db.Conn()
	c.MustExec(`CREATE TABLE snaps (v int, id int, val text)`)
	c.MustExec(`CREATE STREAMING TABLE dim`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO dim FROM SNAPSHOT snaps VERSION BY v KEYS (id) STORED AS SCD TYPE 2`)
	// Keys in descending order, so that every run holds high keys first.
	c.MustExec(`INSERT INTO snaps SELECT 1, 20000 - g, 'a' || g FROM generate_series(0, 19999) g`)
	// Version 2: every tenth row changed, every 20th gone, 500 new.
	c.MustExec(`INSERT INTO snaps SELECT 2, 20000 - g, CASE WHEN g % 10 = 0 THEN 'b' ELSE 'a' END || g FROM generate_series(0, 19999) g WHERE g % 20 <> 1
UNION ALL SELECT 2, 30000 + g, 'n' FROM generate_series(1, 500) g`)
	got := c.MustExec(`SELECT count(*), count(*) FILTER (WHERE __END_AT IS NULL), count(*) FILTER (WHERE __START_AT = 2) FROM dim`).String()
	if want := "22500|19500|2500\n"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := c.MustExec(`SELECT snapshot_inserted, snapshot_updated, snapshot_deleted FROM cdcdb.flows`).String(); got != "500|2000|1000\n" {
		t.Errorf("cdcdb.flows: %s", got)
	}
	// A duplicate key is found across runs too.
	pe := c.ExpectError(pgerror.UniqueViolation, `INSERT INTO snaps SELECT 3, g, 'x' FROM generate_series(1, 5000) g UNION ALL SELECT 3, 4321, 'y'`)
	if !strings.Contains(pe.Message, "(id)=(4321) in snapshot 3") {
		t.Errorf("message %q", pe.Message)
	}
	// The runs were removed.
	left, err := filepath.Glob(filepath.Join(filepath.Dir(db.Store.Path()), "cdcdb-snapshot-*"))
	if err != nil || len(left) > 0 {
		t.Errorf("temporary files left: %v %v", left, err)
	}
}

// TestSnapshotTrackHistoryColumnsOnce: TRACK HISTORY ON updates the open
// version in place for untracked changes, COLUMNS picks the target's
// columns, ONCE takes one snapshot only.
func TestSnapshotTrackHistoryColumnsOnce(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE TABLE snaps (v int, userId int, name text, city text)`)
	c.MustExec(`INSERT INTO snaps VALUES (1, 1, 'Isabel', 'Monterrey'), (1, 2, 'Raul', 'Oaxaca')`)
	c.MustExec(`CREATE STREAMING TABLE tracked`)
	c.MustExec(`CREATE FLOW f1 AS AUTO CDC INTO tracked FROM SNAPSHOT snaps VERSION BY v KEYS (userId)
STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (city)`)
	c.MustExec(`CREATE STREAMING TABLE cities`)
	c.MustExec(`CREATE FLOW f2 AS AUTO CDC INTO cities FROM SNAPSHOT snaps VERSION BY v COLUMNS (userId, city) KEYS (userId) STORED AS SCD TYPE 2`)
	c.MustExec(`CREATE STREAMING TABLE first_only`)
	c.MustExec(`CREATE FLOW f3 AS AUTO CDC ONCE INTO first_only FROM SNAPSHOT snaps VERSION BY v KEYS (userId)`)
	c.MustExec(`INSERT INTO snaps VALUES (2, 1, 'Isabel', 'Chihuahua'), (2, 2, 'Raúl', 'Oaxaca')`)
	c.MustExec(`REFRESH STREAMING TABLE first_only`)
	for _, tt := range []struct{ query, want string }{
		{"SELECT * FROM tracked ORDER BY userId, __START_AT", "1|Isabel|Chihuahua|1|NULL\n2|Raul|Oaxaca|1|2\n2|Raúl|Oaxaca|2|NULL\n"},
		{"SELECT * FROM cities ORDER BY userId, __START_AT", "1|Monterrey|1|2\n1|Chihuahua|2|NULL\n2|Oaxaca|1|NULL\n"},
		{"SELECT * FROM first_only ORDER BY userId", "1|Isabel|Monterrey\n2|Raul|Oaxaca\n"},
	} {
		if got := c.MustExec(tt.query).String(); got != tt.want {
			t.Errorf("%s:\n got\n%s\nwant\n%s", tt.query, got, tt.want)
		}
	}
	c.ExpectError(pgerror.FeatureNotSupported, `CREATE FLOW f4 AS AUTO CDC INTO first_only FROM SNAPSHOT snaps KEYS (userId) STORED AS BITEMPORAL`)
	c.ExpectError(pgerror.SyntaxError, `CREATE FLOW f4 AS AUTO CDC INTO first_only FROM SNAPSHOT (SELECT * FROM snaps) VERSION BY v KEYS (userId)`)
}

// TestSnapshotDeclaredTarget: a target declared with columns gets values
// fitted to its columns' modifiers, and compares what it stores.
func TestSnapshotDeclaredTarget(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE TABLE src (id int, price numeric)`)
	c.MustExec(`INSERT INTO src VALUES (1, 1.004), (2, 2.5)`)
	c.MustExec(`CREATE STREAMING TABLE prices (id int, price numeric(10,2), __START_AT timestamptz, __END_AT timestamptz)`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO prices FROM SNAPSHOT src KEYS (id) STORED AS SCD TYPE 2`)
	// 1.004 -> 1.001 rounds to the same stored value: no new version.
	c.MustExec(`UPDATE src SET price = 1.001 WHERE id = 1`)
	c.MustExec(`REFRESH STREAMING TABLE prices`)
	if got := c.MustExec(`SELECT id, price, __END_AT IS NULL FROM prices ORDER BY 1, __START_AT`).String(); got != "1|1.00|t\n2|2.50|t\n" {
		t.Errorf("got\n%s", got)
	}
}

// TestSnapshotDatabricksDialect writes a snapshot flow as a Databricks user
// would: catalog-qualified names, Lakeflow's version functions.
func TestSnapshotDatabricksDialect(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`SET cdcdb.dialect = 'databricks'`)
	c.MustExec(`CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;`)
	c.MustExec(`CREATE TABLE main.cdc_tutorial.users_snapshots (snapshot_version int, userId int, city string)`)
	c.MustExec("INSERT INTO main.cdc_tutorial.users_snapshots VALUES " + labelled(1, snapshot1) + ", " + labelled(2, snapshot2))
	c.MustExec(`CREATE OR REFRESH STREAMING TABLE main.cdc_tutorial.users;`)
	c.MustExec("CREATE FLOW users_flow AS AUTO CDC INTO main.cdc_tutorial.users\n" +
		"FROM SNAPSHOT (SELECT userId, city FROM main.cdc_tutorial.users_snapshots\n" +
		"  WHERE snapshot_version = (SELECT version FROM current_snapshot_version()))\n" +
		"WITH VERSION (SELECT min(snapshot_version) AS version FROM main.cdc_tutorial.users_snapshots\n" +
		"  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version())\n" +
		"     OR snapshot_version > (SELECT version FROM last_snapshot_version())\n" +
		"  HAVING count(*) > 0)\n" +
		"KEYS (`userId`)\n" +
		"STORED AS SCD TYPE 2;")
	if got := c.MustExec(`SELECT * FROM main.cdc_tutorial.users ORDER BY userId, __START_AT`).String(); got != specSnapshotSCD2 {
		t.Errorf("got\n%s", got)
	}
}

// TestSnapshotOfView: a view is a snapshot source too, and TRIGGER ON
// UPDATE watches the tables under it.
func TestSnapshotOfView(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE TABLE base (userId int, city text, active bool)`)
	c.MustExec(`INSERT INTO base VALUES (1, 'Oaxaca', true), (2, 'Monterrey', false)`)
	c.MustExec(`CREATE VIEW active_users AS SELECT userId, city FROM base WHERE active`)
	c.MustExec(`CREATE STREAMING TABLE users`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT active_users TRIGGER ON UPDATE KEYS (userId)`)
	c.MustExec(`UPDATE base SET active = true WHERE userId = 2`)
	if got := c.MustExec("SELECT * FROM users ORDER BY userId").String(); got != "1|Oaxaca\n2|Monterrey\n" {
		t.Errorf("got\n%s", got)
	}
	c.ExpectError(pgerror.DependentObjectsStillExist, "DROP TABLE base")
	c.ExpectError(pgerror.ObjectInUse, "ALTER TABLE base ADD COLUMN note text")
	c.ExpectError(pgerror.WrongObjectType, "CREATE FLOW g AS AUTO CDC INTO users FROM SNAPSHOT active_users VERSION BY userId KEYS (userId)")
}
