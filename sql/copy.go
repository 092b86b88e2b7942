package sql

import (
	"bytes"
	"encoding/binary"
	"io"
	"slices"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
	"cdcdb/wire"
)

// copyOptions are the parsed options of a COPY statement.
type copyOptions struct {
	format    string // "text", "csv", "binary"
	delimiter byte
	null      string
	header    bool
	// headerMatch (HEADER MATCH, COPY FROM only) checks the header line's
	// names against the columns copied into instead of skipping it.
	headerMatch bool
	quote       byte
	escape      byte
	// The CSV column options, by column name as written (forceQuoteAll:
	// FORCE_QUOTE *), and, once the columns are known (resolveForced),
	// by column position.
	forceQuoteNames, forceNotNullNames, forceNullNames []string
	forceQuoteAll                                      bool
	forceQuote, forceNotNull, forceNull                []bool
}

func parseCopyOptions(opts map[string]string) (copyOptions, error) {
	o := copyOptions{format: "text", delimiter: '\t', null: `\N`, quote: '"', escape: '"'}
	if f, ok := opts["format"]; ok {
		o.format = strings.ToLower(f)
	}
	switch o.format {
	case "text":
	case "csv":
		o.delimiter, o.null = ',', ""
	case "binary":
	default:
		return o, pgerror.New(pgerror.InvalidParameterValue, "COPY format \"%s\" not recognized", o.format)
	}
	for k, v := range opts {
		switch k {
		case "format", "encoding", "freeze":
		case "force_quote", "force_not_null", "force_null":
			names := strings.Split(v, ",")
			switch {
			case k == "force_quote" && v == "*":
				o.forceQuoteAll = true
			case v == "*":
				return o, pgerror.New(pgerror.InvalidParameterValue, "argument to option \"%s\" must be a list of column names", k)
			case k == "force_quote":
				o.forceQuoteNames = names
			case k == "force_not_null":
				o.forceNotNullNames = names
			default:
				o.forceNullNames = names
			}
		case "delimiter":
			if len(v) != 1 {
				return o, pgerror.New(pgerror.FeatureNotSupported, "COPY delimiter must be a single one-byte character")
			}
			o.delimiter = v[0]
		case "null":
			o.null = v
		case "header":
			b, err := normalizeBool(nil, v)
			if err != nil && !strings.EqualFold(v, "match") {
				return o, pgerror.New(pgerror.SyntaxError, "header requires a Boolean value or \"match\"")
			}
			o.headerMatch = strings.EqualFold(v, "match")
			o.header = b == "on" || o.headerMatch
		case "quote":
			if len(v) != 1 {
				return o, pgerror.New(pgerror.FeatureNotSupported, "COPY quote must be a single one-byte character")
			}
			o.quote = v[0]
		case "escape":
			if len(v) != 1 {
				return o, pgerror.New(pgerror.FeatureNotSupported, "COPY escape must be a single one-byte character")
			}
			o.escape = v[0]
		default:
			return o, pgerror.New(pgerror.SyntaxError, "option \"%s\" not recognized", k)
		}
	}
	if o.header && o.format == "binary" {
		return o, pgerror.New(pgerror.FeatureNotSupported, "cannot specify HEADER in BINARY mode")
	}
	if _, ok := opts["escape"]; !ok && o.format == "csv" {
		o.escape = o.quote
	}
	return o, nil
}

// checkForced refuses the CSV column options where PostgreSQL does:
// outside CSV, and in the direction they have no meaning in.
func (o *copyOptions) checkForced(from bool) error {
	csv := o.format == "csv"
	check := func(given bool, what string, forFrom bool) error {
		switch {
		case !given:
		case !csv:
			return pgerror.New(pgerror.FeatureNotSupported, "COPY %s available only in CSV mode", what)
		case from != forFrom && forFrom:
			return pgerror.New(pgerror.FeatureNotSupported, "COPY %s only available using COPY FROM", what)
		case from != forFrom:
			return pgerror.New(pgerror.FeatureNotSupported, "COPY %s only available using COPY TO", what)
		}
		return nil
	}
	if err := check(o.forceQuoteAll || o.forceQuoteNames != nil, "force quote", false); err != nil {
		return err
	}
	if err := check(o.forceNotNullNames != nil, "force not null", true); err != nil {
		return err
	}
	return check(o.forceNullNames != nil, "force null", true)
}

