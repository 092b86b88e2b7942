package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// parseCreate dispatches CREATE ....
func (p *parser) parseCreate() ast.Statement {
	t := p.expectWord("create")
	orReplace, orRefresh := false, false
	if p.peek().is("or") {
		p.advance()
		switch {
		case p.acceptWord("replace"):
			orReplace = true
		case p.acceptWord("refresh"):
			orRefresh = true
		default:
			p.fail()
		}
	}
	temp := false
	if w := p.peek(); w.is("global") || w.is("local") {
		p.advance()
		if !(p.peek().is("temp") || p.peek().is("temporary")) {
			p.fail()
		}
	}
	if p.acceptWord("temp") || p.acceptWord("temporary") {
		temp = true
	}
	w := p.peek()
	switch {
	case orRefresh:
		if !w.is("streaming") {
			p.fail()
		}
		return p.parseCreateStreamingTable(t, true)
	case w.is("view"), w.is("recursive"):
		if temp || w.is("recursive") {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "temporary and recursive views are not supported"))
		}
		return p.parseCreateView(t, orReplace)
	case orReplace && !(w.kind == tkIdent && unsupportedObjects[w.str]):
		p.fail()
	case w.is("table"):
		return p.parseCreateTable(t, temp)
	case w.is("sequence"):
		return p.parseCreateSequence(t, temp) // sequence.go
	case w.is("unlogged") && !temp:
		// UNLOGGED only changes crash behaviour, which cdcdb does not have
		// separately: every table is durable.
		p.advance()
		return p.parseCreateTable(t, false)
	case temp:
		p.fail()
	case isRoleWord(w):
		return p.parseCreateRole(t)
	case w.is("streaming"):
		return p.parseCreateStreamingTable(t, false)
	case w.is("schema"):
		return p.parseCreateSchema(t)
	case w.is("unique"), w.is("index"):
		return p.parseCreateIndex(t)
	case w.is("flow"):
		return p.parseCreateFlow(t)
	case w.is("connection"):
		return p.parseCreateConnection(t)
	case w.is("source"):
		return p.parseCreateSource(t)
	}
	if w.kind == tkIdent && unsupportedObjects[w.str] {
		p.refuseObject("CREATE", t.pos) // refuse_object.go
	}
	p.fail()
	return nil
}

// parseIfNotExists parses an optional IF NOT EXISTS.
func (p *parser) parseIfNotExists() bool {
	if p.peek().is("if") && p.peekN(1).is("not") {
		p.advance()
		p.advance()
		p.expectWord("exists")
		return true
	}
	return false
}

// parseIfExists parses an optional IF EXISTS.
func (p *parser) parseIfExists() bool {
	if p.peek().is("if") && p.peekN(1).is("exists") {
		p.advance()
		p.advance()
		return true
	}
	return false
}

// parseCreateTable parses CREATE [TEMP] TABLE [IF NOT EXISTS] t (elements)
// and CREATE TABLE t [(names)] AS query [WITH [NO] DATA].
func (p *parser) parseCreateTable(start *token, temp bool) ast.Statement {
	p.expectWord("table")
	ct := &ast.CreateTable{Temporary: temp, Pos: start.pos}
	ct.IfNotExists = p.parseIfNotExists()
	ct.Name = p.qualifiedName()
	if p.peek().isOp("(") && p.ctasColumnsAhead() {
		p.advance()
		for {
			nt := p.peek()
			ct.Columns = append(ct.Columns, ast.ColumnDef{Name: p.colID(), Pos: nt.pos})
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		p.parseTableOptions(ct)
		p.expectWord("as")
		p.parseCTASRest(ct)
		return ct
	}
	if !p.peek().isOp("(") {
		p.parseTableOptions(ct)
		p.expectWord("as")
		p.parseCTASRest(ct)
		return ct
	}
	p.parseTableElements(ct)
	p.parseTableOptions(ct)
	return ct
}

// ctasColumnsAhead reports whether the '(' at the cursor opens the plain
// column-name list of CREATE TABLE ... (a, b) AS query.
func (p *parser) ctasColumnsAhead() bool {
	j := 1
	for {
		if !isColID(p.peekN(j)) {
			return false
		}
		j++
		switch {
		case p.peekN(j).isOp(","):
			j++
		case p.peekN(j).isOp(")"):
			return p.peekN(j + 1).is("as")
		default:
			return false
		}
	}
}

func (p *parser) parseCTASRest(ct *ast.CreateTable) {
	if t := p.peek(); t.is("execute") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "CREATE TABLE ... AS EXECUTE is not supported"))
	}
	ct.AsQuery = p.parseSelectStmt()
	if p.peek().is("with") {
		p.advance()
		if p.acceptWord("no") {
			ct.WithNoData = true
		}
		p.expectWord("data")
	}
}

