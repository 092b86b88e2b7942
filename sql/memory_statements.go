package sql

// Query texts and prepared statements are accounted to the memory budget
// too (docs/memory.md): a text while it is parsed (its syntax tree costs
// several times its bytes), and each prepared statement for as long as it
// is reachable (held by a client's name, a portal or the plan cache).

// parseBytesPerTextByte is what parsing costs per byte of text at its
// peak, measured: a 250 MB query took about 1,270 MiB before bounds.
const parseBytesPerTextByte = 5

// statementBytes is what one prepared statement holds beyond its text:
// its syntax tree and plan, about 3 KB for a typical statement (200,000
// held 600 MiB).
const statementBytes = 3 << 10

// accountParse accounts the parse of a query text; the caller closes the
// account when the parse is done.
func (e *Engine) accountParse(query string) (rowsAccount, error) {
	held := rowsAccount{acct: e.memory.NewAccount("the parse of a query text")}
	if err := held.keepBytes(int64(len(query)) * parseBytesPerTextByte); err != nil {
		return held, err
	}
	return held, nil
}

// accountStatements accounts new prepared statements of one text (which
// they share) until each is unreachable.
func (e *Engine) accountStatements(stmts []*preparedStatement, text string) error {
	for i, ps := range stmts {
		held := rowsAccount{acct: e.memory.NewAccount("a prepared statement")}
		n := int64(statementBytes)
		if i == 0 {
			n += int64(len(text)) * 2
		}
		if err := held.keepBytes(n); err != nil {
			return err
		}
		heldBy(held, ps)
	}
	return nil
}
