package pgtests

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgerror"
	"cdcdb/pgtests/pgserver"
)

// runCheck runs `cdcdb check -data path` and returns its exit status and
// output.
func runCheck(t *testing.T, path string) (int, string) {
	t.Helper()
	if buildErr != nil {
		t.Fatalf("cdcdb does not build: %v", buildErr)
	}
	out, err := exec.Command(cdcdbBin, "check", "-data", path).CombinedOutput()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &exitErr):
		return exitErr.ExitCode(), string(out)
	}
	t.Fatalf("cdcdb check: %v", err)
	return -1, ""
}

// needleTable makes a table holding a row whose text is needle, beside a
// table nothing will damage, stops the server, and returns the table's
// keyspace ("t/" and its OID).
func needleTable(t *testing.T, srv *pgserver.Server, needle string) string {
	t.Helper()
	conn := connect(t, srv.URL())
	mustExec(t, conn, "CREATE TABLE kept (id int PRIMARY KEY, v text)")
	mustExec(t, conn, "INSERT INTO kept SELECT g, 'kept ' || g FROM generate_series(1, 50) AS g")
	mustExec(t, conn, "CREATE TABLE hit (id int PRIMARY KEY, v text)")
	mustExec(t, conn, "INSERT INTO hit SELECT g, 'row ' || g FROM generate_series(1, 50) AS g")
	mustExec(t, conn, "INSERT INTO hit VALUES (1000, $1)", needle)
	oid := queryString(t, conn, "SELECT 'hit'::regclass::oid::text")
	_ = conn.Close(context.Background())
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if code, out := runCheck(t, srv.DataFile()); code != 0 || !strings.Contains(out, "no damage found") {
		t.Fatalf("cdcdb check of the sound file: exit %d\n%s", code, out)
	}
	return "t/" + oid
}

// TestADamagedRowIsAnErrorNotData: bytes of a row changed in the closed
// file (every copy of them: the table's block, and stale log records) are
// found by cdcdb check, and a server on the file answers a query that
// reads them with XX001 naming the table, not with the changed text; the
// undamaged table reads as before.
func TestADamagedRowIsAnErrorNotData(t *testing.T) {
	srv := startServer(t)
	needle := "needle-0123456789-abcdefghij"
	space := needleTable(t, srv, needle)
	raw, err := os.ReadFile(srv.DataFile())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(needle)) {
		t.Fatal("the row's text is not in the file")
	}
	raw = bytes.ReplaceAll(raw, []byte(needle), []byte(strings.Replace(needle, "5", "X", 1)))
	if err := os.WriteFile(srv.DataFile(), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := runCheck(t, srv.DataFile())
	if code != 1 || !strings.Contains(out, "DAMAGED") || !strings.Contains(out, fmt.Sprintf("keyspace %q: run", space)) || !strings.Contains(out, "fails its checksum") {
		t.Fatalf("cdcdb check of the damaged file: exit %d\n%s", code, out)
	}
	srv.StartAgain()
	conn := connect(t, srv.URL())
	ctx := testContext(t)
	rows, err := conn.Query(ctx, "SELECT v FROM hit ORDER BY id")
	var got []string
	if err == nil {
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err == nil {
				got = append(got, v)
			}
		}
		err = rows.Err()
	}
	pgErr := requireSQLState(t, err, pgerror.DataCorrupted)
	if pgErr.TableName != "hit" || !strings.Contains(pgErr.Message, `could not read table "hit"`) || !strings.Contains(pgErr.Message, "fails its checksum") {
		t.Fatalf("the error reading the damaged table: %+v", pgErr)
	}
	for _, v := range got {
		if strings.Contains(v, "needle") && v != needle {
			t.Fatalf("the damaged row was served: %q", v)
		}
	}
	if n := queryInt64s(t, conn, "SELECT count(*) FROM kept"); n[0] != 50 {
		t.Fatalf("the undamaged table holds %d rows", n[0])
	}
}

