package sql

import (
	"context"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/sql/settings"
	"cdcdb/types"
)

// What one session may see of and do to the others: pg_cancel_backend,
// pg_terminate_backend, pg_blocking_pids, and the wait for storage's one
// writer slot, which lock_timeout bounds and pg_stat_activity shows.
//
// A session's pid is the one its client was given in BackendKeyData
// (wire.StartupInfo.ProcessID), so that psql's cancel, pg_stat_activity and
// these functions name one backend by one number. The engine remembers
// which session holds the writer slot (writerPID) so that a waiting
// session can say whom it waits for.

// Wait events a session reports in pg_stat_activity while it waits for the
// writer slot. PostgreSQL reports a wait for another transaction's row lock
// as Lock / transactionid: the writer slot is cdcdb's nearest equivalent,
// a wait for another transaction to end.
const (
	waitEventTypeLock    = "Lock"
	waitEventTransaction = "transactionid"
)

// beginWriter starts the block's write transaction, waiting for the
// writer slot for at most lock_timeout (0: as long as ctx allows). While
// it waits, pg_stat_activity shows the wait.
func (s *Session) beginWriter(ctx context.Context) (*txn, error) {
	waitCtx := ctx
	if d, _ := settings.ParseDuration(s.settings["lock_timeout"]); d > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	waiting := s.engine.writerPID.Load() != 0
	if waiting {
		s.setWaitEvent(waitEventTypeLock, waitEventTransaction)
	}
	tx, err := s.engine.beginTxn(waitCtx, s, true)
	if waiting {
		s.setWaitEvent("", "")
	}
	if err != nil {
		if ctx.Err() == nil && waitCtx.Err() != nil {
			return nil, pgerror.New(pgerror.LockNotAvailable, "canceling statement due to lock timeout")
		}
		return nil, err
	}
	tx.holder = s.id
	s.engine.writerPID.Store(s.id)
	return tx, nil
}

// setWaitEvent records what the session waits for ("" when it no longer
// waits), for pg_stat_activity.
func (s *Session) setWaitEvent(eventType, event string) {
	a := s.act
	if a == nil {
		return
	}
	a.mu.Lock()
	a.waitEventType, a.waitEvent = eventType, event
	a.mu.Unlock()
}

// activityOf returns the session of e with pid, or nil.
func activityOf(e *Engine, pid int64) *sessionActivity {
	activities.Lock()
	defer activities.Unlock()
	for _, a := range activities.byEngine[e] {
		if int64(a.pid) == pid {
			return a
		}
	}
	return nil
}

// signalTarget finds the session a pg_cancel_backend or
// pg_terminate_backend names, warning as PostgreSQL does when there is
// none (the call then returns false, not an error).
func signalTarget(x *execCtx, pid int64) *sessionActivity {
	a := activityOf(x.sess.engine, pid)
	if a == nil || a.backend == nil {
		// A session without a connection (an internal one) cannot be
		// signalled; PostgreSQL says the same of a process that is not
		// a backend.
		if x.out != nil {
			x.out.notice("WARNING", pgerror.Warning, "PID %d is not a PostgreSQL backend process", pid)
		}
		return nil
	}
	return a
}

// terminateWaitStep is how often pg_terminate_backend with a timeout looks
// whether the session has gone.
const terminateWaitStep = 10 * time.Millisecond

func init() {
	builtins.Register("pg_cancel_backend", &builtins.Func{Resolve: builtins.Signature(types.Bool, types.Int4), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		t := signalTarget(x, a[0].(int64))
		if t == nil {
			return false, nil
		}
		if err := x.sess.maySignal(x.catalogOf(), t.user, false); err != nil {
			return nil, err
		}
		t.backend.Cancel()
		return true, nil
	}})
	// pg_terminate_backend(pid, timeout DEFAULT 0): with a timeout in
	// milliseconds, wait that long for the session to end, and warn and
	// return false if it has not.
	builtins.Register("pg_terminate_backend", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		switch len(args) {
		case 1:
			return builtins.Signature(types.Bool, types.Int4)(b, args)
		case 2:
			return builtins.Signature(types.Bool, types.Int4, types.Int8)(b, args)
		}
		return nil, types.T{}, builtins.ErrNoFunction
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		pid := a[0].(int64)
		var timeout int64
		if len(a) == 2 {
			timeout = a[1].(int64)
		}
		if timeout < 0 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "\"timeout\" must not be negative")
		}
		t := signalTarget(x, pid)
		if t == nil {
			return false, nil
		}
		if err := x.sess.maySignal(x.catalogOf(), t.user, true); err != nil {
			return nil, err
		}
		t.backend.Terminate()
		if timeout == 0 || int64(x.sess.id) == pid {
			return true, nil
		}
		deadline := time.Now().Add(time.Duration(timeout) * time.Millisecond)
		for activityOf(x.sess.engine, pid) == t {
			if time.Now().After(deadline) {
				if x.out != nil {
					x.out.notice("WARNING", pgerror.Warning, "backend with PID %d did not terminate within %d milliseconds", pid, timeout)
				}
				return false, nil
			}
			select {
			case <-x.ctx.Done():
				return nil, cancelError(x.ctx)
			case <-time.After(terminateWaitStep):
			}
		}
		return true, nil
	}})
	// pg_blocking_pids(pid): the session holding the row lock or the
	// writer slot a session waits for; else none.
	builtins.Register("pg_blocking_pids", &builtins.Func{Resolve: builtins.Signature(types.Int4Array, types.Int4), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		none := types.ArrayValue{Elem: types.Int4, Elems: []types.Value{}}
		t := activityOf(x.sess.engine, a[0].(int64))
		if t == nil {
			return none, nil
		}
		t.mu.Lock()
		waiting := t.waitEventType == waitEventTypeLock
		t.mu.Unlock()
		holder := x.sess.engine.writerPID.Load()
		if pid, ok := x.sess.engine.locks.blockerOf(int32(a[0].(int64))); ok {
			holder = pid // waits for a row lock (concurrent.go)
		}
		if !waiting || holder == 0 || int64(holder) == a[0].(int64) {
			return none, nil
		}
		return types.ArrayValue{Elem: types.Int4, Elems: []types.Value{int64(holder)}}, nil
	}})
}
