package catalog

// ExprIndex is an index on expressions, or with a WHERE predicate (a
// partial index), or both. It is kept apart from Table.Indexes, which the
// planner, foreign keys and ON CONFLICT read as indexes over plain columns
// of every row: nothing reads an ExprIndex to answer a query. A UNIQUE one
// is enforced: its space IndexSpace(OID) maps each key (of the rows its
// predicate holds for, without NULLs) to the row's storage key. A non-unique
// one has no space; it is kept so that the catalogs, and so pg_dump, show
// it as defined.
type ExprIndex struct {
	OID    OID            `json:"oid"`
	Name   string         `json:"name"`
	Unique bool           `json:"unique,omitempty"`
	Keys   []ExprIndexKey `json:"keys"`
	// Predicate is the WHERE expression in SQL text, "" for none.
	Predicate string `json:"predicate,omitempty"`
	// Uses lists the attnums of the columns the keys and predicate read:
	// their text names them, so they may not be renamed or dropped while
	// the index exists.
	Uses []int16 `json:"uses,omitempty"`
}

// ExprIndexKey is one key of an ExprIndex: a column (Attnum) or an
// expression in SQL text (Expr, Attnum 0).
type ExprIndexKey struct {
	Attnum int16  `json:"attnum,omitempty"`
	Expr   string `json:"expr,omitempty"`
	Desc   bool   `json:"desc,omitempty"`
}