// parseTableOptions parses the clauses after a table's elements: WITH
// (storage parameters) and ON COMMIT are kept, WITHOUT OIDS (PostgreSQL's
// default) is accepted, and the rest, which would change what the table
// is, are refused rather than ignored.
func (p *parser) parseTableOptions(ct *ast.CreateTable) {
	for {
		t := p.peek()
		switch {
		case t.is("with") && p.peekN(1).isOp("("):
			p.advance()
			if ct.Options != nil {
				p.failAt(t)
			}
			ct.Options = p.parseRelOptions()
		case t.is("without") && p.peekN(1).is("oids"):
			p.advance()
			p.advance()
		case t.is("on") && p.peekN(1).is("commit"):
			p.advance()
			p.advance()
			switch {
			case p.acceptWord("preserve"):
				p.expectWord("rows")
				ct.OnCommit = ast.OnCommitPreserveRows
			case p.acceptWord("delete"):
				p.expectWord("rows")
				ct.OnCommit = ast.OnCommitDeleteRows
			default:
				p.expectWord("drop")
				ct.OnCommit = ast.OnCommitDrop
			}
		case t.is("inherits"), t.is("partition"), t.is("using"), t.is("tablespace"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "CREATE TABLE option %s is not supported", strings.ToUpper(t.str)))
		default:
			return
		}
	}
}

// parseTableElements parses ( column definitions and table constraints ).
func (p *parser) parseTableElements(ct *ast.CreateTable) {
	p.expectOp("(")
	if p.acceptOp(")") {
		return
	}
	for {
		t := p.peek()
		switch {
		case t.is("constraint"), t.is("check"), t.is("unique"), t.is("primary"), t.is("foreign"), t.is("exclude"):
			ct.Constraints = append(ct.Constraints, p.parseTableConstraint())
		case t.is("like"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "CREATE TABLE ... (LIKE ...) is not supported"))
		default:
			ct.Columns = append(ct.Columns, p.parseColumnDef(ct.Name.Name()))
		}
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
}

