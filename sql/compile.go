package sql

import (
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/sql/settings"
	"cdcdb/wire"
)

// compileStatement plans one statement.
func (pc *planCtx) compileStatement(stmt ast.Statement) (*compiled, error) {
	switch st := stmt.(type) {
	case *ast.Select:
		_, locks := lockingStrength(st.Locking)
		if locks {
			if c, err := pc.compileLockingSelect(st); c != nil || err != nil {
				return c, err
			}
		}
		p, err := pc.planQuery(st, nil)
		if err != nil {
			return nil, err
		}
		a := accessRead
		if pc.writesBy != "" || locks {
			a = accessWrite // a locking SELECT the path above does not take holds the writer slot
		}
		return &compiled{query: p, fields: p.columns(), access: a}, nil
	case *ast.Insert:
		return pc.compileInsert(st)
	case *ast.Update:
		return pc.compileUpdate(st)
	case *ast.Delete:
		return pc.compileDelete(st)
	case *ast.Copy:
		return pc.compileCopy(st)
	case *ast.Transaction:
		return pc.compileTransaction(st)
	case *ast.Set:
		return pc.compileSet(st)
	case *ast.Show:
		return pc.compileShow(st)
	case *ast.Reset:
		return &compiled{access: accessNone, setsParameters: true, run: resetStatement{st.Name}}, nil
	case *ast.Listen, *ast.Unlisten, *ast.Notify:
		return pc.compileNotification(stmt) // notify.go
	case *ast.Discard:
		return &compiled{access: accessNone, run: discardStatement{strings.ToUpper(st.What)}}, nil
	case *ast.Deallocate:
		// Prepared statements live in the wire layer, which drops them when
		// its ResultWriter can (a writer that cannot has none to drop).
		return &compiled{access: accessNone, run: deallocateStatement{st.Name}}, nil
	case *ast.LockTable:
		return &compiled{access: accessRead, run: lockTableStatement{st}}, nil
	case *ast.Vacuum:
		return &compiled{access: accessRead, run: vacuumStatement{st}}, nil // vacuum.go
	case *ast.SetConstraints:
		return &compiled{access: accessRead, run: setConstraintsStatement{st}}, nil // foreignkey_deferred.go
	case *ast.Explain:
		return pc.compileExplain(st)
	case *ast.DeclareCursor, *ast.FetchCursor, *ast.CloseCursor:
		return pc.compileCursor(stmt) // cursor.go
	case *ast.Drop:
		if st.Kind == ast.ObjectSource || st.Kind == ast.ObjectConnection {
			return pc.compileSourceStatement(st) // sources.go
		}
		return pc.compileDDL(stmt)
	case *ast.CreateConnection, *ast.CreateSource:
		return pc.compileSourceStatement(stmt) // sources.go
	case *ast.CreateSchema, *ast.CreateTable, *ast.CreateIndex, *ast.CreateView, *ast.AlterTable,
		*ast.Truncate, *ast.CommentOn:
		return pc.compileDDL(stmt)
	case *ast.CreateSequence, *ast.AlterSequence, *ast.AlterSchemaOwner:
		return pc.compileSequenceDDL(stmt) // ddl_sequence.go
	case *ast.CreateRole, *ast.AlterRole, *ast.DropRole, *ast.GrantPrivileges, *ast.GrantRoles, *ast.AlterDefaultPrivileges:
		return pc.compileRoleStatement(stmt) // roles.go
	case *ast.CreateFlow, *ast.RefreshStreamingTable:
		return pc.compileFlowStatement(stmt)
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "statement %T is not supported", stmt)
}

// resetStatement is RESET name and RESET ALL.
type resetStatement struct{ name string }

func (r resetStatement) String() string { return "RESET " + r.name }

func (r resetStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "RESET", x.sess.resetSetting(r.name)
}

// discardStatement is DISCARD ALL, PLANS, TEMP or TEMPORARY (what, upper
// case).
type discardStatement struct{ what string }

func (d discardStatement) String() string { return "DISCARD " + d.what }

func (d discardStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	if d.what == "ALL" {
		if x.sess.block != nil && !x.sess.block.implicit {
			return "", pgerror.New(pgerror.ActiveSQLTransaction, "DISCARD ALL cannot run inside a transaction block")
		}
		if err := x.sess.resetSetting("all"); err != nil {
			return "", err
		}
		if err := x.sess.queueListen("", false); err != nil { // UNLISTEN *
			return "", err
		}
	}
	if d.what == "ALL" || d.what == "PLANS" {
		x.sess.plans.clear()
	}
	if d.what == "ALL" || d.what == "TEMP" || d.what == "TEMPORARY" {
		if err := x.sess.discardTemp(x.ctx); err != nil {
			return "", err
		}
	}
	return "DISCARD " + d.what, nil
}

