package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// tlsAuto is the -tls value that makes cdcdb use a self-signed certificate
// it generates on first start and keeps next to the data file, so that
// clients defaulting to sslmode=prefer or require (psql, JDBC, psycopg,
// node-postgres, lib/pq) get an encrypted connection with no setup.
const tlsAuto = "auto"

// autoCertPaths are where -tls auto keeps its certificate and key: beside
// the data file, named after it, so two databases in one directory keep
// their own.
func autoCertPaths(dataFile string) (cert, key string) {
	return dataFile + ".crt", dataFile + ".key"
}

// loadOrCreateAutoCert returns the certificate of -tls auto: the stored one
// when both files exist, else a new one written there first. The key file
// is created 0600 and never overwritten.
func loadOrCreateAutoCert(dataFile, listenHost string) (tls.Certificate, bool, error) {
	certPath, keyPath := autoCertPaths(dataFile)
	_, errC := os.Stat(certPath)
	_, errK := os.Stat(keyPath)
	switch {
	case errC == nil && errK == nil:
		cert, err := tls.LoadX509KeyPair(certPath, keyPath)
		if err != nil {
			return tls.Certificate{}, false, fmt.Errorf("loading %s and %s: %v", certPath, keyPath, err)
		}
		return cert, false, nil
	case errC == nil || errK == nil:
		return tls.Certificate{}, false, fmt.Errorf("-tls auto found only one of %s and %s; remove it to make a new pair", certPath, keyPath)
	case !errors.Is(errC, os.ErrNotExist) || !errors.Is(errK, os.ErrNotExist):
		return tls.Certificate{}, false, fmt.Errorf("-tls auto: %v", errors.Join(errC, errK))
	}
	certPEM, keyPEM, err := selfSignedCert(listenHost, time.Now())
	if err != nil {
		return tls.Certificate{}, false, err
	}
	if err := writeNew(keyPath, keyPEM, 0o600); err != nil {
		return tls.Certificate{}, false, err
	}
	if err := writeNew(certPath, certPEM, 0o644); err != nil {
		_ = os.Remove(keyPath)
		return tls.Certificate{}, false, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	return cert, true, err
}

// writeNew writes a file that must not exist yet, and syncs it.
func writeNew(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// selfSignedCert makes an ECDSA P-256 certificate valid for ten years for
// localhost, the loopback addresses, this machine's name and the listen
// host. Clients that verify (sslmode=verify-full) need it as their root;
// the others only encrypt.
func selfSignedCert(listenHost string, now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "cdcdb", Organization: []string{"cdcdb self-signed (-tls auto)"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if h, err := os.Hostname(); err == nil && h != "" && h != "localhost" {
		tmpl.DNSNames = append(tmpl.DNSNames, h)
	}
	if ip := net.ParseIP(listenHost); ip != nil && !ip.IsUnspecified() && !ip.IsLoopback() {
		tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
	} else if ip == nil && listenHost != "" && listenHost != "localhost" {
		tmpl.DNSNames = append(tmpl.DNSNames, listenHost)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	return certPEM, keyPEM, nil
}

// tlsConfigFor builds the server's TLS configuration from the flags: none,
// -tls-cert with -tls-key, or -tls auto.
func tlsConfigFor(mode, certFile, keyFile, dataFile, listenHost string) (*tls.Config, string, error) {
	var cert tls.Certificate
	source := ""
	switch {
	case mode != "" && mode != tlsAuto && mode != "off":
		return nil, "", fmt.Errorf("-tls must be auto or off, not %q", mode)
	case mode == tlsAuto && (certFile != "" || keyFile != ""):
		return nil, "", errors.New("-tls auto and -tls-cert/-tls-key exclude each other")
	case mode == tlsAuto:
		c, created, err := loadOrCreateAutoCert(dataFile, listenHost)
		if err != nil {
			return nil, "", err
		}
		cert = c
		certPath, _ := autoCertPaths(dataFile)
		source = "auto " + filepath.Clean(certPath)
		if created {
			source += " (new)"
		}
	case certFile != "" || keyFile != "":
		if certFile == "" || keyFile == "" {
			return nil, "", errors.New("-tls-cert and -tls-key go together")
		}
		c, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, "", fmt.Errorf("loading TLS certificate: %v", err)
		}
		cert, source = c, certFile
	default:
		return nil, "", nil
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, source, nil
}
