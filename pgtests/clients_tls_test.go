package pgtests

import (
	"bytes"
	"context"
	"crypto/tls"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "github.com/lib/pq"

	"cdcdb/pgtests/pgserver"
)

// withTLSAuto starts cdcdb with -tls auto: a self-signed certificate made
// on first start beside the data file.
func withTLSAuto() pgserver.Option { return pgserver.WithArgs("-tls", "auto") }

// tlsURL is a pgx URL for the server with the given sslmode.
func tlsURL(s *pgserver.Server, sslmode string, extra url.Values) string {
	q := url.Values{"sslmode": {sslmode}}
	for k, v := range extra {
		q[k] = v
	}
	u := url.URL{Scheme: "postgres", User: url.User(pgserver.User), Host: s.Addr(), Path: "/main", RawQuery: q.Encode()}
	return u.String()
}

// cdcFlowScript is the AUTO CDC SCD TYPE 2 setup every client test makes,
// in schema s.
func cdcFlowScript(s string) []string {
	return []string{
		"CREATE SCHEMA " + s,
		"CREATE TABLE " + s + ".src (id int, v text, seq int)",
		"CREATE STREAMING TABLE " + s + ".tgt",
		"CREATE FLOW " + s + "_f AS AUTO CDC INTO " + s + ".tgt FROM stream(" + s + ".src) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2",
	}
}

// cdcEvents are written with parameters; cdcTarget is what the target then
// holds (id, v, __start_at, __end_at; -1 for an open end).
var (
	cdcEvents = [][3]any{{1, "a", 1}, {1, "b", 2}, {2, "x", 1}, {1, "c", 3}}
	cdcTarget = [][4]any{{int64(1), "a", int64(1), int64(2)}, {int64(1), "b", int64(2), int64(3)},
		{int64(1), "c", int64(3), int64(-1)}, {int64(2), "x", int64(1), int64(-1)}}
)

// cdcTargetQuery reads the target of schema s.
func cdcTargetQuery(s string) string {
	return "SELECT id, v, __start_at, coalesce(__end_at, -1) FROM " + s + ".tgt ORDER BY id, __start_at"
}

// pgx in all five query execution modes with sslmode=require against
// -tls auto: each mode makes the flow, writes events with parameters and
// reads the target and a FOR BUSINESS_TIME AS OF query, over TLS.
func TestTLSAutoPgxAllModes(t *testing.T) {
	s := startServer(t, withTLSAuto())
	for i, mode := range allExecModes {
		t.Run(mode.String(), func(t *testing.T) {
			ctx := testContext(t)
			conn := connectMode(t, tlsURL(s, "require", nil), mode)
			if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
				t.Fatalf("sslmode=require gave a %T, not a TLS connection", conn.PgConn().Conn())
			}
			schema := fmt.Sprintf("m%d", i)
			for _, stmt := range cdcFlowScript(schema) {
				if _, err := conn.Exec(ctx, stmt); err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
			}
			for _, ev := range cdcEvents {
				if _, err := conn.Exec(ctx, "INSERT INTO "+schema+".src (id, v, seq) VALUES ($1, $2, $3)", ev[0], ev[1], ev[2]); err != nil {
					t.Fatal(err)
				}
			}
			rows, err := conn.Query(ctx, cdcTargetQuery(schema))
			if err != nil {
				t.Fatal(err)
			}
			got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([4]any, error) {
				var id, start, end int64
				var v string
				err := r.Scan(&id, &v, &start, &end)
				return [4]any{id, v, start, end}, err
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, cdcTarget) {
				t.Fatalf("target: got %v, want %v", got, cdcTarget)
			}
			var v string
			if err := conn.QueryRow(ctx, "SELECT v FROM "+schema+".tgt FOR BUSINESS_TIME AS OF 2 WHERE id = $1", 1).Scan(&v); err != nil || v != "b" {
				t.Fatalf("as of 2: %q, %v", v, err)
			}
		})
	}
}

