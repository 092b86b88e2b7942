package parse

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// This file reads cdcdb's AUTO CDC statements (docs/autocdc.md §1):
//
//	CREATE [OR REFRESH] STREAMING TABLE t [(columns)] [COMMENT '...'] [AS query]
//	CREATE FLOW f [COMMENT '...'] AS AUTO CDC [ONCE] INTO t FROM source clauses
//	CREATE FLOW f ... INTO t FROM SNAPSHOT { (query) | table } clauses
//	APPLY CHANGES INTO [LIVE.]t FROM STREAM([LIVE.]source) clauses
//	REFRESH STREAMING TABLE t [FULL]
//
// None of their words are PostgreSQL keywords (or only unreserved ones), so
// they are matched by spelling and remain usable as names elsewhere. The
// clauses after FROM may come in any order, each once; which ones are
// required is the planner's business, so that it can say so clearly.

// flowClauseWords are the words that begin a flow clause. A source written
// as STREAM followed by one of them is a table named "stream" followed by a
// clause, not STREAM <table>.
var flowClauseWords = map[string]bool{
	"keys": true, "ignore": true, "apply": true, "sequence": true, "system": true,
	"columns": true, "stored": true, "track": true,
	// the clauses of snapshot flows (spec §7)
	"with": true, "version": true, "trigger": true,
}

// parseCreateStreamingTable parses CREATE [OR REFRESH] STREAMING TABLE.
func (p *parser) parseCreateStreamingTable(start *token, orRefresh bool) ast.Statement {
	p.expectWords("streaming", "table")
	ct := &ast.CreateTable{Streaming: true, OrRefresh: orRefresh, Pos: start.pos}
	ct.IfNotExists = p.parseIfNotExists()
	ct.Name = p.qualifiedName()
	if p.peek().isOp("(") {
		p.parseTableElements(ct)
	}
	if p.acceptWord("comment") {
		ct.Comment = p.stringConst()
	}
	if p.acceptWord("as") {
		ct.AsQuery = p.parseSelectStmt()
	}
	return ct
}

// parseCreateFlow parses CREATE FLOW name [COMMENT 'text'] AS AUTO CDC
// [ONCE] INTO target FROM source clauses.
func (p *parser) parseCreateFlow(start *token) ast.Statement {
	p.expectWord("flow")
	cf := &ast.CreateFlow{Pos: start.pos, Clauses: map[string]int{}}
	cf.Name = p.colID()
	if p.acceptWord("comment") {
		cf.Comment = p.stringConst()
	}
	p.expectWords("as", "auto", "cdc")
	cf.Once = p.acceptWord("once")
	into := p.expectWord("into")
	cf.Clauses["INTO"] = into.pos
	cf.Target = p.qualifiedName()
	from := p.expectWord("from")
	cf.Clauses["FROM"] = from.pos
	if p.isSnapshotSource() {
		p.parseSnapshotSource(cf)
	} else {
		cf.Source, cf.Feed = p.parseFlowSource()
	}
	p.parseFlowClauses(cf)
	cf.Text = p.src[start.pos:p.prevEnd()]
	return cf
}

// isSnapshotSource reports whether FROM is followed by SNAPSHOT (query) or
// SNAPSHOT table; a table named "snapshot" followed by a clause is not.
func (p *parser) isSnapshotSource() bool {
	if !p.peek().is("snapshot") {
		return false
	}
	n := p.peekN(1)
	return n.isOp("(") || (isColID(n) && !(n.kind == tkIdent && flowClauseWords[n.str]))
}

// parseSnapshotSource parses SNAPSHOT (query) | SNAPSHOT table.
func (p *parser) parseSnapshotSource(cf *ast.CreateFlow) {
	p.expectWord("snapshot")
	cf.Snapshot = true
	if t := p.peek(); t.isOp("(") {
		p.advance()
		cf.Source = ast.QualifiedName{Pos: p.peek().pos}
		cf.SnapshotQuery = p.parseSelectStmt()
		p.expectOp(")")
		return
	}
	cf.Source = p.qualifiedName()
}

