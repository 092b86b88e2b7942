package source

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgerror"
)

// SSLMode is libpq's sslmode, with libpq's meanings.
type SSLMode string

const (
	SSLDisable    SSLMode = "disable"     // plain only
	SSLAllow      SSLMode = "allow"       // plain first, TLS if the server insists
	SSLPrefer     SSLMode = "prefer"      // TLS first, plain if the server has none (the default)
	SSLRequire    SSLMode = "require"     // TLS, certificate unchecked (checked as verify-ca when SSLRootCert is set)
	SSLVerifyCA   SSLMode = "verify-ca"   // TLS, certificate signed by a trusted CA
	SSLVerifyFull SSLMode = "verify-full" // verify-ca, and the certificate names the host
)

var sslModes = []SSLMode{SSLDisable, SSLAllow, SSLPrefer, SSLRequire, SSLVerifyCA, SSLVerifyFull}

// ParseSSLMode reads an SSL MODE option.
func ParseSSLMode(s string) (SSLMode, error) {
	for _, m := range sslModes {
		if strings.EqualFold(s, string(m)) {
			return m, nil
		}
	}
	names := make([]string, len(sslModes))
	for i, m := range sslModes {
		names[i] = string(m)
	}
	return "", pgerror.New(pgerror.InvalidParameterValue, "invalid SSL MODE %q", s).
		WithHint("SSL MODE is one of %s.", strings.Join(names, ", "))
}

// Connection is where and how to reach the upstream PostgreSQL.
type Connection struct {
	Host     string
	Port     int // 0: 5432
	User     string
	Password string
	Database string
	SSLMode  SSLMode // "": prefer, as libpq
	// SSLRootCert is a PEM file of the CAs that verify-ca and verify-full
	// trust (and with which require verifies as verify-ca, as libpq
	// does). Empty: ~/.postgresql/root.crt of the user cdcdb runs as when
	// it exists, as libpq, else the system's CAs. No client certificate
	// is ever presented.
	SSLRootCert string
}

// String describes c without its password (for messages and logs).
func (c Connection) String() string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=%s", c.Host, c.port(), c.User, c.Database, c.sslMode())
}

// LogValue keeps the password out of structured logs that print c.
func (c Connection) LogValue() slog.Value { return slog.StringValue(c.String()) }

// GoString keeps the password out of %#v.
func (c Connection) GoString() string { return "source.Connection{" + c.String() + "}" }

func (c Connection) port() int {
	if c.Port == 0 {
		return 5432
	}
	return c.Port
}

func (c Connection) sslMode() SSLMode {
	if c.SSLMode == "" {
		return SSLPrefer
	}
	return c.SSLMode
}

// TableRef names an upstream table to follow and the source table it
// becomes.
type TableRef struct {
	Schema string // "": public
	Table  string
	As     string // "": the upstream table's name
}

// Name is the source table's name.
func (r TableRef) Name() string {
	if r.As != "" {
		return r.As
	}
	return r.Table
}

func (r TableRef) upstream() TableName {
	schema := r.Schema
	if schema == "" {
		schema = "public"
	}
	return TableName{Schema: schema, Name: r.Table}
}

// Config is one source: what to follow and how.
type Config struct {
	// Name names the source in logs and in the generated slot name.
	Name        string
	Connection  Connection
	Publication string
	// Slot is the replication slot to use. Empty: the Follower makes one
	// named cdcdb_<name>_<random>. A named slot that does not exist yet is
	// created (and so owned, like a generated one); one that exists is the
	// user's: the Follower reads from it and never drops it.
	Slot   string
	Tables []TableRef

	// Logger receives state changes and errors (never the password).
	// Nil: none.
	Logger *slog.Logger

	// RetryMin and RetryMax bound the wait between attempts after a lost
	// connection or a failed commit; it doubles from RetryMin up to
	// RetryMax. Zero: 500ms and 30s.
	RetryMin, RetryMax time.Duration
	// StatusInterval is how often the Follower reports its position
	// upstream when nothing else makes it, and reads the server's WAL end
	// for Status's lag. Zero: 10s (wal_receiver_status_interval's
	// default; wal_sender_timeout is 60s).
	StatusInterval time.Duration
	// AdvanceInterval is the least time between two position-only
	// commits, which move the position past WAL that holds nothing for
	// this source so that the slot does not retain it. Zero: 1s.
	AdvanceInterval time.Duration
	// SnapshotBatchRows is how many snapshot rows go in one Commit. Zero:
	// 10,000.
	SnapshotBatchRows int
}