// resolveForced turns the CSV column options' names into flags by the
// position of the columns copied (names), refusing, as PostgreSQL does, a
// name that is no column of the table (42703; table is "" for a query,
// whose columns are all copied) or not one of those copied (42P10).
func (o *copyOptions) resolveForced(table *catalog.Table, names []string) error {
	resolve := func(option string, given []string) ([]bool, error) {
		if given == nil {
			return nil, nil
		}
		flags := make([]bool, len(names))
		for _, g := range given {
			i := slices.Index(names, g)
			switch {
			case i >= 0:
				flags[i] = true
			case table == nil:
				return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", g)
			case !slices.ContainsFunc(table.Columns, func(c catalog.Column) bool { return c.Name == g }):
				return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", g, table.Name)
			default:
				return nil, pgerror.New(pgerror.InvalidColumnReference, "%s column \"%s\" not referenced by COPY", option, g)
			}
		}
		return flags, nil
	}
	var err error
	if o.forceQuote, err = resolve("FORCE_QUOTE", o.forceQuoteNames); err != nil {
		return err
	}
	if o.forceQuoteAll {
		o.forceQuote = make([]bool, len(names))
		for i := range o.forceQuote {
			o.forceQuote[i] = true
		}
	}
	if o.forceNotNull, err = resolve("FORCE_NOT_NULL", o.forceNotNullNames); err != nil {
		return err
	}
	o.forceNull, err = resolve("FORCE_NULL", o.forceNullNames)
	return err
}

func (pc *planCtx) compileCopy(st *ast.Copy) (*compiled, error) {
	opts, err := parseCopyOptions(st.Options)
	if err != nil {
		return nil, err
	}
	if err := opts.checkForced(st.From); err != nil {
		return nil, err
	}
	if st.From {
		return pc.compileCopyFrom(st, opts)
	}
	if opts.headerMatch {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot use \"%s\" with HEADER in COPY TO", st.Options["header"])
	}
	var p plan
	var copiedTable *catalog.Table // nil for COPY (query)
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
		copiedTable = t
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
	if err := opts.resolveForced(copiedTable, names); err != nil {
		return nil, err
	}
	return &compiled{access: accessRead, exec: func(x *execCtx, out *resultSink) (string, error) {
		return copyTo(x, p, opts, out.out)
	}}, nil
}