// parseColumnDef parses name type [constraints]. Unnamed constraints set
// the column's flags; a constraint named with CONSTRAINT goes to
// Constraints (with the column as its only column) so its name is kept.
// table is used in PostgreSQL's messages about conflicting constraints.
func (p *parser) parseColumnDef(table string) ast.ColumnDef {
	t := p.peek()
	col := ast.ColumnDef{Name: p.colID(), Pos: t.pos}
	col.Type = p.parseTypeName(false)
	seenNull, seenNotNull, seenDefault := false, false, false
	// timed is the foreign key that DEFERRABLE and INITIALLY apply to: the
	// constraint just parsed, when it is one.
	var timed *ast.ForeignKeyRef
	for {
		ct := p.peek()
		name := ""
		if p.acceptWord("constraint") {
			name = p.colID()
		}
		c := p.peek()
		last := timed
		timed = nil
		switch {
		case c.is("not") && p.peekN(1).is("null"):
			p.advance()
			p.advance()
			if seenNull {
				p.bail(p.errorAtPos(pgerror.SyntaxError, ct.pos, "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", col.Name, table))
			}
			seenNotNull = true
			if name != "" {
				col.Constraints = append(col.Constraints, ast.TableConstraint{Name: name, Kind: ast.ConstraintNotNull, Columns: []string{col.Name}, Pos: ct.pos})
			} else {
				col.NotNull = true
			}
		case c.is("null"):
			p.advance()
			if seenNotNull {
				p.bail(p.errorAtPos(pgerror.SyntaxError, ct.pos, "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", col.Name, table))
			}
			seenNull = true
			col.Null = true
		case c.is("default"):
			p.advance()
			if seenDefault {
				p.bail(p.errorAtPos(pgerror.SyntaxError, ct.pos, "multiple default values specified for column \"%s\" of table \"%s\"", col.Name, table))
			}
			seenDefault = true
			col.Default = p.parseBExpr()
		case c.is("primary"):
			p.advance()
			p.expectWord("key")
			p.refuseIndexParameters()
			if name != "" {
				col.Constraints = append(col.Constraints, ast.TableConstraint{Name: name, Kind: ast.ConstraintPrimaryKey, Columns: []string{col.Name}, Pos: ct.pos})
			} else {
				col.PrimaryKey = true
				col.PrimaryKeyPos = ct.pos
			}
		case c.is("unique"):
			p.advance()
			p.refuseNullsDistinct()
			p.refuseIndexParameters()
			if name != "" {
				col.Constraints = append(col.Constraints, ast.TableConstraint{Name: name, Kind: ast.ConstraintUnique, Columns: []string{col.Name}, Pos: ct.pos})
			} else {
				col.Unique = true
			}
		case c.is("check"):
			p.advance()
			p.expectOp("(")
			e := p.parseExpr()
			p.expectOp(")")
			p.refuseNoInherit()
			if name != "" {
				col.Constraints = append(col.Constraints, ast.TableConstraint{Name: name, Kind: ast.ConstraintCheck, Columns: []string{col.Name}, Check: e, Pos: ct.pos})
			} else if col.Check != nil {
				// A second unnamed CHECK on the same column: keep both.
				col.Constraints = append(col.Constraints, ast.TableConstraint{Kind: ast.ConstraintCheck, Columns: []string{col.Name}, Check: e, Pos: ct.pos})
			} else {
				col.Check = e
			}
		case c.is("references"):
			ref := p.parseReferences()
			timed = ref
			if name != "" {
				col.Constraints = append(col.Constraints, ast.TableConstraint{Name: name, Kind: ast.ConstraintForeignKey, Columns: []string{col.Name}, Ref: ref, Pos: ct.pos})
			} else {
				col.References = ref
			}
		case c.is("generated") && p.identityAhead():
			if col.Identity != nil {
				p.bail(p.errorAtPos(pgerror.SyntaxError, c.pos, "multiple identity specifications for column \"%s\"", col.Name))
			}
			col.Identity = p.parseAddIdentity(col.Name, c.pos).(*ast.AddIdentity) // sequence.go
			col.NotNull = true
		case c.is("generated"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, c.pos, "generated columns are not supported"))
		case c.is("collate") && name == "":
			p.advance()
			col.Collate = strings.Join(p.anyName().Parts, ".")
		case name == "" && p.constraintAttributeAhead():
			p.parseConstraintAttributes(last)
			timed = last
		default:
			if name != "" {
				p.fail()
			}
			return col
		}
		p.parseConstraintAttributes(timed)
	}
}

// constraintAttributeAhead reports whether DEFERRABLE / NOT DEFERRABLE /
// INITIALLY ... follows.
func (p *parser) constraintAttributeAhead() bool {
	t := p.peek()
	return t.is("deferrable") || t.is("initially") || t.is("not") && p.peekN(1).is("deferrable")
}

