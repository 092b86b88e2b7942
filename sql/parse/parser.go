package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// Dialect selects the lexical rules for quotes.
type Dialect int

const (
	// DialectPostgres is PostgreSQL's: 'strings', "identifiers".
	DialectPostgres Dialect = iota
	// DialectDatabricks reads "..." as a string literal and `...` as an
	// identifier, so flow definitions copied from Databricks run unchanged.
	// Everything else is as in DialectPostgres.
	DialectDatabricks
)

// Options tune the parser.
type Options struct {
	Dialect Dialect
}

// maxDepth bounds the nesting of expressions, queries and table
// expressions. PostgreSQL's grammar gives up after about 10000 nested
// parentheses (bison's stack of 10000 states) with "memory exhausted"; so
// do we, long before the goroutine stack could matter.
const maxDepth = 10000

// Parse parses a semicolon-separated list of statements in the PostgreSQL
// dialect. Empty statements are dropped. Any error is a *pgerror.Error.
func Parse(sql string) ([]ast.Statement, error) {
	return ParseWithOptions(sql, Options{})
}

// ParseWithOptions is Parse with a choice of dialect.
func ParseWithOptions(sql string, opts Options) (stmts []ast.Statement, err error) {
	p := newParser(sql, opts)
	defer p.recover(&err)
	stmts = p.parseStatements()
	return stmts, nil
}

// ParseExpr parses one scalar expression, as stored for a column default.
func ParseExpr(sql string) (e ast.Expr, err error) {
	p := newParser(sql, Options{})
	defer p.recover(&err)
	e = p.parseExpr()
	if t := p.peek(); t.kind != tkEOF {
		p.bail(p.syntaxErrorAt(t))
	}
	return e, nil
}

func newParser(sql string, opts Options) *parser {
	return &parser{src: sql, toks: lex(sql, opts.Dialect), opts: opts}
}

// parser is a recursive-descent parser over the whole token slice; every
// production reads tokens with peek/advance and bails out with a
// *pgerror.Error on the first error.
type parser struct {
	src   string
	toks  []token
	i     int
	opts  Options
	depth int
}

func (p *parser) recover(err *error) {
	if r := recover(); r != nil {
		pe, ok := r.(parseError)
		if !ok {
			panic(r)
		}
		*err = pe.err
	}
}

// ---------------------------------------------------------------- tokens

func (p *parser) peek() *token { return &p.toks[p.i] }

// peekN looks n tokens ahead; past the end it sees the final EOF (or error)
// token.
func (p *parser) peekN(n int) *token {
	j := p.i + n
	if j >= len(p.toks) {
		j = len(p.toks) - 1
	}
	// Never look past an error token: the scanner stopped there.
	for k := p.i; k < j; k++ {
		if p.toks[k].kind == tkError {
			return &p.toks[k]
		}
	}
	return &p.toks[j]
}

// advance consumes the current token. It never moves past the end or past
// a scanner error, so those are always what the grammar sees last.
func (p *parser) advance() *token {
	t := &p.toks[p.i]
	if t.kind != tkEOF && t.kind != tkError {
		p.i++
	}
	return t
}

// prevEnd is the byte offset just after the last consumed token.
func (p *parser) prevEnd() int {
	if p.i == 0 {
		return 0
	}
	return p.toks[p.i-1].end
}

func (p *parser) fail() { p.bail(p.syntaxErrorAt(p.peek())) }

func (p *parser) failAt(t *token) { p.bail(p.syntaxErrorAt(t)) }

// acceptWord consumes the unquoted word w if it is next.
func (p *parser) acceptWord(w string) bool {
	if p.peek().is(w) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expectWord(w string) *token {
	t := p.peek()
	if !t.is(w) {
		p.fail()
	}
	return p.advance()
}

// expectWords consumes a fixed sequence of words.
func (p *parser) expectWords(ws ...string) {
	for _, w := range ws {
		p.expectWord(w)
	}
}

func (p *parser) acceptOp(op string) bool {
	if p.peek().isOp(op) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expectOp(op string) *token {
	t := p.peek()
	if !t.isOp(op) {
		p.fail()
	}
	return p.advance()
}

// enter and leave bound the recursion depth (see maxDepth). After a bail
// the parser is discarded, so leave need not run on the error path.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.bail(p.errorAtToken(p.peek(), "memory exhausted"))
	}
}

func (p *parser) leave() { p.depth-- }

// ---------------------------------------------------------------- names

