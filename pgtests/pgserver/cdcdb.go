package pgserver

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// User and Database are what tests put in their connection strings. cdcdb
// accepts any database name and reports current_database() = 'main'.
const (
	User     = "cdcdb"
	Database = "main"
)

// How long a server gets to print its listening line, and to exit after
// SIGTERM. Generous: CI machines have 2 cores and run other tests at once.
const (
	startTimeout = 60 * time.Second
	stopTimeout  = 30 * time.Second
)

// ModuleRoot returns the directory holding the go.mod of the module the
// current directory belongs to (tests run in their package directory).
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// Build compiles ./cmd/cdcdb of the current module into dir and returns the
// binary's path, with the race detector when the calling test binary has
// it. The error carries the compiler's output.
func Build(dir string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "cdcdb")
	args := []string{"build", "-o", bin}
	if raceDetector {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "./cmd/cdcdb")...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/cdcdb: %v\n%s", err, out)
	}
	return bin, nil
}

// Option changes how Start runs the binary.
type Option func(*config)

type config struct {
	listen      string
	dataFile    string
	password    string // -password
	envPassword string // CDCDB_PASSWORD
	args        []string
	// env are variables set in the server's environment, unset those
	// taken out of it (WithEnv, WithoutEnv).
	env, unset []string
}

// WithListen sets -listen (default 127.0.0.1:0).
func WithListen(addr string) Option { return func(c *config) { c.listen = addr } }

// WithDataFile sets -data (default cdcdb.db in the test's temporary directory).
func WithDataFile(path string) Option { return func(c *config) { c.dataFile = path } }

// WithPassword passes -password; the DSNs then carry it.
func WithPassword(pw string) Option { return func(c *config) { c.password = pw } }

// WithPasswordEnv sets CDCDB_PASSWORD in the server's environment; the DSNs
// then carry it.
func WithPasswordEnv(pw string) Option { return func(c *config) { c.envPassword = pw } }

// WithEnv sets the variable name to value in the server's environment, in
// place of the test's own.
func WithEnv(name, value string) Option {
	return func(c *config) { c.env = append(c.env, name+"="+value) }
}

// WithoutEnv leaves the variable name out of the server's environment.
func WithoutEnv(name string) Option {
	return func(c *config) { c.unset = append(c.unset, name) }
}

// WithArgs appends raw command-line arguments (-tls-cert, -tls-key, ...).
func WithArgs(args ...string) Option {
	return func(c *config) { c.args = append(c.args, args...) }
}

func (c *config) commandLine() []string {
	args := []string{"-listen", c.listen, "-data", c.dataFile}
	if c.password != "" {
		args = append(args, "-password", c.password)
	}
	return append(args, c.args...)
}

// environ is the test's environment without any CDCDB_PASSWORD, so a
// developer's shell cannot change what a test means, and with the options'
// variables set or left out.
func (c *config) environ() []string {
	set := slices.Clone(c.env) // appended to: not the options' own
	if c.envPassword != "" {
		set = append(set, "CDCDB_PASSWORD="+c.envPassword)
	}
	drop := append([]string{"CDCDB_PASSWORD"}, c.unset...)
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		drop = append(drop, name)
	}
	var env []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !slices.Contains(drop, name) {
			env = append(env, kv)
		}
	}
	return append(env, set...)
}

// Server is one cdcdb process and its data file, which outlives the process
// across Restart, Kill and Start.
type Server struct {
	t   testing.TB
	bin string
	cfg config

	log lockedBuffer // stderr and stdout of every run, in order

	mu      sync.Mutex
	cmd     *exec.Cmd
	port    int
	exited  chan struct{} // closed when the current process has exited
	waitErr error
	runs    int
}

