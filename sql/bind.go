package sql

import (
	"strconv"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// planCtx is what planning one statement needs: the catalog it plans
// against, the session (search_path, time zone) and the statement's
// parameter types, which binding fills in as it infers them.
type planCtx struct {
	sess   *Session
	cat    *catalog.Snapshot
	params *paramSlots
	// flowStrings makes a double-quoted name that resolves to no column a
	// string literal (the double-quoted string rule of flow definitions).
	flowStrings bool
	notices     []string
	// writesBy names the function that makes a query change the database
	// (nextval, setval), so that it runs in a write transaction ("" when
	// none does).
	writesBy string
	// drawsFreeSequence says the statement may call nextval of a
	// free-standing sequence, whose position only the exclusive path may
	// move (ddl_sequence.go), so it never runs detached (concurrent.go).
	drawsFreeSequence bool
	// writesPermanent says the statement writes a table that is not
	// temporary, which a read-only transaction refuses (txmodes.go).
	writesPermanent bool
	// writtenTables are the tables the statement writes, in the order
	// planned (concurrent.go).
	writtenTables []*catalog.Table
	// readsClock is set when a literal was read as the current time
	// ('now'::timestamptz, a date column compared with 'today'): the plan
	// holds that moment, so it serves one execution and is not cached.
	readsClock bool
	// inView counts the views whose queries are being planned: their
	// names never mean the session's temporary tables, which no view may
	// read (a view's query is bound again wherever it is used).
	inView int
	// viewOwners are the owners of the views being planned, innermost
	// last: a view reads its tables with its owner's rights (roles.go).
	viewOwners []catalog.OID
	// checkPrivileges makes table references check the session's
	// privileges at once (roles.go), for statements that plan as they
	// run; deferPrivileges collects them in required instead, for a
	// client's statement to check when it executes (as PostgreSQL, whose
	// Describe needs no privilege). Neither is set for the plans of flows,
	// which act with their owner's rights.
	checkPrivileges bool
	deferPrivileges bool
	required        []privilegeNeed
	// inSystemView counts the system views being planned: they read
	// pg_authid, which only a superuser reads directly.
	inSystemView int
	// viewPath, while a view's query is planned, is the search path it
	// was created with (catalog.Table.ViewSearchPath), which its
	// unqualified names are looked up in instead of the session's.
	viewPath []string
	// tablesRead, when set, collects the OIDs of the tables and views the
	// plan reads (a snapshot flow's TRIGGER ON UPDATE watches them).
	tablesRead map[catalog.OID]bool
	// snapshotVersions makes last_snapshot_version() and
	// current_snapshot_version() plannable (flows_snapshot.go).
	snapshotVersions *snapshotVersionScope
}

// paramSlots holds the type of each $n: declared by the client, inferred
// from context, or Unknown until then.
type paramSlots struct {
	types []types.T
}

func (p *paramSlots) get(i int) types.T {
	if i < len(p.types) {
		return p.types[i]
	}
	return types.Of(types.Unknown)
}

func (p *paramSlots) set(i int, t types.T) {
	for len(p.types) <= i {
		p.types = append(p.types, types.Of(types.Unknown))
	}
	p.types[i] = t
}

// binder binds expressions of one query level.
type binder struct {
	pc *planCtx
	sc *scope
	// agg is set while binding expressions evaluated after grouping (select
	// list, HAVING, ORDER BY of an aggregating query).
	agg *aggCtx
	// inAggArgs is set while binding the arguments of an aggregate call.
	inAggArgs bool
	// win collects window calls where they are allowed (select list and
	// ORDER BY); inWinArgs is set while binding a window call's arguments.
	win       *windowCtx
	inWinArgs bool
}

func (pc *planCtx) binder(sc *scope) *binder { return &binder{pc: pc, sc: sc} }

// bind turns a syntax tree expression into an executable one.
func (b *binder) bind(e ast.Expr) (eval.Expr, error) {
	if b.agg != nil && !b.inAggArgs {
		if ex, ok, err := b.agg.matchGroup(b, e); err != nil || ok {
			return ex, err
		}
	}
	switch e := e.(type) {
	case *ast.Literal:
		return bindLiteral(e)
	case *ast.ColumnRef:
		return b.bindColumn(e)
	case *ast.Param:
		if e.Index < 1 || e.Index > 65535 {
			return nil, pgerror.New(pgerror.UndefinedParameter, "there is no parameter $%d", e.Index).WithPosition(e.Pos + 1)
		}
		return &eval.Param{Idx: e.Index - 1, T: b.pc.params.get(e.Index - 1)}, nil
	case *ast.Unary:
		return b.bindUnary(e)
	case *ast.Binary:
		if e.Op == "OVERLAPS" {
			return b.bindOverlaps(e)
		}
		return b.bindBinary(e)
	case *ast.Like:
		return b.bindLike(e)
	case *ast.IsNull:
		x, err := b.bind(e.X)
		if err != nil {
			return nil, err
		}
		return &eval.IsNull{X: b.resolveUnknown(x), Not: e.Not}, nil
	case *ast.IsBool:
		x, err := b.bindAs(e.X, eval.BoolT(), "IS "+e.Value)
		if err != nil {
			return nil, err
		}
		var want types.Value
		switch e.Value {
		case "TRUE":
			want = true
		case "FALSE":
			want = false
		}
		return &eval.IsBool{X: x, Not: e.Not, Want: want}, nil
	case *ast.Between:
		return b.bindBetween(e)
	case *ast.In:
		return b.bindIn(e)
	case *ast.Exists:
		p, correlated, err := b.planSubquery(e.Query)
		if err != nil {
			return nil, err
		}
		return &subqueryExpr{kind: subExists, plan: p, correlated: correlated}, nil
	case *ast.Subquery:
		p, correlated, err := b.planSubquery(e.Query)
		if err != nil {
			return nil, err
		}
		cols := p.columns()
		if len(cols) != 1 {
			return nil, pgerror.New(pgerror.SyntaxError, "subquery must return only one column").WithPosition(e.Pos + 1)
		}
		return &subqueryExpr{kind: subScalar, plan: p, correlated: correlated, t: cols[0].t}, nil
	case *ast.ArraySubquery:
		p, correlated, err := b.planSubquery(e.Query)
		if err != nil {
			return nil, err
		}
		cols := p.columns()
		if len(cols) != 1 {
			return nil, pgerror.New(pgerror.SyntaxError, "subquery must return only one column").WithPosition(e.Pos + 1)
		}
		return &subqueryExpr{kind: subArray, plan: p, correlated: correlated, t: eval.ArrayOf(cols[0].t)}, nil
	case *ast.AnyAll:
		return b.bindAnyAll(e)
	case *ast.FuncCall:
		return b.bindFunc(e)
	case *ast.SpecialFunc:
		return b.bindSpecial(e)
	case *ast.Cast:
		return b.bindCast(e)
	case *ast.Case:
		return b.bindCase(e)
	case *ast.ArrayExpr:
		return b.bindArray(e)
	case *ast.Subscript:
		return b.bindSubscript(e)
	case *ast.RowExpr:
		r := &eval.RowCtor{}
		for _, el := range e.Elems {
			x, err := b.bind(el)
			if err != nil {
				return nil, err
			}
			r.Elems = append(r.Elems, b.resolveUnknown(x))
		}
		return r, nil
	case *ast.Collate:
		// cdcdb compares text bytewise (the C collation); COLLATE names of
		// bytewise collations are accepted and do not change the result.
		if err := checkCollation(e); err != nil {
			return nil, err
		}
		return b.bind(e.X)
	case *ast.FieldAccess:
		return b.bindFieldAccess(e)
	case *ast.Default:
		return nil, pgerror.New(pgerror.SyntaxError, "DEFAULT is not allowed in this context").WithPosition(e.Pos + 1)
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "expression %T is not supported", e)
}

func bindLiteral(e *ast.Literal) (eval.Expr, error) {
	switch e.Kind {
	case ast.LitNull:
		return &eval.Const{V: nil, T: eval.UnknownT()}, nil
	case ast.LitBool:
		return &eval.Const{V: e.Value == "true", T: eval.BoolT()}, nil
	case ast.LitInteger:
		n, err := strconv.ParseInt(e.Value, 10, 64)
		if err != nil {
			return numericLiteral(e)
		}
		if n >= -2147483648 && n <= 2147483647 {
			return &eval.Const{V: n, T: eval.Int4T()}, nil
		}
		return &eval.Const{V: n, T: eval.Int8T()}, nil
	case ast.LitNumeric:
		return numericLiteral(e)
	case ast.LitString:
		return &eval.Const{V: e.Value, T: eval.UnknownT(), Pos: e.Pos + 1}, nil
	case ast.LitBitString:
		// B'0101' and X'1F' are bit strings in PostgreSQL; cdcdb has no
		// bit types, and reading them as the text "b0101" would answer
		// with a value PostgreSQL never gives.
		return nil, pgerror.New(pgerror.FeatureNotSupported, "bit string literals are not supported").WithPosition(e.Pos + 1).
			WithHint("cdcdb has no bit or bit varying type; write the value as an integer or bytea.")
	}
	return nil, pgerror.New(pgerror.InternalError, "unknown literal kind %d", e.Kind)
}

func numericLiteral(e *ast.Literal) (eval.Expr, error) {
	v, err := types.ParseText(types.Of(types.Numeric), e.Value)
	if err != nil {
		return nil, err
	}
	return &eval.Const{V: v, T: types.Of(types.Numeric)}, nil
}

func (b *binder) bindColumn(e *ast.ColumnRef) (eval.Expr, error) {
	level, idx, col, err := b.sc.resolveColumn(e)
	if err != nil {
		if b.pc.flowStrings && e.Quoted && len(e.Parts) == 1 && pgerror.CodeOf(err) == pgerror.UndefinedColumn {
			b.pc.notices = append(b.pc.notices, "double-quoted name \""+e.Parts[0]+"\" is not a column of the source; reading it as a string literal")
			return &eval.Const{V: e.Parts[0], T: eval.UnknownT()}, nil
		}
		if pgerror.CodeOf(err) == pgerror.UndefinedColumn && e.Parts[len(e.Parts)-1] == "tableoid" {
			if x, ok, tErr := b.tableOID(e); ok || tErr != nil {
				return x, tErr
			}
		}
		if len(e.Parts) == 1 && (b.agg == nil || b.inAggArgs) {
			// A bare name may be a whole-row reference to a table (SELECT
			// t FROM t), an aggregate's argument included (json_agg(t)).
			for _, r := range b.sc.rels {
				if r.name == e.Parts[0] {
					return b.wholeRow(r), nil
				}
			}
		}
		return nil, err
	}
	if b.agg != nil && !b.inAggArgs && level == 0 {
		return b.ungroupedColumn(e, idx, col)
	}
	return &eval.ColRef{Level: level, Idx: idx, T: col.t, Name: col.name}, nil
}

func (b *binder) wholeRow(r *scopeRel) eval.Expr {
	re := &eval.RowCtor{}
	for i, c := range r.cols {
		if c.hidden {
			continue
		}
		re.Elems = append(re.Elems, &eval.ColRef{Idx: r.offset + i, T: c.t, Name: c.name})
	}
	return re
}

// bindAs binds e and coerces it to t (implicitly), naming the construct in
// errors.
func (b *binder) bindAs(e ast.Expr, t types.T, construct string) (eval.Expr, error) {
	x, err := b.bind(e)
	if err != nil {
		return nil, err
	}
	c, err := b.coerce(x, t)
	if err != nil {
		if t.OID == types.Bool {
			return nil, pgerror.New(pgerror.DatatypeMismatch, "argument of %s must be type boolean, not type %s", construct, eval.TypeName(x.Type())).WithPosition(e.Position() + 1)
		}
		return nil, withPos(err, e)
	}
	return c, nil
}

// bindCondition binds a WHERE / ON / HAVING condition.
func (b *binder) bindCondition(e ast.Expr, construct string) (eval.Expr, error) {
	return b.bindAs(e, eval.BoolT(), construct)
}

// withAssignPos positions an assignment's error as PostgreSQL does: a type
// mismatch at the expression; a value too long or too precise for the
// column is found at execution, so it has no position.
func withAssignPos(err error, e ast.Expr) error {
	if pgerror.CodeOf(err) == pgerror.DatatypeMismatch {
		return withPos(err, e)
	}
	return err
}

func withPos(err error, e ast.Expr) error {
	pe := pgerror.As(err)
	if pe.Position == 0 && e != nil {
		return pe.WithPosition(e.Position() + 1)
	}
	return pe
}

// coerce converts x to type t where PostgreSQL would do so implicitly:
// unknown literals and parameters take the type; other types need an
// implicit cast.
func (b *binder) coerce(x eval.Expr, t types.T) (eval.Expr, error) {
	xt := x.Type()
	if t.OID == types.Unknown || (xt.OID == t.OID && (t.Typmod < 0 || xt.Typmod == t.Typmod)) {
		return x, nil
	}
	if xt.OID == types.Unknown {
		return b.resolveUnknownAs(x, t)
	}
	if xt.OID == t.OID {
		return &eval.Cast{X: x, To: t}, nil
	}
	if !eval.ImplicitCastOK(xt.OID, t.OID) {
		return nil, pgerror.New(pgerror.DatatypeMismatch, "cannot cast type %s to %s implicitly", eval.TypeName(xt), eval.TypeName(t))
	}
	return &eval.Cast{X: x, To: t}, nil
}

// assign converts x to a column's type as INSERT and UPDATE do (assignment
// casts: broader than implicit, narrower than explicit).
func (b *binder) assign(x eval.Expr, t types.T, column string) (eval.Expr, error) {
	xt := x.Type()
	if xt.OID == types.Unknown {
		return b.resolveUnknownAs(x, t)
	}
	if xt.OID == t.OID && (t.Typmod < 0 || xt.Typmod == t.Typmod) {
		return x, nil
	}
	if xt.OID == t.OID || eval.ImplicitCastOK(xt.OID, t.OID) || eval.AssignmentCastOK(xt.OID, t.OID) {
		return &eval.Cast{X: x, To: t}, nil
	}
	return nil, pgerror.New(pgerror.DatatypeMismatch, "column \"%s\" is of type %s but expression is of type %s", column, eval.TypeName(t), eval.TypeName(xt)).
		WithHint("You will need to rewrite or cast the expression.")
}

// resolveUnknownAs gives an unknown-typed literal or parameter type t.
func (b *binder) resolveUnknownAs(x eval.Expr, t types.T) (eval.Expr, error) {
	return b.resolveUnknownTo(x, t, false)
}

// resolveUnknownTo gives an unknown-typed literal or parameter type t. A
// literal is read as t's base type first, so that a malformed value is
// reported at the literal; t's modifier (a length, a precision) applies
// after, as the implicit or explicit (truncating) cast it is.
func (b *binder) resolveUnknownTo(x eval.Expr, t types.T, explicit bool) (eval.Expr, error) {
	switch x := x.(type) {
	case *eval.Const:
		if x.V == nil {
			return &eval.Const{V: nil, T: t}, nil
		}
		if eval.IsRegType(t.OID) {
			// 'pg_class'::regclass: a name, resolved in the planned catalog.
			v, err := b.pc.sess.regIn(b.pc.cat, t.OID, x.V.(string))
			if err != nil {
				return nil, withPosErr(err, x.Pos-1)
			}
			return &eval.Const{V: v, T: t}, nil
		}
		base := types.T{OID: t.OID, Typmod: -1}
		if t.OID == types.Interval {
			// An interval's fields say how its text reads ('1' is a
			// day for interval day), so PostgreSQL reads an interval
			// literal with the modifier, and so does this.
			base = t
		}
		// A timestamptz literal without an offset is in the session's
		// time zone, as PostgreSQL reads it when the query is analyzed.
		var in types.Input
		if b.pc.sess != nil {
			in = b.pc.sess.textInput()
		}
		v, err := types.ParseTextWith(base, x.V.(string), in)
		if err != nil {
			return nil, withPosErr(err, x.Pos-1)
		}
		if types.ReadsClock(base, x.V.(string)) {
			b.pc.readsClock = true
		}
		fitted, err := types.ApplyTypmod(v, t, explicit)
		if err != nil {
			// A literal that does not fit the modifier fails where the
			// expression runs, as PostgreSQL's length coercion does: a
			// column default of varchar(3) DEFAULT 'abcd' refuses the
			// INSERT that takes it, not the CREATE TABLE declaring it.
			return &eval.Cast{X: &eval.Const{V: v, T: base}, To: t, Explicit: explicit}, nil
		}
		return &eval.Const{V: fitted, T: t}, nil
	case *eval.Param:
		if t.Typmod < 0 || t.OID == types.Record {
			b.pc.params.set(x.Idx, t)
			return &eval.Param{Idx: x.Idx, T: t}, nil
		}
		// As in PostgreSQL, a parameter has a type but no modifier: its
		// value, in either wire format, is read as the base type and then
		// cast, so $1::varchar(2) truncates what an assignment would
		// refuse, and a binary numeric is rounded as a text one is.
		base := types.T{OID: t.OID, Typmod: -1}
		b.pc.params.set(x.Idx, base)
		return &eval.Cast{X: &eval.Param{Idx: x.Idx, T: base}, To: t, Explicit: explicit}, nil
	}
	return &eval.Cast{X: x, To: t, Explicit: explicit}, nil
}

// resolveUnknown gives text to an expression still of unknown type, as
// PostgreSQL does where no context decides.
func (b *binder) resolveUnknown(x eval.Expr) eval.Expr {
	if x.Type().OID != types.Unknown {
		return x
	}
	r, err := b.resolveUnknownAs(x, eval.TextT())
	if err != nil {
		return x
	}
	return r
}

func (b *binder) bindUnary(e *ast.Unary) (eval.Expr, error) {
	if e.Op == "NOT" {
		x, err := b.bindAs(e.X, eval.BoolT(), "NOT")
		if err != nil {
			return nil, err
		}
		return &eval.Not{X: x}, nil
	}
	// Fold -<number literal> so that -2147483648 is an int4, as in PostgreSQL.
	if lit, ok := e.X.(*ast.Literal); ok && e.Op == "-" && (lit.Kind == ast.LitInteger || lit.Kind == ast.LitNumeric) {
		return bindLiteral(&ast.Literal{Kind: lit.Kind, Value: "-" + lit.Value, Pos: e.Pos})
	}
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	return bindUnaryOp(b, e.Op, x, e.Pos)
}

func (b *binder) bindBinary(e *ast.Binary) (eval.Expr, error) {
	switch e.Op {
	case "AND", "OR":
		l, err := b.bindAs(e.L, eval.BoolT(), e.Op)
		if err != nil {
			return nil, err
		}
		r, err := b.bindAs(e.R, eval.BoolT(), e.Op)
		if err != nil {
			return nil, err
		}
		if e.Op == "AND" {
			return &eval.And{L: l, R: r}, nil
		}
		return &eval.Or{L: l, R: r}, nil
	}
	l, err := b.bind(e.L)
	if err != nil {
		return nil, err
	}
	r, err := b.bind(e.R)
	if err != nil {
		return nil, err
	}
	x, err := bindBinaryOp(b, e.Op, l, r)
	if err != nil {
		if pgerror.CodeOf(err) == pgerror.UndefinedFunction {
			// "operator does not exist" points at the operator.
			return nil, withPosErr(err, e.OpPos)
		}
		return nil, withPos(err, e)
	}
	return x, nil
}

func (b *binder) bindBetween(e *ast.Between) (eval.Expr, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	lo, err := b.bind(e.Lo)
	if err != nil {
		return nil, err
	}
	hi, err := b.bind(e.Hi)
	if err != nil {
		return nil, err
	}
	ge, err := bindBinaryOp(b, ">=", x, lo)
	if err != nil {
		return nil, withPos(err, e)
	}
	le, err := bindBinaryOp(b, "<=", x, hi)
	if err != nil {
		return nil, withPos(err, e)
	}
	var res eval.Expr = &eval.And{L: ge, R: le}
	if e.Symmetric {
		ge2, _ := bindBinaryOp(b, ">=", x, hi)
		le2, _ := bindBinaryOp(b, "<=", x, lo)
		res = &eval.Or{L: res, R: &eval.And{L: ge2, R: le2}}
	}
	if e.Not {
		res = &eval.Not{X: res}
	}
	return res, nil
}

func (b *binder) bindIn(e *ast.In) (eval.Expr, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	if e.Query != nil {
		sq, err := b.bindComparedSubquery(x, e.Query, e)
		if err != nil {
			return nil, err
		}
		sq.kind, sq.not, sq.op = subIn, e.Not, "="
		return sq, nil
	}
	items := []eval.Expr{x}
	for _, it := range e.List {
		v, err := b.bind(it)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	ct, err := eval.CommonType(items, "IN")
	if err != nil {
		return nil, withPos(err, e)
	}
	for i := range items {
		if items[i], err = b.coerce(items[i], ct); err != nil {
			return nil, withPos(err, e)
		}
	}
	return &eval.InList{X: items[0], List: items[1:], CmpT: ct, Not: e.Not}, nil
}

// bindComparedSubquery plans the one-column subquery of x IN (query) or
// x op ANY|ALL (query) and brings x and the column to one type.
func (b *binder) bindComparedSubquery(x eval.Expr, q *ast.Select, at ast.Expr) (*subqueryExpr, error) {
	p, correlated, err := b.planSubquery(q)
	if err != nil {
		return nil, err
	}
	cols := p.columns()
	if row, ok := x.(*eval.RowCtor); ok && len(cols) > 1 && len(row.Elems) == len(cols) {
		// (a, b) IN (SELECT x, y ...): field by field.
		sq := &subqueryExpr{plan: p, correlated: correlated}
		unified := &eval.RowCtor{}
		for i, el := range row.Elems {
			ux, ct, err := b.unifyPair(el, cols[i].t)
			if err != nil {
				return nil, withPos(err, at)
			}
			unified.Elems = append(unified.Elems, ux)
			sq.rowTypes = append(sq.rowTypes, ct)
			sq.subTypes = append(sq.subTypes, cols[i].t)
		}
		sq.x = unified
		return sq, nil
	}
	if len(cols) != 1 {
		return nil, pgerror.New(pgerror.SyntaxError, "subquery has too many columns").WithPosition(at.Position() + 1)
	}
	x, ct, err := b.unifyPair(x, cols[0].t)
	if err != nil {
		return nil, withPos(err, at)
	}
	return &subqueryExpr{plan: p, correlated: correlated, x: x, cmpT: ct}, nil
}

// unifyPair coerces x and a value of type t to one comparable type.
func (b *binder) unifyPair(x eval.Expr, t types.T) (eval.Expr, types.T, error) {
	ct, err := eval.CommonType([]eval.Expr{x, &eval.Const{T: t}}, "=")
	if err != nil {
		return nil, ct, err
	}
	x, err = b.coerce(x, ct)
	return x, ct, err
}

func (b *binder) bindAnyAll(e *ast.AnyAll) (eval.Expr, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	if e.Query != nil {
		if _, err := eval.ComparisonFunc(e.Op); err != nil {
			// LIKE and the other non-comparison operators run over the
			// subquery's values gathered as an array.
			p, correlated, err := b.planSubquery(e.Query)
			if err != nil {
				return nil, err
			}
			cols := p.columns()
			if len(cols) != 1 {
				return nil, pgerror.New(pgerror.SyntaxError, "subquery has too many columns").WithPosition(e.Pos + 1)
			}
			at := eval.ArrayOf(cols[0].t)
			if at.OID == 0 {
				return nil, eval.OperatorError(e.Op, x.Type(), cols[0].t).WithPosition(e.OpPos + 1)
			}
			arr := &subqueryExpr{kind: subArray, plan: p, correlated: correlated, t: at}
			return b.bindAnyOp(e, x, arr, cols[0].t)
		}
		sq, err := b.bindComparedSubquery(x, e.Query, e)
		if err != nil {
			return nil, err
		}
		sq.kind, sq.op = subAny, e.Op
		if e.All {
			sq.kind = subAll
		}
		return sq, nil
	}
	arr, err := b.bind(e.Array)
	if err != nil {
		return nil, err
	}
	var elemT types.T
	if arr.Type().OID == types.Unknown {
		// '{1,2}' literal: the array type follows x.
		x = b.resolveUnknown(x)
		if arr, err = b.coerce(arr, eval.ArrayOf(x.Type())); err != nil {
			return nil, withPos(err, e)
		}
	}
	if info, ok := types.Lookup(arr.Type().OID); ok && info.ElemOID != 0 {
		elemT = types.Of(info.ElemOID)
	} else {
		return nil, pgerror.New(pgerror.WrongObjectType, "op ANY/ALL (array) requires array on right side").WithPosition(e.Pos + 1)
	}
	if _, err := eval.ComparisonFunc(e.Op); err != nil {
		return b.bindAnyOp(e, x, arr, elemT)
	}
	x, ct, err := b.unifyPair(x, elemT)
	if err != nil {
		return nil, withPos(err, e)
	}
	cmp, err := eval.ComparisonFunc(e.Op)
	if err != nil {
		return nil, withPos(err, e)
	}
	return &anyArrayExpr{x: x, arr: arr, cmpT: ct, elemT: elemT, cmp: cmp, all: e.All}, nil
}

func (b *binder) bindCast(e *ast.Cast) (eval.Expr, error) {
	t, err := b.pc.resolveType(&e.Type)
	if err != nil {
		return nil, err
	}
	if arr, ok := e.X.(*ast.ArrayExpr); ok && len(arr.Elems) == 0 && types.IsArray(t.OID) {
		// ARRAY[]::int[]: the cast gives the empty array its type.
		return &eval.Const{V: types.ArrayValue{Elem: types.ElemOf(t.OID), Elems: []types.Value{}}, T: t}, nil
	}
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	if x.Type().OID == types.Unknown {
		return b.resolveUnknownTo(x, t, true)
	}
	if !eval.ExplicitCastOK(x.Type().OID, t.OID) {
		return nil, pgerror.New(pgerror.CannotCoerce, "cannot cast type %s to %s", eval.TypeName(x.Type()), eval.TypeName(t)).WithPosition(e.Pos + 1)
	}
	return &eval.Cast{X: x, To: t, Explicit: true}, nil
}

func (b *binder) bindCase(e *ast.Case) (eval.Expr, error) {
	ce := &eval.Case{}
	var operand eval.Expr
	if e.Operand != nil {
		var err error
		if operand, err = b.bind(e.Operand); err != nil {
			return nil, err
		}
	}
	var results []eval.Expr
	for _, w := range e.Whens {
		var cond eval.Expr
		var err error
		if operand != nil {
			v, err := b.bind(w.Cond)
			if err != nil {
				return nil, err
			}
			if cond, err = bindBinaryOp(b, "=", operand, v); err != nil {
				return nil, withPos(err, w.Cond)
			}
		} else if cond, err = b.bindCondition(w.Cond, "CASE/WHEN"); err != nil {
			return nil, err
		}
		r, err := b.bind(w.Result)
		if err != nil {
			return nil, err
		}
		ce.Conds = append(ce.Conds, cond)
		results = append(results, r)
	}
	if e.Else != nil {
		r, err := b.bind(e.Else)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	// PostgreSQL weighs the ELSE result first when choosing the type.
	ordered := results
	if e.Else != nil {
		ordered = append([]eval.Expr{results[len(results)-1]}, results[:len(results)-1]...)
	}
	t, err := eval.CommonType(ordered, "CASE")
	if err != nil {
		return nil, withPos(err, e)
	}
	if t.OID == types.Unknown {
		t = eval.TextT()
	}
	for i := range results {
		if results[i], err = b.coerce(results[i], t); err != nil {
			return nil, withPos(err, e)
		}
	}
	ce.Results = results[:len(e.Whens)]
	if e.Else != nil {
		ce.Els = results[len(results)-1]
	}
	ce.T = t
	return ce, nil
}

func (b *binder) bindArray(e *ast.ArrayExpr) (eval.Expr, error) {
	if len(e.Elems) == 0 {
		return nil, pgerror.New(pgerror.IndeterminateDatatype, "cannot determine type of empty array").WithPosition(e.Pos + 1).
			WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[].")
	}
	var elems []eval.Expr
	for _, el := range e.Elems {
		x, err := b.bind(el)
		if err != nil {
			return nil, err
		}
		elems = append(elems, x)
	}
	t, err := eval.CommonType(elems, "ARRAY")
	if err != nil {
		return nil, withPos(err, e)
	}
	if types.IsArray(t.OID) {
		// Sub-arrays make a multidimensional array of the same type.
		for i := range elems {
			if elems[i], err = b.coerce(elems[i], t); err != nil {
				return nil, withPos(err, e)
			}
		}
		return &builtins.NestedArray{Elems: elems, T: t}, nil
	}
	if t.OID == types.Unknown {
		t = eval.TextT()
	}
	for i := range elems {
		if elems[i], err = b.coerce(elems[i], t); err != nil {
			return nil, withPos(err, e)
		}
	}
	at := eval.ArrayOf(t)
	if at.OID == 0 {
		return nil, pgerror.New(pgerror.UndefinedObject, "could not find array type for data type %s", eval.TypeName(t)).WithPosition(e.Pos + 1)
	}
	return &eval.ArrayCtor{Elems: elems, Elem: t.OID, T: at}, nil
}

func (b *binder) bindSubscript(e *ast.Subscript) (eval.Expr, error) {
	if inner, ok := e.X.(*ast.Subscript); ok && !e.Slice && !inner.Slice {
		return b.bindMultiSubscript(e)
	}
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	if x.Type().OID == types.Name {
		return b.bindNameSubscript(e, x) // funcs_dump.go
	}
	info, ok := types.Lookup(x.Type().OID)
	if !ok || info.ElemOID == 0 {
		return nil, pgerror.New(pgerror.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", eval.TypeName(x.Type())).WithPosition(e.Pos + 1)
	}
	se := &subscriptExpr{x: x, elemT: types.Of(info.ElemOID), slice: e.Slice}
	for _, p := range []struct {
		src ast.Expr
		dst *eval.Expr
	}{{e.Index, &se.index}, {e.Lo, &se.lo}, {e.Hi, &se.hi}} {
		if p.src == nil {
			continue
		}
		if *p.dst, err = b.bindAs(p.src, eval.Int4T(), "array subscript"); err != nil {
			return nil, err
		}
	}
	return se, nil
}

func (b *binder) bindFieldAccess(e *ast.FieldAccess) (eval.Expr, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	if re, ok := x.(*eval.RowCtor); ok {
		for _, el := range re.Elems {
			if c, ok := el.(*eval.ColRef); ok && c.Name == e.Field {
				return c, nil
			}
		}
	}
	if f, ok := bindRecordField(x, e.Field); ok {
		return f, nil // (keys).x of a named record (srf_targets.go)
	}
	return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" not found in data type %s", e.Field, eval.TypeName(x.Type())).WithPosition(e.Pos + 1)
}

// resolveType turns a type name into a type, expanding PostgreSQL's aliases
// and the typmod arguments.
func (pc *planCtx) resolveType(tn *ast.TypeName) (types.T, error) {
	name := tn.Name
	if pc.sess.dialect() == parse.DialectDatabricks {
		if alias, ok := databricksTypes[name]; ok && tn.Schema == "" {
			name = alias
		}
	}
	switch name {
	case "serial", "serial4":
		name = "int4"
	case "bigserial", "serial8":
		name = "int8"
	case "smallserial", "serial2":
		name = "int2"
	}
	t, ok := types.ByName(name)
	if !ok {
		return types.T{}, pgerror.New(pgerror.UndefinedObject, "type \"%s\" does not exist", tn.Name).WithPosition(tn.Pos + 1)
	}
	switch {
	case tn.IntervalFields != "" && t.OID == types.Interval:
		fields, ok := types.IntervalFieldsNamed(tn.IntervalFields)
		if !ok || len(tn.Args) > 1 {
			return types.T{}, pgerror.New(pgerror.SyntaxError, "invalid INTERVAL type modifier").WithPosition(tn.Pos + 1)
		}
		precision := -1
		if len(tn.Args) == 1 {
			if precision = tn.Args[0]; precision < 0 {
				return types.T{}, pgerror.New(pgerror.InvalidParameterValue, "INTERVAL(%d) precision must not be negative", precision).WithPosition(tn.Pos + 1)
			}
		}
		tm, err := types.IntervalTypmod(fields, precision)
		if err != nil {
			return types.T{}, withPosErr(err, tn.Pos)
		}
		t.Typmod = tm
	case len(tn.Args) > 0:
		tm, err := typmodFor(t.OID, tn.Args)
		if err != nil {
			return types.T{}, withPosErr(err, tn.Pos)
		}
		t.Typmod = tm
	}
	for i := 0; i < tn.ArrayDims && i < 1; i++ {
		at := eval.ArrayOf(t)
		if at.OID == 0 {
			return types.T{}, pgerror.New(pgerror.UndefinedObject, "type \"%s[]\" does not exist", tn.Name).WithPosition(tn.Pos + 1)
		}
		t = at
	}
	return t, nil
}

func withPosErr(err error, pos int) error {
	pe := pgerror.As(err)
	if pe.Position == 0 {
		return pe.WithPosition(pos + 1)
	}
	return pe
}

// databricksTypes maps Spark SQL type names to PostgreSQL's, for the
// Databricks dialect.
var databricksTypes = map[string]string{
	"string":        "text",
	"long":          "int8",
	"short":         "int2",
	"byte":          "int2",
	"tinyint":       "int2",
	"binary":        "bytea",
	"timestamp_ntz": "timestamp",
	"timestamp_ltz": "timestamptz",
}

// searchPath is the schemas unqualified relation names are looked up in:
// the session's, or within a view's query the view's own.
func (pc *planCtx) searchPath() []string {
	if pc.viewPath != nil {
		return pc.viewPath
	}
	return pc.sess.searchPath()
}
