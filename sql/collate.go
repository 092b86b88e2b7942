package sql

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// bytewiseCollations are the collations PostgreSQL always has that order
// text by its bytes, which is the only order cdcdb implements (its
// databases are created with the C locale). COLLATE with one of them
// changes nothing; any other name is refused as PostgreSQL refuses a
// collation it does not know, instead of being silently compared
// bytewise.
// Collation names are case-sensitive: COLLATE "C", not COLLATE C.
var bytewiseCollations = map[string]bool{"default": true, "C": true, "POSIX": true, "ucs_basic": true}

// checkCollation validates e's collation name.
func checkCollation(e *ast.Collate) error {
	parts := e.Collation.Parts
	name := parts[len(parts)-1]
	schemaOK := len(parts) == 1 || (len(parts) == 2 && parts[0] == "pg_catalog")
	if schemaOK && bytewiseCollations[name] {
		return nil
	}
	return pgerror.New(pgerror.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist", strings.Join(parts, ".")).WithPosition(e.OpPos + 1)
}
