package sql

import (
	"strings"

	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// The DDL statements (compileDDL): each runs its execCtx method, which
// plans against the transaction's catalog as it runs, as PostgreSQL's
// utility statements do.

// createSchemaStatement is CREATE SCHEMA.
type createSchemaStatement struct{ st *ast.CreateSchema }

func (s createSchemaStatement) String() string { return "CREATE SCHEMA " + parse.QuoteIdent(s.st.Name) }

func (s createSchemaStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "CREATE SCHEMA", x.createSchema(s.st)
}

// createTableStatement is CREATE TABLE, and CREATE TABLE AS.
type createTableStatement struct{ st *ast.CreateTable }

func (s createTableStatement) String() string {
	out := "CREATE "
	if s.st.Temporary {
		out += "TEMPORARY "
	}
	out += "TABLE " + qualifiedName(s.st.Name)
	if s.st.AsQuery != nil {
		out += " AS query"
	}
	return out
}

func (s createTableStatement) exec(x *execCtx, out *resultSink) (string, error) {
	return x.createTable(s.st, out)
}

// createStreamingTableStatement is CREATE [OR REFRESH] STREAMING TABLE
// (flows.go).
type createStreamingTableStatement struct{ st *ast.CreateTable }

func (s createStreamingTableStatement) String() string {
	if s.st.OrRefresh {
		return "CREATE OR REFRESH STREAMING TABLE " + qualifiedName(s.st.Name)
	}
	return "CREATE STREAMING TABLE " + qualifiedName(s.st.Name)
}

func (s createStreamingTableStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return x.createStreamingTable(s.st)
}

// dropStatement is DROP of tables, views, indexes, schemas, sequences and
// flows (ddl_alter.go); sources and connections have their own.
type dropStatement struct{ st *ast.Drop }

func (s dropStatement) String() string { return dropText(s.st) }

func (s dropStatement) exec(x *execCtx, out *resultSink) (string, error) { return x.drop(s.st, out) }

// dropText describes any DROP.
func dropText(st *ast.Drop) string {
	out := "DROP " + string(st.Kind) + " "
	if st.IfExists {
		out += "IF EXISTS "
	}
	out += qualifiedNames(st.Names)
	if st.Cascade {
		out += " CASCADE"
	}
	return out
}

// createIndexStatement is CREATE INDEX.
type createIndexStatement struct{ st *ast.CreateIndex }

func (s createIndexStatement) String() string {
	out := "CREATE "
	if s.st.Unique {
		out += "UNIQUE "
	}
	out += "INDEX "
	if s.st.Name != "" {
		out += parse.QuoteIdent(s.st.Name) + " "
	}
	return out + "ON " + qualifiedName(s.st.Table)
}

func (s createIndexStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "CREATE INDEX", x.createIndex(s.st)
}

// createViewStatement is CREATE [OR REPLACE] VIEW.
type createViewStatement struct{ st *ast.CreateView }

func (s createViewStatement) String() string {
	if s.st.OrReplace {
		return "CREATE OR REPLACE VIEW " + qualifiedName(s.st.Name)
	}
	return "CREATE VIEW " + qualifiedName(s.st.Name)
}

func (s createViewStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "CREATE VIEW", x.createView(s.st)
}

// alterTableStatement is ALTER TABLE (ddl_alter.go).
type alterTableStatement struct{ st *ast.AlterTable }

func (s alterTableStatement) String() string { return "ALTER TABLE " + qualifiedName(s.st.Name) }

func (s alterTableStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "ALTER TABLE", x.alterTable(s.st)
}

// truncateStatement is TRUNCATE.
type truncateStatement struct{ st *ast.Truncate }

func (s truncateStatement) String() string {
	out := "TRUNCATE " + qualifiedNames(s.st.Tables)
	if s.st.RestartIdentity {
		out += " RESTART IDENTITY"
	}
	if s.st.Cascade {
		out += " CASCADE"
	}
	return out
}

func (s truncateStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "TRUNCATE TABLE", x.truncate(s.st)
}

// commentStatement is COMMENT ON.
type commentStatement struct{ st *ast.CommentOn }

func (s commentStatement) String() string {
	return "COMMENT ON " + string(s.st.Kind) + " " + qualifiedName(s.st.Name)
}

func (s commentStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "COMMENT", x.commentOn(s.st)
}

// createFlowStatement is CREATE FLOW (flows.go).
type createFlowStatement struct{ st *ast.CreateFlow }

func (s createFlowStatement) String() string {
	return "CREATE FLOW " + parse.QuoteIdent(s.st.Name) + " INTO " + qualifiedName(s.st.Target)
}

func (s createFlowStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "CREATE FLOW", x.createFlow(s.st)
}

// refreshStreamingTableStatement is REFRESH STREAMING TABLE [FULL].
type refreshStreamingTableStatement struct{ st *ast.RefreshStreamingTable }

func (s refreshStreamingTableStatement) String() string {
	out := "REFRESH STREAMING TABLE " + qualifiedName(s.st.Name)
	if s.st.Full {
		out += " FULL"
	}
	return out
}

func (s refreshStreamingTableStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "REFRESH STREAMING TABLE", x.refreshStreamingTable(s.st)
}

// createRoleStatement is CREATE ROLE and CREATE USER (roles.go).
type createRoleStatement struct{ st *ast.CreateRole }

func (s createRoleStatement) String() string {
	if s.st.User {
		return "CREATE USER " + parse.QuoteIdent(s.st.Name)
	}
	return "CREATE ROLE " + parse.QuoteIdent(s.st.Name)
}

func (s createRoleStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "CREATE ROLE", x.createRole(s.st)
}

// alterRoleStatement is ALTER ROLE.
type alterRoleStatement struct{ st *ast.AlterRole }

func (s alterRoleStatement) String() string { return "ALTER ROLE " + parse.QuoteIdent(s.st.Name) }

func (s alterRoleStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "ALTER ROLE", x.alterRole(s.st)
}

// dropRoleStatement is DROP ROLE.
type dropRoleStatement struct{ st *ast.DropRole }

func (s dropRoleStatement) String() string {
	if s.st.IfExists {
		return "DROP ROLE IF EXISTS " + identList(s.st.Names)
	}
	return "DROP ROLE " + identList(s.st.Names)
}

func (s dropRoleStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "DROP ROLE", x.dropRoles(s.st)
}

// grantStatement is GRANT and REVOKE of privileges on tables or schemas.
type grantStatement struct{ st *ast.GrantPrivileges }

func (s grantStatement) tag() string {
	if s.st.Revoke {
		return "REVOKE"
	}
	return "GRANT"
}

func (s grantStatement) String() string {
	on := "TABLE " + qualifiedNames(s.st.Tables)
	if s.st.Schemas != nil {
		on = "SCHEMA " + identList(s.st.Schemas)
	}
	to := " TO "
	if s.st.Revoke {
		to = " FROM "
	}
	return s.tag() + " " + strings.Join(s.st.Privileges, ", ") + " ON " + on + to + identList(s.st.Grantees)
}

func (s grantStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return s.tag(), x.grantPrivileges(s.st)
}

// roleUnchangedStatement is SET ROLE or SET SESSION AUTHORIZATION to the
// role the session already acts as, or back to it (compileRoleSwitch):
// it changes nothing.
type roleUnchangedStatement struct {
	st    *ast.Set
	value string
}

func (s roleUnchangedStatement) String() string {
	what := "SET ROLE "
	if s.st.Name == "session_authorization" {
		what = "SET SESSION AUTHORIZATION "
	}
	if s.st.Default {
		return what + "DEFAULT"
	}
	return what + s.value
}

func (roleUnchangedStatement) exec(*execCtx, *resultSink) (string, error) { return "SET", nil }

// createConnectionStatement is CREATE CONNECTION (sources.go).
type createConnectionStatement struct{ st *ast.CreateConnection }

func (s createConnectionStatement) String() string {
	return "CREATE CONNECTION " + parse.QuoteIdent(s.st.Name) + " TO " + strings.ToUpper(s.st.Kind)
}

func (s createConnectionStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "CREATE CONNECTION", x.createConnection(s.st)
}

// createSourceStatement is CREATE SOURCE, which talks to upstream and
// starts a follower: it commits on its own, outside any block.
type createSourceStatement struct{ st *ast.CreateSource }

func (s createSourceStatement) String() string {
	return "CREATE SOURCE " + parse.QuoteIdent(s.st.Name) + " FROM " + strings.ToUpper(s.st.Kind) + " CONNECTION " + parse.QuoteIdent(s.st.Connection)
}

func (s createSourceStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "CREATE SOURCE", x.createSource(s.st)
}

// dropSourceStatement is DROP SOURCE, which stops followers: it commits on
// its own, as CREATE SOURCE does.
type dropSourceStatement struct{ st *ast.Drop }

func (s dropSourceStatement) String() string { return dropText(s.st) }

func (s dropSourceStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "DROP SOURCE", x.dropSources(s.st)
}

// dropConnectionStatement is DROP CONNECTION.
type dropConnectionStatement struct{ st *ast.Drop }

func (s dropConnectionStatement) String() string { return dropText(s.st) }

func (s dropConnectionStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "DROP CONNECTION", x.dropConnections(s.st)
}

type alterDefaultPrivilegesStatement struct{ st *ast.AlterDefaultPrivileges }

func (s alterDefaultPrivilegesStatement) String() string {
	out := "ALTER DEFAULT PRIVILEGES"
	if len(s.st.ForRoles) > 0 {
		out += " FOR ROLE " + identList(s.st.ForRoles)
	}
	if len(s.st.InSchemas) > 0 {
		out += " IN SCHEMA " + identList(s.st.InSchemas)
	}
	return out + " " + grantStatement{s.st.Grant}.String()
}

func (s alterDefaultPrivilegesStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "ALTER DEFAULT PRIVILEGES", x.alterDefaultPrivileges(s.st) // defaultprivs.go
}

type grantRolesStatement struct{ st *ast.GrantRoles }

func (s grantRolesStatement) tag() string {
	if s.st.Revoke {
		return "REVOKE ROLE"
	}
	return "GRANT ROLE"
}

func (s grantRolesStatement) String() string {
	if s.st.Revoke {
		return "REVOKE " + identList(s.st.Roles) + " FROM " + identList(s.st.Grantees)
	}
	return "GRANT " + identList(s.st.Roles) + " TO " + identList(s.st.Grantees)
}

func (s grantRolesStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return s.tag(), x.grantRoles(s.st)
}