// parseConstraintAttributes reads [NOT] DEFERRABLE and INITIALLY
// {DEFERRED | IMMEDIATE} after a constraint. A foreign key (fk, nil for
// other constraints) records them and is checked at commit when deferred;
// other constraints accept only the default timing and refuse deferred
// checking, which cdcdb has only for foreign keys.
func (p *parser) parseConstraintAttributes(fk *ast.ForeignKeyRef) {
	notDeferrable, deferredAt := false, 0
	for {
		t := p.peek()
		switch {
		case t.is("not") && p.peekN(1).is("deferrable"):
			p.advance()
			p.advance()
			notDeferrable = true
			if fk != nil {
				fk.Deferrable = false
			}
		case t.is("initially") && p.peekN(1).is("immediate"):
			p.advance()
			p.advance()
			if fk != nil {
				fk.InitiallyDeferred = false
			}
		case (t.is("deferrable") || t.is("initially") && p.peekN(1).is("deferred")) && fk != nil:
			p.advance()
			if t.is("initially") {
				p.advance()
				fk.InitiallyDeferred, deferredAt = true, t.pos
			}
			fk.Deferrable = true
		case t.is("deferrable"), t.is("initially"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "deferrable constraints other than foreign keys are not supported"))
		case t.is("not") && p.peekN(1).is("valid"):
			p.advance()
			p.advance()
		default:
			if fk != nil && notDeferrable && fk.InitiallyDeferred {
				p.bail(p.errorAtPos(pgerror.SyntaxError, deferredAt, "constraint declared INITIALLY DEFERRED must be DEFERRABLE"))
			}
			return
		}
	}
}

func (p *parser) refuseNoInherit() {
	if t := p.peek(); t.is("no") && p.peekN(1).is("inherit") {
		p.advance()
		p.advance()
	}
}

func (p *parser) refuseNullsDistinct() {
	if t := p.peek(); t.is("nulls") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "UNIQUE NULLS [NOT] DISTINCT is not supported"))
	}
}

// refuseExistingIndex refuses UNIQUE / PRIMARY KEY USING INDEX name, which
// adopts an existing index.
func (p *parser) refuseExistingIndex() {
	if t := p.peek(); t.is("using") && p.peekN(1).is("index") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "constraints USING INDEX are not supported"))
	}
}

// refuseIndexParameters refuses the index storage clauses of UNIQUE and
// PRIMARY KEY (INCLUDE, WITH, USING INDEX TABLESPACE).
func (p *parser) refuseIndexParameters() {
	t := p.peek()
	if t.is("include") || t.is("with") || t.is("using") && p.peekN(1).is("index") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "index parameters (INCLUDE, WITH, USING INDEX TABLESPACE) are not supported"))
	}
}

// parseTableConstraint parses [CONSTRAINT name] CHECK (...) | UNIQUE (...)
// | PRIMARY KEY (...) | FOREIGN KEY (...) REFERENCES ....
func (p *parser) parseTableConstraint() ast.TableConstraint {
	t := p.peek()
	tc := ast.TableConstraint{Pos: t.pos}
	if p.acceptWord("constraint") {
		tc.Name = p.colID()
	}
	c := p.peek()
	switch {
	case p.acceptWord("check"):
		tc.Kind = ast.ConstraintCheck
		p.expectOp("(")
		tc.Check = p.parseExpr()
		p.expectOp(")")
		p.refuseNoInherit()
	case p.acceptWord("unique"):
		tc.Kind = ast.ConstraintUnique
		p.refuseNullsDistinct()
		p.refuseExistingIndex()
		tc.Columns = p.parenNameList()
		p.refuseIndexParameters()
	case p.acceptWord("primary"):
		p.expectWord("key")
		tc.Kind = ast.ConstraintPrimaryKey
		p.refuseExistingIndex()
		tc.Columns = p.parenNameList()
		p.refuseIndexParameters()
	case p.acceptWord("foreign"):
		p.expectWord("key")
		tc.Kind = ast.ConstraintForeignKey
		tc.Columns = p.parenNameList()
		tc.Ref = p.parseReferences()
	case c.is("exclude"):
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, c.pos, "EXCLUDE constraints are not supported"))
	default:
		p.fail()
	}
	p.parseConstraintAttributes(tc.Ref)
	return tc
}

