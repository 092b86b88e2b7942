package acl_test

import (
	"slices"
	"strings"
	"testing"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/storage/storagetest"
)

// The roles of the test catalog (buildCatalog). Arrows are memberships
// (GRANT group TO member):
//
//	alice -> readers        carol -> alice          (all INHERIT)
//	bob (NOINHERIT) -> readers; dave -> bob
//	ownerPal -> owner       erin -> readers WITH ADMIN OPTION; frank -> erin
const (
	super    catalog.OID = catalog.BootstrapRoleOID
	owner    catalog.OID = 20000
	bi       catalog.OID = 20001
	other    catalog.OID = 20002
	readers  catalog.OID = 20010
	alice    catalog.OID = 20011
	bob      catalog.OID = 20012
	carol    catalog.OID = 20013
	dave     catalog.OID = 20014
	ownerPal catalog.OID = 20015
	erin     catalog.OID = 20016
	frank    catalog.OID = 20017
	quoted   catalog.OID = 20018

	// sales is a schema owner made; its ACL gives readers USAGE.
	sales catalog.OID = 30000
	// hidden is a schema owner made and granted on to no one.
	hidden catalog.OID = 30001
)

func member(of catalog.OID) catalog.Membership { return catalog.Membership{Role: of, Grantor: super} }

// buildCatalog writes the test roles and schemas through a catalog editor
// (on a throwaway storage file) and returns the snapshot it made.
func buildCatalog(t *testing.T) *catalog.Snapshot {
	t.Helper()
	db := storagetest.Open(t)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	ed, err := catalog.Empty().Edit(tx)
	if err != nil {
		t.Fatal(err)
	}
	roles := []*catalog.Role{
		{OID: owner, Name: "owner"},
		{OID: bi, Name: "bi"},
		{OID: other, Name: "other"},
		{OID: readers, Name: "readers"},
		{OID: alice, Name: "alice", MemberOf: []catalog.Membership{member(readers)}},
		{OID: bob, Name: "bob", NoInherit: true, MemberOf: []catalog.Membership{member(readers)}},
		{OID: carol, Name: "carol", MemberOf: []catalog.Membership{member(alice)}},
		{OID: dave, Name: "dave", MemberOf: []catalog.Membership{member(bob)}},
		{OID: ownerPal, Name: "owner_pal", MemberOf: []catalog.Membership{member(owner)}},
		{OID: erin, Name: "erin", MemberOf: []catalog.Membership{{Role: readers, Grantor: super, Admin: true}}},
		{OID: frank, Name: "frank", MemberOf: []catalog.Membership{member(erin)}},
		{OID: quoted, Name: `Sales "Team"`},
	}
	for _, r := range roles {
		if err := ed.PutRole(r); err != nil {
			t.Fatal(err)
		}
	}
	schemas := []*catalog.Schema{
		{OID: sales, Name: "sales", Owner: owner, ACL: []catalog.ACLItem{item(owner, owner, "UC"), item(readers, owner, "U")}},
		{OID: hidden, Name: "hidden", Owner: owner},
	}
	for _, sc := range schemas {
		if err := ed.PutSchema(sc); err != nil {
			t.Fatal(err)
		}
	}
	return ed.Snapshot()
}

func role(t *testing.T, cat *catalog.Snapshot, oid catalog.OID) *catalog.Role {
	t.Helper()
	r, ok := cat.RoleByOID(oid)
	if !ok {
		t.Fatalf("role %d missing", oid)
	}
	return r
}

func item(grantee, grantor catalog.OID, privileges string) catalog.ACLItem {
	return catalog.ACLItem{Grantee: grantee, Grantor: grantor, Privileges: privileges}
}

