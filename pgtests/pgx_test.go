package pgtests

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"

	"cdcdb/pgtests/pgserver"
)

// allExecModes are pgx's five ways of running a query: prepared and cached,
// described and cached, described every time, unnamed extended protocol
// with text parameters, and the simple protocol with client-side
// interpolation. Each reaches a different path of the server.
var allExecModes = []pgx.QueryExecMode{
	pgx.QueryExecModeCacheStatement,
	pgx.QueryExecModeCacheDescribe,
	pgx.QueryExecModeDescribeExec,
	pgx.QueryExecModeExec,
	pgx.QueryExecModeSimpleProtocol,
}

func TestPgxCoreSQLInEveryQueryExecMode(t *testing.T) {
	for _, mode := range allExecModes {
		t.Run(mode.String(), func(t *testing.T) {
			srv := startTarget(t)
			// One server per mode, one connection per check: a check that
			// fails half-way cannot leave a transaction open for the next.
			for _, check := range []struct {
				name string
				run  func(*testing.T, *pgx.Conn)
			}{
				{"CreateInsertSelectUpdateDelete", checkCRUD},
				{"TypesRoundTrip", checkTypesRoundTrip},
				{"ErrorsCarrySQLSTATE", checkErrorSQLStates},
				{"Transactions", checkTransactions},
				{"CopyFromAndCopyTo", checkCopy},
			} {
				t.Run(check.name, func(t *testing.T) { check.run(t, connectMode(t, srv.URL, mode)) })
			}
		})
	}
}

func checkCRUD(t *testing.T, conn *pgx.Conn) {
	ctx := testContext(t)
	if tag := mustExec(t, conn, `CREATE TABLE item (
		id int8 PRIMARY KEY,
		name text NOT NULL,
		qty int4 NOT NULL DEFAULT 7,
		note varchar(40) DEFAULT 'none'
	)`); tag.String() != "CREATE TABLE" {
		t.Errorf("CREATE TABLE tag = %q", tag)
	}

	// Multi-row INSERT with RETURNING shows the defaults it filled in.
	rows, err := conn.Query(ctx, "INSERT INTO item (id, name) VALUES ($1, $2), ($3, $4) RETURNING id, qty, note",
		int64(1), "a", int64(2), "b")
	if err != nil {
		t.Fatal(err)
	}
	type returned struct {
		ID   int64
		Qty  int32
		Note *string
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[returned])
	if err != nil {
		t.Fatalf("INSERT ... RETURNING: %v", err)
	}
	if tag := rows.CommandTag().String(); tag != "INSERT 0 2" {
		t.Errorf("INSERT ... RETURNING tag = %q, want INSERT 0 2", tag)
	}
	if len(got) != 2 || got[0].ID != 1 || got[1].ID != 2 {
		t.Fatalf("RETURNING rows = %+v, want ids 1 and 2", got)
	}
	for _, r := range got {
		if r.Qty != 7 || r.Note == nil || *r.Note != "none" {
			t.Errorf("RETURNING row %d: qty=%d note=%v, want the defaults 7 and 'none'", r.ID, r.Qty, r.Note)
		}
	}

	tag := mustExec(t, conn, "INSERT INTO item (id, name, qty, note) VALUES (3, 'c', 30, 'x'), (4, 'd', 40, NULL), (5, 'e', 50, 'y')")
	if tag.String() != "INSERT 0 3" || tag.RowsAffected() != 3 || !tag.Insert() {
		t.Errorf("INSERT tag = %q, want INSERT 0 3", tag)
	}

	// Parameterized WHERE, ORDER BY and LIMIT.
	rows, err = conn.Query(ctx, "SELECT id, name FROM item WHERE qty >= $1 ORDER BY id DESC LIMIT $2", int32(30), int64(2))
	if err != nil {
		t.Fatal(err)
	}
	type idName struct {
		ID   int64
		Name string
	}
	page, err := pgx.CollectRows(rows, pgx.RowToStructByPos[idName])
	if err != nil {
		t.Fatal(err)
	}
	if want := []idName{{5, "e"}, {4, "d"}}; !slices.Equal(page, want) {
		t.Errorf("SELECT ... ORDER BY id DESC LIMIT 2 = %v, want %v", page, want)
	}
	if tag := rows.CommandTag().String(); tag != "SELECT 2" {
		t.Errorf("SELECT tag = %q, want SELECT 2", tag)
	}
	var note *string
	if err := conn.QueryRow(ctx, "SELECT note FROM item WHERE id = $1", int64(4)).Scan(&note); err != nil || note != nil {
		t.Errorf("explicit NULL note: got %v, %v; want NULL", note, err)
	}

	tag = mustExec(t, conn, "UPDATE item SET qty = qty + $1 WHERE id <= $2", int32(1), int64(2))
	if tag.String() != "UPDATE 2" || !tag.Update() {
		t.Errorf("UPDATE tag = %q, want UPDATE 2", tag)
	}
	if got := queryInt64s(t, conn, "SELECT qty::int8 FROM item WHERE id IN (1, 2, 3) ORDER BY id"); !slices.Equal(got, []int64{8, 8, 30}) {
		t.Errorf("qty after UPDATE = %v, want [8 8 30]", got)
	}
	if tag := mustExec(t, conn, "UPDATE item SET note = 'z' WHERE id > 100"); tag.String() != "UPDATE 0" {
		t.Errorf("UPDATE of no rows tag = %q, want UPDATE 0", tag)
	}

	tag = mustExec(t, conn, "DELETE FROM item WHERE id = $1", int64(3))
	if tag.String() != "DELETE 1" || !tag.Delete() {
		t.Errorf("DELETE tag = %q, want DELETE 1", tag)
	}
	if tag := mustExec(t, conn, "DELETE FROM item WHERE id > $1", int64(100)); tag.String() != "DELETE 0" {
		t.Errorf("DELETE of no rows tag = %q, want DELETE 0", tag)
	}
	if got := queryInt64s(t, conn, "SELECT id FROM item ORDER BY id"); !slices.Equal(got, []int64{1, 2, 4, 5}) {
		t.Errorf("ids after DELETE = %v, want [1 2 4 5]", got)
	}
}

