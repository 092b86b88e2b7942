package wire

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cdcdb/pgerror"
)

// fakeFactory makes fakeSessions: a tiny command language, enough to drive
// every protocol path without the SQL layer. Statements are separated by ';'
// and recognised by their first word:
//
//	select N              N rows of one int4 column n = 1..N (row-limit aware)
//	select "a", "b" from  no rows; int4 columns a, b (what pgx's CopyFrom describes)
//	echo $1 $2 | echo 'x' one text column per parameter (or per literal word)
//	fail / fatal          an error with every field set / a FATAL one
//	parsefail             a syntax error from Parse, with a position
//	sleep [dur]           waits for dur (default: until cancelled), honouring ctx,
//	                      and returns the bare ctx error when cancelled
//	insert                "INSERT 0 1", no rows
//	begin/commit/rollback transaction status T / I / I; errors in T make it E
//	copy ... from stdin   reads the client's data ("binary" for binary format)
//	copy out N            COPY TO STDOUT of N text lines
//	notice                a NOTICE and a ParameterStatus between two rows
//	panic                 panics inside Execute
type fakeFactory struct {
	maxSleep   time.Duration // caps "sleep" (the fuzz test must never hang)
	allowPanic bool

	live         atomic.Int64 // statements + portals not yet closed
	sessions     atomic.Int64 // sessions not yet closed
	executed     atomic.Int64 // portals executed
	cancelled    atomic.Int64 // Executes that saw their context cancelled
	syncs        atomic.Int64
	abortedSyncs atomic.Int64

	mu       sync.Mutex
	copyData []byte // what the last COPY FROM received
	infos    []StartupInfo
}

func newFakeFactory() *fakeFactory {
	return &fakeFactory{maxSleep: time.Minute, allowPanic: true}
}

func (f *fakeFactory) NewSession(ctx context.Context, info StartupInfo) (Session, error) {
	if info.Database == "nodb" {
		return nil, pgerror.New("3D000", "database \"nodb\" does not exist")
	}
	f.mu.Lock()
	f.infos = append(f.infos, info)
	f.mu.Unlock()
	f.sessions.Add(1)
	return &fakeSession{f: f, info: info, tx: 'I'}, nil
}

func (f *fakeFactory) lastCopy() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.copyData
}

type fakeSession struct {
	f      *fakeFactory
	info   StartupInfo
	tx     byte
	closed bool
	// changed are parameters changed since ReadyForQuery last reported.
	changed []Parameter
}

var (
	_ SyncSession       = (*fakeSession)(nil)
	_ ParameterReporter = (*fakeSession)(nil)
)

func (s *fakeSession) ParameterChanges() []Parameter {
	out := s.changed
	s.changed = nil
	return out
}

func (s *fakeSession) ParameterStatus() map[string]string {
	return map[string]string{
		"server_version":              "15.0 (cdcdb fake)",
		"server_encoding":             "UTF8",
		"client_encoding":             "UTF8",
		"DateStyle":                   "ISO, MDY",
		"TimeZone":                    "UTC",
		"integer_datetimes":           "on",
		"standard_conforming_strings": "on",
		"application_name":            s.info.ApplicationName,
	}
}

func (s *fakeSession) TxStatus() byte { return s.tx }

func (s *fakeSession) Close() {
	if s.closed {
		panic("session closed twice")
	}
	s.closed = true
	s.f.sessions.Add(-1)
}

func (s *fakeSession) Sync(ctx context.Context, aborted bool) error {
	s.f.syncs.Add(1)
	if aborted {
		s.f.abortedSyncs.Add(1)
	}
	return nil
}

