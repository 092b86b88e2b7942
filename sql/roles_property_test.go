package sql_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestPrivilegesAgainstAModel runs random GRANT and REVOKE statements (to
// roles and PUBLIC, on named tables and ALL TABLES IN SCHEMA) and checks
// after each that has_table_privilege answers what a plain model of the
// grants says: a role holds a privilege granted to it or to PUBLIC.
func TestPrivilegesAgainstAModel(t *testing.T) {
	seed := propertySeed(t)
	t.Logf("seed %d (rerun with -flowseed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 45))

	db := sqltest.Open(t)
	c := db.Conn()
	roles := []string{"r1", "r2", "r3"}
	tables := []string{"ta", "tb"}
	privileges := []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE"}
	for _, r := range roles {
		c.MustExec("CREATE ROLE " + r)
	}
	for _, tb := range tables {
		c.MustExec("CREATE TABLE " + tb + " (a int)")
	}
	// model[grantee][table][privilege]; grantee "" is PUBLIC.
	model := map[string]map[string]map[string]bool{}
	set := func(grantee, table, privilege string, on bool) {
		if model[grantee] == nil {
			model[grantee] = map[string]map[string]bool{}
		}
		if model[grantee][table] == nil {
			model[grantee][table] = map[string]bool{}
		}
		model[grantee][table][privilege] = on
	}
	for step := 0; step < 120; step++ {
		grant := rng.IntN(2) == 0
		var privs []string
		if rng.IntN(5) == 0 {
			privs = privileges
		} else {
			for _, p := range privileges {
				if rng.IntN(3) == 0 {
					privs = append(privs, p)
				}
			}
			if len(privs) == 0 {
				privs = []string{privileges[rng.IntN(len(privileges))]}
			}
		}
		var on []string
		target := ""
		if rng.IntN(4) == 0 {
			on, target = tables, "ALL TABLES IN SCHEMA public"
		} else {
			on = []string{tables[rng.IntN(len(tables))]}
			target = on[0]
		}
		grantee, name := "", "PUBLIC"
		if rng.IntN(4) != 0 {
			grantee = roles[rng.IntN(len(roles))]
			name = grantee
		}
		privText := strings.Join(privs, ", ")
		if len(privs) == len(privileges) && rng.IntN(2) == 0 {
			privText = "ALL"
		}
		verb, prep := "GRANT", "TO"
		if !grant {
			verb, prep = "REVOKE", "FROM"
		}
		stmt := fmt.Sprintf("%s %s ON %s %s %s", verb, privText, target, prep, name)
		c.MustExec(stmt)
		for _, tb := range on {
			for _, p := range privs {
				set(grantee, tb, p, grant)
			}
		}
		for _, r := range roles {
			for _, tb := range tables {
				for _, p := range privileges {
					want := model[r][tb][p] || model[""][tb][p]
					got := c.MustExec(fmt.Sprintf("SELECT has_table_privilege('%s', '%s', '%s')", r, tb, p)).Rows[0][0]
					if got != map[bool]string{true: "t", false: "f"}[want] {
						t.Fatalf("seed %d step %d after %q: has_table_privilege(%s, %s, %s) = %s, want %v", seed, step, stmt, r, tb, p, got, want)
					}
				}
			}
		}
	}
}
