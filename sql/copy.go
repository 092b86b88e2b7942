package sql

import (
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/copyfmt"
	"cdcdb/sql/eval"
	"cdcdb/types"
	"cdcdb/wire"
)

func (pc *planCtx) compileCopy(st *ast.Copy) (*compiled, error) {
	opts, err := copyfmt.ParseOptions(st.Options)
	if err != nil {
		return nil, err
	}
	if err := opts.CheckForced(st.From); err != nil {
		return nil, err
	}
	if st.From {
		return pc.compileCopyFrom(st, opts)
	}
	if opts.HeaderMatch {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot use \"%s\" with HEADER in COPY TO", st.Options["header"])
	}
	var p plan
	// The table copied and its columns' names; none for COPY (query).
	var tableName string
	var tableColumns []string
	if st.Query != nil {
		if p, err = pc.planQuery(st.Query, nil); err != nil {
			return nil, err
		}
	} else {
		t, _, err := pc.lookupTable(*st.Table)
		if err != nil {
			return nil, err
		}
		if err := pc.checkTablePrivilege(t, catalog.PrivSelect); err != nil {
			return nil, err
		}
		tableName, tableColumns = t.Name, columnNames(t.Columns)
		scan := newTableScan(t)
		p = scan
		if len(st.Columns) > 0 {
			cols, err := targetColumns(t, st.Columns, nil)
			if err != nil {
				return nil, err
			}
			var exprs []eval.Expr
			var outs []outCol
			for _, c := range cols {
				i := scan.outputIndex(c.Attnum)
				exprs = append(exprs, &eval.ColRef{Idx: i, T: c.Type})
				outs = append(outs, scan.cols[i])
			}
			p = &projectPlan{input: scan, exprs: exprs, cols: outs}
		}
	}
	var names []string
	for _, c := range p.columns() {
		names = append(names, c.name)
	}
	if err := opts.ResolveForced(tableName, tableColumns, names); err != nil {
		return nil, err
	}
	return &compiled{access: accessRead, run: copyToStatement{st: st, rows: p, opts: opts}}, nil
}

// copyToStatement is COPY TO STDOUT, of a table's rows or a query's.
type copyToStatement struct {
	st   *ast.Copy
	rows plan
	opts copyfmt.Options
}

func (c copyToStatement) String() string { return copyText(c.st, c.opts) }

func (c copyToStatement) exec(x *execCtx, out *resultSink) (string, error) {
	return copyTo(x, c.rows, c.opts, out.out)
}

// copyText describes a COPY: what it copies, which way, in what format.
func copyText(st *ast.Copy, o copyfmt.Options) string {
	out := "COPY "
	if st.Table != nil {
		out += qualifiedName(*st.Table)
		if len(st.Columns) > 0 {
			out += " (" + identList(st.Columns) + ")"
		}
	} else {
		out += "(query)"
	}
	if st.From {
		out += " FROM STDIN"
	} else {
		out += " TO STDOUT"
	}
	return out + " (FORMAT " + o.Format.String() + ")"
}

func copyTo(x *execCtx, p plan, o copyfmt.Options, out wire.ResultWriter) (string, error) {
	cols := p.columns()
	w, err := out.CopyOut(o.Format == copyfmt.Binary, len(cols))
	if err != nil {
		return "", err
	}
	it, err := p.open(x, nil)
	if err != nil {
		return "", err
	}
	defer it.close()
	columnTypes := make([]types.T, len(cols))
	for i, c := range cols {
		columnTypes[i] = c.t
	}
	var buf []byte
	if o.Format == copyfmt.Binary {
		buf = copyfmt.AppendBinaryHeader(buf)
	}
	if o.Header { // text or CSV: ParseOptions refuses HEADER in BINARY mode
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.name
		}
		if _, err := w.Write(o.AppendHeaderLine(buf, names)); err != nil {
			return "", err
		}
	}
	n := 0
	for {
		r, err := it.next()
		if err != nil {
			return "", err
		}
		if r == nil {
			break
		}
		if o.Format == copyfmt.Binary {
			if buf, err = copyfmt.AppendBinaryRow(buf, columnTypes, r); err != nil {
				return "", err
			}
		} else {
			buf = o.AppendTextRow(buf, len(cols), func(i int) (string, bool) {
				if r[i] == nil {
					return "", false
				}
				return x.sess.formatValue(x, columnTypes[i], r[i]), true
			})
		}
		n++
		// One CopyData message per row, as PostgreSQL sends them: clients
		// (psycopg 3's Copy.rows, pgjdbc's CopyOut.readFromCopy) parse each
		// message as exactly one row.
		if _, err := w.Write(buf); err != nil {
			return "", err
		}
		buf = buf[:0]
	}
	if o.Format == copyfmt.Binary {
		buf = copyfmt.AppendBinaryTrailer(buf)
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return "", err
		}
	}
	return "COPY " + itoa(n), nil
}

