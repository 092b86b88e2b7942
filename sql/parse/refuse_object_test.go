package parse

import (
	"strings"
	"testing"

	"cdcdb/pgerror"
)

// TestRefuseObjectHintsEnums: CREATE, ALTER and DROP of a type are refused
// with 0A000 and a hint saying what holds an enum's values; other kinds
// cdcdb lacks get no such hint.
func TestRefuseObjectHintsEnums(t *testing.T) {
	for _, tc := range []struct {
		sql, message string
		hint         bool
	}{
		{"CREATE TYPE mood AS ENUM ('sad', 'ok')", "CREATE TYPE is not supported", true},
		{"ALTER TYPE mood ADD VALUE 'happy'", "ALTER TYPE is not supported", true},
		{"DROP TYPE IF EXISTS mood", "DROP TYPE is not supported", true},
		{"CREATE DOMAIN d AS int", "CREATE DOMAIN is not supported", false},
		{"DROP EXTENSION x", "DROP EXTENSION is not supported", false},
	} {
		_, err := Parse(tc.sql)
		e := pgerror.As(err)
		if err == nil || e.Code != pgerror.FeatureNotSupported || e.Message != tc.message || e.Position != 1 {
			t.Errorf("%s: %v (position %d), want 0A000 %q at 1", tc.sql, err, e.Position, tc.message)
			continue
		}
		if got := strings.Contains(e.Hint, "CHECK (column IN (...))"); got != tc.hint {
			t.Errorf("%s: hint %q", tc.sql, e.Hint)
		}
	}
}
