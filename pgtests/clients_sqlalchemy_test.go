package pgtests

import (
	"fmt"
	"strings"
	"testing"
)

// TestSQLAlchemyMigration: SQLAlchemy 1.4's create_all with a DEFERRABLE
// INITIALLY DEFERRED foreign key, a non-native Enum and a CHECK, a column
// type change with USING, the inspector's reflection of columns, keys,
// indexes and constraints, and ORM writes that need the deferred check:
// the same transcript on cdcdb as on PostgreSQL 15. See
// testdata/clients/cdcdb_sqlalchemy.py.
func TestSQLAlchemyMigration(t *testing.T) {
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	requirePythonModule(t, "sqlalchemy", "python3-sqlalchemy")
	var outs []string
	for _, tg := range bothTargets(t) {
		outs = append(outs, runClient(t, "SQLALCHEMY OK", nil, systemPython, clientProgram(t, "cdcdb_sqlalchemy.py"), tg.Host, fmt.Sprint(tg.Port), tg.DB))
	}
	for _, want := range []string{
		"fk orders_shop_id_fkey ['shop_id'] shops ['id'] [('deferrable', True), ('initially', 'DEFERRED'), ('ondelete', 'CASCADE')]",
		"order (1, 7, 42, 'open', 5)",
		"missing shop refused: 23503",
	} {
		if !strings.Contains(outs[0], want) {
			t.Errorf("cdcdb's transcript has no %q:\n%s", want, outs[0])
		}
	}
	if len(outs) == 2 && outs[0] != outs[1] {
		t.Errorf("cdcdb:\n%s\nPostgreSQL 15:\n%s", outs[0], outs[1])
	}
}
