package sql

import (
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
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
		return &compiled{access: accessNone, setsParameters: true, exec: func(x *execCtx, out *resultSink) (string, error) {
			return "RESET", x.sess.resetSetting(st.Name)
		}}, nil
	case *ast.Listen, *ast.Unlisten, *ast.Notify:
		return pc.compileNotification(stmt) // notify.go
	case *ast.Discard:
		return &compiled{access: accessNone, exec: func(x *execCtx, out *resultSink) (string, error) {
			if strings.EqualFold(st.What, "all") {
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
			if strings.EqualFold(st.What, "all") || strings.EqualFold(st.What, "plans") {
				x.sess.plans.clear()
			}
			if strings.EqualFold(st.What, "all") || strings.EqualFold(st.What, "temp") || strings.EqualFold(st.What, "temporary") {
				if err := x.sess.discardTemp(x.ctx); err != nil {
					return "", err
				}
			}
			return "DISCARD " + strings.ToUpper(st.What), nil
		}}, nil
	case *ast.Deallocate:
		// Prepared statements live in the wire layer, which drops them when
		// its ResultWriter can (a writer that cannot has none to drop).
		return &compiled{access: accessNone, exec: func(_ *execCtx, out *resultSink) (string, error) {
			d, canDrop := out.out.(interface{ Deallocate(name string) bool })
			if st.Name == "" {
				if canDrop {
					d.Deallocate("")
				}
				return "DEALLOCATE ALL", nil
			}
			if canDrop && !d.Deallocate(st.Name) {
				return "", pgerror.New(pgerror.UndefinedPreparedStatement, "prepared statement \"%s\" does not exist", st.Name)
			}
			return "DEALLOCATE", nil
		}}, nil
	case *ast.LockTable:
		return &compiled{access: accessRead, exec: func(x *execCtx, _ *resultSink) (string, error) {
			return "LOCK TABLE", x.lockTable(st) // funcs_dump.go
		}}, nil
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
	case *ast.CreateRole, *ast.AlterRole, *ast.DropRole, *ast.GrantPrivileges:
		return pc.compileRoleStatement(stmt) // roles.go
	case *ast.CreateFlow, *ast.RefreshStreamingTable:
		return pc.compileFlowStatement(stmt)
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "statement %T is not supported", stmt)
}

func (pc *planCtx) compileTransaction(st *ast.Transaction) (*compiled, error) {
	return &compiled{access: accessNone, exec: func(x *execCtx, out *resultSink) (string, error) {
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
	}}, nil
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
	return &compiled{access: accessNone, setsParameters: true, exec: func(x *execCtx, out *resultSink) (string, error) {
		s := x.sess
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
			return "SET", s.block.applyModes(modes)
		case st.Name == "transaction":
			return "SET", s.setSessionCharacteristics(modes)
		case st.Default:
			return "SET", s.resetSetting(st.Name)
		}
		return "SET", s.setSetting(st.Name, value, st.Local)
	}}, nil
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
	defaultOf := func(ln string, d *settingDef) string {
		switch ln {
		case "session_authorization":
			return s.user
		case "cdcdb.dialect":
			return s.engine.opts.Dialect
		}
		return s.engine.settingDefault(ln, d)
	}
	ln := strings.ToLower(name)
	if ln == "all" {
		for k, d := range settingDefs {
			if !d.readOnly && d.assign == nil {
				s.assignSetting(k, defaultOf(k, d), false)
			}
		}
		return nil
	}
	d, ok := settingDefs[ln]
	if !ok {
		return pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
	}
	if d.readOnly {
		return pgerror.New("55P02", "parameter \"%s\" cannot be changed", d.name)
	}
	if d.assign != nil {
		// A transaction's mode resets to the session's default for it.
		return d.assign(s, s.settings["default_"+ln])
	}
	s.assignSetting(ln, defaultOf(ln, d), false)
	return nil
}

func (pc *planCtx) compileShow(st *ast.Show) (*compiled, error) {
	name := strings.ToLower(st.Name)
	if name == "all" {
		cols := []outCol{{name: "name", t: textT()}, {name: "setting", t: textT()}, {name: "description", t: textT()}}
		return &compiled{access: accessNone, fields: cols, exec: func(x *execCtx, out *resultSink) (string, error) {
			names := settingNames()
			for _, n := range names {
				d := settingDefs[strings.ToLower(n)]
				v, _ := x.sess.showSetting(n)
				if err := out.row(x, Row{d.name, v, d.desc}); err != nil {
					return "", err
				}
			}
			return "SHOW", nil
		}}, nil
	}
	colName := name
	if d, ok := settingDefs[name]; ok {
		colName = d.name
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
	cols := []outCol{{name: colName, t: textT()}}
	return &compiled{access: accessNone, fields: cols, exec: func(x *execCtx, out *resultSink) (string, error) {
		v, err := x.sess.showSetting(name)
		if err != nil {
			return "", err
		}
		if err := out.row(x, Row{v}); err != nil {
			return "", err
		}
		return "SHOW", nil
	}}, nil
}

func (pc *planCtx) compileExplain(st *ast.Explain) (*compiled, error) {
	inner, err := pc.compileStatement(st.Stmt)
	if err != nil {
		return nil, err
	}
	var lines []string
	switch {
	case inner.query != nil:
		inner.query.explain(0, &lines)
	case inner.explainPlan != nil:
		inner.explainPlan.explain(0, &lines)
	default:
		lines = append(lines, "Result")
	}
	cols := []outCol{{name: "QUERY PLAN", t: textT()}}
	a := accessNone
	if st.Analyze {
		a = inner.access
	}
	return &compiled{access: a, fields: cols, exec: func(x *execCtx, out *resultSink) (string, error) {
		if st.Analyze && inner.access != accessNone {
			n := 0
			if inner.query != nil {
				rows, err := drain(x, inner.query, nil)
				if err != nil {
					return "", err
				}
				n = len(rows)
			} else if _, err := inner.exec(x, &resultSink{out: discardWriter{}, s: x.sess}); err != nil {
				return "", err
			}
			lines = append(lines, "Rows: "+strconv.Itoa(n))
		}
		for _, l := range lines {
			if err := out.row(x, Row{l}); err != nil {
				return "", err
			}
		}
		return "EXPLAIN", nil
	}}, nil
}

// discardWriter swallows output (EXPLAIN ANALYZE of a statement with rows).
type discardWriter struct{}

func (discardWriter) WriteRow([][]byte) error                    { return nil }
func (discardWriter) Notice(*wire.NoticeInfo)                    {}
func (discardWriter) CopyIn(bool, int) (wire.CopyReader, error)  { return nil, errNoCopy }
func (discardWriter) CopyOut(bool, int) (wire.CopyWriter, error) { return nil, errNoCopy }

var errNoCopy = pgerror.New(pgerror.FeatureNotSupported, "COPY is not possible here")

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
