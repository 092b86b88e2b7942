package wire

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// hijack connects with pgconn and takes over its socket, so the test can send
// protocol messages pgconn's API does not offer (Execute with a row limit).
func hijack(t *testing.T, ts *testServer) *rawClient {
	t.Helper()
	ctx := context.Background()
	pc, err := pgconn.Connect(ctx, ts.connString(""))
	if err != nil {
		t.Fatal(err)
	}
	hc, err := pc.Hijack()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hc.Conn.Close() })
	return &rawClient{t: t, conn: hc.Conn, fe: hc.Frontend}
}

// TestRowLimitedPortal drives a named portal through Execute with a row
// limit: PortalSuspended after each batch, resumption where it stopped,
// CommandComplete at the end; outside a transaction the portal is gone after
// Sync, inside one it survives Sync.
func TestRowLimitedPortal(t *testing.T) {
	ts := startServer(t, Config{})
	c := hijack(t, ts)

	c.send(
		&pgproto3.Parse{Name: "s5", Query: "select 5"},
		&pgproto3.Bind{PreparedStatement: "s5", DestinationPortal: "p", ResultFormatCodes: []int16{0}},
		&pgproto3.Describe{ObjectType: 'P', Name: "p"},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Sync{},
	)
	got := c.untilReady()
	want := []string{"ParseComplete", "BindComplete", "Fields n:23:0",
		"Row 1", "Row 2", "PortalSuspended",
		"Row 3", "Row 4", "PortalSuspended",
		"Row 5", "Complete SELECT 1", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("row-limited execute:\n got %q\nwant %q", got, want)
	}

	// Sync ended the implicit transaction, and the portal with it.
	c.send(&pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{})
	if got := c.untilReady(); !slices.Equal(got, []string{"Error ERROR 34000 portal \"p\" does not exist", "Ready I"}) {
		t.Fatalf("portal after Sync: %q", got)
	}

	// Inside a transaction block the portal lives across Syncs.
	c.send(
		&pgproto3.Query{String: "begin"},
	)
	c.untilReady()
	c.send(
		&pgproto3.Bind{PreparedStatement: "s5", DestinationPortal: "p", ResultFormatCodes: []int16{1}},
		&pgproto3.Execute{Portal: "p", MaxRows: 3},
		&pgproto3.Sync{},
	)
	got = c.untilReady()
	want = []string{"BindComplete", "Row \x00\x00\x00\x01", "Row \x00\x00\x00\x02", "Row \x00\x00\x00\x03", "PortalSuspended", "Ready T"}
	if !slices.Equal(got, want) {
		t.Fatalf("binary rows in a transaction:\n got %q\nwant %q", got, want)
	}
	c.send(&pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{})
	got = c.untilReady()
	want = []string{"Row \x00\x00\x00\x04", "Row \x00\x00\x00\x05", "Complete SELECT 2", "Ready T"}
	if !slices.Equal(got, want) {
		t.Fatalf("resumed after Sync:\n got %q\nwant %q", got, want)
	}
	c.send(&pgproto3.Query{String: "commit"})
	c.untilReady()
	c.send(&pgproto3.Describe{ObjectType: 'P', Name: "p"}, &pgproto3.Sync{})
	if got := c.untilReady(); got[0] != "Error ERROR 34000 portal \"p\" does not exist" {
		t.Fatalf("portal after commit: %q", got)
	}
}

