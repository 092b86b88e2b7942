package sql

// Query texts and prepared statements are accounted to the memory budget
// too (docs/memory.md): a text, from its Parse for as long as the
// statements made of it are reachable (its syntax tree and the copies made
// on the way cost several times its bytes), and each prepared statement
// for as long as it is reachable (held by a client's name, a portal or the
// plan cache).

// textBytesPerByte is what a query text costs per byte, measured at its
// peak from the message to the result: a 40 MiB SELECT of a literal
// raised the server's peak by 5.2 times that.
const textBytesPerByte = 6

// statementBytes is what one prepared statement holds beyond its text:
// its syntax tree and plan, about 3 KB for a typical statement (200,000
// held 600 MiB).
const statementBytes = 3 << 10

// smallTextBytes is the size below which a text is not accounted on its
// own: what it costs is within its statements' statementBytes, and the
// texts clients send again and again pay nothing for it.
const smallTextBytes = 64 << 10

// accountText accounts a query text about to be parsed; the caller hands
// the account to the statements made of it (accountStatements), or
// closes it.
func (e *Engine) accountText(query string) (rowsAccount, error) {
	if len(query) < smallTextBytes {
		return rowsAccount{}, nil
	}
	held := rowsAccount{acct: e.memory.NewAccount("a query text")}
	if err := held.keepBytes(int64(len(query)) * textBytesPerByte); err != nil {
		held.close()
		return held, err
	}
	return held, nil
}

// accountStatements accounts new prepared statements of one text until
// each is unreachable; text, the text's account, goes with the first.
func (e *Engine) accountStatements(stmts []*preparedStatement, text rowsAccount) error {
	if len(stmts) == 0 {
		text.close()
		return nil
	}
	if text.acct != nil {
		heldBy(text, stmts[0])
	}
	for _, ps := range stmts {
		held := rowsAccount{acct: e.memory.NewAccount("a prepared statement")}
		if err := held.keepBytes(statementBytes); err != nil {
			return err
		}
		heldBy(held, ps)
	}
	return nil
}