func checkErrorSQLStates(t *testing.T, conn *pgx.Conn) {
	mustExec(t, conn, "CREATE TABLE errs (id int4 PRIMARY KEY, name text NOT NULL)")
	mustExec(t, conn, "INSERT INTO errs VALUES (1, 'one')")
	cases := []struct {
		name     string
		sql      string
		code     string
		message  string // checked when set
		position int32  // checked when set (1-based, in characters)
	}{
		{"UndefinedTable", "SELECT * FROM nope", "42P01", `relation "nope" does not exist`, 15},
		{"UndefinedColumn", "SELECT nocolumn FROM errs", "42703", `column "nocolumn" does not exist`, 8},
		{"UniqueViolation", "INSERT INTO errs VALUES (1, 'again')", "23505", "", 0},
		{"NotNullViolation", "INSERT INTO errs (id) VALUES (2)", "23502", "", 0},
		{"InvalidTextRepresentation", "SELECT 'abc'::int4", "22P02", `invalid input syntax for type integer: "abc"`, 0},
		{"SyntaxErrorWithPosition", "SELECT id FROM errs WHERE id = = 1", "42601", `syntax error at or near "="`, 32},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := testContext(t)
			_, err := conn.Exec(ctx, c.sql)
			pgErr := requireSQLState(t, err, c.code)
			if c.message != "" && pgErr.Message != c.message {
				t.Errorf("message = %q, want %q", pgErr.Message, c.message)
			}
			if c.position != 0 && pgErr.Position != c.position {
				t.Errorf("position = %d, want %d (%q)", pgErr.Position, c.position, c.sql[c.position-1:])
			}
			if pgErr.Severity != "ERROR" {
				t.Errorf("severity = %q, want ERROR", pgErr.Severity)
			}
			// A bad statement never kills the connection.
			var one int32
			if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
				t.Fatalf("SELECT 1 after the error: %v, %v", one, err)
			}
		})
	}
	if got := queryInt64s(t, conn, "SELECT id::int8 FROM errs"); !slices.Equal(got, []int64{1}) {
		t.Errorf("failed INSERTs left rows behind: ids %v, want [1]", got)
	}
}

