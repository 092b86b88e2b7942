package sql

import (
	"net"
	"sort"
	"strconv"
	"sync"
	"time"

	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/types"
	"cdcdb/wire"
)

// pg_stat_activity: one row per session of the engine, as
// pg_stat_get_activity() reports them, with what each is doing. A session
// records its own activity at the points it passes (start, each statement's
// start and end, close) under its activity's lock, so another session reads
// a consistent row without touching the session itself.

// sessionActivity is what pg_stat_activity shows of one session.
type sessionActivity struct {
	mu           sync.Mutex
	pid          int32
	user         string
	app          string
	clientAddr   string // "" when unknown
	clientPort   int64
	backendStart time.Time
	state        string // active, idle, idle in transaction, idle in transaction (aborted)
	query        string
	queryStart   time.Time
	stateChange  time.Time
	xactStart    time.Time // zero outside a transaction
	// waitEventType and waitEvent say what the session waits for, "" when
	// it does not wait (backends.go).
	waitEventType, waitEvent string
	// backend signals the session's connection; nil for a session without
	// one.
	backend wire.Backend
}

// activities holds each engine's sessions; an engine leaves it with its
// last session, so closed engines are not kept alive.
var activities struct {
	sync.Mutex
	byEngine map[*Engine]map[*Session]*sessionActivity
}

// registerActivity adds a new session, idle, to pg_stat_activity.
func registerActivity(s *Session, info wire.StartupInfo) {
	now := time.Now()
	a := &sessionActivity{pid: s.id, user: s.user, app: info.ApplicationName, backendStart: now, state: "idle", stateChange: now, backend: info.Backend}
	if host, port, err := net.SplitHostPort(info.RemoteAddr); err == nil {
		a.clientAddr = host
		a.clientPort, _ = strconv.ParseInt(port, 10, 64)
	}
	activities.Lock()
	defer activities.Unlock()
	if activities.byEngine == nil {
		activities.byEngine = map[*Engine]map[*Session]*sessionActivity{}
	}
	m := activities.byEngine[s.engine]
	if m == nil {
		m = map[*Session]*sessionActivity{}
		activities.byEngine[s.engine] = m
	}
	m[s] = a
	s.act = a
}

// unregisterActivity removes a closed session.
func unregisterActivity(s *Session) {
	activities.Lock()
	defer activities.Unlock()
	m := activities.byEngine[s.engine]
	delete(m, s)
	s.act = nil
	if len(m) == 0 {
		delete(activities.byEngine, s.engine)
	}
}

// beginStatement marks the session active with a statement; endStatement
// marks it idle again (in or out of a transaction) when the statement is
// done. Both run on the session's own goroutine, and lock only the session's
// own row: they run for every statement of every session.
func (s *Session) beginStatement(query string) {
	a := s.act
	if a == nil {
		return
	}
	now := time.Now()
	a.mu.Lock()
	a.state, a.query, a.queryStart, a.stateChange = "active", query, now, now
	a.app = s.settings["application_name"]
	if s.block != nil && a.xactStart.IsZero() {
		a.xactStart = s.block.start
	}
	a.mu.Unlock()
}

func (s *Session) endStatement() {
	a := s.act
	if a == nil {
		return
	}
	state := "idle"
	switch s.TxStatus() {
	case 'T':
		state = "idle in transaction"
	case 'E':
		state = "idle in transaction (aborted)"
	}
	a.mu.Lock()
	a.state, a.stateChange = state, time.Now()
	if s.block != nil && !s.block.implicit {
		a.xactStart = s.block.start
	} else if state == "idle" {
		a.xactStart = time.Time{}
	}
	a.mu.Unlock()
}

func init() {
	// pg_stat_get_activity(pid): every session, or the one with that pid.
	// Its columns are PostgreSQL's (from pg_proc); the ones about
	// replication, SSL and GSSAPI, which the SQL layer does not see, are
	// NULL.
	builtins.RegisterSet("pg_stat_get_activity", &builtins.SetFunc{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 1 {
			return nil, nil, builtins.ErrNoFunction
		}
		pid, err := b.Coerce(args[0], eval.Int4T())
		if err != nil {
			return nil, nil, builtins.ErrNoFunction
		}
		return []eval.Expr{pid}, catalogviews.ProcOutColumns("pg_stat_get_activity"), nil
	}, Gen: func(ec eval.Context, a []types.Value) ([]eval.Row, error) {
		x := stmtOf(ec)
		cols := catalogviews.ProcOutColumns("pg_stat_get_activity")
		b := catalogviews.NewRowBuilder("pg_stat_get_activity", catalogViewColumns(outCols(cols)))
		activities.Lock()
		list := make([]*sessionActivity, 0, len(activities.byEngine[x.sess.engine]))
		for _, sa := range activities.byEngine[x.sess.engine] {
			list = append(list, sa)
		}
		activities.Unlock()
		sort.Slice(list, func(i, j int) bool { return list[i].pid < list[j].pid })
		cat := x.catalogOf()
		viewerIsSuperuser := x.sess.isSuperuser(cat)
		var rows []eval.Row
		for _, sa := range list {
			if a[0] != nil && int64(sa.pid) != a[0].(int64) {
				continue
			}
			sa.mu.Lock()
			var usesysid types.Value
			if r, ok := cat.Role(sa.user); ok {
				usesysid = int64(r.OID)
			}
			if !viewerIsSuperuser && sa.user != x.sess.user {
				// Another role's session: who and which, but not what it
				// does, as PostgreSQL shows it to a role without
				// pg_read_all_stats.
				rows = append(rows, b.Make("datid", catalogviews.DatabaseOID, "pid", sa.pid, "usesysid", usesysid,
					"application_name", sa.app, "query", "<insufficient privilege>"))
				sa.mu.Unlock()
				continue
			}
			kv := []any{"datid", catalogviews.DatabaseOID, "pid", sa.pid, "usesysid", usesysid, "application_name", sa.app,
				"state", sa.state, "query", sa.query, "backend_start", sa.backendStart.UTC().Truncate(time.Microsecond),
				"state_change", sa.stateChange.UTC().Truncate(time.Microsecond), "backend_type", "client backend"}
			if sa.waitEventType != "" {
				kv = append(kv, "wait_event_type", sa.waitEventType, "wait_event", sa.waitEvent)
			}
			if !sa.queryStart.IsZero() {
				kv = append(kv, "query_start", sa.queryStart.UTC().Truncate(time.Microsecond))
			}
			if !sa.xactStart.IsZero() {
				kv = append(kv, "xact_start", sa.xactStart.UTC().Truncate(time.Microsecond))
			}
			if sa.clientAddr != "" {
				if v, err := types.ParseText(types.Of(types.Inet), sa.clientAddr); err == nil {
					kv = append(kv, "client_addr", v, "client_port", sa.clientPort)
				}
			}
			sa.mu.Unlock()
			rows = append(rows, b.Make(kv...))
		}
		return rows, nil
	}})
}
