package pgtests

import (
	"testing"

	"cdcdb/pgtests/pgserver"
)

// TestFlowFollowsItsOwnersRevoke: a flow writes its target with its
// owner's rights, so a REVOKE of the owner's SELECT on the source (or a
// change of the target's owner) stops the flow at the next write to the
// source, with 42501, instead of letting the target show the owner rows
// it may no longer read. A GRANT back lets writes through again.
func TestFlowFollowsItsOwnersRevoke(t *testing.T) {
	srv := startServer(t, pgserver.WithPassword("admin-pw"))
	admin := connect(t, srv.URL())
	for _, sql := range []string{
		"CREATE ROLE analyst LOGIN PASSWORD 'an-pw'",
		"CREATE TABLE events (id int, v text, seq int)",
		"GRANT SELECT ON events TO analyst",
		"GRANT CREATE ON SCHEMA public TO analyst",
	} {
		mustExec(t, admin, sql)
	}
	analyst := connectAs(t, srv.URL(), "analyst", "an-pw")
	for _, sql := range []string{
		"CREATE STREAMING TABLE mine",
		"CREATE FLOW mine_flow AS AUTO CDC INTO mine FROM events KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 1",
	} {
		mustExec(t, analyst, sql)
	}
	mustExec(t, admin, "INSERT INTO events VALUES (1, 'a', 1)")
	if got := queryInt64s(t, analyst, "SELECT count(*) FROM mine"); got[0] != 1 {
		t.Fatalf("the analyst's flow wrote %d rows, want 1", got[0])
	}

	mustExec(t, admin, "REVOKE SELECT ON events FROM analyst")
	if got, want := outcome(admin, "INSERT INTO events VALUES (2, 'b', 1)"), "42501 permission denied for table events"; got != want {
		t.Errorf("a write feeding a flow whose owner lost SELECT:\n got  %s\n want %s", got, want)
	}
	if got := queryInt64s(t, admin, "SELECT count(*) FROM events"); got[0] != 1 {
		t.Errorf("the refused write left %d source rows, want 1", got[0])
	}
	if got := queryInt64s(t, analyst, "SELECT count(*) FROM mine"); got[0] != 1 {
		t.Errorf("after the REVOKE the target has %d rows, want 1", got[0])
	}

	mustExec(t, admin, "GRANT SELECT ON events TO analyst")
	mustExec(t, admin, "INSERT INTO events VALUES (2, 'b', 1)")
	if got := queryInt64s(t, analyst, "SELECT count(*) FROM mine"); got[0] != 2 {
		t.Errorf("after the GRANT back the target has %d rows, want 2", got[0])
	}

	// The target handed to another owner: the flow's owner no longer owns
	// what it writes.
	mustExec(t, admin, "ALTER TABLE mine OWNER TO cdcdb")
	if got, want := outcome(admin, "INSERT INTO events VALUES (3, 'c', 1)"), "42501 permission denied for table mine"; got != want {
		t.Errorf("a write feeding a flow whose owner lost its target:\n got  %s\n want %s", got, want)
	}
}
