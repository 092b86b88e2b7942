package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// parseTransaction parses BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK,
// ABORT, SAVEPOINT, RELEASE and ROLLBACK TO.
func (p *parser) parseTransaction() ast.Statement {
	t := p.advance()
	tx := &ast.Transaction{Verb: strings.ToUpper(t.str), Pos: t.pos}
	switch t.str {
	case "begin":
		tx.Kind = ast.TxBegin
		if !p.acceptWord("work") {
			p.acceptWord("transaction")
		}
		tx.Modes = p.parseTransactionModes()
	case "start":
		tx.Kind = ast.TxBegin
		p.expectWord("transaction")
		tx.Modes = p.parseTransactionModes()
	case "commit", "end":
		tx.Kind = ast.TxCommit
		p.acceptWorkOrTransaction()
		p.parseChain()
	case "rollback", "abort":
		tx.Kind = ast.TxRollback
		p.acceptWorkOrTransaction()
		if t.str == "rollback" && p.acceptWord("to") {
			tx.Kind = ast.TxRollbackTo
			p.acceptWord("savepoint")
			tx.Savepoint = p.colID()
			return tx
		}
		p.parseChain()
	case "savepoint":
		tx.Kind = ast.TxSavepoint
		tx.Savepoint = p.colID()
	case "release":
		tx.Kind = ast.TxRelease
		p.acceptWord("savepoint")
		tx.Savepoint = p.colID()
	}
	return tx
}

func (p *parser) acceptWorkOrTransaction() {
	if !p.acceptWord("work") {
		p.acceptWord("transaction")
	}
}

// parseChain accepts AND NO CHAIN (the default) and refuses AND CHAIN.
func (p *parser) parseChain() {
	if !p.peek().is("and") {
		return
	}
	t := p.advance()
	if p.acceptWord("no") {
		p.expectWord("chain")
		return
	}
	p.expectWord("chain")
	p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "AND CHAIN is not supported"))
}

// parseTransactionModes parses ISOLATION LEVEL ..., READ ONLY | WRITE,
// [NOT] DEFERRABLE, separated by optional commas, into their canonical
// upper-case text.
func (p *parser) parseTransactionModes() []ast.TxMode {
	var modes []ast.TxMode
	for {
		t := p.peek()
		switch {
		case t.is("isolation"):
			p.advance()
			p.expectWord("level")
			switch {
			case p.acceptWord("serializable"):
				modes = append(modes, ast.ModeSerializable)
			case p.acceptWord("repeatable"):
				p.expectWord("read")
				modes = append(modes, ast.ModeRepeatableRead)
			case p.acceptWord("read"):
				if p.acceptWord("committed") {
					modes = append(modes, ast.ModeReadCommitted)
				} else {
					p.expectWord("uncommitted")
					modes = append(modes, ast.ModeReadUncommitted)
				}
			default:
				p.fail()
			}
		case t.is("read"):
			p.advance()
			if p.acceptWord("only") {
				modes = append(modes, ast.ModeReadOnly)
			} else {
				p.expectWord("write")
				modes = append(modes, ast.ModeReadWrite)
			}
		case t.is("deferrable"):
			p.advance()
			modes = append(modes, ast.ModeDeferrable)
		case t.is("not") && p.peekN(1).is("deferrable"):
			p.advance()
			p.advance()
			modes = append(modes, ast.ModeNotDeferrable)
		default:
			return modes
		}
		if len(modes) > 0 && p.peek().isOp(",") {
			p.advance()
			if n := p.peek(); !(n.is("isolation") || n.is("read") || n.is("deferrable") || n.is("not")) {
				p.fail()
			}
		}
	}
}

