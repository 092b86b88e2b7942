package acl

import (
	"fmt"
	"strings"

	"cdcdb/catalog"
)

// Text is acl as PostgreSQL prints its aclitems, one string each:
// grantee=privileges/grantor, an empty grantee for PUBLIC.
func Text(cat *catalog.Snapshot, acl []catalog.ACLItem) []string {
	out := make([]string, len(acl))
	for i, item := range acl {
		out[i] = ItemText(cat, item)
	}
	return out
}

// ItemText is one aclitem as PostgreSQL prints it (aclitemout).
func ItemText(cat *catalog.Snapshot, item catalog.ACLItem) string {
	grantee := ""
	if item.Grantee != 0 {
		grantee = RoleName(cat, item.Grantee)
	}
	return grantee + "=" + item.Privileges + "/" + RoleName(cat, item.Grantor)
}

// RoleName is a role's name as an aclitem shows it: quoted when it is not
// a plain lower-case name, the OID's digits for a role that is gone.
func RoleName(cat *catalog.Snapshot, oid catalog.OID) string {
	r, ok := cat.RoleByOID(oid)
	if !ok {
		return fmt.Sprint(oid)
	}
	for _, c := range r.Name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return `"` + strings.ReplaceAll(r.Name, `"`, `""`) + `"`
		}
	}
	return r.Name
}

// tablePrivilegeNames are the table privileges' SQL names, in aclitem
// order.
var tablePrivilegeNames = []struct {
	privilege catalog.Privilege
	name      string
}{
	{catalog.PrivInsert, "INSERT"}, {catalog.PrivSelect, "SELECT"}, {catalog.PrivUpdate, "UPDATE"},
	{catalog.PrivDelete, "DELETE"}, {catalog.PrivTruncate, "TRUNCATE"}, {catalog.PrivReferences, "REFERENCES"},
	{catalog.PrivTrigger, "TRIGGER"},
}

// PrivilegeType names an aclitem letter of a table privilege as
// information_schema's privilege_type does ("" for a letter that is
// none).
func PrivilegeType(letter byte) string {
	for _, n := range tablePrivilegeNames {
		if byte(n.privilege) == letter {
			return n.name
		}
	}
	return ""
}

// TablePrivilegeNamed is the table privilege a SQL name (in any case)
// names, as GRANT and has_table_privilege spell them; ok false for a word
// that names none (ALL is not one privilege: catalog.AllTablePrivileges).
func TablePrivilegeNamed(word string) (p catalog.Privilege, ok bool) {
	for _, n := range tablePrivilegeNames {
		if strings.EqualFold(n.name, word) {
			return n.privilege, true
		}
	}
	return 0, false
}
