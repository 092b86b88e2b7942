//go:build linux

package wire

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// socketPair returns both ends of a loopback TCP connection.
func socketPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

func rawIO(t *testing.T, nc net.Conn) *rawSocket {
	t.Helper()
	s, ok := socketIO(nc, false).(*rawSocket)
	if !ok {
		t.Fatalf("socketIO(%T) is not a rawSocket", nc)
	}
	return s
}

// A write larger than the socket's buffers waits for the peer to read and
// then delivers every byte, in order, reporting all of them written.
func TestRawSocketWriteWaitsForAReaderAndDeliversEverything(t *testing.T) {
	server, client := socketPair(t)
	s := rawIO(t, server)
	payload := make([]byte, 16<<20)
	for i := range payload {
		payload[i] = byte(i * 7 / 5)
	}
	got := make(chan []byte, 1)
	go func() {
		time.Sleep(100 * time.Millisecond) // let the writer fill the buffers and wait
		b, _ := io.ReadAll(client)
		got <- b
	}()
	n, err := s.Write(payload)
	if err != nil || n != len(payload) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(payload))
	}
	server.Close()
	if b := <-got; !bytes.Equal(b, payload) {
		t.Fatalf("peer read %d bytes, not the %d written (or not the same)", len(b), len(payload))
	}
}

// A read waits for data, returns what has arrived, and reports io.EOF once
// the peer has closed and everything was read.
func TestRawSocketReadWaitsThenSeesEOF(t *testing.T) {
	server, client := socketPair(t)
	s := rawIO(t, server)
	go func() {
		time.Sleep(50 * time.Millisecond)
		client.Write([]byte("hello"))
		client.Close()
	}()
	var got []byte
	buf := make([]byte, 64)
	for {
		n, err := s.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if n == 0 {
			t.Fatal("Read returned 0 bytes and no error")
		}
	}
	if string(got) != "hello" {
		t.Fatalf("read %q, want %q", got, "hello")
	}
}

// Deadlines and Close set on the net.Conn end a read that is waiting, as
// they do a net.Conn's own Read: the server relies on both to end idle and
// cancelled sessions.
func TestRawSocketReadHonoursDeadlineAndClose(t *testing.T) {
	server, _ := socketPair(t)
	s := rawIO(t, server)
	server.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := s.Read(make([]byte, 8)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read past the deadline: %v, want a deadline error", err)
	}
	server.SetReadDeadline(time.Time{})
	done := make(chan error, 1)
	go func() {
		_, err := s.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	server.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Read after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a waiting Read")
	}
}

// Writing to a peer that has gone fails with an error instead of waiting
// or killing the process with SIGPIPE.
func TestRawSocketWriteToAClosedPeerFails(t *testing.T) {
	server, client := socketPair(t)
	s := rawIO(t, server)
	client.Close()
	chunk := make([]byte, 64<<10)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := s.Write(chunk); err != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("writes to a closed peer kept succeeding")
}

// exchange reads a request on s, answers it after delay, has the peer send
// the next request, makes a goroutine ready to run, and reads again: it
// reports whether that goroutine ran before the second read returned. On
// one processor it can only have run if the read yielded.
func exchange(t *testing.T, delay time.Duration) (yielded bool) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	server, client := socketPair(t)
	s := rawIO(t, server)
	buf := make([]byte, 64)
	if _, err := client.Write([]byte("first")); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Read(buf); err != nil || string(buf[:n]) != "first" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	if delay > 0 {
		time.Sleep(delay)
	}
	if _, err := s.Write([]byte("reply")); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Write([]byte("second")); err != nil {
		t.Fatal(err)
	}
	var ran atomic.Bool
	go ran.Store(true)
	if n, err := s.Read(buf); err != nil || string(buf[:n]) != "second" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	return ran.Load()
}

// After a quick reply the next read lets the goroutines that are ready run
// before it reads (quickReply). A busy machine may stop the test's thread
// between the request and the reply for longer than quickReply, so it
// gets a few tries.
func TestRawSocketReadYieldsAfterAQuickReply(t *testing.T) {
	for range 5 {
		if exchange(t, 0) {
			return
		}
	}
	t.Fatal("the read after a quick reply did not yield the processor (5 tries)")
}

// After a reply that took longer than quickReply the next read goes
// straight to the socket.
func TestRawSocketReadDoesNotYieldAfterASlowReply(t *testing.T) {
	if exchange(t, 2*quickReply) {
		t.Fatal("the read after a slow reply yielded the processor")
	}
}
