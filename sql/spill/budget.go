package spill

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"cdcdb/pgerror"
)

// Budget is the server-wide memory budget: the bytes all statements'
// accounted memory (operators' workspaces, aggregate states, query texts,
// prepared statements) may hold at once. A request that would pass it
// fails with 53200 (out of memory) and the statement ends; the server and
// the other sessions go on.
type Budget struct {
	limit      int64
	used       atomic.Int64
	reclaiming sync.Mutex
}

// NewBudget makes a budget of limit bytes (<= 0: unlimited, only counted).
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// ReleaseWhenUnreachable closes acct once holder (what its bytes are
// kept in) is no longer reachable: for rows handed on with no close to
// mark their end.
func ReleaseWhenUnreachable[T any](holder *T, acct *Account) {
	runtime.AddCleanup(holder, (*Account).Close, acct)
}

// Limit is the budget's size in bytes (<= 0: unlimited).
func (b *Budget) Limit() int64 { return b.limit }

// Used is the bytes accounted now, over all accounts.
func (b *Budget) Used() int64 { return b.used.Load() }

// reserve takes n bytes, or refuses when that would pass the limit even
// after a reclaim.
func (b *Budget) reserve(n int64) bool {
	if b.tryReserve(n) {
		return true
	}
	b.reclaim()
	return b.tryReserve(n)
}

func (b *Budget) tryReserve(n int64) bool {
	now := b.used.Add(n)
	if b.limit > 0 && now > b.limit {
		b.used.Add(-n)
		return false
	}
	return true
}

// reclaim collects garbage and gives the accounts found unreachable a
// moment to give their bytes back (their cleanups run after the
// collection, on a goroutine of their own), before a request is refused:
// rows a finished statement dropped must not fail the next one. One
// caller reclaims at a time; the others wait for it.
func (b *Budget) reclaim() {
	b.reclaiming.Lock()
	defer b.reclaiming.Unlock()
	before := b.used.Load()
	runtime.GC()
	freed := false
	for range 20 {
		time.Sleep(5 * time.Millisecond)
		if now := b.used.Load(); now < before {
			before, freed = now, true
			continue
		}
		if freed {
			return
		}
	}
}

func (b *Budget) release(n int64) { b.used.Add(-n) }

// Account is what one holder (an operator of one statement, a session's
// prepared statements) has taken from a Budget. One goroutine uses it at
// a time. Its holder closes it when done; an account dropped unclosed (an
// iterator some path never closed) gives its bytes back when the garbage
// collector finds it unreachable, so a missed Close cannot shrink the
// budget for good.
type Account struct {
	// what names the holder in the 53200 error's detail.
	what  string
	state *accountState
}

// accountState is the part of an Account its cleanup reads, apart from
// the Account so that the cleanup does not keep it reachable.
type accountState struct {
	budget *Budget
	held   atomic.Int64
}

func (st *accountState) release() {
	if n := st.held.Swap(0); n > 0 && st.budget != nil {
		st.budget.release(n)
	}
}

// NewAccount opens an account of b for the holder named what. A nil b
// gives an account that counts but never refuses.
func (b *Budget) NewAccount(what string) *Account {
	a := &Account{what: what, state: &accountState{budget: b}}
	runtime.AddCleanup(a, (*accountState).release, a.state)
	return a
}

// Held is the bytes this account holds.
func (a *Account) Held() int64 { return a.state.held.Load() }

// Grow takes n more bytes, or fails with 53200 when the budget has not
// got them (the account keeps what it held).
func (a *Account) Grow(n int64) error {
	if n <= 0 {
		return nil
	}
	if b := a.state.budget; b != nil && !b.reserve(n) {
		return OutOfMemory(a.what, n, a.Held(), b)
	}
	a.state.held.Add(n)
	return nil
}

// Shrink gives back n bytes (at most what the account holds).
func (a *Account) Shrink(n int64) {
	n = min(n, a.Held())
	if n <= 0 {
		return
	}
	a.state.held.Add(-n)
	if b := a.state.budget; b != nil {
		b.release(n)
	}
}

// Close gives back everything the account holds; the account may be
// used again afterwards, from zero.
func (a *Account) Close() {
	if a != nil {
		a.state.release()
	}
}

// OutOfMemory is PostgreSQL's 53200 for a request of n bytes by what,
// which held already held bytes, refused by budget.
func OutOfMemory(what string, n, held int64, budget *Budget) error {
	return pgerror.New(pgerror.OutOfMemory, "out of memory").
		WithDetail("Failed on request of size %d in %s, which holds %d bytes: the server's memory budget of %d bytes has %d in use.",
			n, what, held, budget.limit, budget.Used()).
		WithHint("Lower what the query keeps in memory, or raise the server's -memory-budget.")
}
