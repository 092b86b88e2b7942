//go:build linux

package wire

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// socketScript is a random conversation in the protocol: its messages,
// encoded back to back, how many ReadyForQuery answer them and how many
// of its queries fail.
type socketScript struct {
	wire         []byte
	ready, fails int
}

// randomSocketScript draws simple Queries with replies from nothing to
// several times the socket's buffers (select N, COPY TO STDOUT), errors,
// notices, COPY FROM STDIN in many CopyData messages, and extended-protocol
// batches whose Bind carries a parameter of up to 300 kB that the reply
// echoes, some run in parts (Execute with a row limit).
func randomSocketScript(rng *rand.Rand, steps int) socketScript {
	var s socketScript
	add := func(m pgproto3.FrontendMessage) {
		var err error
		if s.wire, err = m.Encode(s.wire); err != nil {
			panic(err)
		}
	}
	query := func(q string) {
		add(&pgproto3.Query{String: q})
		s.ready++
	}
	for range steps {
		switch rng.IntN(9) {
		case 0, 1:
			query(fmt.Sprintf("select %d", []int{0, 1, 10, 1000, 30000}[rng.IntN(5)]))
		case 2:
			query("echo 'a' 'bb' 'ccc'")
		case 3:
			q := []string{"fail", "notice", "begin; insert; commit", "insert; fail; select 3"}[rng.IntN(4)]
			if strings.Contains(q, "fail") {
				s.fails++
			}
			query(q)
		case 4:
			query(fmt.Sprintf("copy out %d", rng.IntN(50000)))
		case 5:
			add(&pgproto3.Query{String: "copy in"})
			for range rng.IntN(20) {
				data := make([]byte, rng.IntN(40000))
				for i := range data {
					data[i] = "abc\t\n"[rng.IntN(5)]
				}
				add(&pgproto3.CopyData{Data: data})
			}
			add(&pgproto3.CopyDone{})
			s.ready++
		case 6, 7:
			param := make([]byte, []int{0, 10, 5000, 300000}[rng.IntN(4)])
			for i := range param {
				param[i] = byte('a' + rng.IntN(26))
			}
			add(&pgproto3.Parse{Query: "echo $1"})
			add(&pgproto3.Bind{Parameters: [][]byte{param}})
			add(&pgproto3.Describe{ObjectType: 'P'})
			add(&pgproto3.Execute{})
			add(&pgproto3.Sync{})
			s.ready++
		default:
			add(&pgproto3.Parse{Query: fmt.Sprintf("select %d", rng.IntN(20000))})
			add(&pgproto3.Bind{ResultFormatCodes: []int16{int16(rng.IntN(2))}})
			for range 1 + rng.IntN(3) {
				add(&pgproto3.Execute{MaxRows: uint32(rng.IntN(9000))})
			}
			add(&pgproto3.Sync{})
			s.ready++
		}
	}
	return s
}

// converse connects to addr, starts up, then sends the script in pieces
// of random sizes, now and then pausing so that the server's reads find
// nothing waiting, while it reads everything the server answers up to the
// script's last ReadyForQuery. It returns those bytes (the startup's
// answer, whose BackendKeyData is random, left out).
func converse(t *testing.T, addr string, script socketScript, rng *rand.Rand) []byte {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(60 * time.Second))
	startup, _ := (&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "database": "db"}}).Encode(nil)
	if _, err := nc.Write(startup); err != nil {
		t.Fatal(err)
	}
	readMessage := func() (byte, []byte) {
		var head [5]byte
		if _, err := io.ReadFull(nc, head[:]); err != nil {
			t.Fatalf("reading the server's answer: %v", err)
		}
		body := make([]byte, binary.BigEndian.Uint32(head[1:])-4)
		if _, err := io.ReadFull(nc, body); err != nil {
			t.Fatalf("reading the server's answer: %v", err)
		}
		return head[0], append(head[:], body...)
	}
	for {
		if kind, _ := readMessage(); kind == 'Z' {
			break
		}
	}
	// Pieces of the script go out while the answer comes in.
	pieces := make([]int, 0)
	for left := len(script.wire); left > 0; {
		n := min(left, 1+rng.IntN(70000))
		pieces = append(pieces, n)
		left -= n
	}
	pauses := make([]bool, len(pieces))
	for i := range pauses {
		pauses[i] = rng.IntN(4) == 0
	}
	sent := make(chan error, 1)
	go func() {
		rest := script.wire
		for i, n := range pieces {
			if pauses[i] {
				time.Sleep(time.Millisecond)
			}
			if _, err := nc.Write(rest[:n]); err != nil {
				sent <- err
				return
			}
			rest = rest[n:]
		}
		sent <- nil
	}()
	var answer bytes.Buffer
	for ready := 0; ready < script.ready; {
		kind, msg := readMessage()
		answer.Write(msg)
		if kind == 'Z' {
			ready++
		}
	}
	if err := <-sent; err != nil {
		t.Fatalf("sending the script: %v", err)
	}
	return answer.Bytes()
}

// TestRawSocketIOMatchesNetConn: the same random conversations, each sent
// in the same random pieces with the same pauses, get the same answer, byte
// for byte, from a server that reads and writes its sockets with raw system
// calls and from one that uses net.Conn (Config.PlainSocketIO): replies
// larger than the socket's buffers, requests split anywhere, COPY in both
// directions, errors, notices, portals run in parts.
func TestRawSocketIOMatchesNetConn(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	raw := startServer(t, Config{})
	plain := startServer(t, Config{PlainSocketIO: true})
	total := 0
	for i := range 6 {
		script := randomSocketScript(rand.New(rand.NewPCG(seed, uint64(i))), 25)
		fast := converse(t, raw.addr, script, rand.New(rand.NewPCG(seed, uint64(100+i))))
		general := converse(t, plain.addr, script, rand.New(rand.NewPCG(seed, uint64(100+i))))
		if !bytes.Equal(fast, general) {
			at := 0
			for at < min(len(fast), len(general)) && fast[at] == general[at] {
				at++
			}
			t.Fatalf("conversation %d: raw sockets answered %d bytes, net.Conn %d; they part at byte %d", i, len(fast), len(general), at)
		}
		if errors := strings.Count(string(fast), "division by zero"); errors != script.fails {
			t.Fatalf("conversation %d: %d errors for %d failing queries", i, errors, script.fails)
		}
		total += len(fast)
	}
	t.Logf("%d bytes of answers compared", total)
}

// TestPlainSocketIOIsNetConn: Config.PlainSocketIO gives a connection the
// net.Conn itself to read and write, where it would otherwise have a
// rawSocket.
func TestPlainSocketIOIsNetConn(t *testing.T) {
	server, _ := socketPair(t)
	if _, ok := socketIO(server, false).(*rawSocket); !ok {
		t.Fatalf("socketIO of a TCP connection is %T, want a rawSocket", socketIO(server, false))
	}
	if got := socketIO(server, true); got != io.ReadWriter(server) {
		t.Fatalf("socketIO with plain set is %T, want the net.Conn", got)
	}
}