func (s *fakeSession) Parse(ctx context.Context, query string, paramTypes []uint32) ([]PreparedStatement, error) {
	var out []PreparedStatement
	for _, text := range strings.Split(query, ";") {
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if text == "parsefail" {
			for _, ps := range out {
				ps.Close()
			}
			return nil, &pgerror.Error{Code: pgerror.SyntaxError, Message: "syntax error at or near \"parsefail\"", Position: strings.Index(query, "parsefail") + 1}
		}
		st := &fakeStmt{s: s, text: text}
		words := strings.Fields(text)
		st.verb = strings.ToLower(words[0])
		switch st.verb {
		case "select":
			if len(words) == 2 {
				n, err := strconv.Atoi(words[1])
				if err == nil {
					st.rows = n
					st.fields = []FieldDescription{int4Field("n")}
					break
				}
			}
			// select "a", "b" from "t": describe int4 columns, return none.
			cols, _, _ := strings.Cut(strings.TrimPrefix(text, words[0]), " from ")
			for _, c := range strings.Split(cols, ",") {
				st.fields = append(st.fields, int4Field(strings.Trim(strings.TrimSpace(c), `"`)))
			}
		case "echo":
			n := strings.Count(text, "$")
			for i := 0; i < n; i++ {
				oid := uint32(25)
				if i < len(paramTypes) && paramTypes[i] != 0 {
					oid = paramTypes[i]
				}
				st.params = append(st.params, oid)
			}
			if n == 0 {
				for _, w := range words[1:] {
					st.literals = append(st.literals, strings.Trim(w, "'"))
				}
			}
			for i := 0; i < max(n, len(st.literals)); i++ {
				st.fields = append(st.fields, FieldDescription{Name: fmt.Sprintf("p%d", i+1), TypeOID: 25, TypeSize: -1, TypeModifier: -1})
			}
		case "notice":
			st.fields = []FieldDescription{{Name: "v", TypeOID: 25, TypeSize: -1, TypeModifier: -1}}
		}
		s.f.live.Add(1)
		out = append(out, st)
	}
	return out, nil
}

func int4Field(name string) FieldDescription {
	return FieldDescription{Name: name, TypeOID: 23, TypeSize: 4, TypeModifier: -1}
}

type fakeStmt struct {
	s        *fakeSession
	text     string
	verb     string
	rows     int
	params   []uint32
	literals []string
	fields   []FieldDescription
	closed   bool
}

func (st *fakeStmt) ParamTypes() []uint32       { return st.params }
func (st *fakeStmt) Fields() []FieldDescription { return st.fields }
func (st *fakeStmt) Close() {
	if st.closed {
		panic("statement closed twice")
	}
	st.closed = true
	st.s.f.live.Add(-1)
}

func (st *fakeStmt) Bind(ctx context.Context, params [][]byte, paramFormats, resultFormats []int16) (Portal, error) {
	if st.closed {
		panic("Bind on a closed statement")
	}
	p := &fakePortal{st: st, resultFormats: resultFormats}
	p.values = append(p.values, params...)
	for _, l := range st.literals {
		p.values = append(p.values, []byte(l))
	}
	st.s.f.live.Add(1)
	return p, nil
}

type fakePortal struct {
	st            *fakeStmt
	resultFormats []int16
	values        [][]byte
	next          int // rows already sent, for row-limited Execute
	closed        bool
}

func (p *fakePortal) Fields() []FieldDescription { return p.st.fields }
func (p *fakePortal) Close() {
	if p.closed {
		panic("portal closed twice")
	}
	p.closed = true
	p.st.s.f.live.Add(-1)
}

func (p *fakePortal) binary(col int) bool { return resultFormat(p.resultFormats, col) == 1 }

