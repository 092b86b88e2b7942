package sql

import (
	"sort"
	"sync"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
	"cdcdb/wire"
)

// LISTEN, UNLISTEN, NOTIFY and pg_notify(), as PostgreSQL's: a session
// listens on channels; a notification sent in a transaction is delivered
// when it commits, to every session listening on its channel then (the
// sender included), and not at all if it rolls back (or is rolled back to
// a savepoint set before it). A transaction's notifications with the same
// channel and payload are delivered once, in the order first sent. LISTEN
// and UNLISTEN take effect at commit too. Delivery is wire's: it sends a
// session's queued notifications before each ReadyForQuery, and at once
// to a client waiting idle outside a transaction block
// (wire.NotifyingSession).

// maxNotifyPayload is PostgreSQL's limit on a payload (NOTIFY_PAYLOAD_MAX_LENGTH
// less one), maxChannelName that on a channel name (NAMEDATALEN less one).
const (
	maxNotifyPayload = 7999
	maxChannelName   = 63
)

// notifyHub is which sessions listen on which channel, for the engine.
type notifyHub struct {
	mu        sync.Mutex
	listeners map[string]map[*Session]struct{}
}

// sessionNotify is a session's part of LISTEN/NOTIFY: the channels it
// listens on (committed), and the notifications queued for its client,
// which other sessions' commits append to (under mu).
type sessionNotify struct {
	listening map[string]bool
	mu        sync.Mutex
	inbox     []wire.Notification
	wake      func()
}

// blockNotify is what a transaction block did to LISTEN/NOTIFY, applied
// when it commits: its notifications, and its LISTEN and UNLISTEN.
type blockNotify struct {
	sent   []wire.Notification
	listen []listenChange
}

// listenChange is a LISTEN (on), an UNLISTEN (off) or, with channel "",
// an UNLISTEN *.
type listenChange struct {
	channel string
	on      bool
}

// SetNotificationWaker implements wire.NotifyingSession.
func (s *Session) SetNotificationWaker(wake func()) {
	s.notify.mu.Lock()
	s.notify.wake = wake
	s.notify.mu.Unlock()
}

// Notifications implements wire.NotifyingSession.
func (s *Session) Notifications() []wire.Notification {
	s.notify.mu.Lock()
	defer s.notify.mu.Unlock()
	out := s.notify.inbox
	s.notify.inbox = nil
	return out
}

func checkChannel(channel string) error {
	switch {
	case channel == "":
		return pgerror.New(pgerror.InvalidParameterValue, "channel name cannot be empty")
	case len(channel) > maxChannelName:
		return pgerror.New(pgerror.InvalidParameterValue, "channel name too long")
	}
	return nil
}

// queueNotify is NOTIFY channel, payload in the session's current block.
func (s *Session) queueNotify(channel, payload string) error {
	if err := checkChannel(channel); err != nil {
		return err
	}
	if len(payload) > maxNotifyPayload {
		return pgerror.New(pgerror.InvalidParameterValue, "payload string too long")
	}
	n := wire.Notification{PID: uint32(s.id), Channel: channel, Payload: payload}
	if b := s.block; b != nil {
		b.notify.sent = append(b.notify.sent, n)
		return nil
	}
	// A statement that touches no data runs in no block: its
	// transaction is itself, and commits now.
	s.commitNotify(&txBlock{notify: blockNotify{sent: []wire.Notification{n}}})
	return nil
}

// queueListen is LISTEN (on) or UNLISTEN (off) of channel ("": UNLISTEN
// *) in the session's current block.
func (s *Session) queueListen(channel string, on bool) error {
	if on {
		if err := checkChannel(channel); err != nil {
			return err
		}
	}
	ch := listenChange{channel: channel, on: on}
	if b := s.block; b != nil {
		b.notify.listen = append(b.notify.listen, ch)
		return nil
	}
	s.commitNotify(&txBlock{notify: blockNotify{listen: []listenChange{ch}}})
	return nil
}