func checkTransactions(t *testing.T, conn *pgx.Conn) {
	ctx := testContext(t)
	pc := conn.PgConn()
	mustExec(t, conn, "CREATE TABLE txt (id int4 PRIMARY KEY, v text)")
	ids := func() []int64 { return queryInt64s(t, conn, "SELECT id::int8 FROM txt ORDER BY id") }
	wantTx := func(when string, want byte) {
		t.Helper()
		if got := pc.TxStatus(); got != want {
			t.Errorf("ReadyForQuery status %s = %q, want %q", when, got, want)
		}
	}

	wantTx("before BEGIN", 'I')
	if tag := mustExec(t, conn, "BEGIN"); tag.String() != "BEGIN" {
		t.Errorf("BEGIN tag = %q", tag)
	}
	wantTx("after BEGIN", 'T')
	mustExec(t, conn, "INSERT INTO txt VALUES (1, 'rolled back')")
	if tag := mustExec(t, conn, "ROLLBACK"); tag.String() != "ROLLBACK" {
		t.Errorf("ROLLBACK tag = %q", tag)
	}
	wantTx("after ROLLBACK", 'I')
	if got := ids(); len(got) != 0 {
		t.Errorf("rows after ROLLBACK = %v, want none", got)
	}

	mustExec(t, conn, "BEGIN")
	mustExec(t, conn, "INSERT INTO txt VALUES (1, 'one')")
	mustExec(t, conn, "INSERT INTO txt VALUES (2, 'two')")
	if tag := mustExec(t, conn, "COMMIT"); tag.String() != "COMMIT" {
		t.Errorf("COMMIT tag = %q", tag)
	}
	wantTx("after COMMIT", 'I')
	if got := ids(); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("rows after COMMIT = %v, want [1 2]", got)
	}

	// pgx's own transaction API.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO txt VALUES ($1, $2)", int32(3), "three"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// After an error inside a transaction block, everything fails with 25P02
	// until the block ends; COMMIT then rolls back. The error may come from
	// planning the statement or from executing it.
	for _, failing := range []struct{ sql, code string }{
		{"SELECT * FROM nope", "42P01"},
		{"INSERT INTO txt VALUES (1, 'duplicate')", "23505"},
	} {
		for _, end := range []string{"COMMIT", "ROLLBACK"} {
			t.Run(failing.code+"Then"+end, func(t *testing.T) {
				t.Cleanup(func() {
					if pc.TxStatus() != 'I' {
						_, _ = conn.Exec(context.Background(), "ROLLBACK")
					}
				})
				mustExec(t, conn, "BEGIN")
				mustExec(t, conn, "INSERT INTO txt VALUES (4, 'lost')")
				_, err := conn.Exec(ctx, failing.sql)
				requireSQLState(t, err, failing.code)
				wantTx("after an error in a transaction", 'E')
				_, err = conn.Exec(ctx, "SELECT 1")
				requireSQLState(t, err, "25P02")
				_, err = conn.Exec(ctx, "INSERT INTO txt VALUES ($1, 'lost')", int32(5))
				requireSQLState(t, err, "25P02")
				wantTx("after 25P02", 'E')
				if tag := mustExec(t, conn, end); tag.String() != "ROLLBACK" {
					t.Errorf("%s of a failed transaction: tag %q, want ROLLBACK", end, tag)
				}
				wantTx("after "+end+" of a failed transaction", 'I')
				if got := ids(); !slices.Equal(got, []int64{1, 2, 3}) {
					t.Errorf("rows after %s of a failed transaction = %v, want [1 2 3]", end, got)
				}
			})
		}
	}
}