// TestMemberships: what SET ROLE may become (every membership, INHERIT
// or not) against whose privileges a role uses (memberships through
// roles that inherit), and the loop a GRANT would close.
func TestMemberships(t *testing.T) {
	cat := buildCatalog(t)
	for _, c := range []struct {
		name             string
		of, target       catalog.OID
		member, holderOf bool
	}{
		{"itself", other, other, true, true},
		{"no relation", other, readers, false, false},
		{"direct, inheriting", alice, readers, true, true},
		{"through a chain of inheriting roles", carol, readers, true, true},
		{"a NOINHERIT role is a member but does not use the privileges", bob, readers, true, false},
		{"through a NOINHERIT role: its own privileges only", dave, bob, true, true},
		{"past a NOINHERIT role: member, not holder", dave, readers, true, false},
		{"membership does not go downwards", readers, alice, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := role(t, cat, c.of)
			if got := acl.Memberships(cat, r).Has(c.target); got != c.member {
				t.Errorf("Memberships(%s).Has(%d) = %v, want %v", r.Name, c.target, got, c.member)
			}
			if got := acl.PrivilegeHolders(cat, r).Has(c.target); got != c.holderOf {
				t.Errorf("PrivilegeHolders(%s).Has(%d) = %v, want %v", r.Name, c.target, got, c.holderOf)
			}
		})
	}
	for _, c := range []struct {
		role, member catalog.OID
		loops        bool
	}{
		{carol, readers, true},  // readers would be a member of carol, who is (through alice) a member of readers
		{readers, carol, false}, // already so, no loop
		{alice, alice, true},    // a role in itself
		{dave, readers, true},   // loops through a NOINHERIT membership as well
		{other, readers, false},
	} {
		if got := acl.GrantLoops(cat, role(t, cat, c.role), role(t, cat, c.member)); got != c.loops {
			t.Errorf("GrantLoops(%d, %d) = %v, want %v", c.role, c.member, got, c.loops)
		}
	}
}

// TestIsAdminOf: superusers, the admin option held directly or through
// a membership, and a role granting itself only as the login role.
func TestIsAdminOf(t *testing.T) {
	cat := buildCatalog(t)
	for _, c := range []struct {
		name      string
		me, of    catalog.OID
		loginName string
		want      bool
	}{
		{"superuser", super, readers, "cdcdb", true},
		{"admin option", erin, readers, "erin", true},
		{"admin option through a membership", frank, readers, "frank", true},
		{"plain member", alice, readers, "alice", false},
		{"itself as the login role", alice, alice, "alice", true},
		{"itself after SET ROLE", alice, alice, "carol", false},
		{"unrelated", other, readers, "other", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := acl.IsAdminOf(cat, role(t, cat, c.me), role(t, cat, c.of), c.loginName); got != c.want {
				t.Errorf("IsAdminOf = %v, want %v", got, c.want)
			}
		})
	}
}

// TestHasTablePrivilege: superuser, owner (and members of it), grantee,
// PUBLIC, and grants to a group reaching members that inherit.
func TestHasTablePrivilege(t *testing.T) {
	cat := buildCatalog(t)
	granted := &catalog.Table{Owner: owner, ACL: []catalog.ACLItem{
		item(owner, owner, "arwdDxt"), item(bi, owner, "r"), item(0, owner, "a"), item(readers, owner, "w")}}
	neverGranted := &catalog.Table{Owner: owner}
	bootstrapOwned := &catalog.Table{} // written before owners: the bootstrap superuser's
	for _, c := range []struct {
		name string
		who  catalog.OID
		t    *catalog.Table
		p    catalog.Privilege
		want bool
	}{
		{"superuser", super, granted, catalog.PrivTruncate, true},
		{"owner", owner, granted, catalog.PrivDelete, true},
		{"owner of a table never granted on", owner, neverGranted, catalog.PrivSelect, true},
		{"member of the owner acts as owner", ownerPal, neverGranted, catalog.PrivTruncate, true},
		{"grantee", bi, granted, catalog.PrivSelect, true},
		{"grantee, not granted that", bi, granted, catalog.PrivUpdate, false},
		{"PUBLIC's grant", bi, granted, catalog.PrivInsert, true},
		{"PUBLIC's grant to anyone", other, granted, catalog.PrivInsert, true},
		{"nothing granted", other, granted, catalog.PrivSelect, false},
		{"the group itself", readers, granted, catalog.PrivUpdate, true},
		{"group member that inherits", alice, granted, catalog.PrivUpdate, true},
		{"member of a member", carol, granted, catalog.PrivUpdate, true},
		{"NOINHERIT member", bob, granted, catalog.PrivUpdate, false},
		{"no ACL: only the owner", bi, neverGranted, catalog.PrivSelect, false},
		{"a table without owner is the bootstrap superuser's", owner, bootstrapOwned, catalog.PrivSelect, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := acl.HasTablePrivilege(cat, role(t, cat, c.who), c.t, c.p); got != c.want {
				t.Errorf("HasTablePrivilege(%d, %s) = %v, want %v", c.who, c.p.Name(), got, c.want)
			}
		})
	}
	if acl.TableOwner(bootstrapOwned) != catalog.BootstrapRoleOID || acl.FlowOwner(&catalog.Flow{}) != catalog.BootstrapRoleOID {
		t.Error("an object without owner is not the bootstrap superuser's")
	}
	if !acl.HasAnyTablePrivilege(cat, role(t, cat, bi), granted, catalog.PrivDelete, catalog.PrivSelect) ||
		acl.HasAnyTablePrivilege(cat, role(t, cat, bi), granted, catalog.PrivDelete, catalog.PrivTruncate) {
		t.Error("HasAnyTablePrivilege does not answer for any of the privileges")
	}
}