// parseReferences parses REFERENCES t [(cols)] [MATCH ...] [ON DELETE a]
// [ON UPDATE a].
func (p *parser) parseReferences() *ast.ForeignKeyRef {
	p.expectWord("references")
	ref := &ast.ForeignKeyRef{Table: p.qualifiedName()}
	if p.peek().isOp("(") {
		ref.Columns = p.parenNameList()
	}
	if p.acceptWord("match") {
		switch m := p.peek(); {
		case m.is("simple"):
			p.advance()
		case m.is("full"), m.is("partial"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, m.pos, "MATCH %s is not supported", strings.ToUpper(m.str)))
		default:
			p.fail()
		}
	}
	for p.peek().is("on") && (p.peekN(1).is("delete") || p.peekN(1).is("update")) {
		p.advance()
		which := p.advance()
		action := p.parseRefAction()
		if which.is("delete") {
			ref.OnDelete = action
		} else {
			ref.OnUpdate = action
		}
	}
	return ref
}

func (p *parser) parseRefAction() string {
	switch {
	case p.acceptWord("cascade"):
		return "CASCADE"
	case p.acceptWord("restrict"):
		return "RESTRICT"
	case p.acceptWord("no"):
		p.expectWord("action")
		return "NO ACTION"
	case p.acceptWord("set"):
		var action string
		switch {
		case p.acceptWord("null"):
			action = "SET NULL"
		case p.acceptWord("default"):
			action = "SET DEFAULT"
		default:
			p.fail()
		}
		if t := p.peek(); t.isOp("(") {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "a column list for %s is not supported", action))
		}
		return action
	}
	p.fail()
	return ""
}

// parseCreateSchema parses CREATE SCHEMA [IF NOT EXISTS] name.
func (p *parser) parseCreateSchema(start *token) ast.Statement {
	p.expectWord("schema")
	cs := &ast.CreateSchema{Pos: start.pos}
	cs.IfNotExists = p.parseIfNotExists()
	if t := p.peek(); t.is("authorization") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "CREATE SCHEMA ... AUTHORIZATION is not supported"))
	}
	nameTok := p.peek()
	cs.Name = p.colID()
	// Databricks names a schema by its catalog too (main.cdc_tutorial); a
	// cdcdb server is the one catalog "main", as for table names.
	if p.opts.Dialect == DialectDatabricks && p.peek().isOp(".") {
		p.advance()
		if cs.Name != "main" {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, nameTok.pos, "cross-database references are not implemented: \"%s\"", cs.Name))
		}
		cs.Name = p.colID()
	}
	if t := p.peek(); t.is("authorization") || t.kind == tkIdent && (t.is("create") || t.is("grant")) {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "CREATE SCHEMA ... %s is not supported", strings.ToUpper(t.str)))
	}
	return cs
}

// parseCreateIndex parses CREATE [UNIQUE] INDEX [CONCURRENTLY] [[IF NOT
// EXISTS] name] ON [ONLY] t [USING method] (elements) [WHERE ...].
func (p *parser) parseCreateIndex(start *token) ast.Statement {
	ci := &ast.CreateIndex{Pos: start.pos}
	ci.Unique = p.acceptWord("unique")
	p.expectWord("index")
	p.acceptWord("concurrently") // every index build is online in cdcdb
	ci.IfNotExists = p.parseIfNotExists()
	if ci.IfNotExists || !p.peek().is("on") {
		ci.Name = p.colID()
	}
	p.expectWord("on")
	ci.Table = p.parseRelationExpr().Name
	if p.acceptWord("using") {
		ci.Using = p.colID()
	}
	p.expectOp("(")
	for {
		ci.Columns = append(ci.Columns, p.parseIndexElem())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	if t := p.peek(); t.is("include") || t.is("nulls") || t.is("with") || t.is("tablespace") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "CREATE INDEX ... %s is not supported", strings.ToUpper(t.str)))
	}
	if p.acceptWord("where") {
		ci.Where = p.parseExpr()
	}
	return ci
}