func (pc *planCtx) compileCopyFrom(st *ast.Copy, o copyfmt.Options) (*compiled, error) {
	if st.Query != nil {
		return nil, pgerror.New(pgerror.SyntaxError, "COPY (query) FROM is not valid")
	}
	t, schema, err := pc.lookupTable(*st.Table)
	if err != nil {
		return nil, err
	}
	if err := pc.checkWritePrivilege(t, catalog.PrivInsert); err != nil {
		return nil, err
	}
	pc.writing(t)
	if err := pc.refuseDirectWrite(t, "copy to", st.Table.Pos); err != nil {
		return nil, err
	}
	cols, err := targetColumns(t, st.Columns, nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	if err := o.ResolveForced(t.Name, columnNames(t.Columns), names); err != nil {
		return nil, err
	}
	w, err := pc.newTableWriter(t, schema)
	if err != nil {
		return nil, err
	}
	return &compiled{access: accessWrite, run: copyFromStatement{st: st, w: w, t: t, cols: cols, opts: o}}, nil
}

// copyFromStatement is COPY FROM STDIN into a table's columns.
type copyFromStatement struct {
	st   *ast.Copy
	w    *tableWriter
	t    *catalog.Table
	cols []catalog.Column
	opts copyfmt.Options
}

func (c copyFromStatement) String() string { return copyText(c.st, c.opts) }

func (c copyFromStatement) exec(x *execCtx, out *resultSink) (string, error) {
	c.w.reset()
	return copyFrom(x, c.w, c.t, c.cols, c.opts, out.out)
}

func copyFrom(x *execCtx, w *tableWriter, t *catalog.Table, cols []catalog.Column, o copyfmt.Options, out wire.ResultWriter) (string, error) {
	r, err := out.CopyIn(o.Format == copyfmt.Binary, len(cols))
	if err != nil {
		return "", err
	}
	if err := w.startSpool(x); err != nil {
		return "", err
	}
	// A failed COPY stops the spool and throws its rows away before the
	// transaction rolls back (a fork must not outlive its parent).
	defer w.abandonSpool()
	given := map[int16]bool{}
	for _, c := range cols {
		given[c.Attnum] = true
	}
	w.redo = w.redoable(given)
	// The columns COPY does not give take their defaults.
	var defaulted []int16
	for _, c := range t.LiveColumns() {
		if !given[c.Attnum] {
			defaulted = append(defaulted, c.Attnum)
		}
	}
	n := 0
	lineNo := 0
	// Tuples are cut from slabs rather than allocated one by one: a flow
	// source keeps every tuple of the statement until its flows have taken
	// them.
	var slab []types.Value
	insert := func(vals []types.Value) error {
		if len(slab) < w.width {
			slab = make([]types.Value, w.width*max(1, 256/max(w.width, 1)))
		}
		tuple := slab[:w.width:w.width]
		slab = slab[w.width:]
		for i, c := range cols {
			tuple[c.Attnum-1] = vals[i]
		}
		for _, attnum := range defaulted {
			v, err := w.defaultValue(x, attnum)
			if err != nil {
				return err
			}
			tuple[attnum-1] = v
		}
		if _, err := w.insert(x, tuple); err != nil {
			return err
		}
		n++
		return x.CheckCancel()
	}
	withContext := func(err error) error {
		pe := pgerror.As(err)
		if pe.Code == pgerror.QueryCanceled {
			return pe
		}
		c := *pe
		ctxLine := "COPY " + t.Name + ", line " + itoa(lineNo)
		if c.Where == "" {
			c.Where = ctxLine
		} else {
			c.Where += "\n" + ctxLine
		}
		return &c
	}
	if o.Format == copyfmt.Binary {
		columnTypes := make([]types.T, len(cols))
		for i, c := range cols {
			columnTypes[i] = c.Type
		}
		err = copyfmt.ReadBinary(r, columnTypes, func(vals []types.Value) error {
			lineNo++
			return insert(vals)
		})
	} else {
		rowVals := make([]types.Value, len(cols))
		// The rows' values live until the statement ends (a flow source
		// keeps them for its flows): box them by the slab.
		var boxes types.Boxes
		lineNo, err = copyfmt.ReadText(r, &o, columnNames(cols), func(fields []*string) error {
			if len(fields) != len(cols) {
				if len(fields) < len(cols) {
					return pgerror.New(pgerror.BadCopyFileFormat, "missing data for column \"%s\"", cols[len(fields)].Name)
				}
				return pgerror.New(pgerror.BadCopyFileFormat, "extra data after last expected column")
			}
			// insert copies the values into the row's tuple.
			vals := rowVals[:len(cols)]
			clear(vals)
			for i, f := range fields {
				if f == nil {
					continue
				}
				v, err := x.sess.parseCopyText(cols[i].Type, *f, &boxes)
				if err != nil {
					return err
				}
				vals[i] = v
			}
			return insert(vals)
		})
	}
	if err != nil {
		return "", withContext(err)
	}
	if err := w.finish(x); err != nil {
		return "", err
	}
	return "COPY " + itoa(n), nil
}

// columnNames are the names of cols, in their order.
func columnNames(cols []catalog.Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}
