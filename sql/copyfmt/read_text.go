package copyfmt

import (
	"bytes"
	"io"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// ChunkReader yields COPY FROM data in the chunks it arrives in (CopyData
// messages): Next returns the next chunk, valid until the following call,
// and io.EOF after the last.
type ChunkReader interface {
	Next() ([]byte, error)
}

// ReadText splits text or CSV COPY data into rows of fields (nil for
// NULL), across chunk boundaries; the fields are valid only until row
// returns. Under HEADER the first line is no row: skipped, or under HEADER
// MATCH checked against columns, the names of the columns copied into. It
// returns how many lines it read: an error is in the last of them, as
// PostgreSQL numbers lines in its COPY context.
func ReadText(r ChunkReader, o *Options, columns []string, row func([]*string) error) (int, error) {
	var pending []byte
	var p rowParser
	if o.Header {
		dataRow, header := row, true
		row = func(fields []*string) error {
			if !header {
				return dataRow(fields)
			}
			header = false
			if o.HeaderMatch {
				return o.MatchHeader(fields, columns)
			}
			return nil
		}
	}
	for {
		chunk, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.lines, err
		}
		pending = append(pending, chunk...)
		consumed, done, err := splitRows(&p, pending, o, false, row)
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
		_, _, err := splitRows(&p, pending, o, true, row)
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

// splitRows parses complete rows from buf, returning how many bytes it
// used; at the end of data (final) an unterminated last row counts too.
// The fields passed to row are valid only until it returns.
func splitRows(p *rowParser, buf []byte, o *Options, final bool, row func([]*string) error) (int, bool, error) {
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
		if (o.Format == Text || o.Format == CSV) && isEndOfData(line) {
			return pos, true, nil
		}
		if err := row(fields); err != nil {
			return pos, false, err
		}
	}
	return pos, false, nil
}

// rowParser parses rows of text COPY data, reusing its buffers from row
// to row: one string of the line, which the fields are cut from, is all a
// plain row costs (a field with escapes gets a string of its own).
type rowParser struct {
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
	errLiteralCR = pgerror.New(pgerror.BadCopyFileFormat, "literal carriage return found in data").
			WithHint("Use \"\\r\" to represent carriage return.")
	errLiteralNL = pgerror.New(pgerror.BadCopyFileFormat, "literal newline found in data").
			WithHint("Use \"\\n\" to represent newline.")
)

// splitLine finds the first line of b: its text and the bytes it takes with
// its end. A backslash escapes the byte after it, line ends included; an
// unescaped carriage return or newline that is not the data's line end is
// an error. ok is false when b holds no complete line yet.
func (p *rowParser) splitLine(b []byte, final bool) (line []byte, used int, ok bool, err error) {
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
				return nil, 0, false, errLiteralCR
			}
			return b[:i], i + 1, true, nil
		case '\r':
			if c == '\n' {
				return nil, 0, false, errLiteralNL
			}
			return b[:i], i + 1, true, nil
		default: // \r\n
			if c == '\n' {
				return nil, 0, false, errLiteralNL
			}
			switch {
			case i+1 < len(b) && b[i+1] == '\n':
				return b[:i], i + 2, true, nil
			case i+1 == len(b) && !final:
				return nil, 0, false, nil
			}
			return nil, 0, false, errLiteralCR
		}
	}
}

// parse parses one row at the start of b. ok is false when the row is not
// complete yet.
func (p *rowParser) parse(b []byte, o *Options, final bool) (int, []*string, bool, error) {
	if o.Format == CSV {
		return parseCSVRow(b, o, final)
	}
	line, end, ok, err := p.splitLine(b, final)
	if !ok || err != nil {
		return 0, nil, ok, err
	}
	if o.Header && !o.HeaderMatch && p.lines == 0 {
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
		next := bytes.IndexByte(line, o.Delimiter)
		if next >= 0 {
			field = line[:next]
		}
		if bytes.IndexByte(field, '\\') >= 0 {
			// Escapes, perhaps of the delimiter itself: find where the
			// field really ends.
			next = escapedFieldEnd(line, o.Delimiter)
			field = line
			if next >= 0 {
				field = line[:next]
			}
		}
		switch {
		case string(field) == o.Null:
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

// textEscapes are text COPY's one-letter escapes.
var textEscapes = map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'f': '\f', 'v': '\v'}

// unescape decodes a text-format field's backslash escapes as PostgreSQL's
// CopyReadAttributesText does: a byte an octal or hex escape makes may
// leave the field invalid UTF-8 (or hold a NUL), and the field is then
// verified, before any type reads it.
func (p *rowParser) unescape(field []byte) (string, error) {
	cur := p.cur[:0]
	made := false // an escape made a NUL or a byte above 0x7f
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c != '\\' || i+1 == len(field) {
			cur = append(cur, c)
			continue
		}
		i++
		if e, ok := textEscapes[field[i]]; ok {
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
func parseCSVRow(b []byte, o *Options, final bool) (int, []*string, bool, error) {
	var fields []*string
	var cur []byte
	quoted, inQuotes := false, false
	i := 0
	emit := func() {
		s := string(cur)
		// FORCE_NOT_NULL: the NULL string unquoted is a value; FORCE_NULL:
		// quoted, it is NULL all the same.
		col := len(fields)
		forced := func(flags []bool) bool { return col < len(flags) && flags[col] }
		if s == o.Null && (!quoted && !forced(o.forceNotNull) || quoted && forced(o.forceNull)) {
			fields = append(fields, nil)
		} else {
			fields = append(fields, &s)
		}
		cur, quoted = cur[:0], false
	}
	for i < len(b) {
		c := b[i]
		if inQuotes {
			switch {
			case c == o.Escape && i+1 < len(b) && b[i+1] == o.Quote:
				cur = append(cur, o.Quote)
				i += 2
				continue
			case c == o.Escape && o.Escape != o.Quote && i+1 < len(b) && b[i+1] == o.Escape:
				cur = append(cur, o.Escape)
				i += 2
				continue
			case c == o.Quote:
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
		case c == o.Quote:
			inQuotes, quoted = true, true
		case c == o.Delimiter:
			emit()
		case c == '\n':
			emit()
			return i + 1, fields, true, nil
		case c == '\r':
			// dropped before \n
		default:
			cur = append(cur, c)
		}
		i++
	}
	if !final {
		return 0, nil, false, nil
	}
	if inQuotes {
		return 0, nil, false, pgerror.New(pgerror.BadCopyFileFormat, "unterminated CSV quoted field")
	}
	emit()
	return len(b), fields, true, nil
}