// isColID: identifiers, unreserved and col_name keywords (PostgreSQL's ColId).
func isColID(t *token) bool {
	switch t.kind {
	case tkQIdent:
		return true
	case tkIdent:
		return t.kw == notKeyword || t.kw == unreservedKeyword || t.kw == colNameKeyword
	}
	return false
}

// isTypeFuncName: identifiers, unreserved and type_func_name keywords.
func isTypeFuncName(t *token) bool {
	switch t.kind {
	case tkQIdent:
		return true
	case tkIdent:
		return t.kw == notKeyword || t.kw == unreservedKeyword || t.kw == typeFuncNameKeyword
	}
	return false
}

// isColLabel: any identifier or keyword at all.
func isColLabel(t *token) bool { return t.kind == tkQIdent || t.kind == tkIdent }

// isBareLabel: what may follow an expression as its alias without AS.
func isBareLabel(t *token) bool {
	switch t.kind {
	case tkQIdent:
		return true
	case tkIdent:
		return t.kw == notKeyword || t.bare
	}
	return false
}

// isNonReservedWord: identifiers and every keyword that is not reserved.
func isNonReservedWord(t *token) bool {
	return t.kind == tkQIdent || t.kind == tkIdent && t.kw != reservedKeyword
}

// colID consumes a ColId and returns its name.
func (p *parser) colID() string {
	t := p.peek()
	if !isColID(t) {
		p.fail()
	}
	p.advance()
	return t.str
}

// colLabel consumes a ColLabel.
func (p *parser) colLabel() string {
	t := p.peek()
	if !isColLabel(t) {
		p.fail()
	}
	p.advance()
	return t.str
}

// nameList is name [, name ...] of ColIds.
func (p *parser) nameList() []string {
	names := []string{p.colID()}
	for p.acceptOp(",") {
		names = append(names, p.colID())
	}
	return names
}

// parenNameList is '(' name [, ...] ')'.
func (p *parser) parenNameList() []string {
	p.expectOp("(")
	names := p.nameList()
	p.expectOp(")")
	return names
}

// qualifiedName is ColId [. ColLabel [. ColLabel]]: a table, view, index or
// sequence name. More than three parts is PostgreSQL's "improper qualified
// name" error.
func (p *parser) qualifiedName() ast.QualifiedName {
	t := p.peek()
	q := ast.QualifiedName{Pos: t.pos, Parts: []string{p.colID()}}
	for p.peek().isOp(".") {
		p.advance()
		q.Parts = append(q.Parts, p.colLabel())
	}
	if len(q.Parts) > 3 {
		p.bail(p.errorAtPos(pgerror.SyntaxError, q.Pos, "improper qualified name (too many dotted names): %s", strings.Join(q.Parts, ".")))
	}
	return q
}

// anyName is ColId [. ColLabel ...] without a length limit (collations,
// operator schemas).
func (p *parser) anyName() ast.QualifiedName {
	t := p.peek()
	q := ast.QualifiedName{Pos: t.pos, Parts: []string{p.colID()}}
	for p.peek().isOp(".") {
		p.advance()
		q.Parts = append(q.Parts, p.colLabel())
	}
	return q
}

// stringConst consumes a string constant (Sconst).
func (p *parser) stringConst() string {
	t := p.peek()
	if t.kind != tkString {
		p.fail()
	}
	p.advance()
	return t.str
}

// intConst consumes an integer constant (Iconst).
func (p *parser) intConst() (int, *token) {
	t := p.peek()
	if t.kind != tkInteger {
		p.fail()
	}
	p.advance()
	n, ok := atoiSmall(t.str)
	if !ok {
		p.failAt(t)
	}
	return n, t
}

// atoiSmall parses a non-negative int32 decimal, as PostgreSQL's Iconst.
func atoiSmall(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1<<31-1 {
			return 0, false
		}
	}
	return n, true
}

// ---------------------------------------------------------------- statements

func (p *parser) parseStatements() []ast.Statement {
	var stmts []ast.Statement
	for {
		for p.acceptOp(";") {
		}
		t := p.peek()
		if t.kind == tkEOF {
			return stmts
		}
		stmts = append(stmts, p.parseStatement())
		t = p.peek()
		if t.kind != tkEOF && !t.isOp(";") {
			p.failAt(t)
		}
	}
}

