package sql

import (
	"testing"

	"cdcdb/catalog"
)

// TestChangeACL: GRANT and REVOKE change a table's ACL as PostgreSQL's
// aclitem[] would read: the owner's implicit item written first, grantees
// in order of their first grant, items emptied by REVOKE dropped.
func TestChangeACL(t *testing.T) {
	const owner, bi, pipe catalog.OID = 10, 20000, 20001
	r, a, all := []catalog.Privilege{catalog.PrivSelect}, []catalog.Privilege{catalog.PrivInsert}, catalog.TablePrivileges
	type step struct {
		grantees []catalog.OID
		privs    []catalog.Privilege
		grant    bool
	}
	for _, c := range []struct {
		name  string
		steps []step
		want  []catalog.ACLItem
	}{
		{"first grant", []step{{[]catalog.OID{bi}, r, true}},
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")}},
		{"two grants merge in privilege order", []step{{[]catalog.OID{bi}, r, true}, {[]catalog.OID{bi}, a, true}},
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "ar")}},
		{"public and a role", []step{{[]catalog.OID{0, pipe}, a, true}},
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(0, owner, "a"), item(pipe, owner, "a")}},
		{"revoke empties and drops the item", []step{{[]catalog.OID{bi}, r, true}, {[]catalog.OID{bi}, r, false}},
			[]catalog.ACLItem{item(owner, owner, "arwdDxt")}},
		{"revoke from one never granted", []step{{[]catalog.OID{pipe}, all, false}},
			[]catalog.ACLItem{item(owner, owner, "arwdDxt")}},
		{"revoking the checked privileges from the owner leaves x and t", []step{{[]catalog.OID{owner}, all, false}},
			[]catalog.ACLItem{item(owner, owner, "xt")}},
		{"grant all", []step{{[]catalog.OID{bi}, catalog.AllTablePrivileges, true}},
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "arwdDxt")}},
		{"grant the checked ones, revoke one", []step{{[]catalog.OID{bi}, all, true}, {[]catalog.OID{bi}, []catalog.Privilege{catalog.PrivDelete}, false}},
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "arwD")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tbl := &catalog.Table{Owner: owner}
			for _, s := range c.steps {
				tbl.ACL = changeACL(tbl, s.grantees, s.privs, s.grant)
			}
			if len(tbl.ACL) != len(c.want) {
				t.Fatalf("ACL = %v, want %v", tbl.ACL, c.want)
			}
			for i := range c.want {
				if tbl.ACL[i] != c.want[i] {
					t.Fatalf("ACL = %v, want %v", tbl.ACL, c.want)
				}
			}
		})
	}
}

func item(grantee, grantor catalog.OID, privileges string) catalog.ACLItem {
	return catalog.ACLItem{Grantee: grantee, Grantor: grantor, Privileges: privileges}
}

// TestRoleHasTablePrivilege: superuser, owner, grantee and PUBLIC.
func TestRoleHasTablePrivilege(t *testing.T) {
	super := &catalog.Role{OID: 10, Superuser: true}
	owner := &catalog.Role{OID: 20000}
	bi := &catalog.Role{OID: 20001}
	other := &catalog.Role{OID: 20002}
	tbl := &catalog.Table{Owner: owner.OID, ACL: []catalog.ACLItem{item(owner.OID, owner.OID, "arwdDxt"), item(bi.OID, owner.OID, "r"), item(0, owner.OID, "a")}}
	for _, c := range []struct {
		role *catalog.Role
		p    catalog.Privilege
		want bool
	}{
		{super, catalog.PrivTruncate, true},
		{owner, catalog.PrivDelete, true},
		{bi, catalog.PrivSelect, true},
		{bi, catalog.PrivUpdate, false},
		{bi, catalog.PrivInsert, true}, // PUBLIC's
		{other, catalog.PrivInsert, true},
		{other, catalog.PrivSelect, false},
	} {
		if got := roleHasTablePrivilege(nil, c.role, tbl, c.p); got != c.want { // no memberships: no catalog needed
			t.Errorf("role %d %s: %v, want %v", c.role.OID, c.p.Name(), got, c.want)
		}
	}
}
