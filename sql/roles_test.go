package sql_test

import (
	"testing"

	"cdcdb/sql/sqltest"
)

// TestDropRoleDetail: DROP ROLE of a role something depends on lists what
// in its DETAIL, owned objects first: an owner's own item in an ACL is
// part of owning, not a privilege, as in PostgreSQL 15 (which also
// qualifies the table's name: "owner of table s.t").
func TestDropRoleDetail(t *testing.T) {
	c := sqltest.Open(t).Conn()
	for _, stmt := range []string{
		"CREATE ROLE o", "CREATE ROLE b",
		"CREATE SCHEMA s",
		"GRANT USAGE, CREATE ON SCHEMA s TO o",
		"CREATE TABLE s.t (a int)", "ALTER TABLE s.t OWNER TO o",
		"GRANT SELECT ON s.t TO b", "GRANT USAGE ON SCHEMA s TO b",
	} {
		c.MustExec(stmt)
	}
	for _, tc := range []struct{ role, detail string }{
		{"o", "owner of table t\nprivileges for schema s"},
		{"b", "privileges for table t\nprivileges for schema s"},
	} {
		err := c.ExpectError("2BP01", "DROP ROLE "+tc.role)
		if err.Detail != tc.detail {
			t.Errorf("DROP ROLE %s: detail %q, want %q", tc.role, err.Detail, tc.detail)
		}
	}
}
