package pgtests

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// roleStep is one statement of a script played as a role, with what it
// must give: "ok", "value V" (a query whose one value prints V), an
// SQLSTATE and its message, or an SQLSTATE alone (for messages that name
// something that differs between servers, such as the database).
type roleStep struct{ as, sql, want string }

// playRoleScript plays steps on cdcdb and on PostgreSQL 15, each role
// logging in with password "pw" (admin is the server's own superuser).
// On PostgreSQL, whose instance the tests share, it drops the schemas and
// the roles (with what they own) the script made.
func playRoleScript(t *testing.T, admin string, steps []roleStep, schemas, roles []string) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			adminConn := connect(t, tg.URL)
			if tg.Name != "cdcdb" {
				t.Cleanup(func() {
					ctx := context.Background()
					for _, sc := range schemas {
						adminConn.Exec(ctx, "DROP SCHEMA IF EXISTS "+sc+" CASCADE")
					}
					for _, role := range roles {
						adminConn.Exec(ctx, "DROP OWNED BY "+role)
						adminConn.Exec(ctx, "DROP ROLE IF EXISTS "+role)
					}
				})
			}
			conns := map[string]*pgx.Conn{admin: adminConn}
			for _, st := range steps {
				conn := conns[st.as]
				if conn == nil {
					conn = connectAs(t, tg.URL, st.as, "pw")
					conns[st.as] = conn
				}
				got := outcome(conn, st.sql)
				switch {
				case strings.HasPrefix(st.want, "value ") && got == "ok":
					got = "value " + queryString(t, conn, st.sql)
				case len(st.want) == 5 && len(got) > 5:
					got = got[:5]
				}
				if got != st.want {
					t.Errorf("as %s: %s\n got  %s\n want %s", st.as, st.sql, got, st.want)
				}
			}
		})
	}
}