func copyTo(x *execCtx, p plan, o copyOptions, out wire.ResultWriter) (string, error) {
	cols := p.columns()
	w, err := out.CopyOut(o.format == "binary", len(cols))
	if err != nil {
		return "", err
	}
	it, err := p.open(x, nil)
	if err != nil {
		return "", err
	}
	defer it.close()
	var buf []byte
	if o.format == "binary" {
		buf = append(buf, "PGCOPY\n\xff\r\n\x00"...)
		buf = append(buf, 0, 0, 0, 0, 0, 0, 0, 0)
	}
	if o.header { // text or CSV: parseCopyOptions refuses HEADER in BINARY mode
		for i, c := range cols {
			if i > 0 {
				buf = append(buf, o.delimiter)
			}
			buf = appendCopyField(buf, c.name, o)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return "", err
		}
		buf = buf[:0]
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
		if o.format == "binary" {
			buf = binary.BigEndian.AppendUint16(buf, uint16(len(cols)))
			for i, v := range r[:len(cols)] {
				if v == nil {
					buf = binary.BigEndian.AppendUint32(buf, 0xFFFFFFFF)
					continue
				}
				lenAt := len(buf)
				buf = append(buf, 0, 0, 0, 0)
				if buf, err = types.AppendBinary(buf, cols[i].t, v); err != nil {
					return "", err
				}
				binary.BigEndian.PutUint32(buf[lenAt:], uint32(len(buf)-lenAt-4))
			}
		} else {
			for i, v := range r[:len(cols)] {
				if i > 0 {
					buf = append(buf, o.delimiter)
				}
				if v == nil {
					buf = append(buf, o.null...)
					continue
				}
				if o.forceQuote != nil && o.forceQuote[i] {
					buf = appendCSVQuoted(buf, x.sess.formatValue(x, cols[i].t, v), o)
					continue
				}
				buf = appendCopyField(buf, x.sess.formatValue(x, cols[i].t, v), o)
			}
			buf = append(buf, '\n')
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
	if o.format == "binary" {
		buf = append(buf, 0xFF, 0xFF)
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return "", err
		}
	}
	return "COPY " + itoa(n), nil
}

// appendCSVQuoted writes a CSV field quoted.
func appendCSVQuoted(buf []byte, s string, o copyOptions) []byte {
	buf = append(buf, o.quote)
	for i := 0; i < len(s); i++ {
		if s[i] == o.quote || s[i] == o.escape {
			buf = append(buf, o.escape)
		}
		buf = append(buf, s[i])
	}
	return append(buf, o.quote)
}

// appendCopyField writes one non-NULL field in text or CSV form.
func appendCopyField(buf []byte, s string, o copyOptions) []byte {
	if o.format == "csv" {
		needQuote := s == o.null || strings.IndexByte(s, o.delimiter) >= 0 || strings.IndexByte(s, o.quote) >= 0 ||
			strings.ContainsAny(s, "\r\n") || (s != "" && s[0] == '\\' && s == `\.`)
		if !needQuote {
			return append(buf, s...)
		}
		return appendCSVQuoted(buf, s, o)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			buf = append(buf, '\\', '\\')
		case c == '\n':
			buf = append(buf, '\\', 'n')
		case c == '\r':
			buf = append(buf, '\\', 'r')
		case c == '\t':
			buf = append(buf, '\\', 't')
		case c == o.delimiter:
			buf = append(buf, '\\', c)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

func (pc *planCtx) compileCopyFrom(st *ast.Copy, o copyOptions) (*compiled, error) {
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
	if err := o.resolveForced(t, names); err != nil {
		return nil, err
	}
	w, err := pc.newTableWriter(t, schema)
	if err != nil {
		return nil, err
	}
	return &compiled{access: accessWrite, exec: func(x *execCtx, out *resultSink) (string, error) {
		w.reset()
		return copyFrom(x, w, t, cols, o, out.out)
	}}, nil
}

func copyFrom(x *execCtx, w *tableWriter, t *catalog.Table, cols []catalog.Column, o copyOptions, out wire.ResultWriter) (string, error) {
	r, err := out.CopyIn(o.format == "binary", len(cols))
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
	if o.format == "binary" {
		err = readBinaryCopy(r, cols, func(vals []types.Value) error {
			lineNo++
			return insert(vals)
		})
	} else {
		first := true
		rowVals := make([]types.Value, len(cols))
		// The rows' values live until the statement ends (a flow source
		// keeps them for its flows): box them by the slab.
		var boxes types.Boxes
		lineNo, err = readTextCopy(r, o, func(fields []*string) error {
			if first && o.header {
				first = false
				if o.headerMatch {
					return matchHeader(fields, cols, o)
				}
				return nil
			}
			first = false
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

// readTextCopy splits text or CSV COPY data into rows of fields (nil for
// NULL), across CopyData message boundaries. It returns how many lines it
// read: an error is in the last of them, as PostgreSQL numbers lines in
// its COPY context.
func readTextCopy(r wire.CopyReader, o copyOptions, row func([]*string) error) (int, error) {
	var pending []byte
	var p copyRowParser
	for {
		chunk, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.lines, err
		}
		pending = append(pending, chunk...)
		consumed, done, err := splitCopyRows(&p, pending, o, false, row)
		if err != nil {
			return p.lines, err
		}
		pending = append(pending[:0], pending[consumed:]...)
		if done {
			// "\." ends the data; drain what the client still sends.
			for {
				if _, err := r.Next(); err != nil {
					if err == io.EOF {
						return p.lines, nil
					}
					return p.lines, err
				}
			}
		}
	}
	if len(pending) > 0 {
		_, _, err := splitCopyRows(&p, pending, o, true, row)
		return p.lines, err
	}
	return p.lines, nil
}

// isEndOfData reports whether a line of text or CSV COPY data is the
// end-of-data marker, \. with its line ending. It looks at the line's
// first byte before anything else: it runs on every row of a COPY, and
// trimming each line to compare it took 4% of a flow feed's session.
func isEndOfData(line []byte) bool {
	return len(line) >= 2 && line[0] == '\\' && line[1] == '.' && len(bytes.TrimRight(line[2:], "\r\n")) == 0
}

// splitCopyRows parses complete rows from buf, returning how many bytes it
// used; at the end of data (final) an unterminated last row counts too.
// The fields passed to row are valid only until it returns.
func splitCopyRows(p *copyRowParser, buf []byte, o copyOptions, final bool, row func([]*string) error) (int, bool, error) {
	pos := 0
	for pos < len(buf) {
		end, fields, ok, err := p.parse(buf[pos:], o, final)
		if !ok && err == nil {
			return pos, false, nil
		}
		p.lines++ // read, or found to be in error
		if err != nil {
			return pos, false, err
		}
		line := buf[pos : pos+end]
		pos += end
		if (o.format == "text" || o.format == "csv") && isEndOfData(line) {
			return pos, true, nil
		}
		if err := row(fields); err != nil {
			return pos, false, err
		}
	}
	return pos, false, nil
}

// copyRowParser parses rows of text COPY data, reusing its buffers from row
// to row: one string of the line, which the fields are cut from, is all a
// plain row costs (a field with escapes gets a string of its own).
type copyRowParser struct {
	// lines counts the lines read, an erroneous one included.
	lines  int
	strs   []string
	null   []bool
	fields []*string
	cur    []byte
	// eol is the data's newline style, set by its first line as in
	// PostgreSQL: '\n', '\r', or 'c' for \r\n (0: not seen yet).
	eol byte
}

var (
	errCopyLiteralCR = pgerror.New(pgerror.BadCopyFileFormat, "literal carriage return found in data").
				WithHint("Use \"\\r\" to represent carriage return.")
	errCopyLiteralNL = pgerror.New(pgerror.BadCopyFileFormat, "literal newline found in data").
				WithHint("Use \"\\n\" to represent newline.")
)

// splitLine finds the first line of b: its text and the bytes it takes with
// its end. A backslash escapes the byte after it, line ends included; an
// unescaped carriage return or newline that is not the data's line end is
// an error. ok is false when b holds no complete line yet.
func (p *copyRowParser) splitLine(b []byte, final bool) (line []byte, used int, ok bool, err error) {
	i := 0
	for {
		j := bytes.IndexAny(b[i:], "\\\r\n")
		if j < 0 {
			if !final {
				return nil, 0, false, nil
			}
			return b, len(b), true, nil
		}
		i += j
		c := b[i]
		if c == '\\' {
			i += 2
			if i > len(b) {
				if !final {
					return nil, 0, false, nil
				}
				return b, len(b), true, nil
			}
			continue
		}
		if p.eol == 0 {
			switch {
			case c == '\n':
				p.eol = '\n'
			case i+1 < len(b) && b[i+1] == '\n':
				p.eol = 'c'
			case i+1 < len(b) || final:
				p.eol = '\r'
			default:
				return nil, 0, false, nil // a \r at the end: is \n next?
			}
		}
		switch p.eol {
		case '\n':
			if c == '\r' {
				return nil, 0, false, errCopyLiteralCR
			}
			return b[:i], i + 1, true, nil
		case '\r':
			if c == '\n' {
				return nil, 0, false, errCopyLiteralNL
			}
			return b[:i], i + 1, true, nil
		default: // \r\n
			if c == '\n' {
				return nil, 0, false, errCopyLiteralNL
			}
			switch {
			case i+1 < len(b) && b[i+1] == '\n':
				return b[:i], i + 2, true, nil
			case i+1 == len(b) && !final:
				return nil, 0, false, nil
			}
			return nil, 0, false, errCopyLiteralCR
		}
	}
}

// parse parses one row at the start of b. ok is false when the row is not
// complete yet.
func (p *copyRowParser) parse(b []byte, o copyOptions, final bool) (int, []*string, bool, error) {
	if o.format == "csv" {
		return parseCSVRow(b, o, final)
	}
	line, end, ok, err := p.splitLine(b, final)
	if !ok || err != nil {
		return 0, nil, ok, err
	}
	if o.header && !o.headerMatch && p.lines == 0 {
		// PostgreSQL skips the header line unread, escapes and all; HEADER
		// MATCH reads it as a row of names (matchHeader).
		return end, nil, true, nil
	}
	p.strs, p.null = p.strs[:0], p.null[:0]
	// The fields are cut from one string of the whole line: a row costs
	// one allocation, not one per field.
	text, whole := string(line), len(line)
	for {
		field := line
		next := bytes.IndexByte(line, o.delimiter)
		if next >= 0 {
			field = line[:next]
		}
		if bytes.IndexByte(field, '\\') >= 0 {
			// Escapes, perhaps of the delimiter itself: find where the
			// field really ends.
			next = escapedFieldEnd(line, o.delimiter)
			field = line
			if next >= 0 {
				field = line[:next]
			}
		}
		switch {
		case string(field) == o.null:
			p.strs, p.null = append(p.strs, ""), append(p.null, true)
		case bytes.IndexByte(field, '\\') < 0:
			at := whole - len(line)
			p.strs, p.null = append(p.strs, text[at:at+len(field)]), append(p.null, false)
		default:
			v, err := p.unescape(field)
			if err != nil {
				return 0, nil, false, err
			}
			p.strs, p.null = append(p.strs, v), append(p.null, false)
		}
		if next < 0 {
			break
		}
		line = line[next+1:]
	}
	p.fields = p.fields[:0]
	for i := range p.strs {
		if p.null[i] {
			p.fields = append(p.fields, nil)
		} else {
			p.fields = append(p.fields, &p.strs[i])
		}
	}
	return end, p.fields, true, nil
}

// escapedFieldEnd is the position of the first delimiter in line that no
// backslash escapes (-1: none).
func escapedFieldEnd(line []byte, delim byte) int {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++ // the next byte is escaped, whatever it is
		case delim:
			return i
		}
	}
	return -1
}

// copyEscapes are text COPY's one-letter escapes.
var copyEscapes = map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'f': '\f', 'v': '\v'}

// unescape decodes a text-format field's backslash escapes as PostgreSQL's
// CopyReadAttributesText does: a byte an octal or hex escape makes may
// leave the field invalid UTF-8 (or hold a NUL), and the field is then
// verified, before any type reads it.
func (p *copyRowParser) unescape(field []byte) (string, error) {
	cur := p.cur[:0]
	made := false // an escape made a NUL or a byte above 0x7f
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c != '\\' || i+1 == len(field) {
			cur = append(cur, c)
			continue
		}
		i++
		if e, ok := copyEscapes[field[i]]; ok {
			cur = append(cur, e)
			continue
		}
		switch d := field[i]; {
		case d == 'x' && i+1 < len(field) && isHex(field[i+1]):
			v := 0
			for k := 0; k < 2 && i+1 < len(field) && isHex(field[i+1]); k++ {
				i++
				v = v*16 + hexVal(field[i])
			}
			cur = append(cur, byte(v))
			made = made || v == 0 || v >= 0x80
		case d >= '0' && d <= '7':
			v := int(d - '0')
			for k := 0; k < 2 && i+1 < len(field) && field[i+1] >= '0' && field[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(field[i]-'0')
			}
			b := byte(v) // \777 is 0xff, as in PostgreSQL
			cur = append(cur, b)
			made = made || b == 0 || b >= 0x80
		default:
			// Any other byte stands for itself, x without a hex digit too.
			cur = append(cur, d)
		}
	}
	p.cur = cur
	v := string(cur)
	if made {
		if err := types.VerifyUTF8(v); err != nil {
			return "", err
		}
	}
	return v, nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// parseCSVRow parses one CSV record; quoted fields may span lines. An
// unquoted field equal to the NULL string is NULL; a quoted one never is.
func parseCSVRow(b []byte, o copyOptions, final bool) (int, []*string, bool, error) {
	var fields []*string
	var cur []byte
	quoted, inQuotes, any := false, false, false
	i := 0
	emit := func() {
		s := string(cur)
		// FORCE_NOT_NULL: the NULL string unquoted is a value; FORCE_NULL:
		// quoted, it is NULL all the same.
		col := len(fields)
		forced := func(flags []bool) bool { return col < len(flags) && flags[col] }
		if s == o.null && (!quoted && !forced(o.forceNotNull) || quoted && forced(o.forceNull)) {
			fields = append(fields, nil)
		} else {
			fields = append(fields, &s)
		}
		cur, quoted, any = cur[:0], false, false
	}
	for i < len(b) {
		c := b[i]
		if inQuotes {
			switch {
			case c == o.escape && i+1 < len(b) && b[i+1] == o.quote && (o.escape != o.quote || true):
				cur = append(cur, o.quote)
				i += 2
				continue
			case c == o.escape && o.escape != o.quote && i+1 < len(b) && b[i+1] == o.escape:
				cur = append(cur, o.escape)
				i += 2
				continue
			case c == o.quote:
				if i+1 >= len(b) && !final {
					return 0, nil, false, nil // may be a doubled quote split across messages
				}
				inQuotes = false
				i++
				continue
			}
			cur = append(cur, c)
			i++
			continue
		}
		switch {
		case c == o.quote:
			inQuotes, quoted, any = true, true, true
		case c == o.delimiter:
			emit()
		case c == '\n':
			emit()
			return i + 1, fields, true, nil
		case c == '\r':
			// dropped before \n
		default:
			cur = append(cur, c)
			any = true
		}
		i++
	}
	if !final {
		return 0, nil, false, nil
	}
	if inQuotes {
		return 0, nil, false, pgerror.New(pgerror.BadCopyFileFormat, "unterminated CSV quoted field")
	}
	_ = any
	emit()
	return len(b), fields, true, nil
}

// readBinaryCopy parses PostgreSQL's binary COPY format.
func readBinaryCopy(r wire.CopyReader, cols []catalog.Column, row func([]types.Value) error) error {
	var buf []byte
	headerDone := false
	for {
		chunk, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		buf = append(buf, chunk...)
		pos := 0
		if !headerDone {
			if len(buf) < 19 {
				continue
			}
			if !bytes.Equal(buf[:11], []byte("PGCOPY\n\xff\r\n\x00")) {
				return pgerror.New(pgerror.BadCopyFileFormat, "COPY file signature not recognized")
			}
			extLen := int(binary.BigEndian.Uint32(buf[15:19]))
			if len(buf) < 19+extLen {
				continue
			}
			pos = 19 + extLen
			headerDone = true
		}
		for {
			if len(buf)-pos < 2 {
				break
			}
			nf := int16(binary.BigEndian.Uint16(buf[pos:]))
			if nf == -1 {
				// The trailer: the client may still send (empty) CopyData
				// before CopyDone; read up to it.
				for {
					if _, err := r.Next(); err != nil {
						if err == io.EOF {
							return nil
						}
						return err
					}
				}
			}
			if int(nf) != len(cols) {
				return pgerror.New(pgerror.BadCopyFileFormat, "row field count is %d, expected %d", nf, len(cols))
			}
			p := pos + 2
			vals := make([]types.Value, len(cols))
			complete := true
			for i := 0; i < int(nf); i++ {
				if len(buf)-p < 4 {
					complete = false
					break
				}
				l := int32(binary.BigEndian.Uint32(buf[p:]))
				p += 4
				if l == -1 {
					continue
				}
				if l < 0 || len(buf)-p < int(l) {
					complete = false
					break
				}
				v, err := types.ParseBinary(cols[i].Type, buf[p:p+int(l)])
				if err != nil {
					return err
				}
				vals[i] = v
				p += int(l)
			}
			if !complete {
				break
			}
			if err := row(vals); err != nil {
				return err
			}
			pos = p
		}
		buf = append(buf[:0], buf[pos:]...)
	}
	if !headerDone && len(buf) > 0 {
		return pgerror.New(pgerror.BadCopyFileFormat, "COPY file signature not recognized")
	}
	if headerDone && len(buf) > 0 {
		return pgerror.New(pgerror.BadCopyFileFormat, "unexpected EOF in COPY data")
	}
	return nil
}

// matchHeader checks a HEADER MATCH line: as many fields as columns are
// copied into, each the name of its column, exactly as PostgreSQL compares
// them (case and all).
func matchHeader(fields []*string, cols []catalog.Column, o copyOptions) error {
	if len(fields) != len(cols) {
		return pgerror.New(pgerror.BadCopyFileFormat, "wrong number of fields in header line: got %d, expected %d", len(fields), len(cols))
	}
	for i, f := range fields {
		if f == nil {
			return pgerror.New(pgerror.BadCopyFileFormat, "column name mismatch in header line field %d: got null value (\"%s\"), expected \"%s\"", i+1, o.null, cols[i].Name)
		}
		if *f != cols[i].Name {
			return pgerror.New(pgerror.BadCopyFileFormat, "column name mismatch in header line field %d: got \"%s\", expected \"%s\"", i+1, *f, cols[i].Name)
		}
	}
	return nil
}
