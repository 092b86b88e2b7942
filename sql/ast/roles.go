package ast

// CreateRole is CREATE ROLE | USER | GROUP name [WITH] option ... (USER
// implies LOGIN, as in PostgreSQL).
type CreateRole struct {
	Name    string
	User    bool
	Options []RoleOption
	Pos     int
}

// AlterRole is ALTER ROLE | USER name [WITH] option ...
type AlterRole struct {
	Name    string
	Options []RoleOption
	Pos     int
}

// DropRole is DROP ROLE | USER | GROUP [IF EXISTS] name [, ...].
type DropRole struct {
	Names    []string
	IfExists bool
	Pos      int
}

// RoleOption is one option of CREATE or ALTER ROLE: its keyword in upper
// case (PASSWORD for [ENCRYPTED] PASSWORD, CONNECTION LIMIT and VALID
// UNTIL as two words), and for PASSWORD its string, Null for PASSWORD NULL.
type RoleOption struct {
	Name  string
	Value string
	Null  bool
	Pos   int
}

// GrantPrivileges is GRANT privilege [, ...] ON [TABLE] t [, ...] | ALL
// TABLES IN SCHEMA s [, ...] TO grantee [, ...], or the REVOKE ... FROM
// of the same.
type GrantPrivileges struct {
	Revoke bool
	// Privileges are the privilege keywords in upper case; ALL [PRIVILEGES]
	// is the one word ALL.
	Privileges []string
	Tables     []QualifiedName
	// Schemas is set for ALL TABLES IN SCHEMA (Tables is then empty).
	Schemas []string
	// OnSchemas is set for GRANT ... ON SCHEMA s [, ...] (Tables and
	// Schemas are then empty).
	OnSchemas []string
	// Grantees are role names; PUBLIC (unquoted) is "" .
	Grantees []string
	Pos      int
}

func (*CreateRole) node()      {}
func (*AlterRole) node()       {}
func (*DropRole) node()        {}
func (*GrantPrivileges) node() {}

func (*CreateRole) stmt()      {}
func (*AlterRole) stmt()       {}
func (*DropRole) stmt()        {}
func (*GrantPrivileges) stmt() {}

// GrantRoles is GRANT role [, ...] TO role [, ...] [WITH ADMIN OPTION], or
// REVOKE [ADMIN OPTION FOR] role [, ...] FROM role [, ...].
type GrantRoles struct {
	Revoke bool
	// Admin is WITH ADMIN OPTION (GRANT) or ADMIN OPTION FOR (REVOKE).
	Admin    bool
	Roles    []string
	Grantees []string
	Pos      int
}

func (*GrantRoles) node() {}
func (*GrantRoles) stmt() {}

// OwnerTo is ALTER TABLE ... OWNER TO role; Role is the role's name, or
// CURRENT_USER, SESSION_USER or CURRENT_ROLE (upper case, unquoted).
type OwnerTo struct {
	Role string
}

func (*OwnerTo) node()        {}
func (*OwnerTo) alterAction() {}

// AlterDefaultPrivileges is ALTER DEFAULT PRIVILEGES [FOR ROLE r [, ...]]
// [IN SCHEMA s [, ...]] GRANT | REVOKE privileges ON TABLES TO | FROM
// grantees; Grant holds the privileges, the grantees and Revoke.
type AlterDefaultPrivileges struct {
	ForRoles  []string
	InSchemas []string
	Grant     *GrantPrivileges
	Pos       int
}

func (*AlterDefaultPrivileges) node() {}
func (*AlterDefaultPrivileges) stmt() {}
