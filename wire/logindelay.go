package wire

import (
	"sync"
	"time"
)

// This file owns the delay after failed logins: a client that guesses
// passwords hears each failure later than the one before, so one address
// cannot try hundreds a second.
//
// The schedule, per client address: the first freeLoginFailures failures
// (typos) are answered at once; the next waits firstLoginDelay, and each
// further one twice as long, up to maxLoginDelay. Failures from one address
// are answered one after another, each its delay after the previous answer,
// so guessing on many connections at once gains nothing. An address's count
// is forgotten loginFailureMemory after its last failure. A success does
// not reset it: a client that knows one role's password could otherwise
// guess another's at full speed.

const (
	freeLoginFailures  = 3
	firstLoginDelay    = 250 * time.Millisecond
	maxLoginDelay      = 10 * time.Second
	loginFailureMemory = 5 * time.Minute
	// loginFailureAddresses bounds the table; past it, forgotten entries
	// are swept out before a new one goes in.
	loginFailureAddresses = 4096
)

// loginFailures counts failed logins per client address.
type loginFailures struct {
	mu     sync.Mutex
	byAddr map[string]*addressFailures
}

type addressFailures struct {
	count      int
	lastFail   time.Time // when the last failure happened
	lastAnswer time.Time // when the last failure was (or will be) answered
}

// failed records a failed login from addr at now and returns when the
// failure is to be answered.
func (f *loginFailures) failed(addr string, now time.Time) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byAddr == nil {
		f.byAddr = make(map[string]*addressFailures)
	}
	a := f.byAddr[addr]
	if a != nil && now.Sub(a.lastFail) > loginFailureMemory && now.After(a.lastAnswer) {
		a = nil
	}
	if a == nil {
		if len(f.byAddr) >= loginFailureAddresses {
			for k, old := range f.byAddr {
				if now.Sub(old.lastFail) > loginFailureMemory && now.After(old.lastAnswer) {
					delete(f.byAddr, k)
				}
			}
		}
		a = &addressFailures{}
		f.byAddr[addr] = a
	}
	a.count++
	a.lastFail = now
	delay := loginDelay(a.count)
	answer := now
	if delay > 0 {
		answer = laterOf(now, a.lastAnswer).Add(delay)
	}
	a.lastAnswer = laterOf(a.lastAnswer, answer)
	return answer
}

// loginDelay is the schedule: the wait before answering an address's
// n-th failure (counting from 1).
func loginDelay(n int) time.Duration {
	if n <= freeLoginFailures {
		return 0
	}
	d := firstLoginDelay
	for i := freeLoginFailures + 1; i < n && d < maxLoginDelay; i++ {
		d *= 2
	}
	return min(d, maxLoginDelay)
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