// TestADamagedPageRefusesToStart: a page of bbolt's B+trees damaged in the
// closed file (the header of the leaf that holds a small table's block)
// makes the server refuse to start, with an exit status of 1 and a message
// naming the file and the page, where bbolt used to panic; cdcdb check
// reports the same.
func TestADamagedPageRefusesToStart(t *testing.T) {
	srv := startServer(t)
	needle := "needle-of-the-damaged-page"
	needleTable(t, srv, needle)
	raw, err := os.ReadFile(srv.DataFile())
	if err != nil {
		t.Fatal(err)
	}
	pageSize := int(binary.LittleEndian.Uint32(raw[24:])) // bbolt's meta page 0
	// The needle's copy in a leaf page (a page whose header says it is
	// that page, a leaf); other copies are in the log ring's pages.
	leaf := -1
	for from := 0; ; {
		i := bytes.Index(raw[from:], []byte(needle))
		if i < 0 {
			break
		}
		at := from + i
		page := at / pageSize
		h := raw[page*pageSize:]
		if binary.LittleEndian.Uint64(h) == uint64(page) && binary.LittleEndian.Uint16(h[8:]) == 0x02 {
			leaf = page
			break
		}
		from = at + 1
	}
	if leaf < 0 {
		t.Fatal("no leaf page holds the row")
	}
	copy(raw[leaf*pageSize:], bytes.Repeat([]byte{0xa5}, 16))
	if err := os.WriteFile(srv.DataFile(), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := pgserver.RunUntilExit(t, cdcdbBin, pgserver.WithDataFile(srv.DataFile()))
	if code != 1 || !strings.Contains(out, srv.DataFile()+" is damaged") || !strings.Contains(out, fmt.Sprintf("page %d", leaf)) || strings.Contains(out, "panic") {
		t.Fatalf("cdcdb on the damaged file: exit %d\n%s", code, out)
	}
	code, out = runCheck(t, srv.DataFile())
	if code != 1 || !strings.Contains(out, fmt.Sprintf("page %d", leaf)) {
		t.Fatalf("cdcdb check of the damaged file: exit %d\n%s", code, out)
	}
}

// TestAFailedLogWriteAnswers08007ThenRefuses: in a server whose write of
// a commit's log record fails (injected: CDCDB_TEST_FAIL_LOG_WRITE), that
// commit is answered 08007 (its outcome unknown) with a hint to check
// after a restart, the next commit 58030; the server logs the failed write
// with the file, offset, length and error. After a restart the 08007
// commit is there when its record reached the disk and absent when it did
// not, and the refused one is never there.
func TestAFailedLogWriteAnswers08007ThenRefuses(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		there bool
	}{{"before", false}, {"after", true}} {
		t.Run(tc.mode, func(t *testing.T) {
			srv := startServer(t, pgserver.WithEnv("CDCDB_TEST_FAIL_LOG_WRITE", tc.mode+":12"))
			conn := connect(t, srv.URL())
			ctx := testContext(t)
			mustExec(t, conn, "CREATE TABLE f (id int PRIMARY KEY)")
			unknown := -1
			var unknownErr *pgconn.PgError
			for id := range 40 {
				_, err := conn.Exec(ctx, "INSERT INTO f VALUES ($1)", id)
				if err == nil {
					continue
				}
				unknownErr = requireSQLState(t, err, pgerror.TransactionResolutionUnknown)
				unknown = id
				break
			}
			if unknown < 0 {
				t.Fatal("no commit failed")
			}
			if !strings.Contains(unknownErr.Message, "outcome of this commit is unknown") || !strings.Contains(unknownErr.Hint, "Reconnect once the server has restarted") {
				t.Fatalf("the commit whose write failed: %+v", unknownErr)
			}
			_, err := conn.Exec(ctx, "INSERT INTO f VALUES (1000)")
			refused := requireSQLState(t, err, pgerror.IOError)
			if !strings.Contains(refused.Detail, "not committed") {
				t.Fatalf("the commit after the failure: %+v", refused)
			}
			_ = conn.Close(ctx)
			if err := srv.Stop(); err != nil {
				t.Fatal(err)
			}
			log := srv.Output()
			if !strings.Contains(log, "writing commits' log records to the database file failed") || !strings.Contains(log, "file="+srv.DataFile()) ||
				!strings.Contains(log, "offset=") || !strings.Contains(log, "length=") || !strings.Contains(log, "input/output error") {
				t.Fatalf("the server's log of the failed write:\n%s", log)
			}
			again := startServer(t, pgserver.WithDataFile(srv.DataFile()))
			conn = connect(t, again.URL())
			got := queryInt64s(t, conn, "SELECT count(*) FROM f WHERE id = $1", unknown)[0] == 1
			if got != tc.there {
				t.Fatalf("the 08007 commit there after the restart: %v, want %v", got, tc.there)
			}
			if n := queryInt64s(t, conn, "SELECT count(*) FROM f WHERE id = 1000")[0]; n != 0 {
				t.Fatal("the refused commit is there after the restart")
			}
			if n := queryInt64s(t, conn, "SELECT count(*) FROM f")[0]; n != int64(unknown)+map[bool]int64{true: 1}[tc.there] {
				t.Fatalf("%d rows after the restart, want the %d acknowledged ones and the 08007 one: %v", n, unknown, tc.there)
			}
		})
	}
}
