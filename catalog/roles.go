package catalog

import (
	"sort"
	"strings"
)

// Role is a user or group, as PostgreSQL's pg_authid row. Password is a
// SCRAM-SHA-256 verifier in PostgreSQL's text form
// (SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey), "" for none: the
// password itself is never stored.
type Role struct {
	OID       OID    `json:"oid"`
	Name      string `json:"name"`
	Superuser bool   `json:"superuser,omitempty"`
	Login     bool   `json:"login,omitempty"`
	// NoInherit is PostgreSQL's NOINHERIT (roles inherit by default).
	NoInherit bool   `json:"no_inherit,omitempty"`
	Password  string `json:"password,omitempty"`
	// OtherVerifiers are verifiers of the same password as other clients
	// normalize it (a non-ASCII password only), with Password's salt.
	OtherVerifiers []string `json:"other_verifiers,omitempty"`
	// Bootstrap marks the superuser the first start made; it cannot be
	// dropped or lose SUPERUSER, as PostgreSQL's bootstrap superuser.
	Bootstrap bool `json:"bootstrap,omitempty"`
	// CreateRole is PostgreSQL's CREATEROLE: the role may create, alter
	// and drop roles that are not superusers, and grant membership in them.
	CreateRole bool `json:"create_role,omitempty"`
	// MemberOf are the roles this role was granted (GRANT role TO this
	// one), PostgreSQL's pg_auth_members rows whose member it is.
	MemberOf []Membership `json:"member_of,omitempty"`
	// DefaultACLs are ALTER DEFAULT PRIVILEGES FOR this role ... ON
	// TABLES, PostgreSQL's pg_default_acl rows of the role.
	DefaultACLs []DefaultACL `json:"default_acls,omitempty"`
}

// DefaultACL is the ACL a role's new tables start with: in every schema
// (Schema 0: the whole ACL, the owner's item included) or added in one
// schema (only the extra grants), as PostgreSQL's pg_default_acl.
type DefaultACL struct {
	OID    OID       `json:"oid"`
	Schema OID       `json:"schema,omitempty"`
	ACL    []ACLItem `json:"acl"`
}

// Membership is one GRANT of a role to another.
type Membership struct {
	Role    OID  `json:"role"`
	Grantor OID  `json:"grantor"`
	Admin   bool `json:"admin,omitempty"`
}

// BootstrapRoleOID is the bootstrap superuser's OID, PostgreSQL's
// BOOTSTRAP_SUPERUSERID; BootstrapRoleName is its name.
const (
	BootstrapRoleOID  OID = 10
	BootstrapRoleName     = "cdcdb"
)

// bootstrapRole is the superuser every database starts with. A catalog
// that stores none (written before roles existed, or never edited since)
// has this one, without a password; the first change to it is stored.
func bootstrapRole() *Role {
	return &Role{OID: BootstrapRoleOID, Name: BootstrapRoleName, Superuser: true, Login: true, Bootstrap: true}
}

// Schema privileges, as their letters in an aclitem.
const (
	PrivUsage  Privilege = 'U'
	PrivCreate Privilege = 'C'
)

// SchemaOwner is the OID of the role that owns sc.
func SchemaOwner(sc *Schema) OID {
	if sc.Owner == 0 {
		return BootstrapRoleOID
	}
	return sc.Owner
}

// Privilege is one table privilege, as its letter in an aclitem
// (PostgreSQL's ACL_*_CHR).
type Privilege byte

// Table privileges cdcdb grants and checks, in aclitem order.
const (
	PrivInsert   Privilege = 'a'
	PrivSelect   Privilege = 'r'
	PrivUpdate   Privilege = 'w'
	PrivDelete   Privilege = 'd'
	PrivTruncate Privilege = 'D'
)

// REFERENCES and TRIGGER are held by owners and given by GRANT ALL, as in
// PostgreSQL, so that ACLs read as PostgreSQL's; cdcdb checks neither
// (it has no triggers, and only superusers create tables).
const (
	PrivReferences Privilege = 'x'
	PrivTrigger    Privilege = 't'
)

// TablePrivileges lists the privileges cdcdb checks on a table, in the
// order aclitem text prints them.
var TablePrivileges = []Privilege{PrivInsert, PrivSelect, PrivUpdate, PrivDelete, PrivTruncate}

// AllTablePrivileges is what GRANT ALL gives and an owner holds, in
// aclitem order.
var AllTablePrivileges = []Privilege{PrivInsert, PrivSelect, PrivUpdate, PrivDelete, PrivTruncate, PrivReferences, PrivTrigger}

// Name is the privilege's SQL keyword.
func (p Privilege) Name() string {
	switch p {
	case PrivInsert:
		return "INSERT"
	case PrivSelect:
		return "SELECT"
	case PrivUpdate:
		return "UPDATE"
	case PrivDelete:
		return "DELETE"
	case PrivTruncate:
		return "TRUNCATE"
	}
	return string(p)
}

// ACLItem is one grantee's privileges on an object. Grantee 0 is PUBLIC.
// Privileges holds the letters of Privilege in aclitem order.
type ACLItem struct {
	Grantee    OID    `json:"grantee"`
	Grantor    OID    `json:"grantor"`
	Privileges string `json:"privileges"`
}

// Has reports whether the item grants p.
func (a ACLItem) Has(p Privilege) bool { return strings.IndexByte(a.Privileges, byte(p)) >= 0 }

// Role finds a role by name (names are case-sensitive, as identifiers
// arrive already folded).
func (s *Snapshot) Role(name string) (*Role, bool) {
	for _, r := range s.roles {
		if r.Name == name {
			return r, true
		}
	}
	return nil, false
}

// RoleByOID finds a role by OID.
func (s *Snapshot) RoleByOID(oid OID) (*Role, bool) {
	r, ok := s.roles[oid]
	return r, ok
}

// Roles lists the roles in OID order.
func (s *Snapshot) Roles() []*Role {
	out := make([]*Role, 0, len(s.roles))
	for _, r := range s.roles {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// PutRole adds or replaces a role.
func (e *Editor) PutRole(r *Role) error {
	e.snap.gen = generations.Add(1)
	e.snap.roles[r.OID] = r
	return e.put(prefRole, r.OID, r)
}

// DropRole removes a role; what it owns or was granted is the caller's to
// check first.
func (e *Editor) DropRole(oid OID) error {
	e.snap.gen = generations.Add(1)
	delete(e.snap.roles, oid)
	return e.del(prefRole, oid)
}
