package acl

import (
	"fmt"
	"slices"

	"cdcdb/catalog"
)

// Dependents lists what keeps role from being dropped, in PostgreSQL's
// words (the lines of DROP ROLE's detail): first what it owns (tables,
// views and streaming tables, flows, schemas, its default privileges),
// then the privileges granted to it (on relations, on schemas, in other
// roles' default privileges); an owner's own items in an object's ACL
// are part of owning it, as in PostgreSQL. Empty when nothing depends on
// it.
func Dependents(cat *catalog.Snapshot, role catalog.OID) []string {
	var owns, privs []string
	for _, t := range cat.Tables() {
		if TableOwner(t) == role {
			owns = append(owns, fmt.Sprintf("owner of %s %s", relationKindWord(t), t.Name))
		} else if namesGrantee(t.ACL, role) {
			privs = append(privs, fmt.Sprintf("privileges for %s %s", relationKindWord(t), t.Name))
		}
	}
	for _, f := range cat.Flows() {
		if FlowOwner(f) == role {
			owns = append(owns, fmt.Sprintf("owner of flow %s", f.Name))
		}
	}
	for _, sc := range cat.Schemas() {
		if sc.System {
			continue
		}
		if sc.Owner == role { // public (no owner) is pg_database_owner's, no role's
			owns = append(owns, fmt.Sprintf("owner of schema %s", sc.Name))
		} else if namesGrantee(sc.ACL, role) {
			privs = append(privs, fmt.Sprintf("privileges for schema %s", sc.Name))
		}
	}
	for _, r := range cat.Roles() {
		for _, d := range r.DefaultACLs {
			where := ""
			if sc, ok := cat.SchemaByOID(d.Schema); ok {
				where = " in schema " + sc.Name
			}
			switch {
			case r.OID == role:
				owns = append(owns, fmt.Sprintf("owner of default privileges on new relations belonging to role %s%s", r.Name, where))
			case namesGrantee(d.ACL, role):
				privs = append(privs, fmt.Sprintf("privileges for default privileges on new relations belonging to role %s%s", r.Name, where))
			}
		}
	}
	return append(owns, privs...)
}

// namesGrantee reports whether an item of acl names role as grantee. The
// owner's own items are not asked about: as in PostgreSQL, an owner's
// privileges are part of owning (updateAclDependencies skips the owner).
func namesGrantee(acl []catalog.ACLItem, role catalog.OID) bool {
	return slices.ContainsFunc(acl, func(a catalog.ACLItem) bool { return a.Grantee == role })
}

// relationKindWord is how PostgreSQL's getObjectDescription names t's
// kind.
func relationKindWord(t *catalog.Table) string {
	switch t.Kind {
	case catalog.KindView:
		return "view"
	case catalog.KindStreaming:
		return "streaming table"
	}
	return "table"
}
