package catalogviews

import (
	"cdcdb/catalog"
	"cdcdb/types"
)

func init() {
	liveCatalogs["pg_auth_members"] = livePgAuthMembers
	liveCatalogs["pg_default_acl"] = livePgDefaultACL
}

// livePgAuthMembers is pg_auth_members: one row per membership.
func livePgAuthMembers(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_auth_members")
	var rows []Row
	for _, m := range sess.Catalog().Roles() {
		for _, ms := range m.MemberOf {
			rows = append(rows, b.Make("roleid", int64(ms.Role), "member", int64(m.OID), "grantor", int64(ms.Grantor), "admin_option", ms.Admin))
		}
	}
	return rows, nil
}

// livePgDefaultACL is pg_default_acl: one row per role and schema with
// default privileges (objtype r: tables).
func livePgDefaultACL(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_default_acl")
	cat := sess.Catalog()
	var rows []Row
	for _, r := range cat.Roles() {
		for _, d := range r.DefaultACLs {
			acl := sess.TableACL(&catalog.Table{ACL: d.ACL})
			if acl == nil {
				acl = types.ArrayValue{Elem: types.Aclitem}
			}
			rows = append(rows, b.Make("oid", int64(d.OID), "defaclrole", int64(r.OID), "defaclnamespace", int64(d.Schema),
				"defaclobjtype", "r", "defaclacl", acl))
		}
	}
	return rows, nil
}