func checkCopy(t *testing.T, conn *pgx.Conn) {
	ctx := testContext(t)
	mustExec(t, conn, "SET TimeZone = 'UTC'")
	mustExec(t, conn, "CREATE TABLE copied (id int8 PRIMARY KEY, label text NOT NULL, amount float8, at timestamptz, flag bool)")
	const n = 10_000
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	row := func(i int) []any {
		var amount any = float64(i) / 4
		if i%1000 == 0 {
			amount = nil
		}
		return []any{int64(i), fmt.Sprintf("row %05d", i), amount, base.Add(time.Duration(i) * time.Second), i%3 == 0}
	}
	cols := []string{"id", "label", "amount", "at", "flag"}
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"copied"}, cols, pgx.CopyFromFunc(func() func() ([]any, error) {
		i := 0
		return func() ([]any, error) {
			if i == n {
				return nil, nil
			}
			i++
			return row(i), nil
		}
	}()))
	if err != nil {
		t.Fatalf("CopyFrom: %v", err)
	}
	if copied != n {
		t.Errorf("CopyFrom reported %d rows, want %d", copied, n)
	}
	var count, sum, amounts int64
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(id)::int8, count(amount) FROM copied").Scan(&count, &sum, &amounts); err != nil {
		t.Fatal(err)
	}
	if count != n || sum != n*(n+1)/2 || amounts != n-n/1000 {
		t.Errorf("after CopyFrom: count=%d sum=%d count(amount)=%d, want %d %d %d", count, sum, amounts, n, n*(n+1)/2, n-n/1000)
	}
	var label string
	var amount float64
	var at time.Time
	var flag bool
	if err := conn.QueryRow(ctx, "SELECT label, amount, at, flag FROM copied WHERE id = $1", int64(1234)).Scan(&label, &amount, &at, &flag); err != nil {
		t.Fatal(err)
	}
	if want := row(1234); label != want[1] || amount != want[2] || !at.Equal(want[3].(time.Time)) || flag != want[4] {
		t.Errorf("row 1234 = %q %v %v %v, want %v", label, amount, at, flag, want)
	}

	// A COPY that fails part-way leaves nothing behind.
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"copied"}, cols, pgx.CopyFromRows([][]any{row(n + 1), row(n + 2), row(7)}))
	requireSQLState(t, err, "23505")
	if got := queryInt64s(t, conn, "SELECT count(*) FROM copied"); !slices.Equal(got, []int64{n}) {
		t.Errorf("after a failed COPY: count = %v, want %d", got, n)
	}

	var out bytes.Buffer
	tag, err := conn.PgConn().CopyTo(ctx, &out, "COPY copied TO STDOUT")
	if err != nil {
		t.Fatalf("COPY TO STDOUT: %v", err)
	}
	if tag.String() != fmt.Sprintf("COPY %d", n) {
		t.Errorf("COPY TO tag = %q, want COPY %d", tag, n)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("COPY TO wrote %d lines, want %d", len(lines), n)
	}
	for _, want := range []string{
		"1\trow 00001\t0.25\t2024-01-01 00:00:01+00\tf",
		"1000\trow 01000\t\\N\t2024-01-01 00:16:40+00\tf",
		"9999\trow 09999\t2499.75\t2024-01-01 02:46:39+00\tt",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("COPY TO output lacks the line %q", want)
		}
	}
}