// lib/pq with sslmode=require against -tls auto.
func TestTLSAutoLibPq(t *testing.T) {
	s := startServer(t, withTLSAuto())
	dsn := fmt.Sprintf("host=%s port=%d user=%s dbname=main sslmode=require", s.Host(), s.Port(), pgserver.User)
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := testContext(t)
	var ssl bool
	for _, stmt := range cdcFlowScript("s") {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	for _, ev := range cdcEvents {
		if _, err := db.ExecContext(ctx, "INSERT INTO s.src (id, v, seq) VALUES ($1, $2, $3)", ev[0], ev[1], ev[2]); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.QueryContext(ctx, cdcTargetQuery("s"))
	if err != nil {
		t.Fatal(err)
	}
	var got [][4]any
	for rows.Next() {
		var id, start, end int64
		var v string
		if err := rows.Scan(&id, &v, &start, &end); err != nil {
			t.Fatal(err)
		}
		got = append(got, [4]any{id, v, start, end})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, cdcTarget) {
		t.Fatalf("target: got %v, want %v", got, cdcTarget)
	}
	var v string
	if err := db.QueryRowContext(ctx, "SELECT v FROM s.tgt FOR BUSINESS_TIME AS OF 2 WHERE id = $1", 1).Scan(&v); err != nil || v != "b" {
		t.Fatalf("as of 2: %q, %v", v, err)
	}
	// lib/pq verifies nothing with require; verify-full with the stored
	// certificate as root shows the connection really was TLS with it.
	certFile := s.DataFile() + ".crt"
	vdsn := fmt.Sprintf("host=localhost port=%d user=%s dbname=main sslmode=verify-full sslrootcert=%s", s.Port(), pgserver.User, certFile)
	vdb, err := sql.Open("postgres", vdsn)
	if err != nil {
		t.Fatal(err)
	}
	defer vdb.Close()
	if err := vdb.QueryRowContext(ctx, "SELECT true").Scan(&ssl); err != nil || !ssl {
		t.Fatalf("verify-full against the -tls auto certificate: %v", err)
	}
}

// -tls auto makes its certificate once and reuses it after a restart, so
// clients that pinned it keep connecting.
func TestTLSAutoReusesCertificate(t *testing.T) {
	s := startServer(t, withTLSAuto())
	certFile, keyFile := s.DataFile()+".crt", s.DataFile()+".key"
	first, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatalf("-tls auto left no certificate beside the data file: %v", err)
	}
	st, err := os.Stat(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, want 0600", st.Mode().Perm())
	}
	s.Restart()
	again, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Fatal("the certificate changed across a restart")
	}
	cfg, err := pgx.ParseConfig(tlsURL(s, "verify-full", url.Values{"sslrootcert": {certFile}, "host": {"localhost"}}))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Host = "localhost"
	conn := connectConfig(t, cfg)
	tc, ok := conn.PgConn().Conn().(*tls.Conn)
	if !ok {
		t.Fatalf("verify-full gave a %T", conn.PgConn().Conn())
	}
	if len(tc.ConnectionState().PeerCertificates) == 0 {
		t.Fatal("no peer certificate")
	}
	if err := conn.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// -tls takes auto (or off), and auto excludes a certificate of one's own:
// a mistyped or contradictory TLS setting stops the server at start, with
// the reason, rather than serving without TLS.
func TestTLSFlagsRefused(t *testing.T) {
	if buildErr != nil {
		t.Fatalf("cdcdb does not build: %v", buildErr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-tls", "yes"}, "-tls must be auto or off"},
		{[]string{"-tls", "auto", "-tls-cert", "x.crt", "-tls-key", "x.key"}, "exclude each other"},
		{[]string{"-tls-cert", "x.crt"}, "go together"},
	} {
		code, out := pgserver.RunUntilExit(t, cdcdbBin, pgserver.WithArgs(c.args...))
		if code != 1 || !strings.Contains(out, c.want) {
			t.Errorf("cdcdb %v: exit %d, output %q; want exit 1 saying %q", c.args, code, out, c.want)
		}
	}
}