// TestHasSchemaPrivilege: public's default ACL (USAGE for everyone,
// CREATE for its owner), a granted schema, one granted on to no one, and
// the system schemas.
func TestHasSchemaPrivilege(t *testing.T) {
	cat := buildCatalog(t)
	schema := func(name string) *catalog.Schema {
		sc, ok := cat.Schema(name)
		if !ok {
			t.Fatalf("schema %s missing", name)
		}
		return sc
	}
	for _, c := range []struct {
		who    catalog.OID
		schema string
		p      catalog.Privilege
		want   bool
	}{
		{other, "public", catalog.PrivUsage, true},
		{other, "public", catalog.PrivCreate, false},
		{super, "public", catalog.PrivCreate, true},
		{other, "pg_catalog", catalog.PrivUsage, true},
		{other, "pg_catalog", catalog.PrivCreate, false},
		{owner, "hidden", catalog.PrivCreate, true},
		{ownerPal, "hidden", catalog.PrivCreate, true},
		{other, "hidden", catalog.PrivUsage, false},
		{readers, "sales", catalog.PrivUsage, true},
		{carol, "sales", catalog.PrivUsage, true},
		{bob, "sales", catalog.PrivUsage, false},
		{readers, "sales", catalog.PrivCreate, false},
	} {
		if got := acl.HasSchemaPrivilege(cat, role(t, cat, c.who), schema(c.schema), c.p); got != c.want {
			t.Errorf("HasSchemaPrivilege(%d, %s, %c) = %v, want %v", c.who, c.schema, c.p, got, c.want)
		}
	}
}

// TestChangeTableACL: GRANT and REVOKE change a table's ACL as
// PostgreSQL's aclitem[] would read: the owner's implicit item written
// first, grantees in order of their first grant, items emptied by REVOKE
// dropped.
func TestChangeTableACL(t *testing.T) {
	const pipe = other
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
				before := slices.Clone(tbl.ACL)
				changed := acl.ChangeTableACL(tbl, s.grantees, s.privs, s.grant)
				if !slices.Equal(tbl.ACL, before) {
					t.Fatalf("ChangeTableACL changed the table's ACL in place: %v, was %v", tbl.ACL, before)
				}
				tbl.ACL = changed
			}
			if !slices.Equal(tbl.ACL, c.want) {
				t.Fatalf("ACL = %v, want %v", tbl.ACL, c.want)
			}
		})
	}
}

// TestChangeSchemaACL: the first change starts from the default ACL
// (public's includes PUBLIC's USAGE), letters stay in UC order.
func TestChangeSchemaACL(t *testing.T) {
	use, create := []catalog.Privilege{catalog.PrivUsage}, []catalog.Privilege{catalog.PrivCreate}
	both := []catalog.Privilege{catalog.PrivCreate, catalog.PrivUsage}
	public := &catalog.Schema{OID: catalog.PublicNamespace, Name: "public"}
	mine := &catalog.Schema{OID: sales, Name: "sales", Owner: owner}
	for _, c := range []struct {
		name     string
		sc       *catalog.Schema
		grantees []catalog.OID
		privs    []catalog.Privilege
		grant    bool
		want     []catalog.ACLItem
	}{
		{"grant on a new schema", mine, []catalog.OID{bi}, create, true,
			[]catalog.ACLItem{item(owner, owner, "UC"), item(bi, owner, "C")}},
		{"letters in UC order", mine, []catalog.OID{bi}, both, true,
			[]catalog.ACLItem{item(owner, owner, "UC"), item(bi, owner, "UC")}},
		{"revoke PUBLIC's USAGE on public", public, []catalog.OID{0}, use, false,
			[]catalog.ACLItem{item(super, super, "UC")}},
		{"grant CREATE on public to PUBLIC", public, []catalog.OID{0}, create, true,
			[]catalog.ACLItem{item(super, super, "UC"), item(0, super, "UC")}},
		{"revoke from one never granted", mine, []catalog.OID{bi}, both, false,
			[]catalog.ACLItem{item(owner, owner, "UC")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := acl.ChangeSchemaACL(c.sc, c.grantees, c.privs, c.grant); !slices.Equal(got, c.want) {
				t.Errorf("ACL = %v, want %v", got, c.want)
			}
		})
	}
}