// parseSet parses the SET forms:
//
//	SET [SESSION | LOCAL] name {TO | =} value [, ...] | DEFAULT
//	SET [SESSION | LOCAL] TIME ZONE value | LOCAL | DEFAULT   (Name "timezone")
//	SET NAMES 'enc'                                          (Name "client_encoding")
//	SET SCHEMA 'name'                                        (Name "search_path")
//	SET ROLE name, SET SESSION AUTHORIZATION name
//	SET TRANSACTION modes                                    (Name "transaction", Local)
//	SET SESSION CHARACTERISTICS AS TRANSACTION modes         (Name "transaction")
//
// Transaction modes become string literals with their canonical text
// (ast.ModeSerializable, ast.ModeReadOnly).
func (p *parser) parseSet() ast.Statement {
	t := p.expectWord("set")
	s := &ast.Set{Pos: t.pos}
	switch {
	case p.peek().is("session") && p.peekN(1).is("characteristics"):
		p.advance()
		p.advance()
		p.expectWords("as", "transaction")
		s.Name = "transaction"
		s.Values = p.modeLiterals()
		return s
	case p.peek().is("session") && p.peekN(1).is("authorization"):
	case p.acceptWord("session"):
	case p.acceptWord("local"):
		s.Local = true
	}
	w := p.peek()
	switch {
	case w.is("constraints") && !s.Local && !p.peekN(1).isOp("=") && !p.peekN(1).is("to"):
		return p.parseSetConstraints(t.pos) // setconstraints.go
	case w.is("transaction"):
		p.advance()
		if n := p.peek(); n.is("snapshot") {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, n.pos, "SET TRANSACTION SNAPSHOT is not supported"))
		}
		s.Name = "transaction"
		s.Local = true // it applies to the current transaction only
		s.Values = p.modeLiterals()
		return s
	case w.is("time") && p.peekN(1).is("zone"):
		p.advance()
		p.advance()
		s.Name = "timezone"
		p.parseZoneValue(s)
		return s
	case w.is("names"):
		p.advance()
		s.Name = "client_encoding"
		if p.acceptWord("default") {
			s.Default = true
		} else if p.peek().kind == tkString {
			s.Values = []ast.Expr{p.stringLiteral()}
		} else {
			s.Default = true // SET NAMES alone resets, as in PostgreSQL
		}
		return s
	case w.is("schema"):
		p.advance()
		s.Name = "search_path"
		s.Values = []ast.Expr{p.stringLiteral()}
		return s
	case w.is("role"):
		p.advance()
		s.Name = "role"
		s.Values = []ast.Expr{p.wordOrStringLiteral()}
		return s
	case w.is("session") && p.peekN(1).is("authorization"):
		p.advance()
		p.advance()
		s.Name = "session_authorization"
		if p.acceptWord("default") {
			s.Default = true
		} else {
			s.Values = []ast.Expr{p.wordOrStringLiteral()}
		}
		return s
	}
	s.Name = p.varName()
	if !p.acceptWord("to") {
		if f := p.peek(); f.is("from") {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, f.pos, "SET ... FROM CURRENT is not supported"))
		}
		p.expectOp("=")
	}
	if p.acceptWord("default") {
		s.Default = true
		return s
	}
	for {
		s.Values = append(s.Values, p.varValue())
		if !p.acceptOp(",") {
			return s
		}
	}
}

// modeLiterals parses transaction modes as string literals.
func (p *parser) modeLiterals() []ast.Expr {
	start := p.peek()
	modes := p.parseTransactionModes()
	if len(modes) == 0 {
		p.failAt(start)
	}
	out := make([]ast.Expr, len(modes))
	for i, m := range modes {
		out[i] = &ast.Literal{Kind: ast.LitString, Value: string(m), Pos: start.pos}
	}
	return out
}

// varName is a configuration parameter name: ColId [. ColId ...].
func (p *parser) varName() string {
	name := p.colID()
	for p.acceptOp(".") {
		name += "." + p.colID()
	}
	return name
}

// varValue is PostgreSQL's var_value: a boolean word, a word, a string or
// a signed number. Words and strings both become string literals, as they
// are for PostgreSQL's SET.
func (p *parser) varValue() ast.Expr {
	t := p.peek()
	switch {
	case t.isOp("+") || t.isOp("-"):
		p.advance()
		n := p.peek()
		if n.kind != tkInteger && n.kind != tkNumeric {
			p.fail()
		}
		lit := p.parsePrimary().(*ast.Literal)
		if t.str == "-" {
			return negateLiteral(lit, t.pos)
		}
		lit.Pos = t.pos
		return lit
	case t.kind == tkInteger || t.kind == tkNumeric:
		return p.parsePrimary()
	}
	return p.wordOrStringLiteral()
}