func TestPgxCancelByContextAnswers57014(t *testing.T) {
	for _, mode := range allExecModes {
		t.Run(mode.String(), func(t *testing.T) {
			srv := startTarget(t)
			cfg, err := pgx.ParseConfig(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = mode
			// Cancel through a CancelRequest, as libpq does, instead of pgx's
			// default of closing the connection.
			cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
				return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: 20 * time.Second}
			}
			conn := connectConfig(t, cfg)

			// Long enough for the statement to be running when the cancel arrives,
			// even on a busy machine.
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			start := time.Now()
			_, err = conn.Exec(ctx, "SELECT pg_sleep(10)")
			elapsed := time.Since(start)
			pgErr := requireSQLState(t, err, "57014")
			if pgErr.Message != "canceling statement due to user request" {
				t.Errorf("message = %q", pgErr.Message)
			}
			if elapsed > 8*time.Second {
				t.Errorf("the canceled statement took %v", elapsed)
			}
			if conn.IsClosed() {
				t.Fatal("cancel closed the connection")
			}
			if got := queryString(t, conn, "SELECT 'still usable'"); got != "still usable" {
				t.Errorf("after cancel: %q", got)
			}
		})
	}
}

func TestPgxSetShowAndParameterStatus(t *testing.T) {
	srv := startTarget(t)
	conn := connect(t, srv.URL)
	pc := conn.PgConn()
	show := func(name string) string { t.Helper(); return queryString(t, conn, "SHOW "+name) }

	if tag := mustExec(t, conn, "SET application_name = 'pgtests-app'"); tag.String() != "SET" {
		t.Errorf("SET tag = %q", tag)
	}
	if got := pc.ParameterStatus("application_name"); got != "pgtests-app" {
		t.Errorf("ParameterStatus application_name = %q after SET", got)
	}
	if got := show("application_name"); got != "pgtests-app" {
		t.Errorf("SHOW application_name = %q", got)
	}

	mustExec(t, conn, "SET TimeZone = 'America/New_York'")
	if got := pc.ParameterStatus("TimeZone"); got != "America/New_York" {
		t.Errorf("ParameterStatus TimeZone = %q after SET", got)
	}
	if got := show("TimeZone"); got != "America/New_York" {
		t.Errorf("SHOW TimeZone = %q", got)
	}
	if got := queryString(t, conn, "SELECT '2024-01-15 12:00:00+00'::timestamptz::text"); got != "2024-01-15 07:00:00-05" {
		t.Errorf("timestamptz as text in America/New_York = %q, want 2024-01-15 07:00:00-05", got)
	}

	mustExec(t, conn, "CREATE SCHEMA sp")
	mustExec(t, conn, "SET search_path TO sp, public")
	if got := show("search_path"); got != "sp, public" {
		t.Errorf("SHOW search_path = %q, want %q", got, "sp, public")
	}
	if got := queryString(t, conn, "SELECT current_schema()"); got != "sp" {
		t.Errorf("current_schema() with search_path sp, public = %q", got)
	}
	mustExec(t, conn, "CREATE TABLE in_sp (id int8)")
	mustExec(t, conn, "INSERT INTO in_sp VALUES (42)")
	if got := queryInt64s(t, conn, "SELECT id FROM sp.in_sp"); !slices.Equal(got, []int64{42}) {
		t.Errorf("unqualified CREATE TABLE did not go to the first schema of search_path: sp.in_sp = %v", got)
	}
}

