package source

import (
	"bytes"
	"fmt"
)

// copyLines is the io.Writer COPY ... TO STDOUT writes to: it cuts the
// stream into rows (PostgreSQL sends one row per CopyData message, but
// nothing here relies on it) and hands each, without its newline, to row.
type copyLines struct {
	partial []byte
	row     func(line []byte) error
}

func (w *copyLines) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			w.partial = append(w.partial, line...)
			line = w.partial
		}
		if err := w.row(line); err != nil {
			return 0, err
		}
		w.partial = w.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

// finish reports a last row without its newline, which COPY never sends.
func (w *copyLines) finish() error {
	if len(w.partial) > 0 {
		return fmt.Errorf("COPY output ends in the middle of a row")
	}
	return nil
}

// decodeCopyText reads one row of COPY's text format (tab between columns,
// \N for NULL, backslash escapes) into ncols values, appended to dst.
func decodeCopyText(line []byte, ncols int, dst []Value) ([]Value, error) {
	var field []byte
	for col := 0; ; col++ {
		end := bytes.IndexByte(line, '\t')
		raw := line
		if end >= 0 {
			raw = line[:end]
		}
		if col >= ncols {
			return dst, fmt.Errorf("COPY row has more than %d columns", ncols)
		}
		if string(raw) == `\N` {
			dst = append(dst, Null())
		} else {
			var err error
			if field, err = unescapeCopyText(field[:0], raw); err != nil {
				return dst, err
			}
			dst = append(dst, Text(string(field)))
		}
		if end < 0 {
			if col+1 != ncols {
				return dst, fmt.Errorf("COPY row has %d columns, expected %d", col+1, ncols)
			}
			return dst, nil
		}
		line = line[end+1:]
	}
}

// unescapeCopyText undoes COPY text's escapes as PostgreSQL's COPY FROM
// reads them: \b \f \n \r \t \v, octal \NNN, hex \xHH, and a backslash
// before any other character is that character.
func unescapeCopyText(dst, src []byte) ([]byte, error) {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		if i == len(src) {
			return dst, fmt.Errorf("COPY field ends with a lone backslash")
		}
		c = src[i]
		switch {
		case c >= '0' && c <= '7':
			v := c - '0'
			for n := 1; n < 3 && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '7'; n++ {
				i++
				v = v<<3 | (src[i] - '0')
			}
			dst = append(dst, v)
		case c == 'x' && i+1 < len(src) && isHexDigit(src[i+1]):
			i++
			v := hexValue(src[i])
			if i+1 < len(src) && isHexDigit(src[i+1]) {
				i++
				v = v<<4 | hexValue(src[i])
			}
			dst = append(dst, v)
		case c == 'b':
			dst = append(dst, '\b')
		case c == 'f':
			dst = append(dst, '\f')
		case c == 'n':
			dst = append(dst, '\n')
		case c == 'r':
			dst = append(dst, '\r')
		case c == 't':
			dst = append(dst, '\t')
		case c == 'v':
			dst = append(dst, '\v')
		default:
			dst = append(dst, c)
		}
	}
	return dst, nil
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