// wordOrStringLiteral is NonReservedWord_or_Sconst (plus TRUE, FALSE, ON)
// as a string literal.
func (p *parser) wordOrStringLiteral() ast.Expr {
	t := p.peek()
	if t.kind == tkString || t.is("true") || t.is("false") || t.is("on") || isNonReservedWord(t) {
		p.advance()
		return &ast.Literal{Kind: ast.LitString, Value: t.str, Pos: t.pos}
	}
	p.fail()
	return nil
}

func (p *parser) stringLiteral() ast.Expr {
	t := p.peek()
	s := p.stringConst()
	return &ast.Literal{Kind: ast.LitString, Value: s, Pos: t.pos}
}

// parseZoneValue parses SET TIME ZONE's value: a string, an identifier, a
// number, INTERVAL '...' [fields], LOCAL or DEFAULT (the last two mean the
// same: the server's default).
func (p *parser) parseZoneValue(s *ast.Set) {
	t := p.peek()
	switch {
	case t.is("local"), t.is("default"):
		p.advance()
		s.Default = true
	case t.is("interval"):
		s.Values = []ast.Expr{p.parseTypedLiteral()}
	case t.kind == tkString:
		s.Values = []ast.Expr{p.stringLiteral()}
	case t.kind == tkIdent && t.kw == notKeyword || t.kind == tkQIdent:
		p.advance()
		s.Values = []ast.Expr{&ast.Literal{Kind: ast.LitString, Value: t.str, Pos: t.pos}}
	default:
		if !(t.isOp("+") || t.isOp("-") || t.kind == tkInteger || t.kind == tkNumeric) {
			p.fail()
		}
		s.Values = []ast.Expr{p.varValue()}
	}
}

// parseShow parses SHOW name | ALL | TIME ZONE | TRANSACTION ISOLATION LEVEL
// | SESSION AUTHORIZATION.
func (p *parser) parseShow() ast.Statement {
	t := p.expectWord("show")
	return &ast.Show{Name: p.parseSettingName(), Pos: t.pos}
}

// parseReset parses RESET name | ALL and the same special names as SHOW.
func (p *parser) parseReset() ast.Statement {
	t := p.expectWord("reset")
	return &ast.Reset{Name: p.parseSettingName(), Pos: t.pos}
}

func (p *parser) parseSettingName() string {
	switch t := p.peek(); {
	case t.is("all"):
		p.advance()
		return "all"
	case t.is("time") && p.peekN(1).is("zone"):
		p.advance()
		p.advance()
		return "timezone"
	case t.is("transaction") && p.peekN(1).is("isolation"):
		p.advance()
		p.advance()
		p.expectWord("level")
		return "transaction_isolation"
	case t.is("session") && p.peekN(1).is("authorization"):
		p.advance()
		p.advance()
		return "session_authorization"
	}
	return p.varName()
}

// parseNotification parses LISTEN channel, UNLISTEN channel | *, and
// NOTIFY channel [, 'payload'].
func (p *parser) parseNotification() ast.Statement {
	t := p.advance()
	switch t.str {
	case "listen":
		return &ast.Listen{Channel: p.colID(), Pos: t.pos}
	case "unlisten":
		if p.acceptOp("*") {
			return &ast.Unlisten{Pos: t.pos}
		}
		return &ast.Unlisten{Channel: p.colID(), Pos: t.pos}
	}
	n := &ast.Notify{Channel: p.colID(), Pos: t.pos}
	if p.acceptOp(",") {
		n.Payload = p.stringConst()
	}
	return n
}

// parseDiscard parses DISCARD ALL | PLANS | SEQUENCES | TEMP | TEMPORARY.
func (p *parser) parseDiscard() ast.Statement {
	t := p.expectWord("discard")
	d := &ast.Discard{Pos: t.pos}
	switch {
	case p.acceptWord("all"):
		d.What = "ALL"
	case p.acceptWord("plans"):
		d.What = "PLANS"
	case p.acceptWord("sequences"):
		d.What = "SEQUENCES"
	case p.acceptWord("temp"), p.acceptWord("temporary"):
		d.What = "TEMP"
	default:
		p.fail()
	}
	return d
}

