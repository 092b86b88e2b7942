package sql

import (
	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
)

// flowOwnerMayApply refuses to run a flow whose owner no longer may read
// what the flow reads, or no longer acts as its target's owner. A flow
// writes its target with its owner's rights (checkFlowRights checks them
// at CREATE FLOW); a REVOKE after that must reach the flow too, or the
// target would show its owner source rows it may no longer read. The
// write that would have fed the flow fails with 42501, as a write firing
// a PostgreSQL trigger that runs with its owner's rights would.
func flowOwnerMayApply(cat *catalog.Snapshot, f *catalog.Flow) error {
	owner, ok := cat.RoleByOID(acl.FlowOwner(f))
	if !ok {
		return pgerror.New(pgerror.InsufficientPrivilege, "the owner of flow \"%s\" no longer exists", f.Name)
	}
	mayRead := func(oid catalog.OID) error {
		t, ok := cat.TableByOID(oid)
		if !ok || acl.HasTablePrivilege(cat, owner, t, catalog.PrivSelect) {
			return nil
		}
		return permissionDenied(t).WithDetail("Flow \"%s\" reads it with the rights of its owner \"%s\", who no longer holds SELECT on it.", f.Name, owner.Name)
	}
	if f.Source != 0 {
		if err := mayRead(f.Source); err != nil {
			return err
		}
	}
	for _, oid := range f.Reads {
		if err := mayRead(oid); err != nil {
			return err
		}
	}
	if target, ok := cat.TableByOID(f.Target); ok && !acl.ActsAsOwner(cat, owner, acl.TableOwner(target)) {
		return permissionDenied(target).WithDetail("Flow \"%s\" writes it with the rights of its owner \"%s\", who no longer owns it.", f.Name, owner.Name)
	}
	return nil
}
