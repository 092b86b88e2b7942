package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestGodebugSets(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"madvdontneed=1", true},
		{"gctrace=1, madvdontneed=0", true},
		{"madvdontneedx=1", false},
		{"gctrace=1", false},
		{"madvdontneed", false},
	} {
		if got := godebugSets(c.godebug, lazyFreeSetting); got != c.want {
			t.Errorf("godebugSets(%q) = %v, want %v", c.godebug, got, c.want)
		}
	}
}

// TestServerRunsWithLazyFree starts the built server and reads the
// environment its running process has: GODEBUG=madvdontneed=0 added to
// what it was given, or left as the user set it.
func TestServerRunsWithLazyFree(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "cdcdb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name, given, want string
	}{
		{"unset", "", "GODEBUG=madvdontneed=0"},
		{"other settings kept", "GODEBUG=gctrace=0", "GODEBUG=gctrace=0,madvdontneed=0"},
		{"the user's choice wins", "GODEBUG=madvdontneed=1", "GODEBUG=madvdontneed=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := withoutGodebug(os.Environ())
			if c.given != "" {
				env = append(env, c.given)
			}
			got := runningEnv(t, bin, filepath.Join(t.TempDir(), "x.db"), env)
			var godebug []string
			for _, kv := range got {
				if strings.HasPrefix(kv, "GODEBUG=") {
					godebug = append(godebug, kv)
				}
			}
			if len(godebug) != 1 || godebug[0] != c.want {
				t.Errorf("the running server's GODEBUG: %q, want [%q]", godebug, c.want)
			}
		})
	}
}

// runningEnv starts the server, waits until it accepts connections and
// returns its process's environment, then stops it.
func runningEnv(t *testing.T, bin, data string, env []string) []string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "-listen", addr, "-data", data)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not listen on %s: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/environ")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
}