// parseIndexElem parses column | func(...) | (expr), then [COLLATE c]
// [opclass] [ASC|DESC] [NULLS FIRST|LAST]. An operator class only picks
// comparison semantics PostgreSQL needs for LIKE on non-C collations;
// cdcdb's indexes order by value, so it is accepted and not kept.
func (p *parser) parseIndexElem() ast.OrderItem {
	t := p.peek()
	var e ast.Expr
	switch {
	case t.isOp("("):
		p.advance()
		e = p.parseExpr()
		p.expectOp(")")
	case isColID(t) && !p.peekN(1).isOp("(") && !p.peekN(1).isOp("."):
		p.advance()
		e = &ast.ColumnRef{Parts: []string{t.str}, Quoted: t.kind == tkQIdent && p.opts.Dialect != DialectDatabricks, Pos: t.pos}
	default:
		e = p.parsePrimary()
		if _, ok := e.(*ast.FuncCall); !ok {
			p.failAt(t)
		}
	}
	if c := p.peek(); c.is("collate") {
		p.advance()
		e = &ast.Collate{X: e, Collation: p.anyName(), Pos: e.Position(), OpPos: c.pos}
	}
	if c := p.peek(); isColID(c) && !c.is("asc") && !c.is("desc") && !(c.is("nulls") && (p.peekN(1).is("first") || p.peekN(1).is("last"))) {
		p.anyName()
	}
	it := ast.OrderItem{Expr: e}
	switch {
	case p.acceptWord("asc"):
	case p.acceptWord("desc"):
		it.Desc = true
	}
	if p.peek().is("nulls") && (p.peekN(1).is("first") || p.peekN(1).is("last")) {
		p.advance()
		it.Nulls = strings.ToUpper(p.advance().str)
	}
	return it
}

// parseCreateView parses CREATE [OR REPLACE] VIEW name [(cols)] AS query,
// keeping the query's text as written for pg_views.
func (p *parser) parseCreateView(start *token, orReplace bool) ast.Statement {
	p.expectWord("view")
	cv := &ast.CreateView{OrReplace: orReplace, Pos: start.pos}
	cv.Name = p.qualifiedName()
	if p.peek().isOp("(") {
		cv.Columns = p.parenNameList()
	}
	if t := p.peek(); t.is("with") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "view options are not supported"))
	}
	p.expectWord("as")
	qs := p.peek().pos
	cv.Query = p.parseSelectStmt()
	cv.Text = p.src[qs:p.prevEnd()]
	if t := p.peek(); t.is("with") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "WITH CHECK OPTION is not supported"))
	}
	return cv
}

// ---------------------------------------------------------------- DROP

// parseDrop parses DROP TABLE | STREAMING TABLE | SCHEMA | VIEW | INDEX |
// SEQUENCE | FLOW [IF EXISTS] names [CASCADE | RESTRICT].
func (p *parser) parseDrop() ast.Statement {
	t := p.expectWord("drop")
	d := &ast.Drop{Pos: t.pos}
	w := p.peek()
	switch {
	case isRoleWord(w):
		return p.parseDropRole(t)
	case p.acceptWord("table"):
		d.Kind = ast.ObjectTable
	case w.is("streaming") && p.peekN(1).is("table"):
		p.advance()
		p.advance()
		d.Kind = ast.ObjectStreamingTable
	case p.acceptWord("schema"):
		d.Kind = ast.ObjectSchema
	case p.acceptWord("view"):
		d.Kind = ast.ObjectView
	case p.acceptWord("index"):
		d.Kind = ast.ObjectIndex
		p.acceptWord("concurrently")
	case p.acceptWord("sequence"):
		d.Kind = ast.ObjectSequence
	case p.acceptWord("flow"):
		d.Kind = ast.ObjectFlow
	case p.acceptWord("source"):
		d.Kind = ast.ObjectSource
	case p.acceptWord("connection"):
		d.Kind = ast.ObjectConnection
	case w.kind == tkIdent && unsupportedObjects[w.str]:
		p.refuseObject("DROP", t.pos)
	default:
		p.fail()
	}
	d.IfExists = p.parseIfExists()
	for {
		if d.Kind == ast.ObjectSchema || d.Kind == ast.ObjectSource || d.Kind == ast.ObjectConnection {
			nt := p.peek()
			d.Names = append(d.Names, ast.QualifiedName{Parts: []string{p.colID()}, Pos: nt.pos})
		} else {
			d.Names = append(d.Names, p.qualifiedName())
		}
		if !p.acceptOp(",") {
			break
		}
	}
	d.Cascade = p.parseDropBehavior()
	return d
}

