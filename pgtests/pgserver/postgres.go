package pgserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
)

// PostgresBinDir is where Debian's postgresql-15 package puts the server.
const PostgresBinDir = "/usr/lib/postgresql/15/bin"

// FindPsql returns the path of a psql client: psql on PATH, else the one of
// PostgreSQL 15's package.
func FindPsql() (string, error) {
	if p, err := exec.LookPath("psql"); err == nil {
		return p, nil
	}
	p := filepath.Join(PostgresBinDir, "psql")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("psql is neither on PATH nor at %s (install postgresql-client-15)", p)
	}
	return p, nil
}

// Postgres is a real PostgreSQL 15 server in a temporary directory, owned by
// the postgres OS user when the tests run as root (PostgreSQL refuses to run
// as root). User cdcdb is its superuser, with trust auth, on loopback only.
type Postgres struct {
	dir    string // holds data/, sock/ and log
	port   int
	asUser string // OS user to run the binaries as, "" for the current one
	// options are the server options (pg_ctl -o) it was started with,
	// for StartAgain.
	options string
}

// ErrNoPostgres says PostgreSQL 15's programs are not installed.
var ErrNoPostgres = errors.New("PostgreSQL 15 is not installed")

// PostgresConfig says how StartPostgresWith sets a server up.
type PostgresConfig struct {
	// Settings are passed to the server as -c name=value. Nil keeps every
	// setting at PostgreSQL's default except where it listens (127.0.0.1
	// only), which a benchmark comparing against it as shipped needs.
	Settings []string
	// Tools are the programs of PostgresBinDir needed besides initdb,
	// pg_ctl and postgres; a missing one is ErrNoPostgres.
	Tools []string
	// Database, when not empty, is created once the server runs.
	Database string
}

// StartPostgres starts the reference server of the tests: without fsync
// (they need no durability), with database main. Stop it with Stop.
func StartPostgres() (*Postgres, error) {
	return StartPostgresWith(context.Background(), PostgresConfig{
		Settings: []string{"fsync=off", "max_connections=50"},
		Database: Database,
	})
}

