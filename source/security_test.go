package source

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cdcdb/pgtests/pgserver"
)

// The secured upstream serves TLS with a certificate of a test CA, for
// 127.0.0.1 only, and makes role follower log in with a password.
var secured struct {
	once sync.Once
	pg   *pgserver.Postgres
	dir  string // ca.pem, other-ca.pem
	err  error
}

// followerPassword is the password of role follower on the secured
// upstream: it must never show.
const followerPassword = "pw-Xyzzy-2e8d0df8"

// securedUpstream starts the secured upstream on first use; TestMain
// stops it.
func securedUpstream(t *testing.T) (*pgserver.Postgres, string) {
	t.Helper()
	secured.once.Do(func() { secured.pg, secured.dir, secured.err = startSecuredUpstream() })
	requirePostgres(t, secured.err)
	return secured.pg, secured.dir
}

func startSecuredUpstream() (*pgserver.Postgres, string, error) {
	dir, err := os.MkdirTemp("", "cdcdb-source-tls-")
	if err != nil {
		return nil, "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, "", err
	}
	if err := writeTestCertificates(dir); err != nil {
		return nil, "", err
	}
	settings := append(append([]string{}, upstreamSettings...), "ssl=on",
		"ssl_cert_file="+filepath.Join(dir, "server.pem"), "ssl_key_file="+filepath.Join(dir, "server.key"))
	pg, err := pgserver.StartPostgresWith(context.Background(), pgserver.PostgresConfig{Settings: settings})
	if err != nil {
		return nil, "", err
	}
	// Role follower logs in with its password (SCRAM), over TLS or not;
	// everyone else as the other tests do.
	hba := `local all all trust
host all follower 127.0.0.1/32 scram-sha-256
host replication follower 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
host replication all 127.0.0.1/32 trust
`
	if err := os.WriteFile(filepath.Join(pg.DataDir(), "pg_hba.conf"), []byte(hba), 0o600); err != nil {
		_ = pg.Stop()
		return nil, "", err
	}
	conn, err := dialErr(pg, "postgres")
	if err != nil {
		_ = pg.Stop()
		return nil, "", err
	}
	defer closeConn(conn)
	ctx := context.Background()
	if err := exec(ctx, conn, "SELECT pg_reload_conf(); CREATE ROLE follower LOGIN REPLICATION PASSWORD '"+followerPassword+"'"); err != nil {
		_ = pg.Stop()
		return nil, "", err
	}
	return pg, dir, nil
}

// writeTestCertificates writes a CA (ca.pem), a server certificate it
// signed for 127.0.0.1 (server.pem, server.key, readable by the postgres
// OS user as PostgreSQL demands of a key), and another CA (other-ca.pem).
func writeTestCertificates(dir string) error {
	caKey, caCert, caPEM, err := newCA("cdcdb test CA")
	if err != nil {
		return err
	}
	_, _, otherPEM, err := newCA("some other CA")
	if err != nil {
		return err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "upstream"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"ca.pem":       caPEM,
		"other-ca.pem": otherPEM,
		"server.pem":   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	keyFile := filepath.Join(dir, "server.key")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		// PostgreSQL runs as postgres and accepts a key of root's that
		// its group may read.
		u, err := user.Lookup("postgres")
		if err != nil {
			return err
		}
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(keyFile, 0, gid); err != nil {
			return err
		}
		return os.Chmod(keyFile, 0o640)
	}
	return nil
}

func newCA(name string) (*ecdsa.PrivateKey, *x509.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, nil, err
	}
	return key, cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}

func stopSecuredUpstream() {
	if secured.pg != nil {
		if err := secured.pg.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop the secured upstream:", err)
		}
	}
	if secured.dir != "" {
		_ = os.RemoveAll(secured.dir)
	}
}