// ---------------------------------------------------------------- ALTER

// parseAlter parses ALTER TABLE [IF EXISTS] [ONLY] t action [, action ...]
// and its RENAME forms.
func (p *parser) parseAlter() ast.Statement {
	t := p.expectWord("alter")
	if w := p.peek(); isRoleWord(w) && !w.is("group") {
		return p.parseAlterRole(t)
	}
	switch w := p.peek(); {
	case w.is("sequence"):
		return p.parseAlterSequence(t) // sequence.go
	case (w.is("schema") || w.is("view")) && p.alterOwnerAhead():
		return p.parseAlterOwnerOnly(t)
	case w.is("default") && p.peekN(1).is("privileges"):
		return p.parseAlterDefaultPrivileges(t) // rolemembership.go
	}
	if w := p.peek(); w.kind == tkIdent && (unsupportedObjects[w.str] || w.is("schema") || w.is("index") || w.is("view")) {
		p.refuseObject("ALTER", t.pos)
	}
	p.expectWord("table")
	at := &ast.AlterTable{Pos: t.pos}
	at.IfExists = p.parseIfExists()
	at.Name = p.parseRelationExpr().Name
	if p.acceptWord("rename") {
		switch {
		case p.acceptWord("to"):
			at.Actions = []ast.AlterAction{&ast.RenameTable{New: p.colID()}}
		case p.peek().is("constraint"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, p.peek().pos, "ALTER TABLE ... RENAME CONSTRAINT is not supported"))
		default:
			p.acceptWord("column")
			old := p.colID()
			p.expectWord("to")
			at.Actions = []ast.AlterAction{&ast.RenameColumn{Old: old, New: p.colID()}}
		}
		return at
	}
	for {
		at.Actions = append(at.Actions, p.parseAlterAction())
		if !p.acceptOp(",") {
			return at
		}
	}
}

func (p *parser) parseAlterAction() ast.AlterAction {
	t := p.peek()
	switch {
	case p.acceptWord("add"):
		switch c := p.peek(); {
		case c.is("constraint"), c.is("check"), c.is("unique"), c.is("primary"), c.is("foreign"), c.is("exclude"):
			return &ast.AddConstraint{Constraint: p.parseTableConstraint()}
		}
		p.acceptWord("column")
		ac := &ast.AddColumn{IfNotExists: p.parseIfNotExists()}
		ac.Column = p.parseColumnDef("")
		return ac
	case p.acceptWord("drop"):
		if p.acceptWord("constraint") {
			dc := &ast.DropConstraint{IfExists: p.parseIfExists()}
			dc.Name = p.colID()
			dc.Cascade = p.parseDropBehavior()
			return dc
		}
		p.acceptWord("column")
		dc := &ast.DropColumn{IfExists: p.parseIfExists()}
		dc.Name = p.colID()
		dc.Cascade = p.parseDropBehavior()
		return dc
	case p.acceptWord("alter"):
		p.acceptWord("column")
		ct := p.peek()
		ac := &ast.AlterColumn{Column: p.colID()}
		if p.acceptWord("add") {
			return p.parseAddIdentity(ac.Column, ct.pos) // sequence.go
		}
		switch {
		case p.acceptWord("set"):
			switch {
			case p.acceptWord("default"):
				ac.SetDefault = p.parseExpr()
			case p.acceptWord("not"):
				p.expectWord("null")
				ac.SetNotNull = true
			case p.acceptWord("data"):
				p.expectWord("type")
				p.parseAlterColumnType(ac)
			default:
				p.fail()
			}
		case p.acceptWord("drop"):
			switch {
			case p.acceptWord("default"):
				ac.DropDefault = true
			case p.acceptWord("not"):
				p.expectWord("null")
				ac.DropNotNull = true
			default:
				p.fail()
			}
		case p.acceptWord("type"):
			p.parseAlterColumnType(ac)
		default:
			p.fail()
		}
		return ac
	case p.peek().is("set") && p.peekN(1).isOp("("):
		p.advance()
		return &ast.SetTableOptions{Options: p.parseRelOptions()}
	case t.is("owner"):
		return p.parseOwnerTo()
	}
	p.fail()
	return nil
}

