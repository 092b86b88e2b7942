// Package acl is the logic of roles and privileges over the catalog, as
// PostgreSQL 15 has it: who holds a privilege on a table or a schema
// (through ownership, superuser, grants to the role or to PUBLIC, and the
// roles whose privileges it inherits), role membership and its closure,
// the admin option, the arithmetic of ACLs (GRANT and REVOKE into an
// ACL, the owner's implicit ACL, aclnewowner, default privileges), their
// aclitem text, and what depends on a role (DROP ROLE's detail).
//
// # What it owns
//
// Answers, not actions: every function takes a catalog snapshot (or the
// catalog objects themselves) and returns a yes or no, a set of roles, or
// a new ACL. Package sql runs the statements (CREATE ROLE, GRANT, REVOKE,
// ALTER DEFAULT PRIVILEGES, SET ROLE, ALTER TABLE ... OWNER TO), writes
// what they change through a catalog editor, and turns a "no" from here
// into PostgreSQL's 42501 error with the message the situation needs.
//
// # What it must not do
//
// It does no I/O, reads no clock and no session: TestImportRules holds it
// to package catalog of the module. It never changes the objects it is
// given (a new ACL is a new slice), and makes no errors: what to refuse,
// with which SQLSTATE and message, is the caller's. What only a session
// knows (its temporary schema is its own, which role it logged in as) is
// the caller's to add or to pass in.
//
// # How data passes
//
// In: a *catalog.Snapshot (read for roles and their memberships; a role
// with no memberships needs none, so a nil snapshot will do for it),
// *catalog.Role, *catalog.Table, *catalog.Schema, []catalog.ACLItem.
// Out: booleans, RoleSet, new []catalog.ACLItem that the caller stores
// with catalog.Editor, and aclitem text (Text) that package sql makes an
// aclitem[] value of.
//
// # File map
//
//	members.go     RoleSet, membership closure (PrivilegeHolders, Memberships), admin option, loops,
//	               GRANT and REVOKE of membership
//	check.go       who holds a privilege: HasTablePrivilege, HasSchemaPrivilege; owners of tables and flows
//	arith.go       ACL arithmetic: GRANT/REVOKE into an ACL, owner defaults, aclnewowner, default privileges
//	text.go        aclitem text, information_schema's privilege names
//	dependents.go  what keeps a role from being dropped (DROP ROLE's detail)
package acl