func TestPgxStartupParameterStatusMatchesPostgres15(t *testing.T) {
	srv := startTarget(t)
	cfg, err := pgx.ParseConfig(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["application_name"] = "pgtests-startup"
	conn := connectConfig(t, cfg)
	pc := conn.PgConn()
	want := map[string]string{
		"server_encoding":               "UTF8",
		"client_encoding":               "UTF8",
		"DateStyle":                     "ISO, MDY",
		"integer_datetimes":             "on",
		"standard_conforming_strings":   "on",
		"IntervalStyle":                 "postgres",
		"session_authorization":         pgserver.User,
		"application_name":              "pgtests-startup",
		"default_transaction_read_only": "off",
		"in_hot_standby":                "off",
	}
	for name, value := range want {
		if got := pc.ParameterStatus(name); got != value {
			t.Errorf("ParameterStatus %s = %q, want %q", name, got, value)
		}
	}
	if v := pc.ParameterStatus("server_version"); !strings.HasPrefix(v, "15.") {
		t.Errorf("server_version = %q, want 15.x", v)
	}
	if v := pc.ParameterStatus("is_superuser"); v != "on" && v != "off" {
		t.Errorf("is_superuser = %q, want on or off", v)
	}
	if pc.ParameterStatus("TimeZone") == "" {
		t.Error("no TimeZone ParameterStatus")
	}
	if len(pc.SecretKey()) == 0 {
		t.Error("no BackendKeyData secret key")
	}
	if pc.TxStatus() != 'I' {
		t.Errorf("ReadyForQuery after startup = %q, want 'I'", pc.TxStatus())
	}
}

func TestPgxSessionFunctionsAnyDatabaseNameIsMain(t *testing.T) {
	srv := startServer(t)
	for _, db := range []string{"main", "otherdb"} {
		t.Run(db, func(t *testing.T) {
			conn := connect(t, pgserver.URL(srv.Host(), srv.Port(), db, ""))
			if v := queryString(t, conn, "SELECT version()"); !strings.HasPrefix(v, "PostgreSQL 15") {
				t.Errorf("version() = %q, want it to start with PostgreSQL 15", v)
			}
			if v := queryString(t, conn, "SELECT current_database()"); v != "main" {
				t.Errorf("current_database() = %q, want main", v)
			}
			if v := queryString(t, conn, "SELECT current_schema()"); v != "public" {
				t.Errorf("current_schema() = %q, want public", v)
			}
		})
	}
}

func TestPgxCreateSchemaAndQualifiedTables(t *testing.T) {
	srv := startTarget(t)
	conn := connect(t, srv.URL)
	ctx := testContext(t)

	if tag := mustExec(t, conn, "CREATE SCHEMA sales"); tag.String() != "CREATE SCHEMA" {
		t.Errorf("CREATE SCHEMA tag = %q", tag)
	}
	_, err := conn.Exec(ctx, "CREATE SCHEMA sales")
	requireSQLState(t, err, "42P06")
	if tag := mustExec(t, conn, "CREATE SCHEMA IF NOT EXISTS sales"); tag.String() != "CREATE SCHEMA" {
		t.Errorf("CREATE SCHEMA IF NOT EXISTS tag = %q", tag)
	}
	mustExec(t, conn, "CREATE TABLE sales.orders (id int8 PRIMARY KEY, total numeric NOT NULL)")
	mustExec(t, conn, "INSERT INTO sales.orders VALUES (1, 9.99), (2, 20)")
	if got := queryInt64s(t, conn, "SELECT id FROM sales.orders WHERE total > $1 ORDER BY id", 5); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("sales.orders ids = %v, want [1 2]", got)
	}
	_, err = conn.Exec(ctx, "SELECT * FROM orders")
	requireSQLState(t, err, "42P01")

	mustExec(t, conn, "CREATE TABLE orders (id int8 PRIMARY KEY)")
	mustExec(t, conn, "INSERT INTO public.orders VALUES (7)")
	if got := queryInt64s(t, conn, "SELECT id FROM orders"); !slices.Equal(got, []int64{7}) {
		t.Errorf("public.orders ids = %v, want [7]", got)
	}
	if got := queryInt64s(t, conn, "SELECT count(*) FROM sales.orders"); !slices.Equal(got, []int64{2}) {
		t.Errorf("sales.orders count = %v, want [2]", got)
	}

	if tag := mustExec(t, conn, "DROP TABLE sales.orders"); tag.String() != "DROP TABLE" {
		t.Errorf("DROP TABLE tag = %q", tag)
	}
	if tag := mustExec(t, conn, "DROP SCHEMA sales"); tag.String() != "DROP SCHEMA" {
		t.Errorf("DROP SCHEMA tag = %q", tag)
	}
	_, err = conn.Exec(ctx, "CREATE TABLE sales.again (id int8)")
	requireSQLState(t, err, "3F000")
}
