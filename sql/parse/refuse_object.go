package parse

import "cdcdb/pgerror"

// refuseObject fails CREATE, ALTER or DROP (verb) of an object kind cdcdb
// does not have, at pos, naming the statement; for types, which ORMs send
// for enums (sequelize's ENUM), the hint says what holds the same values.
func (p *parser) refuseObject(verb string, pos int) {
	kind := p.objectKindAt(0)
	e := p.errorAtPos(pgerror.FeatureNotSupported, pos, "%s %s is not supported", verb, kind)
	if kind == "TYPE" {
		e = e.WithHint("cdcdb has no user-defined types; for an enum, a text column with CHECK (column IN (...)) holds the same values.")
	}
	p.bail(e)
}
