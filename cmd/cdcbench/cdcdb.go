package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// buildCdcdb compiles ./cmd/cdcdb of this module into dir. The benchmark
// measures the code in the working tree, not whatever binary is lying around.
func buildCdcdb(ctx context.Context, dir string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("run cdcbench inside the cdcdb module, or pass -cdcdb PATH")
	}
	bin := filepath.Join(dir, "cdcdb")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/cdcdb")
	cmd.Dir = filepath.Dir(gomod)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/cdcdb: %v\n%s", err, out)
	}
	return bin, nil
}

// cdcdbServer is one cdcdb process with its own data file.
type cdcdbServer struct {
	cmd       *exec.Cmd
	addr      string
	pprofAddr string // "" unless started with -pprof
	exited    chan struct{}
	waitErr   error
	log       *tailBuffer
	resident  *residentSampler
	stopped   bool // stop was called; later calls return stopErr
	stopErr   error
}

var listeningLine = regexp.MustCompile(`cdcdb listening on (\S+)`)

// startCdcdb starts bin on a free loopback port with a fresh data file in
// dir. With pprof, it also serves net/http/pprof on another loopback port.
// Durability stays at cdcdb's default (fsync on commit): PostgreSQL runs with
// its default too, and comparing against an fsync-free cdcdb would measure
// the disk, not the engines.
func startCdcdb(bin, dir string, pprof bool, extra []string) (*cdcdbServer, error) {
	data := filepath.Join(dir, "cdcdb.db")
	for _, p := range []string{data, data + ".lock"} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	args := append([]string{"-listen", "127.0.0.1:0", "-data", data}, extra...)
	s := &cdcdbServer{exited: make(chan struct{}), log: &tailBuffer{max: 64 << 10}}
	if pprof {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		s.pprofAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		args = append(args, "-pprof", s.pprofAddr)
	}
	s.cmd = exec.Command(bin, args...)
	s.cmd.SysProcAttr = childProcAttr()
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s.cmd.Stdout = s.log
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	s.resident = sampleResident(s.cmd.Process.Pid, s.exited)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			s.log.Write([]byte(line + "\n"))
			if m := listeningLine.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		// Keep draining after a scanner error so the server never blocks
		// on a full stderr pipe.
		_, _ = io.Copy(s.log, stderr)
	}()
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	select {
	case s.addr = <-found:
		return s, nil
	case <-s.exited:
		return nil, fmt.Errorf("cdcdb exited before listening: %v\n%s", s.waitErr, s.log)
	case <-time.After(60 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		return nil, fmt.Errorf("cdcdb printed no listening line within 60s\n%s", s.log)
	}
}

// url is a pgx connection string for the server.
func (s *cdcdbServer) url() string {
	return fmt.Sprintf("postgres://cdcdb@%s/main?sslmode=disable", s.addr)
}

func (s *cdcdbServer) hostPort() (string, string) {
	h, p, _ := net.SplitHostPort(s.addr)
	return h, p
}

// peakRSS is the process's high-water resident set (VmHWM), in bytes. It
// counts the pages of the memory-mapped data file that were touched, since
// those are memory the process holds as much as its heap.
func (s *cdcdbServer) peakRSS() (int64, error) {
	return procStatusBytes(s.cmd.Process.Pid, "VmHWM")
}

// procStatusBytes reads a "kB" field of /proc/PID/status.
func procStatusBytes(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status %s: %q", pid, field, rest)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

// cpuProfile asks the server's pprof endpoint for a CPU profile of the next
// d and writes it to path. It runs beside a workload, so it returns through
// a channel.
func (s *cdcdbServer) cpuProfile(d time.Duration, path string) <-chan error {
	done := make(chan error, 1)
	go func() {
		secs := max(1, int(d.Seconds()))
		c := http.Client{Timeout: d + time.Minute}
		resp, err := c.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", s.pprofAddr, secs))
		if err != nil {
			done <- err
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			done <- fmt.Errorf("pprof: %s: %s", resp.Status, b)
			return
		}
		f, err := os.Create(path)
		if err != nil {
			done <- err
			return
		}
		if _, err := io.Copy(f, resp.Body); err != nil {
			f.Close()
			done <- err
			return
		}
		done <- f.Close()
	}()
	return done
}

// stop sends SIGTERM and waits; a server that does not exit cleanly is an
// error, since a crash during a benchmark would void its figures. Calling it
// again returns the first call's answer, so callers may both defer it and
// check it.
func (s *cdcdbServer) stop() error {
	if !s.stopped {
		s.stopped = true
		s.resident.stop()
		s.stopErr = s.terminate()
	}
	return s.stopErr
}

func (s *cdcdbServer) terminate() error {
	select {
	case <-s.exited:
		return fmt.Errorf("cdcdb had already exited: %v\n%s", s.waitErr, s.log)
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		return fmt.Errorf("cdcdb did not exit within 30s of SIGTERM\n%s", s.log)
	}
	if s.waitErr != nil {
		return fmt.Errorf("cdcdb exited with %v\n%s", s.waitErr, s.log)
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it: enough of a server's
// log to explain a failure without holding a long run's output.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
