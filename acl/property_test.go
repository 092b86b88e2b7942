package acl_test

import (
	"flag"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/storage/storagetest"
)

var aclSeed = flag.Uint64("aclseed", 0, "seed of the acl property tests (0: from the clock)")

// TestPrivilegesAgainstAModel builds random role graphs (memberships,
// NOINHERIT roles, loops left out as GRANT refuses them) and tables with
// random grants, and checks membership closure, privilege holding and
// GRANT/REVOKE arithmetic against a plain model: sets grown to a fixed
// point, and a map of grants.
func TestPrivilegesAgainstAModel(t *testing.T) {
	seed := *aclSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -aclseed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 41))
	for round := 0; round < 40; round++ {
		const n = 8
		oids := make([]catalog.OID, n)
		for i := range oids {
			oids[i] = catalog.OID(20000 + i)
		}
		db := storagetest.Open(t)
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		ed, err := catalog.Empty().Edit(tx)
		if err != nil {
			t.Fatal(err)
		}
		roles := make([]*catalog.Role, n)
		for i := range roles {
			roles[i] = &catalog.Role{OID: oids[i], Name: string(rune('a' + i)), NoInherit: rng.IntN(4) == 0}
			if err := ed.PutRole(roles[i]); err != nil {
				t.Fatal(err)
			}
		}
		// Random GRANTs of membership, each refused (as GRANT does) when
		// it would close a loop.
		for g := 0; g < 12; g++ {
			group, m := roles[rng.IntN(n)], roles[rng.IntN(n)]
			cat := ed.Snapshot()
			group, _ = cat.RoleByOID(group.OID)
			m, _ = cat.RoleByOID(m.OID)
			loops := acl.GrantLoops(cat, group, m)
			if want := modelClosure(cat, group.OID, false)[m.OID]; loops != want {
				t.Fatalf("seed %d round %d: GrantLoops(%s, %s) = %v, model %v", seed, round, group.Name, m.Name, loops, want)
			}
			if loops {
				continue
			}
			memberOf, _ := acl.GrantMembership(m, group.OID, catalog.BootstrapRoleOID, false)
			changed := *m
			changed.MemberOf = memberOf
			if err := ed.PutRole(&changed); err != nil {
				t.Fatal(err)
			}
		}
		cat := ed.Snapshot()
		tx.Rollback()

		// Membership closure against the fixed point.
		for _, r := range cat.Roles() {
			members, holders := modelClosure(cat, r.OID, false), modelClosure(cat, r.OID, true)
			for _, o := range cat.Roles() {
				if got := acl.Memberships(cat, r).Has(o.OID); got != members[o.OID] {
					t.Fatalf("seed %d round %d: Memberships(%s).Has(%s) = %v, model %v", seed, round, r.Name, o.Name, got, members[o.OID])
				}
				if got := acl.PrivilegeHolders(cat, r).Has(o.OID); got != holders[o.OID] {
					t.Fatalf("seed %d round %d: PrivilegeHolders(%s).Has(%s) = %v, model %v", seed, round, r.Name, o.Name, got, holders[o.OID])
				}
			}
		}

		// Random GRANT/REVOKE on a table owned by one of them, against a
		// map of grants: a role holds p when it, or a role whose
		// privileges it uses, owns the table or was granted p, or PUBLIC was.
		owner := roles[rng.IntN(n)].OID
		tbl := &catalog.Table{Owner: owner}
		granted := map[catalog.OID]map[catalog.Privilege]bool{}
		for step := 0; step < 20; step++ {
			var grantees []catalog.OID
			for len(grantees) == 0 || rng.IntN(2) == 0 {
				if rng.IntN(5) == 0 {
					grantees = append(grantees, 0)
				} else {
					grantees = append(grantees, oids[rng.IntN(n)])
				}
			}
			var privs []catalog.Privilege
			for _, p := range catalog.TablePrivileges {
				if rng.IntN(3) == 0 {
					privs = append(privs, p)
				}
			}
			add := rng.IntN(2) == 0
			tbl.ACL = acl.ChangeTableACL(tbl, grantees, privs, add)
			for _, g := range grantees {
				if granted[g] == nil {
					granted[g] = map[catalog.Privilege]bool{}
				}
				for _, p := range privs {
					granted[g][p] = add
				}
			}
			for _, r := range cat.Roles() {
				if r.Superuser {
					continue
				}
				holders := modelClosure(cat, r.OID, true)
				for _, p := range catalog.TablePrivileges {
					want := holders[owner] || granted[0][p]
					for h := range holders {
						if h != owner && granted[h][p] {
							want = true
						}
					}
					if got := acl.HasTablePrivilege(cat, r, tbl, p); got != want {
						t.Fatalf("seed %d round %d step %d: HasTablePrivilege(%s, %c) = %v, model %v (ACL %v)", seed, round, step, r.Name, p, got, want, tbl.ACL)
					}
				}
			}
			// Every item names a distinct grantee (the grantor is always
			// the owner) and holds letters in aclitem order.
			for i, a := range tbl.ACL {
				if a.Grantor != owner || a.Privileges == "" || slices.ContainsFunc(tbl.ACL[:i], func(b catalog.ACLItem) bool { return b.Grantee == a.Grantee }) {
					t.Fatalf("seed %d round %d step %d: bad item %v in %v", seed, round, step, a, tbl.ACL)
				}
				if a.Privileges != acl.MergeLetters("", a.Privileges) {
					t.Fatalf("seed %d round %d step %d: letters %q not in aclitem order", seed, round, step, a.Privileges)
				}
			}
		}
	}
}

// modelClosure is the roles whose privileges (inherit) or memberships
// role has, grown to a fixed point: start from role; add the groups of
// every role in the set (that inherits, when inherit is asked).
func modelClosure(cat *catalog.Snapshot, role catalog.OID, inherit bool) map[catalog.OID]bool {
	set := map[catalog.OID]bool{role: true}
	for changed := true; changed; {
		changed = false
		for _, r := range cat.Roles() {
			if !set[r.OID] || inherit && r.NoInherit {
				continue
			}
			for _, ms := range r.MemberOf {
				if !set[ms.Role] {
					set[ms.Role], changed = true, true
				}
			}
		}
	}
	return set
}
