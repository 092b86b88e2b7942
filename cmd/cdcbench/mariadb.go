package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Where Debian's mariadb-server puts the server and its bootstrap script.
const (
	mariadbServerBin  = "/usr/sbin/mariadbd"
	mariadbInstallBin = "mariadb-install-db"
)

// errNoMariaDB says MariaDB is not installed; the quick test leaves the
// system-versioned workload out on it, except under CI=true.
var errNoMariaDB = errors.New("MariaDB is not installed (Debian: apt-get install mariadb-server)")

// mariadbInstalled reports whether the server and its bootstrap script are
// there, or why not.
func mariadbInstalled() error {
	if _, err := os.Stat(mariadbServerBin); err != nil {
		return fmt.Errorf("%w: %v", errNoMariaDB, err)
	}
	if _, err := exec.LookPath(mariadbInstallBin); err != nil {
		return fmt.Errorf("%w: %v", errNoMariaDB, err)
	}
	return nil
}

// mariadbServer is a MariaDB in a temporary data directory, listening on
// loopback, started with its compiled-in defaults (no my.cnf is read)
// apart from innodb_flush_log_at_trx_commit=1: every commit is durable, as
// it is in cdcdb and PostgreSQL. User root without a password, loopback
// only.
type mariadbServer struct {
	cmd     *exec.Cmd
	port    int
	dir     string
	exited  chan struct{}
	waitErr error
	log     *tailBuffer
	stopped bool
	stopErr error
}

// startMariaDB bootstraps a data directory under dir and starts the server
// on a free loopback port. As root it runs as root (--user=root): the
// data directory belongs to whoever runs the benchmark.
func startMariaDB(ctx context.Context, dir string) (*mariadbServer, error) {
	if err := mariadbInstalled(); err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, err
	}
	var asRoot []string
	if os.Geteuid() == 0 {
		asRoot = []string{"--user=root"}
	}
	install := exec.CommandContext(ctx, mariadbInstallBin, append([]string{"--no-defaults", "--datadir=" + data,
		"--auth-root-authentication-method=normal", "--skip-test-db"}, asRoot...)...)
	if out, err := install.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", mariadbInstallBin, err, out)
	}
	// mariadbd cannot be told to pick a free port itself, so it gets one
	// that was free a moment ago; on a busy machine another process may
	// take it first, and then the server gets another.
	for attempt := 1; ; attempt++ {
		s, err := launchMariaDB(ctx, dir, data, asRoot)
		if errors.Is(err, errPortTaken) && attempt < 3 {
			continue
		}
		return s, err
	}
}

// errPortTaken: mariadbd found its port taken when it started.
var errPortTaken = errors.New("mariadbd's port was taken")

// launchMariaDB starts the server on the bootstrapped data directory and
// waits until it answers.
func launchMariaDB(ctx context.Context, dir, data string, asRoot []string) (*mariadbServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &mariadbServer{port: port, dir: dir, exited: make(chan struct{}), log: &tailBuffer{max: 64 << 10}}
	args := append([]string{"--no-defaults", "--datadir=" + data,
		"--bind-address=127.0.0.1", "--port=" + strconv.Itoa(port),
		"--socket=" + filepath.Join(dir, "mariadb.sock"), "--pid-file=" + filepath.Join(dir, "mariadb.pid"),
		"--skip-name-resolve", "--innodb-flush-log-at-trx-commit=1"}, asRoot...)
	s.cmd = exec.Command(mariadbServerBin, args...)
	s.cmd.SysProcAttr = childProcAttr()
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	// Ready once it answers a query.
	deadline := time.Now().Add(60 * time.Second)
	for {
		db, err := s.open("")
		if err == nil {
			err = db.PingContext(ctx)
			db.Close()
			if err == nil {
				return s, nil
			}
		}
		select {
		case <-s.exited:
			if strings.Contains(s.log.String(), "Address already in use") {
				return nil, fmt.Errorf("%w: %d", errPortTaken, port)
			}
			return nil, fmt.Errorf("mariadbd exited before accepting connections: %v\n%s", s.waitErr, s.log)
		case <-ctx.Done():
			_ = s.stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = s.stop()
			return nil, fmt.Errorf("mariadbd accepted no connection within 60s: %v\n%s", err, s.log)
		}
	}
}

// open returns a connection pool to database (none when empty) whose
// sessions read and write TIMESTAMPs in UTC, as time.Time values in UTC:
// the moments the benchmark records are compared exactly, to the
// microsecond, on both sides.
func (s *mariadbServer) open(database string) (*sql.DB, error) {
	cfg := mysql.NewConfig()
	cfg.User = "root"
	cfg.Net = "tcp"
	cfg.Addr = fmt.Sprintf("127.0.0.1:%d", s.port)
	cfg.DBName = database
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.Params = map[string]string{"time_zone": "'+00:00'"}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(connector), nil
}

// settings reports the version and the settings that decide durability
// and caching, for the report.
func (s *mariadbServer) settings(ctx context.Context) (string, error) {
	db, err := s.open("")
	if err != nil {
		return "", err
	}
	defer db.Close()
	var version string
	if err := db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		return "", err
	}
	parts := []string{version}
	for _, name := range []string{"innodb_flush_log_at_trx_commit", "innodb_flush_method", "innodb_doublewrite",
		"log_bin", "innodb_buffer_pool_size"} {
		var v string
		if err := db.QueryRowContext(ctx, "SELECT @@GLOBAL."+name).Scan(&v); err != nil {
			return "", fmt.Errorf("%s: %v", name, err)
		}
		parts = append(parts, name+"="+v)
	}
	return strings.Join(parts, " "), nil
}

// stop shuts the server down (SIGTERM: InnoDB's normal shutdown) and
// waits; a server that does not exit cleanly is an error, as for cdcdb.
// Calling it again returns the first call's answer.
func (s *mariadbServer) stop() error {
	if s.stopped {
		return s.stopErr
	}
	s.stopped = true
	select {
	case <-s.exited:
		s.stopErr = fmt.Errorf("mariadbd had already exited: %v\n%s", s.waitErr, s.log)
		return s.stopErr
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
		if s.waitErr != nil {
			s.stopErr = fmt.Errorf("mariadbd exited with %v\n%s", s.waitErr, s.log)
		}
	case <-time.After(2 * time.Minute):
		_ = s.cmd.Process.Kill()
		<-s.exited
		s.stopErr = fmt.Errorf("mariadbd did not exit within 2 minutes of SIGTERM\n%s", s.log)
	}
	return s.stopErr
}