// StartPostgresWith initdbs and starts a PostgreSQL 15 on a free port of
// 127.0.0.1. ctx bounds the programs it runs. Stop it with Stop.
func StartPostgresWith(ctx context.Context, cfg PostgresConfig) (*Postgres, error) {
	tools := append([]string{"initdb", "pg_ctl", "postgres"}, cfg.Tools...)
	if cfg.Database != "" {
		tools = append(tools, "psql")
	}
	for _, tool := range tools {
		if _, err := os.Stat(filepath.Join(PostgresBinDir, tool)); err != nil {
			return nil, fmt.Errorf("%w: %s is missing (apt-get install postgresql-15): %v", ErrNoPostgres, tool, err)
		}
	}
	p := &Postgres{}
	if os.Geteuid() == 0 {
		p.asUser = "postgres"
	}
	// Not t.TempDir: its parents are 0700 root, which the postgres user
	// cannot enter.
	dir, err := os.MkdirTemp("", "cdcdb-pg15-")
	if err != nil {
		return nil, err
	}
	p.dir = dir
	if err := p.prepareDirs(); err != nil {
		p.removeDir()
		return nil, err
	}
	// --no-sync only skips initdb's own flush of the template files.
	if out, err := p.run(ctx, "initdb", "-D", p.DataDir(), "-U", User, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		p.removeDir()
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// A free port can be taken between our check and the server's bind;
	// try a few.
	var startErr error
	for range 5 {
		if p.port, err = freePort(); err != nil {
			p.removeDir()
			return nil, err
		}
		p.options = fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", p.port, p.sockDir())
		for _, s := range cfg.Settings {
			p.options += " -c " + s
		}
		if startErr = p.pgCtlStart(ctx); startErr == nil {
			break
		}
	}
	if startErr != nil {
		p.removeDir()
		return nil, startErr
	}
	if cfg.Database != "" {
		if out, err := p.run(ctx, "psql", "-X", "-q", "-h", "127.0.0.1", "-p", strconv.Itoa(p.port), "-U", User, "-d", "postgres", "-c", "CREATE DATABASE "+cfg.Database); err != nil {
			_ = p.Stop()
			return nil, fmt.Errorf("create database %s: %v\n%s", cfg.Database, err, out)
		}
	}
	return p, nil
}

func (p *Postgres) prepareDirs() error {
	if err := os.Chmod(p.dir, 0o755); err != nil {
		return err
	}
	for _, d := range []string{p.DataDir(), p.sockDir()} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	if p.asUser == "" {
		return nil
	}
	u, err := user.Lookup(p.asUser)
	if err != nil {
		return fmt.Errorf("running as root, PostgreSQL needs the %q OS user: %v", p.asUser, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, d := range []string{p.dir, p.DataDir(), p.sockDir()} {
		if err := os.Chown(d, uid, gid); err != nil {
			return err
		}
	}
	return nil
}

// DataDir is the server's data directory (postmaster.pid is there).
func (p *Postgres) DataDir() string { return filepath.Join(p.dir, "data") }

func (p *Postgres) sockDir() string { return filepath.Join(p.dir, "sock") }

// run runs one of PostgreSQL's programs, as the postgres OS user when needed.
func (p *Postgres) run(ctx context.Context, tool string, args ...string) ([]byte, error) {
	path := filepath.Join(PostgresBinDir, tool)
	var cmd *exec.Cmd
	if p.asUser != "" {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", p.asUser, "--", path}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, path, args...)
	}
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "PGCONNECT_TIMEOUT=10")
	return cmd.CombinedOutput()
}

// Host is the loopback address the server listens on.
func (p *Postgres) Host() string { return "127.0.0.1" }

// Port is the server's TCP port.
func (p *Postgres) Port() int { return p.port }

// URL is a pgx connection URL for database db.
func (p *Postgres) URL(db string) string { return URL(p.Host(), p.port, db, "") }

// KeyValueDSN is a lib/pq connection string for database db.
func (p *Postgres) KeyValueDSN(db string) string { return KeyValueDSN(p.Host(), p.port, db, "") }

// Log is the server's log file.
func (p *Postgres) Log() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "log"))
	return string(b)
}

func (p *Postgres) pgCtlStart(ctx context.Context) error {
	out, err := p.run(ctx, "pg_ctl", "-D", p.DataDir(), "-l", filepath.Join(p.dir, "log"), "-w", "-t", "60", "-o", p.options, "start")
	if err != nil {
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, p.Log())
	}
	return nil
}

// ShutdownMode is how Halt stops the server (pg_ctl stop -m).
type ShutdownMode string

const (
	// ShutdownFast ends the sessions and checkpoints: a clean restart.
	ShutdownFast ShutdownMode = "fast"
	// ShutdownImmediate stops every process at once, as a crash would:
	// the next start runs crash recovery.
	ShutdownImmediate ShutdownMode = "immediate"
)

// Halt stops the server and keeps its directory, so that StartAgain can
// start it again: the upstream restart or crash of a test.
func (p *Postgres) Halt(ctx context.Context, mode ShutdownMode) error {
	out, err := p.run(ctx, "pg_ctl", "-D", p.DataDir(), "-m", string(mode), "-w", "-t", "60", "stop")
	if err != nil {
		return fmt.Errorf("pg_ctl stop -m %s: %v\n%s", mode, err, out)
	}
	return nil
}

// StartAgain starts a halted server on its data directory, with the
// settings and the port it had.
func (p *Postgres) StartAgain(ctx context.Context) error { return p.pgCtlStart(ctx) }

// Stop stops the server (fast shutdown) and removes its directory.
func (p *Postgres) Stop() error {
	out, err := p.run(context.Background(), "pg_ctl", "-D", p.DataDir(), "-m", "fast", "-w", "-t", "60", "stop")
	if err != nil {
		err = fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	p.removeDir()
	return err
}

func (p *Postgres) removeDir() {
	if p.dir != "" && strings.Contains(p.dir, "cdcdb-pg15-") {
		_ = os.RemoveAll(p.dir)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
