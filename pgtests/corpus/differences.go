package corpus

// Difference is a corpus statement where cdcdb answers differently from
// PostgreSQL 15 on purpose.
type Difference struct {
	Why   string // the reason, for the reader of a failing test
	Cdcdb string // cdcdb's answer, in the corpus format
}

// Differences lists, by statement text, the deliberate differences between
// cdcdb and PostgreSQL 15 in the corpus. Keep it short: an entry is a
// decision, not a place to park a bug. CheckFiles fails when a listed
// statement is no longer in the corpus, and CheckAnswers when it no longer
// differs.
var Differences = map[string]Difference{
	"ALTER TABLE keyed DROP COLUMN id": {
		Why: "cdcdb stores a table's rows, indexes and commit-time history under the primary key; " +
			"PostgreSQL drops the key with its column, cdcdb keeps the key and refuses",
		Cdcdb: "ERROR 2BP01: cannot drop column id of table keyed because other objects depend on it",
	},
	"SELECT B'101', X'1F'": {
		Why: "cdcdb has no bit or bit varying type; a bit string literal is refused " +
			"rather than read as some other type's value",
		Cdcdb: "ERROR 0A000 at 8: bit string literals are not supported",
	},
}