// Start runs bin on 127.0.0.1:0 with a fresh data file and waits for its
// listening line. The server is stopped with SIGTERM when the test ends; a
// non-zero exit then fails the test, and on any failure the server's stderr
// is logged.
func Start(t testing.TB, bin string, opts ...Option) *Server {
	t.Helper()
	s := &Server{t: t, bin: bin, cfg: config{listen: "127.0.0.1:0"}}
	for _, o := range opts {
		o(&s.cfg)
	}
	if s.cfg.dataFile == "" {
		s.cfg.dataFile = filepath.Join(t.TempDir(), "cdcdb.db")
	}
	t.Cleanup(func() {
		if s.Running() {
			if err := s.Stop(); err != nil {
				t.Errorf("cdcdb at the end of the test: %v", err)
			}
		}
		// A race-built server reports races on stderr as it finds them; a
		// run ended by Kill never reaches the exit status that says so.
		if strings.Contains(s.Output(), "WARNING: DATA RACE") {
			t.Errorf("cdcdb reported a data race")
		}
		if t.Failed() {
			t.Logf("cdcdb output (all runs):\n%s", s.Output())
		}
	})
	if err := s.start(); err != nil {
		t.Fatalf("start cdcdb: %v", err) // the cleanup above logs its output
	}
	return s
}

var listeningLine = regexp.MustCompile(`cdcdb listening on (\S+)`)

func (s *Server) start() error {
	if s.Running() {
		return errors.New("already running")
	}
	s.runs++
	fmt.Fprintf(&s.log, "--- run %d: cdcdb %s\n", s.runs, strings.Join(s.cfg.commandLine(), " "))
	watch := &lineWatcher{dst: &s.log, re: listeningLine, found: make(chan string, 1)}
	cmd := exec.Command(s.bin, s.cfg.commandLine()...)
	cmd.Env = s.cfg.environ()
	cmd.Stdout = watch // the same writer for both: exec then uses one pipe
	cmd.Stderr = watch
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	s.mu.Lock()
	s.cmd, s.exited, s.waitErr, s.port = cmd, exited, nil, 0
	s.mu.Unlock()
	go func() {
		err := cmd.Wait()
		s.mu.Lock()
		s.waitErr = err
		s.mu.Unlock()
		close(exited)
	}()

	var addr string
	select {
	case addr = <-watch.found:
	case <-exited:
		return fmt.Errorf("cdcdb exited before listening: %v", s.exitError())
	case <-time.After(startTimeout):
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("no %q line within %v", "cdcdb listening on", startTimeout)
	}
	_, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listening line address %q: %v", addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return fmt.Errorf("listening line address %q: %v", addr, err)
	}
	s.mu.Lock()
	s.port = port
	s.mu.Unlock()
	return nil
}

// Restart stops the server gracefully (failing the test if it does not exit
// 0) and starts it again on the same data file, on a new port.
func (s *Server) Restart() {
	s.t.Helper()
	if s.Running() {
		if err := s.Stop(); err != nil {
			s.t.Fatalf("restart: %v", err)
		}
	}
	s.StartAgain()
}

// StartAgain starts a stopped or killed server on its data file.
func (s *Server) StartAgain() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatalf("start cdcdb again: %v", err) // Start's cleanup logs its output
	}
}

// Stop sends SIGTERM and waits for the process to exit. It returns nil only
// when the process exited with status 0 in time.
func (s *Server) Stop() error { return s.StopWith(syscall.SIGTERM) }

// StopWith is Stop with another signal (SIGINT is Ctrl-C).
func (s *Server) StopWith(sig syscall.Signal) error {
	cmd, exited := s.current()
	if cmd == nil {
		return errors.New("not started")
	}
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("send %v: %w", sig, err)
	}
	select {
	case <-exited:
	case <-time.After(stopTimeout):
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("did not exit within %v of %v; killed", stopTimeout, sig)
	}
	if err := s.exitError(); err != nil {
		return fmt.Errorf("exit after %v: %v", sig, err)
	}
	return nil
}

// Kill sends SIGKILL, as a crash or power cut would, and waits for the
// process to be gone.
func (s *Server) Kill() {
	s.t.Helper()
	cmd, exited := s.current()
	if cmd == nil {
		s.t.Fatal("kill: not started")
	}
	if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		s.t.Fatalf("kill -9: %v", err)
	}
	<-exited
}

