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
		p, err := pc.planQuery(st, nil)
		if err != nil {
			return nil, err
		}
		a := accessRead
		if pc.writes {
			a = accessWrite
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
		return &compiled{access: accessNone, exec: func(x *execCtx, out *resultSink) (string, error) {
			return "RESET", x.sess.resetSetting(st.Name, out.out)
		}}, nil
	case *ast.Discard:
		return &compiled{access: accessNone, exec: func(x *execCtx, out *resultSink) (string, error) {
			if strings.EqualFold(st.What, "all") {
				if x.sess.block != nil && !x.sess.block.implicit {
					return "", pgerror.New(pgerror.ActiveSQLTransaction, "DISCARD ALL cannot run inside a transaction block")
				}
				if err := x.sess.resetSetting("all", out.out); err != nil {
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
	case *ast.Explain:
		return pc.compileExplain(st)
	case *ast.DeclareCursor, *ast.FetchCursor, *ast.CloseCursor:
		return pc.compileCursor(stmt) // cursor.go
	case *ast.CreateSchema, *ast.CreateTable, *ast.Drop, *ast.CreateIndex, *ast.CreateView, *ast.AlterTable,
		*ast.Truncate, *ast.CommentOn:
		return pc.compileDDL(stmt)
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
				return "BEGIN", nil
			}
			s.block = &txBlock{start: x.now}
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
		}
		return "", pgerror.New(pgerror.FeatureNotSupported, "%s is not supported: cdcdb transactions cannot be partially rolled back", st.Kind)
	}}, nil
}

func (pc *planCtx) compileSet(st *ast.Set) (*compiled, error) {
	if st.Name == "transaction" || st.Name == "session characteristics" {
		return &compiled{access: accessNone, exec: func(*execCtx, *resultSink) (string, error) { return "SET", nil }}, nil
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
	return &compiled{access: accessNone, exec: func(x *execCtx, out *resultSink) (string, error) {
		s := x.sess
		if st.Default {
			return "SET", s.resetSetting(st.Name, out.out)
		}
		if err := s.setSetting(st.Name, value, st.Local); err != nil {
			return "", err
		}
		if d, ok := settingDefs[strings.ToLower(st.Name)]; ok && d.report {
			out.out.ParameterChanged(d.name, s.settings[strings.ToLower(st.Name)])
		}
		return "SET", nil
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

func (s *Session) resetSetting(name string, out wire.ResultWriter) error {
	reset := func(ln string) {
		d := settingDefs[ln]
		if d == nil || d.readOnly {
			return
		}
		old := s.settings[ln]
		def := d.def
		switch ln {
		case "session_authorization":
			def = s.user
		case "cdcdb.dialect":
			def = s.engine.opts.Dialect
		}
		s.settings[ln] = def
		if ln == "timezone" {
			s.loc, _ = loadLocation(def)
		}
		if d.report && old != def && out != nil {
			out.ParameterChanged(d.name, def)
		}
	}
	ln := strings.ToLower(name)
	if ln == "all" {
		for k := range settingDefs {
			reset(k)
		}
		return nil
	}
	if _, ok := settingDefs[ln]; !ok {
		return pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
	}
	reset(ln)
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
				if err := out.row(x, Row{d.name, x.sess.settings[strings.ToLower(n)], d.desc}); err != nil {
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
func (discardWriter) ParameterChanged(string, string)            {}
func (discardWriter) CopyIn(bool, int) (wire.CopyReader, error)  { return nil, errNoCopy }
func (discardWriter) CopyOut(bool, int) (wire.CopyWriter, error) { return nil, errNoCopy }

var errNoCopy = pgerror.New(pgerror.FeatureNotSupported, "COPY is not possible here")

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
