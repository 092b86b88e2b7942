package builtins

import (
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// to_number(text, format) reads a number the way PostgreSQL's
// NUM_processor does in its from-char direction: the format is walked one
// item at a time, each digit position (9, 0, D, .) consuming one input
// character, so input and format line up by position rather than by
// value. A digit is taken wherever a digit position meets one, signs are
// read before the first digit or where S/MI/PL/SG/PR say, group separators
// are skipped only when present, and every other format character skips
// one input character. The digits read become a numeric with as many
// decimals as were read, checked against the precision the format allows.
// The locale symbols are the C locale's, which cdcdb's databases use.

func init() {
	Register("to_number", overloaded(true, sig(types.Numeric, func(_ eval.Context, a []types.Value) (types.Value, error) {
		return toNumber(a[0].(string), a[1].(string))
	}, types.Text, types.Text)))
}

// numItem is one parsed item of a number format: a keyword (upper case)
// or, with lit set, a literal character.
type numItem struct {
	key string
	lit bool
}

// numKeywords are the number format keywords, longest first so that a
// prefix never hides a longer keyword.
var numKeywords = []string{"EEEE", "FM", "MI", "PL", "PR", "RN", "SG", "SP", "TH", "B", "D", "G", "L", "S", "V", "9", "0", ".", ","}

// numFormat is a parsed number format with the facts NUMDesc_prepare
// derives from it.
type numFormat struct {
	items             []numItem
	pre, post, multi  int // digit positions before and after the point, after V
	decimal, fillMode bool
	bracket, lsign    bool
	minus, plus       bool
	seenV             bool // digits after V scale the result down
}

func parseNumFormat(f string) (*numFormat, error) {
	nf := &numFormat{}
	for i := 0; i < len(f); {
		matched := ""
		for _, k := range numKeywords {
			if len(f)-i >= len(k) && (f[i:i+len(k)] == k || f[i:i+len(k)] == strings.ToLower(k)) {
				matched = k
				break
			}
		}
		if matched == "" {
			_, size := utf8.DecodeRuneInString(f[i:])
			nf.items = append(nf.items, numItem{key: f[i : i+size], lit: true})
			i += size
			continue
		}
		i += len(matched)
		nf.items = append(nf.items, numItem{key: matched})
		switch matched {
		case "9", "0":
			switch {
			case nf.seenV:
				nf.multi++
			case nf.decimal:
				nf.post++
			default:
				nf.pre++
			}
		case ".", "D":
			if nf.decimal {
				return nil, pgerror.New(pgerror.SyntaxError, "multiple decimal points")
			}
			nf.decimal = true
		case "FM":
			nf.fillMode = true
		case "V":
			nf.seenV = true
		case "PR":
			nf.bracket = true
		case "MI":
			nf.minus = true
		case "PL":
			nf.plus = true
		case "SG":
			nf.minus, nf.plus = true, true
		case "S":
			if nf.lsign {
				return nil, pgerror.New(pgerror.SyntaxError, "cannot use \"S\" twice")
			}
			nf.lsign = true
		case "EEEE":
			return nil, pgerror.New(pgerror.FeatureNotSupported, "\"EEEE\" not supported for input")
		}
	}
	return nf, nil
}

// numReader is the state of one to_number scan.
type numReader struct {
	f                 *numFormat
	in                string
	p                 int // byte offset into in
	sign              byte
	digits            []byte // digits and the decimal point read
	readPre, readPost int
	readDec           bool
}

func (r *numReader) atEnd() bool { return r.p >= len(r.in) }

// eatNonData skips up to n input characters that cannot be part of a
// number.
func (r *numReader) eatNonData(n int) {
	for ; n > 0 && !r.atEnd(); n-- {
		if strings.IndexByte("0123456789.,+-", r.in[r.p]) >= 0 {
			return
		}
		_, size := utf8.DecodeRuneInString(r.in[r.p:])
		r.p += size
	}
}

// digitPart is NUM_numpart_from_char: one digit or decimal point position.
func (r *numReader) digitPart(key string) {
	if r.atEnd() {
		return
	}
	if r.in[r.p] == ' ' {
		r.p++
	}
	if r.atEnd() {
		return
	}
	if r.sign == 0 && (key == "9" || key == "0") && r.readPre+r.readPost == 0 {
		c := r.in[r.p]
		switch {
		case c == '-' || (r.f.bracket && c == '<'):
			r.sign = '-'
			r.p++
		case c == '+':
			r.sign = '+'
			r.p++
		}
	}
	if r.atEnd() {
		return
	}
	read := false
	switch c := r.in[r.p]; {
	case c >= '0' && c <= '9':
		if r.readDec && r.readPost == r.f.post {
			return
		}
		r.digits = append(r.digits, c)
		if r.readDec {
			r.readPost++
		} else {
			r.readPre++
		}
		read = true
	case r.f.decimal && !r.readDec && c == '.':
		r.digits = append(r.digits, '.')
		r.readDec = true
		read = true
	}
	if r.atEnd() || r.sign != 0 || r.readPre+r.readPost == 0 {
		return
	}
	// A sign right after the last digit read.
	switch {
	case r.f.lsign && read && r.p+1 < len(r.in) && !(r.in[r.p+1] >= '0' && r.in[r.p+1] <= '9'):
		if c := r.in[r.p+1]; c == '-' || c == '+' {
			r.sign = c
			r.p++
		}
	case !read && !r.f.lsign && (r.f.plus || r.f.minus):
		if c := r.in[r.p]; c == '-' || c == '+' {
			r.sign = c
		}
	}
}

func toNumber(input, format string) (types.Value, error) {
	if format == "" {
		return nil, nil
	}
	f, err := parseNumFormat(format)
	if err != nil {
		return nil, err
	}
	r := &numReader{f: f, in: input}
	for _, it := range f.items {
		if r.atEnd() {
			break
		}
		if it.lit {
			_, size := utf8.DecodeRuneInString(r.in[r.p:])
			r.p += size
			continue
		}
		switch it.key {
		case "9", "0", ".", "D":
			r.digitPart(it.key)
		case ",", "G":
			if f.fillMode || r.in[r.p] != ',' {
				continue
			}
		case "L":
			r.eatNonData(1) // the C locale's currency symbol is " "
			continue
		case "TH":
			r.eatNonData(2)
			continue
		case "MI", "PL", "SG":
			c := r.in[r.p]
			switch {
			case c == '-' && it.key != "PL":
				r.sign = '-'
			case c == '+' && it.key != "MI":
				r.sign = '+'
			default:
				r.eatNonData(1)
				continue
			}
		default:
			continue
		}
		r.p++
	}
	num := string(r.digits)
	num = strings.TrimSuffix(num, ".")
	text := num
	if r.sign == '-' || r.sign == '+' {
		text = string(r.sign) + num
	}
	if num == "" {
		if text == "" {
			text = " "
		}
		return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", text)
	}
	d, _, err := apd.NewFromString(text)
	if err != nil {
		return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", text)
	}
	if precision := f.pre + f.multi + r.readPost; precision > 0 {
		typmod := int32(precision<<16|r.readPost) + 4
		v, err := types.ApplyTypmod(d, types.T{OID: types.Numeric, Typmod: typmod}, false)
		if err != nil {
			return nil, err
		}
		d = v.(*apd.Decimal)
	}
	if f.multi > 0 {
		// Multiplied by 10 ^ -multi as PostgreSQL does, which gives the
		// result that power's 16 decimals.
		scale := new(apd.Decimal)
		if err := eval.NumericPower(scale, apd.New(10, 0), apd.New(-int64(f.multi), 0)); err != nil {
			return nil, err
		}
		z := new(apd.Decimal)
		_, err := eval.ExactCtx(d, scale).Mul(z, d, scale)
		return z, eval.NumericChecked(z, err)
	}
	return d, nil
}
