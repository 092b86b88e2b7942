package wire

import (
	"context"
	"encoding/binary"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// notifyFactory makes fake sessions that implement NotifyingSession, and
// lets the test queue notifications for them as another session's commit
// would.
type notifyFactory struct {
	*fakeFactory
	mu       sync.Mutex
	sessions []*notifySession
}

type notifySession struct {
	*fakeSession
	mu    sync.Mutex
	inbox []Notification
	wake  func()
}

func (f *notifyFactory) NewSession(ctx context.Context, info StartupInfo) (Session, error) {
	s, err := f.fakeFactory.NewSession(ctx, info)
	if err != nil {
		return nil, err
	}
	ns := &notifySession{fakeSession: s.(*fakeSession)}
	f.mu.Lock()
	f.sessions = append(f.sessions, ns)
	f.mu.Unlock()
	return ns, nil
}

func (s *notifySession) SetNotificationWaker(wake func()) {
	s.mu.Lock()
	s.wake = wake
	s.mu.Unlock()
}

func (s *notifySession) Notifications() []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.inbox
	s.inbox = nil
	return out
}

// notify queues a notification from another goroutine and wakes the
// connection, as a committing session does.
func (s *notifySession) notify(channel, payload string) {
	s.mu.Lock()
	s.inbox = append(s.inbox, Notification{PID: 42, Channel: channel, Payload: payload})
	wake := s.wake
	s.mu.Unlock()
	if wake != nil {
		wake()
	}
}

func startNotifyServer(t *testing.T) (*notifyFactory, string) {
	t.Helper()
	f := &notifyFactory{fakeFactory: newFakeFactory()}
	srv := NewServer(Config{}, f)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return f, ln.Addr().String()
}

func (f *notifyFactory) session(t *testing.T) *notifySession {
	t.Helper()
	var s *notifySession
	waitFor(t, "the session", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(f.sessions) == 0 {
			return false
		}
		s = f.sessions[len(f.sessions)-1]
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.wake != nil
	})
	return s
}

// TestNotificationWakesIdleConnection: a notification queued while the
// client waits idle is sent at once, even when the client had sent part of
// its next message (which the server then reads on from where it was);
// inside a transaction block it waits for the ReadyForQuery that ends it.
func TestNotificationWakesIdleConnection(t *testing.T) {
	f, addr := startNotifyServer(t)
	c := startRaw(t, addr)
	s := f.session(t)

	s.notify("ch", "idle")
	if got := describeMsg(c.receive()); got != describeMsg(&pgproto3.NotificationResponse{PID: 42, Channel: "ch", Payload: "idle"}) {
		t.Fatalf("idle client got %s", got)
	}

	// Half a Query message, then a notification, then the rest.
	text := "select 1"
	msg := []byte{'Q', 0, 0, 0, 0}
	binary.BigEndian.PutUint32(msg[1:], uint32(4+len(text)+1))
	msg = append(append(msg, text...), 0)
	if _, err := c.conn.Write(msg[:3]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // let the server read the first bytes
	s.notify("ch", "mid-message")
	if got := describeMsg(c.receive()); got != describeMsg(&pgproto3.NotificationResponse{PID: 42, Channel: "ch", Payload: "mid-message"}) {
		t.Fatalf("client mid-message got %s", got)
	}
	if _, err := c.conn.Write(msg[3:]); err != nil {
		t.Fatal(err)
	}
	got := c.untilReady()
	if len(got) < 2 || got[len(got)-2] != describeMsg(&pgproto3.CommandComplete{CommandTag: []byte("SELECT 1")}) {
		t.Fatalf("the query sent in two parts answered %q", got)
	}

	// In a transaction block: held until the block ends.
	c.send(query("begin"))
	c.untilReady()
	s.notify("ch", "in block")
	c.conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if msg, err := c.fe.Receive(); err == nil {
		t.Fatalf("client in a block got %s", describeMsg(msg))
	}
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	c = startRaw(t, addr) // the timed-out read left the frontend unusable
	s = f.session(t)
	c.send(query("begin"))
	c.untilReady()
	s.notify("ch", "in block")
	time.Sleep(50 * time.Millisecond)
	c.send(query("commit"))
	got = c.untilReady()
	want := describeMsg(&pgproto3.NotificationResponse{PID: 42, Channel: "ch", Payload: "in block"})
	if len(got) < 2 || got[len(got)-2] != want {
		t.Fatalf("commit answered %q, want the notification just before ReadyForQuery", got)
	}
}