// parseDeallocate parses DEALLOCATE [PREPARE] name | ALL.
func (p *parser) parseDeallocate() ast.Statement {
	t := p.expectWord("deallocate")
	d := &ast.Deallocate{Pos: t.pos}
	p.acceptWord("prepare")
	if p.acceptWord("all") {
		return d
	}
	d.Name = p.colID()
	return d
}

// parseExplain parses EXPLAIN [ANALYZE] [VERBOSE] stmt and EXPLAIN
// (option [value], ...) stmt. Options are recorded lower-case with their
// value as written ("true" when none was given); ANALYZE and VERBOSE are
// also reflected in the flags.
func (p *parser) parseExplain() ast.Statement {
	t := p.expectWord("explain")
	ex := &ast.Explain{Pos: t.pos, Options: map[string]string{}}
	if p.peek().isOp("(") {
		p.advance()
		for {
			nt := p.peek()
			if !(isNonReservedWord(nt) || nt.is("analyze") || nt.is("analyse")) {
				p.fail()
			}
			p.advance()
			name := nt.str
			if name == "analyse" {
				name = "analyze"
			}
			value := "true"
			if v := p.peek(); !v.isOp(",") && !v.isOp(")") {
				value = p.optionValue()
			}
			if _, dup := ex.Options[name]; dup {
				p.bail(p.errorAtPos(pgerror.SyntaxError, nt.pos, "conflicting or redundant options"))
			}
			ex.Options[name] = value
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		ex.Analyze = isTrueOption(ex.Options["analyze"])
		ex.Verbose = isTrueOption(ex.Options["verbose"])
	} else {
		if p.acceptWord("analyze") || p.acceptWord("analyse") {
			ex.Analyze = true
			ex.Options["analyze"] = "true"
		}
		if p.acceptWord("verbose") {
			ex.Verbose = true
			ex.Options["verbose"] = "true"
		}
	}
	st := p.peek()
	switch {
	case st.is("select"), st.is("values"), st.is("table"), st.is("with"), st.isOp("("),
		st.is("insert"), st.is("update"), st.is("delete"):
		ex.Stmt = p.parseStatement()
	case st.is("create"):
		stmt := p.parseStatement()
		if ct, ok := stmt.(*ast.CreateTable); !ok || ct.AsQuery == nil {
			p.failAt(st)
		}
		ex.Stmt = stmt
	default:
		p.fail()
	}
	return ex
}

// isTrueOption reads a boolean option value as PostgreSQL's defGetBoolean.
func isTrueOption(v string) bool {
	switch strings.ToLower(v) {
	case "true", "on", "1", "yes", "t", "y":
		return true
	}
	return false
}

// parseLock parses LOCK [TABLE] [ONLY] name [*] [, ...] [IN lockmode MODE]
// [NOWAIT].
func (p *parser) parseLock() ast.Statement {
	t := p.expectWord("lock")
	l := &ast.LockTable{Pos: t.pos, Mode: "ACCESS EXCLUSIVE"}
	p.acceptWord("table")
	for {
		l.Tables = append(l.Tables, p.parseRelationExpr().Name)
		if !p.acceptOp(",") {
			break
		}
	}
	if p.acceptWord("in") {
		switch {
		case p.acceptWord("access"):
			switch {
			case p.acceptWord("share"):
				l.Mode = "ACCESS SHARE"
			default:
				p.expectWord("exclusive")
				l.Mode = "ACCESS EXCLUSIVE"
			}
		case p.acceptWord("row"):
			switch {
			case p.acceptWord("share"):
				l.Mode = "ROW SHARE"
			default:
				p.expectWord("exclusive")
				l.Mode = "ROW EXCLUSIVE"
			}
		case p.acceptWord("share"):
			switch {
			case p.acceptWord("update"):
				p.expectWord("exclusive")
				l.Mode = "SHARE UPDATE EXCLUSIVE"
			case p.acceptWord("row"):
				p.expectWord("exclusive")
				l.Mode = "SHARE ROW EXCLUSIVE"
			default:
				l.Mode = "SHARE"
			}
		default:
			p.expectWord("exclusive")
			l.Mode = "EXCLUSIVE"
		}
		p.expectWord("mode")
	}
	l.NoWait = p.acceptWord("nowait")
	return l
}
