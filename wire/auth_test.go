package wire

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"math/big"
	"net"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgerror"
)

// TestSCRAMLogin logs in with pgx through SCRAM-SHA-256: the right password
// (ASCII and not) gets in, a wrong one gets FATAL 28P01 naming the user.
func TestSCRAMLogin(t *testing.T) {
	for _, password := range []string{"secret", "pässwörd ﬁ"} {
		ts := startServer(t, Config{Password: password})
		ctx := context.Background()
		good := (&url.URL{Scheme: "postgres", User: url.UserPassword("alice", password), Host: ts.addr, Path: "/db", RawQuery: "sslmode=disable"}).String()
		conn, err := pgx.Connect(ctx, good)
		if err != nil {
			t.Fatalf("password %q: %v", password, err)
		}
		var n int32
		if err := conn.QueryRow(ctx, "select 1").Scan(&n); err != nil {
			t.Fatal(err)
		}
		conn.Close(ctx)

		_, err = pgx.Connect(ctx, "postgres://bob:wrong@"+ts.addr+"/db?sslmode=disable")
		pe := pgErrorOf(t, err)
		if pe.Severity != "FATAL" || pe.Code != "28P01" || pe.Message != `password authentication failed for user "bob"` {
			t.Fatalf("wrong password: %s %s %q", pe.Severity, pe.Code, pe.Message)
		}
		_, err = pgx.Connect(ctx, "postgres://bob@"+ts.addr+"/db?sslmode=disable")
		if err == nil {
			t.Fatal("no password got in")
		}
	}
}

// TestSCRAMRFC7677 replays the SCRAM-SHA-256 example exchange of RFC 7677
// (user "user", password "pencil") against the server side.
func TestSCRAMRFC7677(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	v := deriveSCRAMVerifier("pencil", salt, 4096)
	x := &scramExchange{v: v, serverNonce: "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"}

	serverFirst, err := x.clientFirst([]byte("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"; string(serverFirst) != want {
		t.Fatalf("server-first\n got %s\nwant %s", serverFirst, want)
	}
	serverFinal, err := x.clientFinal([]byte("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="; string(serverFinal) != want {
		t.Fatalf("server-final\n got %s\nwant %s", serverFinal, want)
	}
}

// TestSCRAMRejects lists malformed or dishonest SCRAM messages and the error
// each gets.
func TestSCRAMRejects(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	v := deriveSCRAMVerifier("pencil", salt, 4096)
	const nonce = "rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
	const goodProof = "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
	cases := []struct {
		name, first, final string
		code               string // "" means errSCRAMBadProof
	}{
		{"no comma", "n", "", pgerror.ProtocolViolation},
		{"bad flag", "x,,n=user,r=abc", "", pgerror.ProtocolViolation},
		{"channel binding requested", "p=tls-server-end-point,,n=user,r=abc", "", pgerror.ProtocolViolation},
		{"authzid", "n,a=admin,n=user,r=abc", "", pgerror.FeatureNotSupported},
		{"mandatory extension", "n,,m=ext,n=user,r=abc", "", pgerror.FeatureNotSupported},
		{"no user", "n,,r=abc", "", pgerror.ProtocolViolation},
		{"nonce with comma-less garbage", "n,,n=user,r=\x01", "", pgerror.ProtocolViolation},
		{"no proof", "n,,n=user,r=rOprNGfwEbeRWgbNEkqO", "c=biws,r=" + nonce, pgerror.ProtocolViolation},
		{"wrong channel binding", "n,,n=user,r=rOprNGfwEbeRWgbNEkqO", "c=eSws,r=" + nonce + "," + goodProof, pgerror.ProtocolViolation},
		{"wrong nonce", "n,,n=user,r=rOprNGfwEbeRWgbNEkqO", "c=biws,r=other," + goodProof, pgerror.ProtocolViolation},
		{"proof not base64", "n,,n=user,r=rOprNGfwEbeRWgbNEkqO", "c=biws,r=" + nonce + ",p=!!", pgerror.ProtocolViolation},
		{"proof too short", "n,,n=user,r=rOprNGfwEbeRWgbNEkqO", "c=biws,r=" + nonce + ",p=AAAA", pgerror.ProtocolViolation},
		{"wrong proof", "n,,n=user,r=rOprNGfwEbeRWgbNEkqO", "c=biws,r=" + nonce + ",p=" + base64.StdEncoding.EncodeToString(make([]byte, 32)), ""},
	}
	for _, tc := range cases {
		x := &scramExchange{v: v, serverNonce: "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"}
		_, err := x.clientFirst([]byte(tc.first))
		if err == nil {
			if tc.final == "" {
				t.Errorf("%s: client-first accepted", tc.name)
				continue
			}
			_, err = x.clientFinal([]byte(tc.final))
		}
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tc.name)
		case tc.code == "" && !errors.Is(err, errSCRAMBadProof):
			t.Errorf("%s: got %v, want a bad proof", tc.name, err)
		case tc.code != "" && pgerror.CodeOf(err) != tc.code:
			t.Errorf("%s: got %v, want SQLSTATE %s", tc.name, err, tc.code)
		}
	}
}

// TestPasswordForms checks that the password is accepted in each spelling a
// client may send: raw, SASLprep'd (libpq: NFKC, odd spaces mapped) and
// PRECIS OpaqueString (pgx: NFC).
func TestPasswordForms(t *testing.T) {
	if got := passwordForms("plain"); !slices.Equal(got, []string{"plain"}) {
		t.Fatalf("ASCII: %q", got)
	}
	got := passwordForms("ﬁ\u00a0e\u0301\u00ad")
	for _, want := range []string{"ﬁ\u00a0e\u0301\u00ad", "fi é"} {
		if !slices.Contains(got, want) {
			t.Errorf("forms %q lack %q", got, want)
		}
	}
}

// selfSignedTLS makes a server certificate for 127.0.0.1, valid for an hour.
func selfSignedTLS(t testing.TB) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "cdcdb test"},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

// TestTLS connects with sslmode=require: the connection is TLS, SCRAM runs
// over it (pgx then sends the "y" channel-binding flag, since we do not offer
// -PLUS), queries work, and a cancel request arrives over TLS too. Without a
// TLS config the server answers 'N' and sslmode=prefer falls back to clear
// text while sslmode=require fails.
func TestTLS(t *testing.T) {
	ts := startServer(t, Config{TLSConfig: selfSignedTLS(t), Password: "pw"})
	cfg := cancellingConfig(t, "postgres://alice:pw@"+ts.addr+"/db?sslmode=require")
	conn := ts.connectConfig(t, cfg)
	if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
		t.Fatalf("connection is %T, want *tls.Conn", conn.PgConn().Conn())
	}
	var n int32
	if err := conn.QueryRow(context.Background(), "select 2").Scan(&n); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, err := conn.Exec(ctx, "sleep")
	cancel()
	if pe := pgErrorOf(t, err); pe.Code != "57014" {
		t.Fatalf("cancel over TLS: %v", err)
	}

	clear := startServer(t, Config{})
	clear.connect(t, "")
	if _, err := pgx.Connect(context.Background(), "postgres://alice@"+clear.addr+"/db?sslmode=prefer"); err != nil {
		t.Fatalf("sslmode=prefer without server TLS: %v", err)
	}
	if c, err := pgx.Connect(context.Background(), "postgres://alice@"+clear.addr+"/db?sslmode=require"); err == nil {
		c.Close(context.Background())
		t.Fatal("sslmode=require connected to a server without TLS")
	}
}
