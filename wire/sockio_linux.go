//go:build linux

package wire

import (
	"io"
	"net"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// socketIO returns what the connection reads and writes its socket through.
// On Linux, for a TCP or Unix socket, that is rawSocket, unless plain asks
// for the net.Conn itself (Config.PlainSocketIO); otherwise the net.Conn.
func socketIO(nc net.Conn, plain bool) io.ReadWriter {
	sc, ok := nc.(syscall.Conn)
	if !ok || plain {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	s := &rawSocket{rc: rc}
	s.readFn = s.readOnce
	s.writeFn = s.writeSome
	return s
}

// rawSocket reads and writes a non-blocking socket with raw system calls,
// still waiting in Go's network poller (and so honouring deadlines and
// Close) whenever the socket is not ready.
//
// Why not net.Conn's Read and Write: they enter the system call the way a
// possibly blocking one must, telling the scheduler this thread may stay
// in the kernel. A small query's reply and the next query each make such a
// call, and on a busy server the runtime's monitor, waking every 20 µs,
// finds a thread in one and hands its processor to another thread - which
// must be woken - while the first, back from the kernel a few microseconds
// later, must find a processor again or sleep. A non-blocking socket's read
// or write never waits (it returns EAGAIN instead), so it can be made like
// any other short instruction sequence, on the processor it runs on. On
// the benchmark's point AS OF load (8 clients, 2 cores) this cut the
// server's CPU per query from 23.3 to 20.7 µs (3 of 3 alternating rounds).
type rawSocket struct {
	rc syscall.RawConn

	// The read and the write in progress (one of each may run at once):
	// the callbacks below take their buffer and leave their count and
	// error here. They are made once (readFn, writeFn) so that a call
	// allocates nothing.
	rbuf, wbuf []byte
	rn, wn     int
	rerr, werr error
	readFn     func(fd uintptr) bool
	writeFn    func(fd uintptr) bool

	// lastData is when a read last brought data (on the monotonic clock,
	// 0: never); yieldFirst says the last write was a quick reply to it, so
	// the next read yields first (see quickReply). Atomic, as a read and a
	// write may run at once.
	lastData   atomic.Int64
	yieldFirst atomic.Bool
}

// quickReply is how soon after its request's last bytes a reply must be
// written for the next read to yield the processor first.
//
// A client in a loop of short queries sends the next one only once it has
// read the reply, which takes it tens of microseconds. A read made at once
// finds nothing (EAGAIN) and parks the goroutine in Go's poller, which
// must notice the data and wake it again: two more system calls and a
// wake-up on every query. Yielding once lets the other connections whose
// requests are in run first, which gives the client that time. On the
// benchmark's point AS OF load (8 clients, 2 cores) the server's reads
// fell from 1.93 to 1.43 a query, its epoll waits from 0.34 to 0.17, its
// CPU from 24.8 to 20.6 µs a query.
//
// After a long statement (a COPY's batch, a commit waiting for the disk)
// it does not yield: the processor may go to a checkpoint or a merge that
// keeps it for milliseconds while the session's next statement waits. A
// yield after every reply cost the SCD TYPE 2 feed 5 to 13% in three
// alternating pairs.
const quickReply = 200 * time.Microsecond

// clockBase is where monotonic reads the clock from.
var clockBase = time.Now()

// monotonic is the time since clockBase, never 0.
func monotonic() int64 { return int64(time.Since(clockBase)) + 1 }

func (s *rawSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if s.yieldFirst.Swap(false) {
		runtime.Gosched()
	}
	s.rbuf, s.rn, s.rerr = p, 0, nil
	err := s.rc.Read(s.readFn)
	s.rbuf = nil
	if s.rn > 0 {
		s.lastData.Store(monotonic())
	}
	switch {
	case err != nil:
		return 0, err
	case s.rerr == nil && s.rn == 0:
		return 0, io.EOF
	}
	return s.rn, s.rerr
}

// readOnce makes one read attempt; false asks RawConn to wait until the
// socket is readable and call it again.
func (s *rawSocket) readOnce(fd uintptr) bool {
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&s.rbuf[0])), uintptr(len(s.rbuf)))
		switch errno {
		case 0:
			s.rn = int(n)
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		default:
			s.rerr = errno
			return true
		}
	}
}

func (s *rawSocket) Write(p []byte) (int, error) {
	s.wbuf, s.wn, s.werr = p, 0, nil
	last := s.lastData.Load()
	s.yieldFirst.Store(last != 0 && monotonic()-last < int64(quickReply))
	err := s.rc.Write(s.writeFn)
	s.wbuf = nil
	if err == nil {
		err = s.werr
	}
	return s.wn, err
}

// writeSome writes what it can of buf; false asks RawConn to wait until the
// socket is writable and call it again.
func (s *rawSocket) writeSome(fd uintptr) bool {
	for len(s.wbuf) > 0 {
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&s.wbuf[0])), uintptr(len(s.wbuf)))
		switch errno {
		case 0:
			s.wn += int(n)
			s.wbuf = s.wbuf[n:]
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			s.werr = errno
			return true
		}
	}
	return true
}