// Running reports whether the current process has not exited.
func (s *Server) Running() bool {
	cmd, exited := s.current()
	if cmd == nil {
		return false
	}
	select {
	case <-exited:
		return false
	default:
		return true
	}
}

func (s *Server) current() (*exec.Cmd, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd, s.exited
}

func (s *Server) exitError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waitErr
}

// Pid is the process ID of the current run (0: none started).
func (s *Server) Pid() int {
	cmd, _ := s.current()
	if cmd == nil || cmd.Process == nil {
		return 0
	}
	return cmd.Process.Pid
}

// Host is where to connect: always the loopback address.
func (s *Server) Host() string { return "127.0.0.1" }

// Port is the port of the current run.
func (s *Server) Port() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.port
}

// Addr is host:port of the current run.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host(), strconv.Itoa(s.Port())) }

// Password is the password the server was started with, or "".
func (s *Server) Password() string {
	if s.cfg.password != "" {
		return s.cfg.password
	}
	return s.cfg.envPassword
}

// DataFile is the server's bbolt file.
func (s *Server) DataFile() string { return s.cfg.dataFile }

// URL is a pgx connection URL (sslmode=disable) for the current run.
func (s *Server) URL() string { return URL(s.Host(), s.Port(), Database, s.Password()) }

// KeyValueDSN is a lib/pq (libpq-style) connection string for the current run.
func (s *Server) KeyValueDSN() string {
	return KeyValueDSN(s.Host(), s.Port(), Database, s.Password())
}

// Output is everything the server printed, over all its runs.
func (s *Server) Output() string { return s.log.String() }

// URL builds a postgres:// URL with sslmode=disable for user cdcdb.
func URL(host string, port int, db, password string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(User),
		Host:     net.JoinHostPort(host, strconv.Itoa(port)),
		Path:     "/" + db,
		RawQuery: "sslmode=disable",
	}
	if password != "" {
		u.User = url.UserPassword(User, password)
	}
	return u.String()
}

// KeyValueDSN builds a key=value connection string with sslmode=disable for
// user cdcdb. Values must not contain spaces or quotes.
func KeyValueDSN(host string, port int, db, password string) string {
	dsn := fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", host, port, User, db)
	if password != "" {
		dsn += " password=" + password
	}
	return dsn
}

// RunUntilExit runs bin with the options as Start would and waits for it to
// exit on its own, for invocations the server must refuse. It returns the
// exit code and everything printed. A server that starts listening instead
// is killed and reported as exit code -1.
func RunUntilExit(t testing.TB, bin string, opts ...Option) (exitCode int, output string) {
	t.Helper()
	cfg := config{listen: "127.0.0.1:0", dataFile: filepath.Join(t.TempDir(), "cdcdb.db")}
	for _, o := range opts {
		o(&cfg)
	}
	var log lockedBuffer
	watch := &lineWatcher{dst: &log, re: listeningLine, found: make(chan string, 1)}
	cmd := exec.Command(bin, cfg.commandLine()...)
	cmd.Env = cfg.environ()
	cmd.Stdout, cmd.Stderr = watch, watch
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("run cdcdb: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exitErr *exec.ExitError
		switch {
		case err == nil:
			return 0, log.String()
		case errors.As(err, &exitErr):
			return exitErr.ExitCode(), log.String()
		default:
			t.Fatalf("wait for cdcdb: %v", err)
		}
	case <-watch.found:
		_ = cmd.Process.Kill()
		<-done
		return -1, log.String()
	case <-time.After(startTimeout):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("cdcdb neither exited nor listened within %v:\n%s", startTimeout, log.String())
	}
	return -1, log.String()
}

// lineWatcher copies a process's output to dst and reports the first
// submatch of re seen in a complete line.
type lineWatcher struct {
	dst     *lockedBuffer
	re      *regexp.Regexp
	found   chan string
	partial []byte
	seen    bool
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.dst.Write(p)
	if w.seen {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := w.partial[:i]
		w.partial = w.partial[i+1:]
		if m := w.re.FindSubmatch(line); m != nil {
			w.seen = true
			w.partial = nil
			w.found <- string(m[1])
			return len(p), nil
		}
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