// deallocateStatement is DEALLOCATE name, and DEALLOCATE ALL (name "").
// Prepared statements live in the wire layer, which drops them when its
// ResultWriter can (a writer that cannot has none to drop).
type deallocateStatement struct{ name string }

func (d deallocateStatement) String() string {
	if d.name == "" {
		return "DEALLOCATE ALL"
	}
	return "DEALLOCATE " + parse.QuoteIdent(d.name)
}

func (d deallocateStatement) exec(_ *execCtx, out *resultSink) (string, error) {
	dropper, canDrop := out.out.(interface{ Deallocate(name string) bool })
	if d.name == "" {
		if canDrop {
			dropper.Deallocate("")
		}
		return "DEALLOCATE ALL", nil
	}
	if canDrop && !dropper.Deallocate(d.name) {
		return "", pgerror.New(pgerror.UndefinedPreparedStatement, "prepared statement \"%s\" does not exist", d.name)
	}
	return "DEALLOCATE", nil
}

// lockTableStatement is LOCK TABLE (funcs_dump.go).
type lockTableStatement struct{ st *ast.LockTable }

func (l lockTableStatement) String() string {
	s := "LOCK TABLE " + qualifiedNames(l.st.Tables) + " IN " + l.st.Mode + " MODE"
	if l.st.NoWait {
		s += " NOWAIT"
	}
	return s
}

func (l lockTableStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "LOCK TABLE", x.lockTable(l.st)
}

func (pc *planCtx) compileTransaction(st *ast.Transaction) (*compiled, error) {
	return &compiled{access: accessNone, run: transactionStatement{st}}, nil
}

// transactionStatement is BEGIN, COMMIT, ROLLBACK and the savepoint
// statements.
type transactionStatement struct{ st *ast.Transaction }

func (t transactionStatement) String() string {
	switch t.st.Kind {
	case ast.TxBegin:
		if t.st.Verb == "START" {
			return "START TRANSACTION"
		}
	case ast.TxSavepoint:
		return "SAVEPOINT " + parse.QuoteIdent(t.st.Savepoint)
	case ast.TxRelease, ast.TxRollbackTo:
		return string(t.st.Kind) + " SAVEPOINT " + parse.QuoteIdent(t.st.Savepoint)
	}
	return string(t.st.Kind)
}

func (t transactionStatement) exec(x *execCtx, out *resultSink) (string, error) {
	st := t.st
	s := x.sess
	switch st.Kind {
	case ast.TxBegin:
		if s.block != nil && !s.block.implicit {
			out.out.Notice(&wire.NoticeInfo{Severity: "WARNING", Code: pgerror.ActiveSQLTransaction, Message: "there is already a transaction in progress"})
			return "BEGIN", nil
		}
		if s.block != nil && s.block.implicit {
			// BEGIN inside a multi-statement query turns the implicit
			// block into an explicit one.
			s.block.implicit = false
			return "BEGIN", s.block.applyModes(st.Modes)
		}
		s.block = &txBlock{start: x.now, modes: s.defaultTxModes()}
		if err := s.block.applyModes(st.Modes); err != nil {
			return "", err
		}
		if st.Verb == "START" {
			return "START TRANSACTION", nil
		}
		return "BEGIN", nil
	case ast.TxCommit:
		if s.block == nil || s.block.implicit {
			// PostgreSQL warns and still ends the implicit transaction
			// of the statements before, if any.
			out.out.Notice(&wire.NoticeInfo{Severity: "WARNING", Code: pgerror.NoActiveSQLTransaction, Message: "there is no transaction in progress"})
		}
		if s.block == nil {
			return "COMMIT", nil
		}
		failed := s.block.failed
		if err := s.endBlock(true); err != nil {
			return "", err
		}
		if failed {
			return "ROLLBACK", nil
		}
		return "COMMIT", nil
	case ast.TxRollback:
		if s.block == nil || s.block.implicit {
			out.out.Notice(&wire.NoticeInfo{Severity: "WARNING", Code: pgerror.NoActiveSQLTransaction, Message: "there is no transaction in progress"})
		}
		if s.block == nil {
			return "ROLLBACK", nil
		}
		_ = s.endBlock(false)
		return "ROLLBACK", nil
	case ast.TxSavepoint:
		return "SAVEPOINT", s.setSavepoint(st.Savepoint)
	case ast.TxRelease:
		return "RELEASE", s.releaseSavepoint(st.Savepoint)
	case ast.TxRollbackTo:
		return "ROLLBACK", s.rollbackToSavepoint(st.Savepoint)
	}
	return "", pgerror.New(pgerror.FeatureNotSupported, "%s is not supported", st.Kind)
}