// parseAlterColumnType parses the type and USING of ALTER COLUMN ... TYPE.
func (p *parser) parseAlterColumnType(ac *ast.AlterColumn) {
	tn := p.parseTypeName(false)
	ac.Type = &tn
	if c := p.peek(); c.is("collate") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, c.pos, "ALTER COLUMN ... TYPE ... COLLATE is not supported"))
	}
	if p.acceptWord("using") {
		ac.Using = p.parseExpr()
	}
}

// parseRelOptions parses ( name [= value] [, ...] ) for ALTER TABLE SET.
func (p *parser) parseRelOptions() map[string]string {
	p.expectOp("(")
	opts := map[string]string{}
	for {
		nt := p.peek()
		name := p.colLabel()
		if p.acceptOp(".") {
			name += "." + p.colLabel()
		}
		value := "true"
		if p.acceptOp("=") {
			value = p.defArg()
		}
		if _, dup := opts[name]; dup {
			p.bail(p.errorAtPos(pgerror.SyntaxError, nt.pos, "conflicting or redundant options"))
		}
		opts[name] = value
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return opts
}

// defArg parses a definition argument: a string, a signed number, or a word
// (reserved words too, as PostgreSQL's def_arg allows).
func (p *parser) defArg() string {
	t := p.peek()
	if t.kind == tkIdent && t.kw == reservedKeyword {
		p.advance()
		return t.str
	}
	return p.optionValue()
}

// ---------------------------------------------------------------- COMMENT

// parseComment parses COMMENT ON TABLE | VIEW | INDEX | SEQUENCE | COLUMN |
// SCHEMA | FLOW | STREAMING TABLE name IS 'text' | NULL.
func (p *parser) parseComment() ast.Statement {
	t := p.expectWord("comment")
	p.expectWord("on")
	co := &ast.CommentOn{Pos: t.pos}
	w := p.peek()
	switch {
	case p.acceptWord("table"):
		co.Kind = ast.ObjectTable
	case w.is("streaming") && p.peekN(1).is("table"):
		p.advance()
		p.advance()
		co.Kind = ast.ObjectStreamingTable
	case p.acceptWord("view"):
		co.Kind = ast.ObjectView
	case p.acceptWord("index"):
		co.Kind = ast.ObjectIndex
	case p.acceptWord("sequence"):
		co.Kind = ast.ObjectSequence
	case p.acceptWord("column"):
		co.Kind = ast.ObjectColumn
	case p.acceptWord("schema"):
		co.Kind = ast.ObjectSchema
	case p.acceptWord("flow"):
		co.Kind = ast.ObjectFlow
	case w.kind == tkIdent && (unsupportedObjects[w.str] || w.is("constraint") || w.is("database")):
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "COMMENT ON %s is not supported", p.objectKindAt(0)))
	default:
		p.fail()
	}
	if co.Kind == ast.ObjectSchema || co.Kind == ast.ObjectFlow {
		nt := p.peek()
		co.Name = ast.QualifiedName{Parts: []string{p.colID()}, Pos: nt.pos}
	} else {
		co.Name = p.anyName()
	}
	if co.Kind == ast.ObjectColumn && len(co.Name.Parts) < 2 {
		p.bail(pgerror.New(pgerror.SyntaxError, "column name must be qualified"))
	}
	if co.Kind != ast.ObjectColumn && len(co.Name.Parts) > 3 {
		p.bail(p.errorAtPos(pgerror.SyntaxError, co.Name.Pos, "improper qualified name (too many dotted names): %s", strings.Join(co.Name.Parts, ".")))
	}
	p.expectWord("is")
	if p.acceptWord("null") {
		return co
	}
	s := p.stringConst()
	co.Comment = &s
	return co
}
