package sql

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"cdcdb/history"
	"cdcdb/storage"
	"cdcdb/types"
)

// A sourceSpool stores a COPY's rows into a flow's source table on a
// goroutine of its own, while the session goes on parsing the COPY and
// applying the rows to the flows, which need none of the stored rows. The
// rows go into a fork of the statement's transaction (storage.Tx.Fork),
// joined at the end of the statement; as the transaction has written
// nothing into the table but its row id sequence, the join takes the
// fork's tree over whole rather than putting each row again.
//
// Why: in a profile of the benchmark's SCD TYPE 2 feed, encoding and
// storing the source rows was a seventh of the session's CPU, and an
// execution trace showed the other core idle during two thirds of the
// COPY's parsing and storing. Alternating with the build before, the feed
// ran 3.8% faster (8 of 10 pairs).
//
// The session still takes each row's id from the table's sequence, so ids
// are the ones storing the rows itself would have given, in the same
// order.
type sourceSpool struct {
	fork   *storage.Tx
	chunks chan []spooledRow
	done   chan error
	cur    []spooledRow
	keys   []byte // the current chunk's keys, back to back
}

type spooledRow struct {
	key   []byte
	tuple []types.Value
}

// spoolsJoined counts the spools whose rows a statement took, so that tests
// can tell that a COPY went through one.
var spoolsJoined atomic.Int64

// spoolChunk is how many rows go to the spool's goroutine at a time: enough
// to make handing them over cheap, few enough that it starts early.
const spoolChunk = 256

// startSpool starts a spool for the table's rows in this statement, when
// that is sound and worth it: the table is a flow source (so a statement
// writes many rows at once) whose rows are all there is to write (no
// primary key to check, no index, no foreign key), the transaction has not
// written the table yet (a fork may not read what its parent wrote), and
// there is a second processor to run it; and the server has not turned the
// spool off (FastPathsOff.SourceSpool).
func (w *tableWriter) startSpool(x *execCtx) error {
	if x.sess.engine.opts.FastPathsOff.SourceSpool || !w.flowSource || len(w.table.PrimaryKey) > 0 || len(w.table.Indexes) > 0 || len(w.exprIndexes) > 0 || w.fk != nil ||
		runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	rows, err := w.store(x)
	if err != nil {
		return err
	}
	st := x.tx.st
	if st.Wrote(rows.Data().Name()) {
		return nil
	}
	fork, err := st.Fork()
	if err != nil {
		return err
	}
	s := &sourceSpool{fork: fork, chunks: make(chan []spooledRow, 8), done: make(chan error, 1)}
	forked := rows.Fork(fork)
	go s.store(forked)
	w.spool = s
	return nil
}

// store is the spool's goroutine: it stores every row it is given, and
// after a failure only drains the rest. A panic is an internal error of
// the statement, not of the server.
func (s *sourceSpool) store(rows *history.Table) {
	var err error
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("storing the rows of a COPY: %v", p)
			for range s.chunks {
			}
		}
		s.done <- err
	}()
	for chunk := range s.chunks {
		if err != nil {
			continue
		}
		for _, r := range chunk {
			if err = rows.Insert(r.key, r.tuple); err != nil {
				break
			}
		}
	}
}

// add hands a row to the spool; key is copied.
func (s *sourceSpool) add(key []byte, tuple []types.Value) {
	if s.cur == nil {
		s.cur = make([]spooledRow, 0, spoolChunk)
		s.keys = make([]byte, 0, spoolChunk*(len(key)+1))
	}
	start := len(s.keys)
	s.keys = append(s.keys, key...)
	s.cur = append(s.cur, spooledRow{key: s.keys[start:len(s.keys):len(s.keys)], tuple: tuple})
	if len(s.cur) == spoolChunk {
		s.chunks <- s.cur
		s.cur, s.keys = nil, nil
	}
}

// wait hands over the last rows and returns once every row is stored, with
// the first error storing them met.
func (s *sourceSpool) wait() error {
	if len(s.cur) > 0 {
		s.chunks <- s.cur
		s.cur, s.keys = nil, nil
	}
	close(s.chunks)
	return <-s.done
}

// joinSpool makes the spooled rows the statement's own: it waits for them
// and joins the fork.
func (w *tableWriter) joinSpool(x *execCtx) error {
	s := w.spool
	if s == nil {
		return nil
	}
	w.spool = nil
	if err := s.wait(); err != nil {
		s.fork.Rollback()
		return err
	}
	if err := x.tx.st.Join(s.fork); err != nil {
		return err
	}
	spoolsJoined.Add(1)
	return nil
}

// abandonSpool stops a spool the statement failed with: its rows are
// thrown away with the fork, before the transaction itself rolls back.
func (w *tableWriter) abandonSpool() {
	if s := w.spool; s != nil {
		w.spool = nil
		_ = s.wait()
		s.fork.Rollback()
	}
}