func (pc *planCtx) compileSet(st *ast.Set) (*compiled, error) {
	// SET TRANSACTION and SET SESSION CHARACTERISTICS carry their modes
	// as string literals.
	var modes []ast.TxMode
	if st.Name == "transaction" {
		for _, v := range st.Values {
			modes = append(modes, ast.TxMode(v.(*ast.Literal).Value))
		}
	}
	b := pc.binder(newScope(nil))
	var parts []string
	for _, v := range st.Values {
		s, err := settingValueText(b, v)
		if err != nil {
			return nil, err
		}
		parts = append(parts, s)
	}
	value := strings.Join(parts, ", ")
	if st.Name == "role" || st.Name == "session_authorization" {
		if c, err := pc.compileRoleSwitch(st, value); c != nil || err != nil {
			return c, err
		}
	}
	return &compiled{access: accessNone, setsParameters: true, run: setStatement{st: st, value: value, modes: modes}}, nil
}

// setStatement is SET, SET LOCAL, SET ... TO DEFAULT, and SET TRANSACTION
// (with Local) or SET SESSION CHARACTERISTICS AS TRANSACTION (without),
// whose modes planning read.
type setStatement struct {
	st    *ast.Set
	value string // the values as text, comma-separated
	modes []ast.TxMode
}

func (s setStatement) String() string {
	switch {
	case s.st.Name == "transaction" && s.st.Local:
		return "SET TRANSACTION " + joinModes(s.modes)
	case s.st.Name == "transaction":
		return "SET SESSION CHARACTERISTICS AS TRANSACTION " + joinModes(s.modes)
	}
	out := "SET "
	if s.st.Local {
		out += "LOCAL "
	}
	if s.st.Default {
		return out + s.st.Name + " TO DEFAULT"
	}
	return out + s.st.Name + " = " + s.value
}

func joinModes(modes []ast.TxMode) string {
	parts := make([]string, len(modes))
	for i, m := range modes {
		parts[i] = string(m)
	}
	return strings.Join(parts, ", ")
}

func (set setStatement) exec(x *execCtx, out *resultSink) (string, error) {
	s, st := x.sess, set.st
	if st.Local && !s.localSettingsApply() {
		// A transaction of its own, which would end with the SET.
		if st.Name == "transaction" {
			out.out.Notice(&wire.NoticeInfo{Severity: "WARNING", Code: pgerror.NoActiveSQLTransaction, Message: "SET TRANSACTION can only be used in transaction blocks"})
		} else {
			out.out.Notice(setLocalOutsideBlock)
		}
		return "SET", nil
	}
	switch {
	case st.Name == "transaction" && st.Local:
		return "SET", s.block.applyModes(set.modes)
	case st.Name == "transaction":
		return "SET", s.setSessionCharacteristics(set.modes)
	case st.Default:
		return "SET", s.resetSetting(st.Name)
	}
	return "SET", s.setSetting(st.Name, set.value, st.Local)
}

// settingValueText renders a SET value: a string, number or word as text.
func settingValueText(b *binder, e ast.Expr) (string, error) {
	switch v := e.(type) {
	case *ast.Literal:
		return v.Value, nil
	case *ast.ColumnRef:
		return strings.Join(v.Parts, "."), nil
	case *ast.Unary:
		if lit, ok := v.X.(*ast.Literal); ok && v.Op == "-" {
			return "-" + lit.Value, nil
		}
	case *ast.Cast:
		if lit, ok := v.X.(*ast.Literal); ok {
			return lit.Value, nil
		}
	}
	return "", pgerror.New(pgerror.SyntaxError, "syntax error at or near value").WithPosition(e.Position() + 1)
}

// resetSetting is RESET name (or SET name TO DEFAULT), or with "all" RESET
// ALL, which leaves out the parameters that are views of the transaction.
func (s *Session) resetSetting(name string) error {
	defaultOf := func(ln string, d *settings.Def) string {
		switch ln {
		case "session_authorization":
			return s.user
		case "cdcdb.dialect":
			return s.engine.opts.Dialect.String()
		}
		return s.engine.settingDefault(ln, d)
	}
	ln := strings.ToLower(name)
	if ln == "all" {
		for k, d := range settings.All() {
			if d.Context.Settable() && !d.Transaction {
				s.assignSetting(k, defaultOf(k, d), false)
			}
		}
		return nil
	}
	d, ok := settings.Lookup(ln)
	if !ok {
		return settings.Unrecognized(name)
	}
	if !d.Context.Settable() {
		return d.CannotChange()
	}
	if err := s.checkSettingPrivilege(d); err != nil {
		return err
	}
	if d.Transaction {
		// A transaction's mode resets to the session's default for it.
		return transactionSettings[ln].assign(s, s.settings["default_"+ln])
	}
	s.assignSetting(ln, defaultOf(ln, d), false)
	return nil
}