// parseApplyChanges parses the older APPLY CHANGES INTO spelling. The flow
// takes its target's name; a leading LIVE. (the Delta Live Tables schema)
// is dropped from both names.
func (p *parser) parseApplyChanges() ast.Statement {
	start := p.expectWord("apply")
	p.expectWord("changes")
	cf := &ast.CreateFlow{Pos: start.pos, Clauses: map[string]int{}}
	into := p.expectWord("into")
	cf.Clauses["INTO"] = into.pos
	cf.Target = stripLive(p.qualifiedName())
	cf.Name = cf.Target.Name()
	from := p.expectWord("from")
	cf.Clauses["FROM"] = from.pos
	src, feed := p.parseFlowSource()
	cf.Source, cf.Feed = stripLive(src), feed
	p.parseFlowClauses(cf)
	cf.Text = p.src[start.pos:p.prevEnd()]
	return cf
}

func stripLive(q ast.QualifiedName) ast.QualifiedName {
	if len(q.Parts) > 1 && q.Parts[0] == "live" {
		q.Parts = q.Parts[1:]
	}
	return q
}

// parseFlowSource parses stream(source) | STREAM(source) | STREAM source |
// source, or a change feed, stream(function(args)), whose function and
// arguments the planner checks.
func (p *parser) parseFlowSource() (ast.QualifiedName, *ast.ChangeFeedSource) {
	if t := p.peek(); t.is("stream") {
		n := p.peekN(1)
		if n.isOp("(") {
			p.advance()
			p.advance()
			q := p.qualifiedName()
			if p.peek().isOp("(") {
				p.advance()
				feed := &ast.ChangeFeedSource{Func: q, Pos: q.Pos}
				if !p.peek().isOp(")") {
					feed.Args = p.parseExprList()
				}
				p.expectOp(")")
				p.expectOp(")")
				return ast.QualifiedName{}, feed
			}
			p.expectOp(")")
			return q, nil
		}
		if isColID(n) && !(n.kind == tkIdent && flowClauseWords[n.str]) {
			p.advance()
			return p.qualifiedName(), nil
		}
	}
	return p.qualifiedName(), nil
}

