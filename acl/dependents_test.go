package acl_test

import (
	"slices"
	"testing"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/storage/storagetest"
)

// TestDependents: what keeps a role from being dropped, in PostgreSQL's
// words and order (what it owns, then what it was granted).
func TestDependents(t *testing.T) {
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
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []*catalog.Role{
		{OID: owner, Name: "owner", DefaultACLs: []catalog.DefaultACL{{OID: 40000, Schema: sales, ACL: []catalog.ACLItem{item(bi, owner, "r")}}}},
		{OID: bi, Name: "bi"},
		{OID: other, Name: "other"},
	} {
		must(ed.PutRole(r))
	}
	must(ed.PutSchema(&catalog.Schema{OID: sales, Name: "sales", Owner: owner, ACL: []catalog.ACLItem{item(owner, owner, "UC"), item(bi, owner, "U")}}))
	must(ed.PutTable(&catalog.Table{OID: 30010, Schema: sales, Name: "orders", Kind: catalog.KindTable, Owner: owner,
		ACL: []catalog.ACLItem{item(owner, owner, "arwdDxt"), item(bi, owner, "r")}}))
	must(ed.PutTable(&catalog.Table{OID: 30011, Schema: sales, Name: "recent", Kind: catalog.KindView, Owner: owner}))
	must(ed.PutTable(&catalog.Table{OID: 30012, Schema: catalog.PublicNamespace, Name: "legacy", Kind: catalog.KindTable}))
	cat := ed.Snapshot()
	for _, c := range []struct {
		name string
		role catalog.OID
		want []string
	}{
		{"owner: its own items in the ACLs are part of owning", owner, []string{
			"owner of table orders", "owner of view recent", "owner of schema sales",
			"owner of default privileges on new relations belonging to role owner in schema sales"}},
		{"grantee, once per object", bi, []string{
			"privileges for table orders", "privileges for schema sales",
			"privileges for default privileges on new relations belonging to role owner in schema sales"}},
		{"a role that granted nothing and holds nothing", other, nil},
		{"the bootstrap superuser owns what has no owner", super, []string{"owner of table legacy"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := acl.Dependents(cat, c.role); !slices.Equal(got, c.want) {
				t.Errorf("Dependents = %q, want %q", got, c.want)
			}
		})
	}
}