// TestNewOwner: PostgreSQL's aclnewowner, with the merge of the items
// that come to name the same grantee and grantor.
func TestNewOwner(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []catalog.ACLItem
		want []catalog.ACLItem
	}{
		{"never granted on stays so", nil, nil},
		{"owner's items pass to the new owner",
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")},
			[]catalog.ACLItem{item(other, other, "arwdDxt"), item(bi, other, "r")}},
		{"the new owner's own grant merges",
			[]catalog.ACLItem{item(owner, owner, "xt"), item(other, owner, "ar")},
			[]catalog.ACLItem{item(other, other, "arxt")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := acl.NewOwner(c.in, owner, other); !slices.Equal(got, c.want) {
				t.Errorf("NewOwner = %v, want %v", got, c.want)
			}
		})
	}
}

// TestDefaultACLs: ALTER DEFAULT PRIVILEGES entries as PostgreSQL
// stores them, and the ACL a new table gets from them.
func TestDefaultACLs(t *testing.T) {
	sel := []catalog.Privilege{catalog.PrivSelect}
	ins := []catalog.Privilege{catalog.PrivInsert}
	for _, c := range []struct {
		name          string
		entry         []catalog.ACLItem
		exists        bool
		schema        catalog.OID
		grantees      []catalog.OID
		privs         []catalog.Privilege
		grant         bool
		want          []catalog.ACLItem
		wantIsDefault bool
	}{
		{"all schemas: starts from the owner's item, sorted by grantee", nil, false, 0, []catalog.OID{bi, 0}, sel, true,
			[]catalog.ACLItem{item(0, owner, "r"), item(owner, owner, "arwdDxt"), item(bi, owner, "r")}, false},
		{"one schema: only the extra grants", nil, false, sales, []catalog.OID{bi}, sel, true,
			[]catalog.ACLItem{item(bi, owner, "r")}, false},
		{"revoking the extra grant leaves a default entry", []catalog.ACLItem{item(bi, owner, "r")}, true, sales, []catalog.OID{bi}, sel, false,
			[]catalog.ACLItem{}, true},
		{"all schemas back to the owner's item is default", []catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")}, true, 0, []catalog.OID{bi}, sel, false,
			[]catalog.ACLItem{item(owner, owner, "arwdDxt")}, true},
		{"revoking from the owner is not default", nil, false, 0, []catalog.OID{owner}, ins, false,
			[]catalog.ACLItem{item(owner, owner, "rwdDxt")}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			entry := slices.Clone(c.entry)
			got, isDefault := acl.ChangeDefaultACL(entry, c.exists, owner, c.schema, c.grantees, c.privs, c.grant)
			if !slices.Equal(got, c.want) || isDefault != c.wantIsDefault {
				t.Errorf("ChangeDefaultACL = %v, %v; want %v, %v", got, isDefault, c.want, c.wantIsDefault)
			}
			if !slices.Equal(entry, c.entry) {
				t.Errorf("the entry was changed in place: %v", entry)
			}
		})
	}

	r := &catalog.Role{OID: owner, DefaultACLs: []catalog.DefaultACL{
		{OID: 40000, ACL: []catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")}},
		{OID: 40001, Schema: sales, ACL: []catalog.ACLItem{item(bi, owner, "a"), item(other, owner, "r")}},
	}}
	for _, c := range []struct {
		name   string
		r      *catalog.Role
		schema catalog.OID
		want   []catalog.ACLItem
	}{
		{"no default privileges: the implicit ACL", &catalog.Role{OID: owner}, sales, nil},
		{"all-schemas entry", r, hidden, []catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")}},
		{"schema entry merged in", r, sales,
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "ar"), item(other, owner, "r")}},
		{"schema entry alone starts from the owner's item",
			&catalog.Role{OID: owner, DefaultACLs: []catalog.DefaultACL{{OID: 40001, Schema: sales, ACL: []catalog.ACLItem{item(bi, owner, "r")}}}}, sales,
			[]catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")}},
		{"an entry for another schema only: implicit",
			&catalog.Role{OID: owner, DefaultACLs: []catalog.DefaultACL{{OID: 40001, Schema: sales, ACL: []catalog.ACLItem{item(bi, owner, "r")}}}}, hidden, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := acl.NewTableACL(c.r, c.schema); !slices.Equal(got, c.want) {
				t.Errorf("NewTableACL = %v, want %v", got, c.want)
			}
		})
	}
	if !slices.Equal(r.DefaultACLs[0].ACL, []catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")}) {
		t.Errorf("NewTableACL changed the role's entry: %v", r.DefaultACLs[0].ACL)
	}
}

