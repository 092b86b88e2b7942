package copyfmt

import (
	"encoding/binary"
	"strings"

	"cdcdb/types"
)

// binarySignature starts binary COPY data; the flags field and the header
// extension's length (both zero) follow it.
const binarySignature = "PGCOPY\n\xff\r\n\x00"

// AppendBinaryHeader appends binary COPY's signature, flags and an empty
// header extension.
func AppendBinaryHeader(buf []byte) []byte {
	buf = append(buf, binarySignature...)
	return append(buf, 0, 0, 0, 0, 0, 0, 0, 0)
}

// AppendBinaryTrailer appends the field count -1 that ends binary COPY
// data.
func AppendBinaryTrailer(buf []byte) []byte { return append(buf, 0xFF, 0xFF) }

// AppendBinaryRow appends one row in binary form: its field count, then
// each field's length (-1 for NULL) and its column type's binary output.
func AppendBinaryRow(buf []byte, columnTypes []types.T, row []types.Value) ([]byte, error) {
	buf = binary.BigEndian.AppendUint16(buf, uint16(len(columnTypes)))
	for i, v := range row[:len(columnTypes)] {
		if v == nil {
			buf = binary.BigEndian.AppendUint32(buf, 0xFFFFFFFF)
			continue
		}
		lenAt := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		if buf, err = types.AppendBinary(buf, columnTypes[i], v); err != nil {
			return nil, err
		}
		binary.BigEndian.PutUint32(buf[lenAt:], uint32(len(buf)-lenAt-4))
	}
	return buf, nil
}

// AppendHeaderLine appends the text or CSV header line: the column names,
// each written as a field.
func (o *Options) AppendHeaderLine(buf []byte, names []string) []byte {
	for i, name := range names {
		if i > 0 {
			buf = append(buf, o.Delimiter)
		}
		buf = o.appendField(buf, name)
	}
	return append(buf, '\n')
}

// AppendTextRow appends one row of width fields in text or CSV form:
// text(i) is the i-th field's text, ok false for NULL. Columns under
// FORCE_QUOTE are quoted whatever their text.
func (o *Options) AppendTextRow(buf []byte, width int, text func(i int) (s string, ok bool)) []byte {
	for i := range width {
		if i > 0 {
			buf = append(buf, o.Delimiter)
		}
		s, ok := text(i)
		switch {
		case !ok:
			buf = append(buf, o.Null...)
		case o.forceQuote != nil && o.forceQuote[i]:
			buf = o.appendCSVQuoted(buf, s)
		default:
			buf = o.appendField(buf, s)
		}
	}
	return append(buf, '\n')
}

// appendCSVQuoted writes a CSV field quoted.
func (o *Options) appendCSVQuoted(buf []byte, s string) []byte {
	buf = append(buf, o.Quote)
	for i := 0; i < len(s); i++ {
		if s[i] == o.Quote || s[i] == o.Escape {
			buf = append(buf, o.Escape)
		}
		buf = append(buf, s[i])
	}
	return append(buf, o.Quote)
}

// appendField writes one non-NULL field in text or CSV form. A CSV field
// is quoted when it could be read back as something else: the NULL
// string, or text holding the delimiter, the quote, a line end, or the
// end-of-data marker.
func (o *Options) appendField(buf []byte, s string) []byte {
	if o.Format == CSV {
		needQuote := s == o.Null || strings.IndexByte(s, o.Delimiter) >= 0 || strings.IndexByte(s, o.Quote) >= 0 ||
			strings.ContainsAny(s, "\r\n") || s == `\.`
		if !needQuote {
			return append(buf, s...)
		}
		return o.appendCSVQuoted(buf, s)
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
		case c == o.Delimiter:
			buf = append(buf, '\\', c)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}