// TestPipeline sends several queries and two Syncs in one go through pgconn's
// pipeline mode; an error in the first batch skips the rest of that batch
// only.
func TestPipeline(t *testing.T) {
	ts := startServer(t, Config{})
	ctx := context.Background()
	pc, err := pgconn.Connect(ctx, ts.connString(""))
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(ctx)

	p := pc.StartPipeline(ctx)
	p.SendPrepare("ps", "echo $1", nil)
	p.SendQueryParams("select 2", nil, nil, nil, nil)
	p.SendQueryPrepared("ps", [][]byte{[]byte("hi")}, nil, nil)
	p.SendPipelineSync()
	p.SendQueryParams("fail", nil, nil, nil, nil)
	p.SendQueryParams("select 1", nil, nil, nil, nil)
	p.SendPipelineSync()
	p.SendQueryPrepared("ps", [][]byte{[]byte("again")}, nil, nil)
	p.SendPipelineSync()
	if err := p.Sync(); err != nil {
		t.Fatal(err)
	}

	next := func() any {
		t.Helper()
		r, err := p.GetResults()
		if err != nil {
			t.Fatalf("GetResults: %v", err)
		}
		return r
	}
	rows := func(r any) []string {
		t.Helper()
		rr, ok := r.(*pgconn.ResultReader)
		if !ok {
			t.Fatalf("got %T, want a result reader", r)
		}
		res := rr.Read()
		if res.Err != nil {
			t.Fatalf("result: %v", res.Err)
		}
		var out []string
		for _, row := range res.Rows {
			out = append(out, string(row[0]))
		}
		return out
	}

	if sd, ok := next().(*pgconn.StatementDescription); !ok || !slices.Equal(sd.ParamOIDs, []uint32{25}) {
		t.Fatalf("prepare: %+v", sd)
	}
	if got := rows(next()); !slices.Equal(got, []string{"1", "2"}) {
		t.Fatalf("select 2: %v", got)
	}
	if got := rows(next()); !slices.Equal(got, []string{"hi"}) {
		t.Fatalf("echo: %v", got)
	}
	if r := next(); !isPipelineSync(r) {
		t.Fatalf("got %T, want PipelineSync", r)
	}
	if _, err := p.GetResults(); pgErrorOf(t, err).Code != "22012" {
		t.Fatalf("fail: %v", err)
	}
	// "select 1" was skipped: the next thing is the Sync.
	if r := next(); !isPipelineSync(r) {
		t.Fatalf("after error: %T, want PipelineSync (select 1 must be skipped)", r)
	}
	if got := rows(next()); !slices.Equal(got, []string{"again"}) {
		t.Fatalf("after recovery: %v", got)
	}
	if r := next(); !isPipelineSync(r) {
		t.Fatalf("got %T, want the final PipelineSync", r)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSkipUntilSync checks that after an extended-protocol error nothing up
// to Sync is processed or answered, and that the Sync reports the aborted
// batch to the SyncSession.
func TestSkipUntilSync(t *testing.T) {
	ts := startServer(t, Config{})
	c := startRaw(t, ts.addr)
	executed := ts.fake.executed.Load()
	aborted := ts.fake.abortedSyncs.Load()

	c.send(
		&pgproto3.Bind{PreparedStatement: "missing"},
		&pgproto3.Parse{Query: "insert"},
		&pgproto3.Bind{},
		&pgproto3.Execute{},
		&pgproto3.Query{String: "insert"},
		&pgproto3.CopyData{Data: []byte("x")},
		&pgproto3.Flush{},
		&pgproto3.Sync{},
	)
	got := c.untilReady()
	want := []string{"Error ERROR 26000 prepared statement \"missing\" does not exist", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if n := ts.fake.executed.Load(); n != executed {
		t.Fatalf("%d statements ran while skipping", n-executed)
	}
	if ts.fake.abortedSyncs.Load() != aborted+1 {
		t.Fatal("Sync did not tell the session the batch was aborted")
	}

	// And the connection works normally afterwards.
	c.send(&pgproto3.Parse{Query: "select 1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	if got := c.untilReady(); !slices.Equal(got, []string{"ParseComplete", "BindComplete", "Row 1", "Complete SELECT 1", "Ready I"}) {
		t.Fatalf("after Sync: %q", got)
	}
}

// TestExtendedProtocolRules covers PostgreSQL's rules for statement and
// portal names and Bind's counts, one error per batch.
func TestExtendedProtocolRules(t *testing.T) {
	ts := startServer(t, Config{})
	c := startRaw(t, ts.addr)
	c.send(&pgproto3.Parse{Name: "s", Query: "echo $1"}, &pgproto3.Sync{})
	c.untilReady()

	cases := []struct {
		name string
		msgs []pgproto3.FrontendMessage
		want []string
	}{
		{"duplicate statement", []pgproto3.FrontendMessage{&pgproto3.Parse{Name: "s", Query: "select 1"}},
			[]string{"Error ERROR 42P05 prepared statement \"s\" already exists"}},
		{"unnamed statement is replaced", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "select 1"}, &pgproto3.Parse{Query: "select 2"}},
			[]string{"ParseComplete", "ParseComplete"}},
		{"multiple commands", []pgproto3.FrontendMessage{&pgproto3.Parse{Name: "m", Query: "select 1; select 2"}},
			[]string{"Error ERROR 42601 cannot insert multiple commands into a prepared statement"}},
		{"parse error", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "parsefail"}},
			[]string{"Error ERROR 42601 syntax error at or near \"parsefail\""}},
		{"missing unnamed statement", []pgproto3.FrontendMessage{&pgproto3.Close{ObjectType: 'S'}, &pgproto3.Describe{ObjectType: 'S'}},
			[]string{"CloseComplete", "Error ERROR 26000 unnamed prepared statement does not exist"}},
		{"duplicate portal", []pgproto3.FrontendMessage{
			&pgproto3.Bind{PreparedStatement: "s", DestinationPortal: "p", Parameters: [][]byte{nil}},
			&pgproto3.Bind{PreparedStatement: "s", DestinationPortal: "p", Parameters: [][]byte{nil}}},
			[]string{"BindComplete", "Error ERROR 42P03 cursor \"p\" already exists"}},
		{"missing portal", []pgproto3.FrontendMessage{&pgproto3.Execute{Portal: "nope"}},
			[]string{"Error ERROR 34000 portal \"nope\" does not exist"}},
		{"parameter count", []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s"}},
			[]string{"Error ERROR 08P01 bind message supplies 0 parameters, but prepared statement \"s\" requires 1"}},
		{"format count", []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{nil}, ParameterFormatCodes: []int16{0, 0}}},
			[]string{"Error ERROR 08P01 bind message has 2 parameter formats but 1 parameters"}},
		{"format code", []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{nil}, ResultFormatCodes: []int16{7}}},
			[]string{"Error ERROR 22023 unsupported format code: 7"}},
		{"describe statement", []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'S', Name: "s"}},
			[]string{"Params [25]", "Fields p1:25:0"}},
		{"describe and execute a NULL parameter", []pgproto3.FrontendMessage{
			&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{nil}, ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}},
			[]string{"BindComplete", "Fields p1:25:1", "Row ", "Complete SELECT 1"}},
		{"empty query", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: ""}, &pgproto3.Bind{},
			&pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}},
			[]string{"ParseComplete", "BindComplete", "Params []", "NoData", "NoData", "EmptyQueryResponse"}},
		{"statement without rows", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "insert"}, &pgproto3.Bind{},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}},
			[]string{"ParseComplete", "BindComplete", "NoData", "Complete INSERT 0 1"}},
		{"close named", []pgproto3.FrontendMessage{
			&pgproto3.Bind{PreparedStatement: "s", DestinationPortal: "p", Parameters: [][]byte{nil}},
			&pgproto3.Close{ObjectType: 'P', Name: "p"}, &pgproto3.Execute{Portal: "p"}},
			[]string{"BindComplete", "CloseComplete", "Error ERROR 34000 portal \"p\" does not exist"}},
		{"close statement", []pgproto3.FrontendMessage{&pgproto3.Close{ObjectType: 'S', Name: "s"}, &pgproto3.Describe{ObjectType: 'S', Name: "s"}},
			[]string{"CloseComplete", "Error ERROR 26000 prepared statement \"s\" does not exist"}},
	}
	for _, tc := range cases {
		c.send(append(tc.msgs, &pgproto3.Sync{})...)
		got := c.untilReady()
		if !slices.Equal(got[:len(got)-1], tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestPortalOutlivesStatement checks PostgreSQL's rule that closing (or
// re-parsing) a statement leaves portals bound from it usable.
func TestPortalOutlivesStatement(t *testing.T) {
	ts := startServer(t, Config{})
	c := startRaw(t, ts.addr)
	c.send(&pgproto3.Query{String: "begin"})
	c.untilReady()
	c.send(
		&pgproto3.Parse{Query: "select 3"},
		&pgproto3.Bind{DestinationPortal: "cur"},
		&pgproto3.Parse{Query: "insert"},
		&pgproto3.Execute{Portal: "cur", MaxRows: 1},
		&pgproto3.Close{ObjectType: 'S'},
		&pgproto3.Execute{Portal: "cur"},
		&pgproto3.Sync{},
	)
	got := c.untilReady()
	want := []string{"ParseComplete", "BindComplete", "ParseComplete", "Row 1", "PortalSuspended", "CloseComplete", "Row 2", "Row 3", "Complete SELECT 2", "Ready T"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func isPipelineSync(r any) bool {
	_, ok := r.(*pgconn.PipelineSync)
	return ok
}
