package pgtests

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgtests/pgserver"
)

// fastPathsServerSchema is a flow source every fast path of a COPY takes,
// SCD TYPE 2 (encoded continuation) and BITEMPORAL flows over it, and a
// table with a primary key for point reads.
var fastPathsServerSchema = []string{
	"CREATE TABLE ev (id bigint, name text, city text, amount numeric, op text, seq bigint, st bigint)",
	"CREATE STREAMING TABLE scd2",
	`CREATE FLOW f2 AS AUTO CDC INTO scd2 FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
		COLUMNS * EXCEPT (op, seq, st) STORED AS SCD TYPE 2`,
	"CREATE STREAMING TABLE bt",
	`CREATE FLOW fb AS AUTO CDC INTO bt FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq SYSTEM SEQUENCE BY st
		COLUMNS * EXCEPT (op, seq, st) STORED AS BITEMPORAL`,
	"CREATE TABLE kv (id int PRIMARY KEY, v text, n bigint)",
}

// serverTranscript runs the workload drawn from seed against a server and
// writes down everything the client received: for each statement its
// rows' bytes as sent (text through the simple protocol, binary through
// the extended one where the type has it), its tag, or its error's
// SQLSTATE, message, detail and position. It returns the transcript and
// the commits covered by rows written ahead.
func serverTranscript(t *testing.T, srv *pgserver.Server, seed uint64) ([]string, int64) {
	t.Helper()
	ctx := testContext(t)
	conn := connect(t, srv.URL())
	pc := conn.PgConn()
	for _, q := range fastPathsServerSchema {
		mustExec(t, conn, q)
	}
	coveredBefore := coveredCommits(t, conn)
	rng := rand.New(rand.NewPCG(seed, 43))
	var out []string
	note := func(what string, results []*pgconn.Result, err error) {
		var b strings.Builder
		b.WriteString(what + "\n")
		for _, r := range results {
			fmt.Fprintf(&b, "tag %q err %s\n", r.CommandTag.String(), describePgError(r.Err))
			for _, row := range r.Rows {
				fmt.Fprintf(&b, "%q\n", row)
			}
		}
		if err != nil {
			fmt.Fprintf(&b, "error %s\n", describePgError(err))
		}
		out = append(out, b.String())
	}
	simple := func(q string) {
		results, err := pc.Exec(ctx, q).ReadAll()
		note("simple: "+q, results, err)
	}
	extended := func(q string) {
		r := pc.ExecParams(ctx, q, nil, nil, nil, []int16{1}).Read()
		note("extended: "+q, []*pgconn.Result{r}, nil)
	}
	var seq, st int64
	for range 80 {
		switch n := rng.IntN(10); {
		case n < 4:
			var b strings.Builder
			for range 1 + rng.IntN(400) {
				seq += 1 + rng.Int64N(3)
				st++
				s := seq
				if rng.IntN(5) == 0 {
					s = max(1, s-rng.Int64N(1500))
				}
				op := "UPSERT"
				if rng.IntN(8) == 0 {
					op = "DELETE"
				}
				fmt.Fprintf(&b, "%d\tname%d\t%s\t%s\t%s\t%d\t%d\n", rng.IntN(250), rng.IntN(4),
					[]string{"Oaxaca", "León", `\N`}[rng.IntN(3)], []string{"1", "1.0", "2.50", `\N`}[rng.IntN(4)], op, s, st)
			}
			if rng.IntN(10) == 0 {
				b.WriteString("1\tbad\tLeon\t1\tUPSERT\tnot-a-number\t1\n")
			}
			tag, err := pc.CopyFrom(ctx, strings.NewReader(b.String()), "COPY ev FROM STDIN")
			note(fmt.Sprintf("COPY of %d bytes", b.Len()), []*pgconn.Result{{CommandTag: tag}}, err)
		case n < 6:
			id := rng.IntN(40)
			switch rng.IntN(3) {
			case 0:
				simple(fmt.Sprintf("INSERT INTO kv VALUES (%d, 'v%d', %d)", id, rng.IntN(9), rng.Int64N(1<<40)))
			case 1:
				simple(fmt.Sprintf("UPDATE kv SET n = n + %d WHERE id = %d", rng.IntN(9), id))
			default:
				simple(fmt.Sprintf("DELETE FROM kv WHERE id = %d", id))
			}
		default:
			for range 1 + rng.IntN(5) {
				id, at := rng.IntN(260), rng.Int64N(seq+10)
				switch rng.IntN(7) {
				case 0:
					simple(fmt.Sprintf("SELECT v FROM kv WHERE id = %d", rng.IntN(40)))
				case 1:
					simple(fmt.Sprintf("SELECT * FROM scd2 FOR BUSINESS_TIME AS OF %d WHERE id = %d", at, id))
				case 2:
					extended(fmt.Sprintf("SELECT * FROM bt FOR BUSINESS_TIME AS OF %d WHERE id = %d", at, id))
				case 3:
					simple("SELECT id, name, city FROM scd2")
				case 4:
					extended("SELECT id, v, n FROM kv")
				case 5:
					simple(fmt.Sprintf("SELECT 100 / (%d %% 3)", id))
				default:
					simple(fmt.Sprintf("SELECT id, n FROM kv WHERE id < %d ORDER BY 1", id))
				}
			}
		}
	}
	for _, q := range []string{"SELECT * FROM ev", "SELECT * FROM scd2", "SELECT * FROM bt", "SELECT * FROM kv ORDER BY id"} {
		simple(q)
		extended(q)
	}
	return out, coveredCommits(t, conn) - coveredBefore
}