// parseFlowClauses parses the clauses after FROM, in any order, each once.
func (p *parser) parseFlowClauses(cf *ast.CreateFlow) {
	for {
		t := p.peek()
		if t.kind != tkIdent || !flowClauseWords[t.str] {
			return
		}
		var name string
		switch t.str {
		case "keys":
			name = "KEYS"
		case "ignore":
			name = "IGNORE NULL UPDATES"
		case "apply":
			switch n := p.peekN(2); {
			case n.is("delete"):
				name = "APPLY AS DELETE WHEN"
			case n.is("truncate"):
				name = "APPLY AS TRUNCATE WHEN"
			default:
				p.expectWords("apply", "as")
				p.fail()
			}
		case "sequence":
			name = "SEQUENCE BY"
		case "system":
			name = "SYSTEM SEQUENCE BY"
		case "columns":
			name = "COLUMNS"
			if p.peekN(1).is("to") {
				name = "COLUMNS TO UPDATE"
			}
		case "stored":
			name = "STORED AS"
		case "track":
			name = "TRACK HISTORY ON"
		case "with":
			name = "WITH VERSION"
		case "version":
			name = "VERSION BY"
		case "trigger":
			name = "TRIGGER ON UPDATE"
		}
		if !cf.Snapshot && (name == "WITH VERSION" || name == "VERSION BY" || name == "TRIGGER ON UPDATE") {
			p.bail(p.errorAtPos(pgerror.SyntaxError, t.pos, "clause %s is only allowed in a flow FROM SNAPSHOT", name))
		}
		if _, dup := cf.Clauses[name]; dup {
			p.bail(p.errorAtPos(pgerror.SyntaxError, t.pos, "clause %s specified more than once", name))
		}
		cf.Clauses[name] = t.pos
		switch name {
		case "KEYS":
			p.advance()
			cf.Keys = p.parenNameList()
		case "IGNORE NULL UPDATES":
			p.expectWords("ignore", "null", "updates")
			cf.IgnoreNullUpdates = &ast.ColumnSelection{All: true}
			if p.acceptWord("on") {
				cf.IgnoreNullUpdates = p.parseColumnSelection(false)
			}
		case "APPLY AS DELETE WHEN":
			p.expectWords("apply", "as", "delete", "when")
			cf.DeleteWhen = p.parseExpr()
		case "APPLY AS TRUNCATE WHEN":
			p.expectWords("apply", "as", "truncate", "when")
			cf.TruncateWhen = p.parseExpr()
		case "SEQUENCE BY":
			p.expectWords("sequence", "by")
			cf.SequenceBy, cf.SequenceIsStruct = p.parseSequenceBy()
		case "SYSTEM SEQUENCE BY":
			p.expectWords("system", "sequence", "by")
			cf.SystemSequenceBy = p.parseExpr()
		case "COLUMNS":
			p.advance()
			cf.Columns = p.parseColumnSelection(true)
		case "COLUMNS TO UPDATE":
			p.expectWords("columns", "to", "update")
			cf.ColumnsToUpdate = p.colID()
		case "STORED AS":
			p.expectWords("stored", "as")
			cf.StoredAs = p.parseStoredAs()
		case "TRACK HISTORY ON":
			p.expectWords("track", "history", "on")
			cf.TrackHistory = p.parseColumnSelection(false)
		case "WITH VERSION":
			p.expectWords("with", "version")
			p.expectOp("(")
			cf.VersionQuery = p.parseSelectStmt()
			p.expectOp(")")
		case "VERSION BY":
			p.expectWords("version", "by")
			cf.VersionBy = p.parseExpr()
		case "TRIGGER ON UPDATE":
			p.expectWords("trigger", "on", "update")
		}
		if name == "TRIGGER ON UPDATE" {
			cf.TriggerOnUpdate = true
		}
		if cf.VersionQuery != nil && cf.VersionBy != nil {
			p.bail(p.errorAtPos(pgerror.SyntaxError, t.pos, "WITH VERSION and VERSION BY cannot be combined"))
		}
	}
}

// parseColumnSelection parses ( col, ... ) or * EXCEPT ( col, ... ); with
// bare, also col, col without parentheses (the COLUMNS clause).
func (p *parser) parseColumnSelection(bare bool) *ast.ColumnSelection {
	t := p.peek()
	switch {
	case t.isOp("*"):
		p.advance()
		p.expectWord("except")
		return &ast.ColumnSelection{All: true, Columns: p.parenNameList()}
	case t.isOp("("):
		return &ast.ColumnSelection{Columns: p.parenNameList()}
	case bare:
		return &ast.ColumnSelection{Columns: p.nameList()}
	}
	p.fail()
	return nil
}

// parseSequenceBy parses SEQUENCE BY's expression, or STRUCT(e1, e2, ...)
// whose fields order events lexicographically.
func (p *parser) parseSequenceBy() ([]ast.Expr, bool) {
	if p.peek().is("struct") && p.peekN(1).isOp("(") {
		p.advance()
		p.advance()
		list := p.parseExprList()
		p.expectOp(")")
		return list, true
	}
	return []ast.Expr{p.parseExpr()}, false
}

// parseStoredAs parses SCD TYPE 1 | SCD TYPE 2 | BITEMPORAL.
func (p *parser) parseStoredAs() string {
	if p.acceptWord("bitemporal") {
		return "BITEMPORAL"
	}
	p.expectWords("scd", "type")
	t := p.peek()
	if t.kind == tkInteger && (t.str == "1" || t.str == "2") {
		p.advance()
		return "SCD TYPE " + t.str
	}
	p.fail()
	return ""
}

// parseRefresh parses REFRESH STREAMING TABLE t [FULL].
func (p *parser) parseRefresh() ast.Statement {
	t := p.expectWord("refresh")
	if m := p.peek(); m.is("materialized") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "REFRESH MATERIALIZED VIEW is not supported"))
	}
	p.expectWords("streaming", "table")
	r := &ast.RefreshStreamingTable{Pos: t.pos, Name: p.qualifiedName()}
	r.Full = p.acceptWord("full")
	return r
}