func (c *Config) setDefaults() {
	if c.RetryMin <= 0 {
		c.RetryMin = 500 * time.Millisecond
	}
	if c.RetryMax <= 0 {
		c.RetryMax = 30 * time.Second
	}
	if c.RetryMax < c.RetryMin {
		c.RetryMax = c.RetryMin
	}
	if c.StatusInterval <= 0 {
		c.StatusInterval = 10 * time.Second
	}
	if c.AdvanceInterval <= 0 {
		c.AdvanceInterval = time.Second
	}
	if c.SnapshotBatchRows <= 0 {
		c.SnapshotBatchRows = 10_000
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
}

// maxIdentifierLength is PostgreSQL's NAMEDATALEN-1.
const maxIdentifierLength = 63

// Validate checks c without connecting anywhere.
func (c *Config) Validate() error {
	conn := c.Connection
	if conn.Host == "" {
		return pgerror.New(pgerror.InvalidParameterValue, "connection HOST must not be empty")
	}
	if conn.Port < 0 || conn.Port > 65535 {
		return pgerror.New(pgerror.InvalidParameterValue, "connection PORT %d is out of range", conn.Port)
	}
	if conn.User == "" {
		return pgerror.New(pgerror.InvalidParameterValue, "connection USER must not be empty")
	}
	if conn.Database == "" {
		return pgerror.New(pgerror.InvalidParameterValue, "connection DATABASE must not be empty")
	}
	if conn.SSLMode != "" {
		if _, err := ParseSSLMode(string(conn.SSLMode)); err != nil {
			return err
		}
	}
	if c.Publication == "" {
		return pgerror.New(pgerror.InvalidParameterValue, "PUBLICATION must not be empty")
	}
	if c.Slot != "" {
		if err := validateSlotName(c.Slot); err != nil {
			return err
		}
	}
	if len(c.Tables) == 0 {
		return pgerror.New(pgerror.InvalidParameterValue, "a source needs at least one table")
	}
	names := map[string]bool{}
	upstream := map[TableName]bool{}
	for _, t := range c.Tables {
		if t.Table == "" {
			return pgerror.New(pgerror.InvalidParameterValue, "upstream table name must not be empty")
		}
		if names[t.Name()] {
			return pgerror.New(pgerror.DuplicateTable, "source table %q is named twice", t.Name()).
				WithHint("Give one of them another name with AS.")
		}
		if upstream[t.upstream()] {
			return pgerror.New(pgerror.DuplicateTable, "upstream table %s is listed twice", t.upstream())
		}
		names[t.Name()] = true
		upstream[t.upstream()] = true
	}
	return nil
}

// validateSlotName applies PostgreSQL's rule for slot names
// (ReplicationSlotValidateName). It matters twice: pglogrepl writes the
// name into replication commands unquoted.
func validateSlotName(name string) error {
	if len(name) > maxIdentifierLength {
		return pgerror.New(pgerror.NameTooLong, "replication slot name %q is too long", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return pgerror.New(pgerror.InvalidName, "replication slot name %q contains invalid character", name).
				WithHint("Replication slot names may only contain lower case letters, numbers, and the underscore character.")
		}
	}
	if name == "" {
		return pgerror.New(pgerror.InvalidName, "replication slot name %q is too short", name)
	}
	return nil
}

// generatedSlotName makes a slot name that says which cdcdb source holds
// it, with a random part so that two cdcdb servers following one upstream
// never take each other's.
func generatedSlotName(source string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(source) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	random := make([]byte, 6)
	_, _ = rand.Read(random) // crypto/rand.Read never fails
	const prefix, suffixLen = "cdcdb_", 1 + 12
	middle := b.String()
	if room := maxIdentifierLength - len(prefix) - suffixLen; len(middle) > room {
		middle = middle[:room]
	}
	return prefix + middle + "_" + hex.EncodeToString(random)
}

// sessionSettings fix how upstream writes values as text, on both the
// snapshot's connection and the replication connection, so that the two
// agree and cdcdb's types package reads them: ISO dates, timestamps with
// time zone in UTC, hex bytea, floats in full.
var sessionSettings = map[string]string{
	"client_encoding":             "UTF8",
	"DateStyle":                   "ISO, MDY",
	"IntervalStyle":               "postgres",
	"TimeZone":                    "UTC",
	"extra_float_digits":          "3",
	"bytea_output":                "hex",
	"standard_conforming_strings": "on",
	"application_name":            "cdcdb",
}

// pgconnConfig builds the connection settings for a plain connection
// (replication false) or a logical replication one. The password is set
// on the parsed config, never written into a connection string, so no
// parse error can show it; and it replaces whatever ParseConfig found in
// the server's own environment or ~/.pgpass, which are not the user's to
// use.
func (c Connection) pgconnConfig(replication bool) (*pgconn.Config, error) {
	var dsn strings.Builder
	for _, kv := range [][2]string{
		{"host", c.Host},
		{"port", strconv.Itoa(c.port())},
		{"user", c.User},
		{"dbname", c.Database},
		{"sslmode", string(c.sslMode())},
		{"sslrootcert", c.SSLRootCert},
		// No client certificate: those under the server's home directory
		// are not the user's to present.
		{"sslcertmode", "disable"},
		{"connect_timeout", "30"},
	} {
		if kv[1] == "" {
			continue
		}
		fmt.Fprintf(&dsn, "%s='%s' ", kv[0], strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(kv[1]))
	}
	cfg, err := pgconn.ParseConfig(dsn.String())
	if err != nil {
		return nil, fmt.Errorf("connection settings (%s): %w", c, err)
	}
	cfg.Password = c.Password
	for name, value := range sessionSettings {
		cfg.RuntimeParams[name] = value
	}
	// PGOPTIONS from the server's environment must not change what
	// upstream sends.
	delete(cfg.RuntimeParams, "options")
	if replication {
		cfg.RuntimeParams["replication"] = "database"
	}
	return cfg, nil
}

// address is host:port, for messages.
func (c Connection) address() string { return net.JoinHostPort(c.Host, strconv.Itoa(c.port())) }