// commitNotify applies a committed block's LISTEN and UNLISTEN, then
// delivers its notifications.
func (s *Session) commitNotify(b *txBlock) {
	if len(b.notify.listen) == 0 && len(b.notify.sent) == 0 {
		return
	}
	hub := &s.engine.notify
	hub.mu.Lock()
	for _, ch := range b.notify.listen {
		switch {
		case ch.on:
			if s.notify.listening == nil {
				s.notify.listening = map[string]bool{}
			}
			s.notify.listening[ch.channel] = true
			if hub.listeners == nil {
				hub.listeners = map[string]map[*Session]struct{}{}
			}
			if hub.listeners[ch.channel] == nil {
				hub.listeners[ch.channel] = map[*Session]struct{}{}
			}
			hub.listeners[ch.channel][s] = struct{}{}
		case ch.channel == "":
			hub.forget(s)
		default:
			delete(s.notify.listening, ch.channel)
			hub.drop(ch.channel, s)
		}
	}
	// Identical notifications of one transaction are delivered once.
	type key struct{ channel, payload string }
	seen := make(map[key]bool, len(b.notify.sent))
	woken := map[*Session]bool{}
	for _, n := range b.notify.sent {
		k := key{n.Channel, n.Payload}
		if seen[k] {
			continue
		}
		seen[k] = true
		for to := range hub.listeners[n.Channel] {
			to.notify.mu.Lock()
			to.notify.inbox = append(to.notify.inbox, n)
			to.notify.mu.Unlock()
			woken[to] = true
		}
	}
	hub.mu.Unlock()
	for to := range woken {
		to.notify.mu.Lock()
		wake := to.notify.wake
		to.notify.mu.Unlock()
		if wake != nil && to != s {
			wake() // the sender's own go out before its ReadyForQuery
		}
	}
	b.notify = blockNotify{}
}

// drop takes s off channel's listeners. The hub's lock is held.
func (h *notifyHub) drop(channel string, s *Session) {
	if m := h.listeners[channel]; m != nil {
		delete(m, s)
		if len(m) == 0 {
			delete(h.listeners, channel)
		}
	}
}

// forget takes s off every channel (UNLISTEN *, or its end). The hub's
// lock is held.
func (h *notifyHub) forget(s *Session) {
	for ch := range s.notify.listening {
		h.drop(ch, s)
	}
	s.notify.listening = nil
}

// endNotify is UNLISTEN * at the end of the session.
func (s *Session) endNotify() {
	hub := &s.engine.notify
	hub.mu.Lock()
	hub.forget(s)
	hub.mu.Unlock()
}

func (pc *planCtx) compileNotification(stmt ast.Statement) (*compiled, error) {
	switch st := stmt.(type) {
	case *ast.Listen:
		return &compiled{access: accessNone, notifies: true, run: listenStatement{st}}, nil
	case *ast.Unlisten:
		return &compiled{access: accessNone, notifies: true, run: unlistenStatement{st}}, nil
	case *ast.Notify:
		return &compiled{access: accessNone, notifies: true, run: notifyStatement{st}}, nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "statement %T is not supported", stmt)
}

func init() {
	// pg_listening_channels() lists the channels the session listens on
	// (as committed).
	builtins.RegisterSet("pg_listening_channels", &builtins.SetFunc{Resolve: func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 0 {
			return nil, nil, builtins.ErrNoFunction
		}
		return nil, []builtins.Column{{Name: "pg_listening_channels", T: types.Of(types.Text)}}, nil
	}, Gen: func(ec eval.Context, _ []types.Value) ([]eval.Row, error) {
		x := stmtOf(ec)
		hub := &x.sess.engine.notify
		hub.mu.Lock()
		channels := make([]string, 0, len(x.sess.notify.listening))
		for ch := range x.sess.notify.listening {
			channels = append(channels, ch)
		}
		hub.mu.Unlock()
		sort.Strings(channels)
		rows := make([]eval.Row, len(channels))
		for i, ch := range channels {
			rows[i] = eval.Row{ch}
		}
		return rows, nil
	}})
	// pg_notify(channel, payload) is NOTIFY with values; a NULL channel is
	// an empty one, a NULL payload an empty payload, as in PostgreSQL.
	builtins.Register("pg_notify", &builtins.Func{Resolve: builtins.Signature(types.Void, types.Text, types.Text), Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		channel, _ := a[0].(string)
		payload, _ := a[1].(string)
		return "", x.sess.queueNotify(channel, payload)
	}})
}
