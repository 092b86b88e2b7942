package pgtests

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgtests/pgserver"
)

func TestPasswordAuthIsSCRAM(t *testing.T) {
	const password = "s3cret-Pw"
	for _, c := range []struct {
		name string
		opt  pgserver.Option
	}{
		{"Flag", pgserver.WithPassword(password)},
		{"Environment", pgserver.WithPasswordEnv(password)},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := startServer(t, c.opt)

			if got := authMechanisms(t, srv.Addr()); !slices.Contains(got, "SCRAM-SHA-256") {
				t.Errorf("server offered SASL mechanisms %v, want SCRAM-SHA-256", got)
			}

			conn := connect(t, srv.URL())
			if got := queryString(t, conn, "SELECT 'in'"); got != "in" {
				t.Errorf("with the right password: %q", got)
			}
			if got := libPqIDs(t, openLibPq(t, srv.KeyValueDSN()), "SELECT 7::int8"); !slices.Equal(got, []int64{7}) {
				t.Errorf("lib/pq with the right password: %v", got)
			}

			cfg, err := pgx.ParseConfig(srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			cfg.Password = "wrong"
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			bad, err := pgx.ConnectConfig(ctx, cfg)
			if err == nil {
				bad.Close(ctx)
				t.Fatal("a wrong password was accepted")
			}
			pgErr := requireSQLState(t, err, "28P01")
			if want := `password authentication failed for user "cdcdb"`; pgErr.Message != want || pgErr.Severity != "FATAL" {
				t.Errorf("wrong password: %s %q, want FATAL %q", pgErr.Severity, pgErr.Message, want)
			}
		})
	}
}

// authMechanisms sends a StartupMessage and returns the SASL mechanisms the
// server asks for (nil if it asks for something else).
func authMechanisms(t *testing.T, addr string) []string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fe := pgproto3.NewFrontend(c, c)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": pgserver.User, "database": "main"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	msg, err := fe.Receive()
	if err != nil {
		t.Fatalf("answer to StartupMessage: %v", err)
	}
	sasl, ok := msg.(*pgproto3.AuthenticationSASL)
	if !ok {
		t.Fatalf("answer to StartupMessage with a password set: %T, want AuthenticationSASL", msg)
	}
	return sasl.AuthMechanisms
}

func TestNonLoopbackListenWithoutPasswordIsRefused(t *testing.T) {
	if buildErr != nil {
		t.Fatalf("cdcdb does not build: %v", buildErr)
	}
	code, out := pgserver.RunUntilExit(t, cdcdbBin, pgserver.WithListen("0.0.0.0:0"))
	if code == 0 || code == -1 {
		t.Errorf("cdcdb -listen 0.0.0.0:0 without a password: exit code %d (-1: it started listening), want a refusal", code)
	}
	if !strings.Contains(strings.ToLower(out), "password") {
		t.Errorf("the refusal does not say a password is needed:\n%s", out)
	}

	// With a password the same address is fine.
	srv := startServer(t, pgserver.WithListen("0.0.0.0:0"), pgserver.WithPassword("pw-for-all"))
	if got := queryString(t, connect(t, srv.URL()), "SELECT 'ok'"); got != "ok" {
		t.Errorf("non-loopback listener with a password: %q", got)
	}
}

func TestTLSWhenCertificateConfigured(t *testing.T) {
	certFile, keyFile := writeSelfSignedCert(t)
	srv := startServer(t, pgserver.WithArgs("-tls-cert", certFile, "-tls-key", keyFile))

	cfg, err := pgx.ParseConfig(strings.Replace(srv.URL(), "sslmode=disable", "sslmode=require", 1))
	if err != nil {
		t.Fatal(err)
	}
	conn := connectConfig(t, cfg)
	if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
		t.Errorf("sslmode=require gave a %T, want *tls.Conn", conn.PgConn().Conn())
	}
	if got := queryString(t, conn, "SELECT 'secret'"); got != "secret" {
		t.Errorf("over TLS: %q", got)
	}

	plain := startServer(t)
	cfg, err = pgx.ParseConfig(strings.Replace(plain.URL(), "sslmode=disable", "sslmode=require", 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if c, err := pgx.ConnectConfig(ctx, cfg); err == nil {
		c.Close(ctx)
		t.Error("sslmode=require succeeded against a server without a certificate")
	}
	if got := queryString(t, connect(t, plain.URL()), "SELECT 'clear'"); got != "clear" {
		t.Errorf("without TLS: %q", got)
	}
}

// writeSelfSignedCert writes a certificate and key for 127.0.0.1.
func writeSelfSignedCert(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}