func (p *fakePortal) Execute(ctx context.Context, maxRows int, out ResultWriter) (tag string, suspended bool, err error) {
	s := p.st.s
	s.f.executed.Add(1)
	if s.tx == 'E' && p.st.verb != "commit" && p.st.verb != "rollback" {
		return "", false, pgerror.New(pgerror.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	tag, suspended, err = p.run(ctx, maxRows, out)
	if err != nil && s.tx == 'T' {
		s.tx = 'E'
	}
	return tag, suspended, err
}

func (p *fakePortal) run(ctx context.Context, maxRows int, out ResultWriter) (string, bool, error) {
	s := p.st.s
	words := strings.Fields(p.st.text)
	switch p.st.verb {
	case "select":
		sent := 0
		for p.next < p.st.rows {
			if maxRows > 0 && sent == maxRows {
				return "", true, nil
			}
			p.next++
			sent++
			var v []byte
			if p.binary(0) {
				v = binary.BigEndian.AppendUint32(nil, uint32(p.next))
			} else {
				v = []byte(strconv.Itoa(p.next))
			}
			if err := out.WriteRow([][]byte{v}); err != nil {
				return "", false, err
			}
		}
		return fmt.Sprintf("SELECT %d", sent), false, nil
	case "echo":
		if err := out.WriteRow(p.values); err != nil {
			return "", false, err
		}
		return "SELECT 1", false, nil
	case "fail":
		return "", false, &pgerror.Error{Code: pgerror.DivisionByZero, Message: "division by zero", Detail: "the detail", Hint: "the hint",
			Position: 3, Schema: "public", Table: "t", Column: "c", Constraint: "k"}
	case "fatal":
		return "", false, &pgerror.Error{Severity: pgerror.SeverityFatal, Code: pgerror.AdminShutdown, Message: "fatal from session"}
	case "sleep":
		d := s.f.maxSleep
		if len(words) > 1 {
			if v, err := time.ParseDuration(words[1]); err == nil {
				d = min(v, d)
			}
		}
		select {
		case <-ctx.Done():
			s.f.cancelled.Add(1)
			return "", false, ctx.Err()
		case <-time.After(d):
			return "SLEEP", false, nil
		}
	case "insert":
		return "INSERT 0 1", false, nil
	case "begin":
		s.tx = 'T'
		return "BEGIN", false, nil
	case "commit", "rollback":
		s.tx = 'I'
		return strings.ToUpper(p.st.verb), false, nil
	case "copy":
		if len(words) == 3 && words[1] == "out" {
			return copyOut(words[2], out)
		}
		return p.copyIn(strings.Contains(p.st.text, "binary"), out)
	case "notice":
		out.Notice(&NoticeInfo{Severity: "NOTICE", Code: "00000", Message: "hello from notice", Detail: "nd", Hint: "nh"})
		if err := out.WriteRow([][]byte{[]byte("1")}); err != nil {
			return "", false, err
		}
		s.changed = append(s.changed, Parameter{Name: "application_name", Value: "changed"})
		if err := out.WriteRow([][]byte{[]byte("2")}); err != nil {
			return "", false, err
		}
		return "SELECT 2", false, nil
	case "panic":
		if s.f.allowPanic {
			panic("boom from the fake session")
		}
		return "PANIC", false, nil
	}
	return strings.ToUpper(p.st.verb), false, nil
}

func copyOut(count string, out ResultWriter) (string, bool, error) {
	n, _ := strconv.Atoi(count)
	w, err := out.CopyOut(false, 1)
	if err != nil {
		return "", false, err
	}
	for i := 1; i <= n; i++ {
		if _, err := fmt.Fprintf(w, "%d\n", i); err != nil {
			return "", false, err
		}
	}
	return fmt.Sprintf("COPY %d", n), false, nil
}

func (p *fakePortal) copyIn(binaryFormat bool, out ResultWriter) (string, bool, error) {
	r, err := out.CopyIn(binaryFormat, 1)
	if err != nil {
		return "", false, err
	}
	var data []byte
	for {
		chunk, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", false, err
		}
		data = append(data, chunk...)
	}
	f := p.st.s.f
	f.mu.Lock()
	f.copyData = data
	f.mu.Unlock()
	rows := strings.Count(string(data), "\n")
	if binaryFormat {
		rows, err = countBinaryCopyRows(data)
		if err != nil {
			return "", false, err
		}
	}
	return fmt.Sprintf("COPY %d", rows), false, nil
}

// countBinaryCopyRows walks PostgreSQL's binary COPY format: signature,
// flags, header extension, then tuples of length-prefixed fields, then -1
// (or just the end of the data).
func countBinaryCopyRows(b []byte) (int, error) {
	bad := pgerror.New(pgerror.BadCopyFileFormat, "invalid COPY file header")
	const sig = "PGCOPY\n\xff\r\n\x00"
	if len(b) < len(sig)+8 || string(b[:len(sig)]) != sig {
		return 0, bad
	}
	b = b[len(sig)+4:]
	ext := int(binary.BigEndian.Uint32(b))
	b = b[4:]
	if len(b) < ext {
		return 0, bad
	}
	b = b[ext:]
	rows := 0
	for {
		if len(b) == 0 {
			return rows, nil // the trailer is optional; pgx leaves it out
		}
		if len(b) < 2 {
			return 0, bad
		}
		n := int16(binary.BigEndian.Uint16(b))
		b = b[2:]
		if n == -1 {
			return rows, nil
		}
		for i := 0; i < int(n); i++ {
			if len(b) < 4 {
				return 0, bad
			}
			l := int32(binary.BigEndian.Uint32(b))
			b = b[4:]
			if l > 0 {
				if len(b) < int(l) {
					return 0, bad
				}
				b = b[l:]
			}
		}
		rows++
	}
}
