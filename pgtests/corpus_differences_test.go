package pgtests

// corpusDifference is a corpus statement where cdcdb answers differently
// from PostgreSQL 15 on purpose.
type corpusDifference struct {
	why   string // the reason, for the reader of a failing test
	cdcdb string // cdcdb's answer, in the corpus result format
}

// corpusDifferences lists, by statement text, the deliberate differences
// between cdcdb and PostgreSQL 15 in the corpus. Keep it short: an entry is
// a decision, not a place to park a bug. TestSQLCorpus fails when a listed
// statement is no longer in the corpus or no longer differs.
var corpusDifferences = map[string]corpusDifference{
	"ALTER TABLE keyed DROP COLUMN id": {
		why: "cdcdb stores a table's rows, indexes and commit-time history under the primary key; " +
			"PostgreSQL drops the key with its column, cdcdb keeps the key and refuses",
		cdcdb: "ERROR 2BP01: cannot drop column id of table keyed because other objects depend on it",
	},
	"SELECT B'101', X'1F'": {
		why: "cdcdb has no bit or bit varying type; a bit string literal is refused " +
			"rather than read as some other type's value",
		cdcdb: "ERROR 0A000 at 8: bit string literals are not supported",
	},
}