// TestText: aclitem text as PostgreSQL prints it: PUBLIC as an empty
// grantee, names quoted when not plain, a dropped role as its OID.
func TestText(t *testing.T) {
	cat := buildCatalog(t)
	got := acl.Text(cat, []catalog.ACLItem{item(owner, owner, "arwdDxt"), item(0, owner, "r"), item(quoted, owner, "a"), item(99999, super, "U")})
	want := []string{"owner=arwdDxt/owner", "=r/owner", `"Sales ""Team"""=a/owner`, "99999=U/cdcdb"}
	if !slices.Equal(got, want) {
		t.Errorf("Text = %q, want %q", got, want)
	}
	for letter, name := range map[byte]string{'a': "INSERT", 'r': "SELECT", 'w': "UPDATE", 'd': "DELETE", 'D': "TRUNCATE", 'x': "REFERENCES", 't': "TRIGGER", 'U': ""} {
		if got := acl.PrivilegeType(letter); got != name {
			t.Errorf("PrivilegeType(%c) = %q, want %q", letter, got, name)
		}
		p, ok := acl.TablePrivilegeNamed(strings.ToLower(name))
		if name != "" && (!ok || byte(p) != letter) {
			t.Errorf("TablePrivilegeNamed(%q) = %c, %v; want %c", strings.ToLower(name), p, ok, letter)
		}
	}
	for _, word := range []string{"", "ALL", "USAGE", "selec"} {
		if p, ok := acl.TablePrivilegeNamed(word); ok {
			t.Errorf("TablePrivilegeNamed(%q) = %c, want none", word, p)
		}
	}
}

// TestGrantRevokeMembership: GRANT and REVOKE of membership on one
// member's list, and what PostgreSQL reports when they change nothing.
func TestGrantRevokeMembership(t *testing.T) {
	plain := &catalog.Role{OID: alice, MemberOf: []catalog.Membership{member(readers)}}
	withAdmin := &catalog.Role{OID: erin, MemberOf: []catalog.Membership{{Role: readers, Grantor: super, Admin: true}, member(owner)}}
	for _, c := range []struct {
		name    string
		r       *catalog.Role
		revoke  bool
		role    catalog.OID
		admin   bool
		want    []catalog.Membership
		outcome acl.MembershipChange
	}{
		{"new membership, by its grantor", plain, false, owner, false,
			[]catalog.Membership{member(readers), {Role: owner, Grantor: bi}}, acl.MembershipChanged},
		{"new membership with the admin option", plain, false, owner, true,
			[]catalog.Membership{member(readers), {Role: owner, Grantor: bi, Admin: true}}, acl.MembershipChanged},
		{"already a member", plain, false, readers, false, plain.MemberOf, acl.MembershipAlready},
		{"the admin option added", plain, false, readers, true,
			[]catalog.Membership{{Role: readers, Grantor: super, Admin: true}}, acl.MembershipChanged},
		{"already with the admin option", withAdmin, false, readers, true, withAdmin.MemberOf, acl.MembershipAlready},
		{"revoke", withAdmin, true, readers, false, []catalog.Membership{member(owner)}, acl.MembershipChanged},
		{"revoke the admin option only", withAdmin, true, readers, true,
			[]catalog.Membership{member(readers), member(owner)}, acl.MembershipChanged},
		{"revoke what is not", plain, true, owner, false, plain.MemberOf, acl.MembershipMissing},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(c.r.MemberOf)
			var got []catalog.Membership
			var outcome acl.MembershipChange
			if c.revoke {
				got, outcome = acl.RevokeMembership(c.r, c.role, c.admin)
			} else {
				got, outcome = acl.GrantMembership(c.r, c.role, bi, c.admin)
			}
			if !slices.Equal(got, c.want) || outcome != c.outcome {
				t.Errorf("= %v, %d; want %v, %d", got, outcome, c.want, c.outcome)
			}
			if !slices.Equal(c.r.MemberOf, before) {
				t.Errorf("the role's memberships were changed in place: %v", c.r.MemberOf)
			}
		})
	}
}
