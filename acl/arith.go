package acl

import (
	"cmp"
	"slices"
	"strings"

	"cdcdb/catalog"
)

// OwnerDefaultPrivileges are the letters of the owner's implicit item
// once a table's ACL is written, as PostgreSQL's acldefault for a
// relation.
const OwnerDefaultPrivileges = "arwdDxt"

// schemaPrivilegeOrder is the order of a schema aclitem's letters.
var schemaPrivilegeOrder = []catalog.Privilege{catalog.PrivUsage, catalog.PrivCreate}

// OwnerOnly is a table's ACL as PostgreSQL's acldefault makes it: the
// owner holds everything.
func OwnerOnly(owner catalog.OID) []catalog.ACLItem {
	return []catalog.ACLItem{{Grantee: owner, Grantor: owner, Privileges: OwnerDefaultPrivileges}}
}

// TableACL is t's ACL as it holds: the owner's implicit one (OwnerOnly)
// for a table never granted on.
func TableACL(t *catalog.Table) []catalog.ACLItem {
	if t.ACL == nil {
		return OwnerOnly(TableOwner(t))
	}
	return t.ACL
}

// ChangeTableACL is t's ACL after a GRANT (add) or REVOKE of privs for
// grantees, by t's owner. The first change writes the owner's implicit
// item first, as PostgreSQL does; grantees keep the order of their first
// grant; an item left with nothing is dropped. t is not changed.
func ChangeTableACL(t *catalog.Table, grantees []catalog.OID, privs []catalog.Privilege, add bool) []catalog.ACLItem {
	return changeACL(slices.Clone(TableACL(t)), TableOwner(t), grantees, privs, add, catalog.AllTablePrivileges)
}

// ChangeSchemaACL is sc's ACL after a GRANT (add) or REVOKE of privs
// (USAGE, CREATE) for grantees, starting from the default ACL on the
// first change. Items keep PostgreSQL's order (owner first, then in order
// of grant) and letters its order (UC). sc is not changed.
func ChangeSchemaACL(sc *catalog.Schema, grantees []catalog.OID, privs []catalog.Privilege, add bool) []catalog.ACLItem {
	return changeACL(slices.Clone(SchemaACL(sc)), catalog.SchemaOwner(sc), grantees, privs, add, schemaPrivilegeOrder)
}

// changeACL grants or revokes privs for grantees in acl (which it may
// change), as grantor; letters follow order.
func changeACL(acl []catalog.ACLItem, grantor catalog.OID, grantees []catalog.OID, privs []catalog.Privilege, add bool, order []catalog.Privilege) []catalog.ACLItem {
	for _, g := range grantees {
		i := slices.IndexFunc(acl, func(a catalog.ACLItem) bool { return a.Grantee == g && a.Grantor == grantor })
		if i < 0 {
			if !add {
				continue
			}
			acl = append(acl, catalog.ACLItem{Grantee: g, Grantor: grantor})
			i = len(acl) - 1
		}
		acl[i].Privileges = withLetters(acl[i].Privileges, privs, add, order)
	}
	return slices.DeleteFunc(acl, func(a catalog.ACLItem) bool { return a.Privileges == "" })
}

// withLetters is have with change added (add) or taken away, in order.
func withLetters(have string, change []catalog.Privilege, add bool, order []catalog.Privilege) string {
	set := map[catalog.Privilege]bool{}
	for i := 0; i < len(have); i++ {
		set[catalog.Privilege(have[i])] = true
	}
	for _, p := range change {
		set[p] = add
	}
	var b strings.Builder
	for _, p := range order {
		if set[p] {
			b.WriteByte(byte(p))
		}
	}
	return b.String()
}

// NewOwner is PostgreSQL's aclnewowner: acl with every mention of the old
// owner, as grantee or grantor, made the new one, and items that then
// name the same grantee and grantor merged. Nil stays nil (the new
// owner's implicit ACL).
func NewOwner(acl []catalog.ACLItem, old, owner catalog.OID) []catalog.ACLItem {
	if acl == nil {
		return nil
	}
	var out []catalog.ACLItem
	for _, a := range acl {
		if a.Grantee == old {
			a.Grantee = owner
		}
		if a.Grantor == old {
			a.Grantor = owner
		}
		out = MergeItem(out, a)
	}
	return out
}

// MergeLetters is the union of two table ACL items' privilege letters, in
// aclitem order.
func MergeLetters(a, b string) string {
	var privs []catalog.Privilege
	for i := 0; i < len(b); i++ {
		privs = append(privs, catalog.Privilege(b[i]))
	}
	return withLetters(a, privs, true, catalog.AllTablePrivileges)
}

// MergeItem adds item's privileges to acl's item of the same grantee and
// grantor, or appends it (changing acl's items in place).
func MergeItem(acl []catalog.ACLItem, item catalog.ACLItem) []catalog.ACLItem {
	if i := slices.IndexFunc(acl, func(a catalog.ACLItem) bool { return a.Grantee == item.Grantee && a.Grantor == item.Grantor }); i >= 0 {
		acl[i].Privileges = MergeLetters(acl[i].Privileges, item.Privileges)
		return acl
	}
	return append(acl, item)
}

// NewTableACL is the ACL of a table r creates in schema: nil (the
// owner's implicit privileges) unless r's default privileges say more,
// as PostgreSQL's get_user_default_acl: the all-schemas entry (or the
// owner's implicit ACL) with the schema's entry merged in.
func NewTableACL(r *catalog.Role, schema catalog.OID) []catalog.ACLItem {
	if len(r.DefaultACLs) == 0 {
		return nil
	}
	acl := OwnerOnly(r.OID)
	if i := slices.IndexFunc(r.DefaultACLs, func(d catalog.DefaultACL) bool { return d.Schema == 0 }); i >= 0 {
		acl = slices.Clone(r.DefaultACLs[i].ACL)
	}
	if i := slices.IndexFunc(r.DefaultACLs, func(d catalog.DefaultACL) bool { return d.Schema == schema }); i >= 0 && schema != 0 {
		for _, item := range r.DefaultACLs[i].ACL {
			acl = MergeItem(acl, item)
		}
	}
	if slices.Equal(acl, OwnerOnly(r.OID)) {
		return nil
	}
	return acl
}

// ChangeDefaultACL is one default-privileges entry of owner after ALTER
// DEFAULT PRIVILEGES GRANT (add) or REVOKE privs for grantees: entry is
// its ACL, exists whether owner has one for schema (0: every schema). The
// result is sorted as PostgreSQL stores it (aclitemsort: by grantee, then
// grantor). isDefault says the entry would say only what holds anyway
// (nothing extra in one schema, the owner's implicit ACL in all), and
// PostgreSQL drops such an entry.
func ChangeDefaultACL(entry []catalog.ACLItem, exists bool, owner, schema catalog.OID, grantees []catalog.OID, privs []catalog.Privilege, add bool) (acl []catalog.ACLItem, isDefault bool) {
	acl = slices.Clone(entry)
	if !exists && schema == 0 {
		acl = OwnerOnly(owner)
	}
	acl = changeACL(acl, owner, grantees, privs, add, catalog.AllTablePrivileges)
	slices.SortStableFunc(acl, func(a, b catalog.ACLItem) int {
		if a.Grantee != b.Grantee {
			return cmp.Compare(a.Grantee, b.Grantee)
		}
		return cmp.Compare(a.Grantor, b.Grantor)
	})
	isDefault = schema != 0 && len(acl) == 0 || schema == 0 && slices.Equal(acl, OwnerOnly(owner))
	return acl, isDefault
}