func (pc *planCtx) compileShow(st *ast.Show) (*compiled, error) {
	name := strings.ToLower(st.Name)
	if name == "all" {
		cols := []outCol{{name: "name", t: eval.TextT()}, {name: "setting", t: eval.TextT()}, {name: "description", t: eval.TextT()}}
		return &compiled{access: accessNone, fields: cols, run: showAllStatement{}}, nil
	}
	colName := name
	if d, ok := settings.Lookup(name); ok {
		colName = d.Name
	}
	switch name {
	case "transaction isolation level":
		name, colName = "transaction_isolation", "transaction_isolation"
	case "time zone":
		name, colName = "timezone", "TimeZone"
	}
	if _, ok := pc.sess.settings[name]; !ok {
		return nil, pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", st.Name)
	}
	cols := []outCol{{name: colName, t: eval.TextT()}}
	return &compiled{access: accessNone, fields: cols, run: showStatement{name}}, nil
}

// showAllStatement is SHOW ALL: every parameter, its value and what it is.
type showAllStatement struct{}

func (showAllStatement) String() string { return "SHOW ALL" }

func (showAllStatement) exec(x *execCtx, out *resultSink) (string, error) {
	for _, n := range settings.Names() {
		d, _ := settings.Lookup(strings.ToLower(n))
		v, _ := x.sess.showSetting(n)
		if err := out.row(x, eval.Row{d.Name, v, d.Desc}); err != nil {
			return "", err
		}
	}
	return "SHOW", nil
}

// showStatement is SHOW of one parameter, by its lower-case name.
type showStatement struct{ name string }

func (s showStatement) String() string { return "SHOW " + s.name }

func (s showStatement) exec(x *execCtx, out *resultSink) (string, error) {
	v, err := x.sess.showSetting(s.name)
	if err != nil {
		return "", err
	}
	if err := out.row(x, eval.Row{v}); err != nil {
		return "", err
	}
	return "SHOW", nil
}

func (pc *planCtx) compileExplain(st *ast.Explain) (*compiled, error) {
	inner, err := pc.compileStatement(st.Stmt)
	if err != nil {
		return nil, err
	}
	var lines []string
	ctas, isCTAS := st.Stmt.(*ast.CreateTable)
	switch {
	case inner.query != nil:
		inner.query.explain(0, &lines)
	case isCTAS && ctas.AsQuery != nil:
		// PostgreSQL explains CREATE TABLE AS by its query's plan.
		p, err := pc.planQuery(ctas.AsQuery, nil)
		if err != nil {
			return nil, err
		}
		p.explain(0, &lines)
	default:
		lines = append(lines, inner.run.String())
		if inner.explainPlan != nil {
			inner.explainPlan.explain(1, &lines)
		} else if e, ok := inner.run.(rowsExplainer); ok {
			e.explainRows(1, &lines)
		}
	}
	cols := []outCol{{name: "QUERY PLAN", t: eval.TextT()}}
	a := accessNone
	if st.Analyze {
		a = inner.access
	}
	return &compiled{access: a, fields: cols, run: &explainStatement{inner: inner, analyze: st.Analyze, lines: lines}}, nil
}

// explainStatement is EXPLAIN [ANALYZE]: lines is the plan it shows,
// made when it was planned; ANALYZE runs inner and adds how many rows it
// gave.
type explainStatement struct {
	inner   *compiled
	analyze bool
	lines   []string
}

func (e *explainStatement) String() string {
	if e.analyze {
		return "EXPLAIN ANALYZE"
	}
	return "EXPLAIN"
}

func (e *explainStatement) exec(x *execCtx, out *resultSink) (string, error) {
	lines := e.lines
	if e.analyze && e.inner.access != accessNone {
		n := 0
		if e.inner.query != nil {
			rows, err := drain(x, e.inner.query, nil)
			if err != nil {
				return "", err
			}
			n = len(rows)
		} else if _, err := e.inner.run.exec(x, &resultSink{out: discardWriter{}, s: x.sess}); err != nil {
			return "", err
		}
		// A copy: each execution of a prepared EXPLAIN ANALYZE counts anew.
		lines = append(lines[:len(lines):len(lines)], "Rows: "+strconv.Itoa(n))
	}
	for _, l := range lines {
		if err := out.row(x, eval.Row{l}); err != nil {
			return "", err
		}
	}
	return "EXPLAIN", nil
}

// discardWriter swallows output (EXPLAIN ANALYZE of a statement with rows).
type discardWriter struct{}

func (discardWriter) WriteRow([][]byte) error                    { return nil }
func (discardWriter) Notice(*wire.NoticeInfo)                    {}
func (discardWriter) CopyIn(bool, int) (wire.CopyReader, error)  { return nil, errNoCopy }
func (discardWriter) CopyOut(bool, int) (wire.CopyWriter, error) { return nil, errNoCopy }

var errNoCopy = pgerror.New(pgerror.FeatureNotSupported, "COPY is not possible here")

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