// describePgError is an error as the client received it.
func describePgError(err error) string {
	if err == nil {
		return "none"
	}
	if pe, ok := err.(*pgconn.PgError); ok {
		return fmt.Sprintf("%s %s %q detail %q position %d", pe.Severity, pe.Code, pe.Message, pe.Detail, pe.Position)
	}
	return err.Error()
}

// TestServerOnTheGeneralPathsAnswersTheSame: one random workload (COPYs into
// flow sources, some failing; writes and point reads with literal numbers;
// AS OF reads; whole-table scans; errors; in text and binary) gets the same
// answers, byte for byte, from a server with every fast path and from one
// started with -fast-paths-off: the engine's fast paths, raw socket I/O,
// the collector's pacing and the lazy-free re-exec all off. The first must
// have covered COPYs' commits with rows written ahead, the second none.
func TestServerOnTheGeneralPathsAnswersTheSame(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	fast, covered := serverTranscript(t, startServer(t), seed)
	generalSrv := startServer(t, pgserver.WithArgs("-fast-paths-off"))
	general, generalCovered := serverTranscript(t, generalSrv, seed)
	if !strings.Contains(generalSrv.Output(), "fast_paths_off=copy-ahead,source-spool,numbered-plans,stored-row-scans,encoded-scd2,shared-apply,raw-socket-io,gc-pacing,lazy-free") {
		t.Fatalf("the server started with -fast-paths-off does not say it runs on the general paths:\n%s", generalSrv.Output())
	}
	if covered == 0 || generalCovered != 0 {
		t.Fatalf("commits covered by rows written ahead: %d with the fast paths, %d with -fast-paths-off", covered, generalCovered)
	}
	for i := range min(len(fast), len(general)) {
		if fast[i] != general[i] {
			t.Fatalf("statement %d answered differently\nfast paths:\n%s\ngeneral paths:\n%s", i, fast[i], general[i])
		}
	}
	if len(fast) != len(general) {
		t.Fatalf("%d statements with the fast paths, %d on the general ones", len(fast), len(general))
	}
	t.Logf("%d statements, %d COPYs' commits covered", len(fast), covered)
}
