package sql_test

import (
	"testing"

	"cdcdb/sql/pgdefs"
	"cdcdb/sql/sqltest"
)

// Every system relation can be read, with PostgreSQL 15's columns.
func TestSystemRelationsAreReadable(t *testing.T) {
	c := sqltest.Open(t).Conn()
	for _, cat := range pgdefs.Catalogs() {
		switch cat.Name {
		case "pg_statistic_ext_data", "pg_subscription_rel", "pg_subscription":
			continue // types cdcdb has no values for
		}
		if _, err := c.Exec("SELECT * FROM pg_catalog." + cat.Name); err != nil {
			t.Errorf("%s: %v", cat.Name, err)
		}
	}
	for _, v := range pgdefs.SystemViews() {
		if _, err := c.Exec("SELECT * FROM pg_catalog." + v.Name); err != nil {
			t.Errorf("%s: %v", v.Name, err)
		}
	}
	for _, v := range pgdefs.InfoSchemaViews() {
		if _, err := c.Exec("SELECT * FROM information_schema." + v.Name); err != nil {
			t.Errorf("information_schema.%s: %v", v.Name, err)
		}
	}
}
