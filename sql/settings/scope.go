package settings

// Run-time parameters are transactional, as in PostgreSQL: a SET inside a
// transaction block is undone if the block rolls back (or fails), SET LOCAL
// lasts until the block ends, whichever way, and a SET after a SET LOCAL of
// the same parameter is what the commit keeps. A rollback to a savepoint
// restores every parameter to its value at the savepoint. This file keeps
// the record of a block's changes; the session applies the values it
// returns.

// Change is what a block did to one parameter.
type Change struct {
	// Before is the value the parameter had when the block first changed
	// it: what a rollback restores.
	Before string
	// Session is the value a SET (not LOCAL) in the block gave it, which
	// a commit keeps (SessionSet); a commit of a block that only SET
	// LOCAL restores Before.
	Session    string
	SessionSet bool
}

// Changes are the parameters a block changed, by lower-case name.
type Changes map[string]*Change

// Record notes that the block gives parameter ln value, for the session
// or (local) until the block ends; current is the value it has now.
func (c *Changes) Record(ln, current, value string, local bool) {
	ch := (*c)[ln]
	if ch == nil {
		if *c == nil {
			*c = Changes{}
		}
		ch = &Change{Before: current}
		(*c)[ln] = ch
	}
	if !local {
		ch.Session, ch.SessionSet = value, true
	}
}

// AtEnd returns the value each changed parameter has once the block ends:
// a commit keeps the values set by SET, a rollback restores every one.
func (c Changes) AtEnd(commit bool) map[string]string {
	out := make(map[string]string, len(c))
	for ln, ch := range c {
		v := ch.Before
		if commit && ch.SessionSet {
			v = ch.Session
		}
		out[ln] = v
	}
	return out
}

// Clone copies the record, for a savepoint to return to.
func (c Changes) Clone() Changes {
	if c == nil {
		return nil
	}
	out := make(Changes, len(c))
	for ln, ch := range c {
		cp := *ch
		out[ln] = &cp
	}
	return out
}

// RolledBack returns the parameters whose value must change when a block
// rolls back to a savepoint: those whose current value differs from the
// saved one, with the saved value ("" for a parameter the savepoint did
// not have, a custom one set since). Whether SET or SET LOCAL changed
// them, PostgreSQL's subtransaction abort restores them.
func RolledBack(current, saved map[string]string) map[string]string {
	out := map[string]string{}
	for ln, v := range current {
		if old, ok := saved[ln]; !ok || old != v {
			out[ln] = saved[ln]
		}
	}
	return out
}