// TestSSLModes: each SSL MODE means what it means to libpq.
func TestSSLModes(t *testing.T) {
	pg, dir := securedUpstream(t)
	plain := sharedUpstream(t)
	ca, otherCA := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "other-ca.pem")
	cases := []struct {
		name     string
		upstream *pgserver.Postgres
		mode     SSLMode
		host     string // "": 127.0.0.1
		rootCert string
		// wantTLS: the replication connection uses TLS; wantError: the
		// Follower keeps retrying with this error instead.
		wantTLS   bool
		wantError string
	}{
		{name: "disable", upstream: pg, mode: SSLDisable},
		{name: "allow", upstream: pg, mode: SSLAllow},
		{name: "prefer", upstream: pg, mode: SSLPrefer, wantTLS: true},
		{name: "default is prefer", upstream: pg, wantTLS: true},
		{name: "require, unverified", upstream: pg, mode: SSLRequire, rootCert: "", wantTLS: true},
		{name: "require with a root certificate verifies", upstream: pg, mode: SSLRequire, rootCert: otherCA, wantError: "certificate"},
		{name: "verify-ca", upstream: pg, mode: SSLVerifyCA, rootCert: ca, host: "localhost", wantTLS: true},
		{name: "verify-ca, another CA", upstream: pg, mode: SSLVerifyCA, rootCert: otherCA, wantError: "certificate signed by unknown authority"},
		{name: "verify-full", upstream: pg, mode: SSLVerifyFull, rootCert: ca, wantTLS: true},
		{name: "verify-full, another host name", upstream: pg, mode: SSLVerifyFull, rootCert: ca, host: "localhost", wantError: "certificate is not valid for any names, but wanted to match localhost"},
		{name: "prefer, server without TLS", upstream: plain, mode: SSLPrefer},
		{name: "require, server without TLS", upstream: plain, mode: SSLRequire, wantError: "server refused TLS connection"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := newSimpleSource(t, c.upstream, 3)
			src.cfg.Connection.SSLMode = c.mode
			src.cfg.Connection.SSLRootCert = c.rootCert
			if c.host != "" {
				src.cfg.Connection.Host = c.host
			}
			sink := newModelSink()
			f := follow(t, src.cfg, sink)
			if c.wantError != "" {
				waitFor(t, "a failed connection", time.Minute, func() bool { return f.Status().LastError != "" })
				st := f.Status()
				if st.State != StateRetrying || !strings.Contains(st.LastError, c.wantError) {
					t.Errorf("state %s, error %q; want retrying with %q", st.State, st.LastError, c.wantError)
				}
				return
			}
			waitStreaming(t, f, sink)
			r := mustQuery(t, src.conn, `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_replication_slots r ON r.active_pid = s.pid WHERE r.slot_name = $1`, sink.snapshot().cp.Slot)
			if len(r) != 1 {
				t.Fatalf("no replication connection for the slot")
			}
			if gotTLS := r[0].text(0) == "t"; gotTLS != c.wantTLS {
				t.Errorf("the replication connection uses TLS: %v, want %v", gotTLS, c.wantTLS)
			}
		})
	}
}

// TestPasswordNeverShown: the password of the connection shows in no
// error, Status, log line or printed configuration, even when upstream
// sends it back in a message.
func TestPasswordNeverShown(t *testing.T) {
	pg, _ := securedUpstream(t)
	src := newSimpleSource(t, pg, 20)
	mustExec(t, src.conn, "GRANT SELECT ON public.t TO follower")
	logger, logs := testLoggerBuffer(t)
	withPassword := func(c Connection, password string) Connection {
		c.User, c.Password = "follower", password
		return c
	}
	var shown []string // everything a user or an operator could read
	check := func(what string) {
		t.Helper()
		for _, s := range shown {
			if strings.Contains(s, followerPassword) {
				t.Errorf("%s shows the password: %q", what, abbreviate(s))
			}
		}
	}

	// Following with the password, through a lost connection.
	cfg := src.cfg
	cfg.Logger = logger
	cfg.Connection = withPassword(cfg.Connection, followerPassword)
	sink := newModelSink()
	f := follow(t, cfg, sink)
	waitStreaming(t, f, sink)
	mustQuery(t, src.conn, "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = $1", src.db)
	xid := commitRow(t, src.conn, "INSERT INTO t VALUES (100, 'after the lost connection')")
	waitFor(t, "the change", time.Minute, func() bool { return sink.hasXid(xid) })
	shown = append(shown, fmt.Sprintf("%v %+v %#v", f.Status(), f.Status(), cfg.Connection), fmt.Sprintf("%v|%+v|%s", cfg.Connection, cfg.Connection, cfg.Connection))
	_ = f.Close()

	// A wrong password: failed, and said so.
	wrong := src.cfg
	wrong.Logger = logger
	wrong.Connection = withPassword(wrong.Connection, followerPassword+"-wrong")
	st := waitFailed(t, follow(t, wrong, newModelSink()), "password authentication failed")
	shown = append(shown, st.LastError)

	// Upstream repeats the password back when it is also the name of a
	// database that does not exist.
	echo := src.cfg
	echo.Logger = logger
	echo.Connection = withPassword(echo.Connection, followerPassword)
	echo.Connection.Database = followerPassword
	st = waitFailed(t, follow(t, echo, newModelSink()), `database "`+redactedPassword+`" does not exist`)
	shown = append(shown, st.LastError)

	// Drop's error, the same way.
	dropSink := newModelSink()
	dropSink.state.cp = Checkpoint{Phase: PhaseStreaming, Slot: "some_slot", SlotCreated: true}
	dropper, err := New(echo, dropSink)
	if err != nil {
		t.Fatal(err)
	}
	err = dropper.Drop(context.Background())
	if err == nil || !strings.Contains(err.Error(), redactedPassword) {
		t.Errorf("Drop's error %v does not show the redacted database name", err)
	}
	if err != nil {
		shown = append(shown, err.Error())
	}

	shown = append(shown, logs.String())
	check("a message")
	if !strings.Contains(logs.String(), "retrying") {
		t.Errorf("the log does not show the lost connection:\n%s", logs.String())
	}
}