// parseStatement dispatches on the first word.
func (p *parser) parseStatement() ast.Statement {
	t := p.peek()
	if t.isOp("(") {
		return p.parseQuery()
	}
	if t.kind != tkIdent {
		p.fail()
	}
	switch t.str {
	case "select", "values", "table":
		return p.parseQuery()
	case "with":
		return p.parseWithStatement()
	case "insert":
		return p.parseInsert(nil)
	case "update":
		return p.parseUpdate(nil)
	case "delete":
		return p.parseDelete(nil)
	case "create":
		return p.parseCreate()
	case "drop":
		return p.parseDrop()
	case "alter":
		return p.parseAlter()
	case "truncate":
		return p.parseTruncate()
	case "comment":
		return p.parseComment()
	case "copy":
		return p.parseCopy()
	case "begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release":
		return p.parseTransaction()
	case "set":
		return p.parseSet()
	case "show":
		return p.parseShow()
	case "reset":
		return p.parseReset()
	case "discard":
		return p.parseDiscard()
	case "listen", "unlisten", "notify":
		return p.parseNotification()
	case "deallocate":
		return p.parseDeallocate()
	case "declare":
		return p.parseDeclare()
	case "fetch", "move":
		return p.parseFetch()
	case "close":
		return p.parseClose()
	case "explain":
		return p.parseExplain()
	case "apply":
		return p.parseApplyChanges()
	case "refresh":
		return p.parseRefresh()
	case "grant", "revoke":
		return p.parseGrant()
	case "lock":
		return p.parseLock()
	case "vacuum", "analyze", "analyse":
		return p.parseVacuum() // vacuum.go
	}
	p.refuseKnownStatement(t, unsupportedStatements[t.str])
	p.fail()
	return nil
}

// unsupportedStatements are PostgreSQL statements cdcdb does not have. They
// get 0A000 with the statement's name rather than a syntax error, which
// would wrongly suggest a typo.
var unsupportedStatements = map[string]bool{
	"cluster": true, "reindex": true,
	"checkpoint": true, "prepare": true, "execute": true, "do": true, "load": true,
	"call": true, "import": true,
	"merge": true, "security": true, "reassign": true,
}

// unsupportedObjects are the object kinds of CREATE, DROP and ALTER that
// cdcdb does not have.
var unsupportedObjects = map[string]bool{
	"sequence": true, "function": true, "procedure": true, "extension": true, "type": true,
	"role": true, "user": true, "group": true, "database": true, "trigger": true,
	"materialized": true, "domain": true, "aggregate": true, "operator": true, "collation": true,
	"conversion": true, "cast": true, "policy": true, "publication": true, "subscription": true,
	"rule": true, "server": true, "foreign": true, "event": true, "language": true,
	"statistics": true, "tablespace": true, "text": true, "transform": true, "access": true,
	"routine": true, "owned": true, "default": true, "system": true,
}

// refuseKnownStatement fails with 0A000 "VERB [OBJECT] is not supported"
// when known is set; the object word is included when it is one of
// unsupportedObjects.
func (p *parser) refuseKnownStatement(verb *token, known bool) {
	if !known {
		return
	}
	name := upperWord(verb.str)
	if n := p.peekN(1); n.kind == tkIdent && unsupportedObjects[n.str] {
		name += " " + p.objectKindAt(1)
	}
	p.bail(p.errorAtPos(pgerror.FeatureNotSupported, verb.pos, "%s is not supported", name))
}

// objectKindAt names the unsupported object kind starting n tokens ahead,
// with its second word where it has one (TEXT SEARCH, MATERIALIZED VIEW).
func (p *parser) objectKindAt(n int) string {
	w := p.peekN(n)
	name := upperWord(w.str)
	switch w.str {
	case "text", "materialized", "foreign", "event", "access", "default", "owned":
		if next := p.peekN(n + 1); next.kind == tkIdent {
			name += " " + upperWord(next.str)
		}
	}
	return name
}

// parseWithStatement is WITH ... followed by a query or by INSERT, UPDATE
// or DELETE.
func (p *parser) parseWithStatement() ast.Statement {
	start := p.peek().pos
	with := p.parseWith()
	switch t := p.peek(); {
	case t.is("insert"):
		ins := p.parseInsert(with)
		ins.Pos = start
		return ins
	case t.is("update"):
		up := p.parseUpdate(with)
		up.Pos = start
		return up
	case t.is("delete"):
		del := p.parseDelete(with)
		del.Pos = start
		return del
	}
	q := p.parseQueryAfterWith(with, start)
	return q
}
