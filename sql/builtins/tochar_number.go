package builtins

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// to_char of a number, as PostgreSQL 15's formatting.c does it: the
// template is read into keywords and literal characters while a
// description of the number's shape is gathered (NUMDesc_prepare, with its
// errors for templates that contradict themselves), the value is printed
// to a plain digit string the way each type's to_char prints it
// (int4_to_char, int8_to_char, numeric_to_char, float4_to_char,
// float8_to_char), and the template's nodes then lay that string out one
// by one (NUM_processor): padding, signs in their places, separators, the
// locale's symbols (the C locale's, which cdcdb runs in: "+", "-", ".",
// "," and a blank currency symbol) and the literal text.

// numberKind is the type to_char formats.
type numberKind int

const (
	numberInt4 numberKind = iota
	numberInt8
	numberNumeric
	numberFloat4
	numberFloat8
)

// numKey is a number template keyword.
type numKey int

const (
	numLiteral numKey = iota
	numComma
	numDec
	num0
	num9
	numB
	numC
	numD
	numE
	numFM
	numG
	numL
	numMI
	numPL
	numPR
	numRN
	numRNLower
	numSG
	numSP
	numS
	numTH
	numTHLower
	numV
)

// numTemplateKeywords are PostgreSQL's number template keywords in its order: the
// first one the template continues with is read.
var numTemplateKeywords = []struct {
	name string
	key  numKey
}{
	{",", numComma}, {".", numDec}, {"0", num0}, {"9", num9}, {"B", numB}, {"C", numC}, {"D", numD},
	{"EEEE", numE}, {"FM", numFM}, {"G", numG}, {"L", numL}, {"MI", numMI}, {"PL", numPL}, {"PR", numPR},
	{"RN", numRN}, {"SG", numSG}, {"SP", numSP}, {"S", numS}, {"TH", numTH}, {"V", numV},
	{"b", numB}, {"c", numC}, {"d", numD}, {"eeee", numE}, {"fm", numFM}, {"g", numG}, {"l", numL},
	{"mi", numMI}, {"pl", numPL}, {"pr", numPR}, {"rn", numRNLower}, {"sg", numSG}, {"sp", numSP},
	{"s", numS}, {"th", numTHLower}, {"v", numV},
}

// numNode is one element of a number template: a keyword, or a literal
// character (text).
type numNode struct {
	key  numKey
	text string
}

// Flags of a number template (NUM_F_*).
const (
	numFDecimal = 1 << iota
	numFLDecimal
	numFZero
	numFBlank
	numFFillMode
	numFLSign
	numFBracket
	numFMinus
	numFPlus
	numFRoman
	numFMulti
	numFPlusPost
	numFMinusPost
	numFEEEE
)

// Where the S keyword puts the locale's sign.
const (
	lsignNone = 0
	lsignPre  = -1
	lsignPost = 1
)

// numDesc is the shape of a number template (NUMDesc).
type numDesc struct {
	pre, post   int // digit positions before and after the point
	lsign       int
	flag        int
	preLsignNum int
	multi       int // V's power of ten
	zeroStart   int // position of the first 0, counting from 1
	zeroEnd     int // position of the last 0
}

func (d *numDesc) is(f int) bool { return d.flag&f != 0 }

func numSyntaxError(msg string) error { return pgerror.New(pgerror.SyntaxError, "%s", msg) }

// prepare adds a keyword to the description, refusing the combinations
// PostgreSQL refuses.
func (d *numDesc) prepare(k numKey) error {
	if d.is(numFEEEE) && k != numE {
		return numSyntaxError(`"EEEE" must be the last pattern used`)
	}
	switch k {
	case num9:
		if d.is(numFBracket) {
			return numSyntaxError(`"9" must be ahead of "PR"`)
		}
		if d.is(numFMulti) {
			d.multi++
			break
		}
		if d.is(numFDecimal) {
			d.post++
		} else {
			d.pre++
		}
	case num0:
		if d.is(numFBracket) {
			return numSyntaxError(`"0" must be ahead of "PR"`)
		}
		if !d.is(numFZero) && !d.is(numFDecimal) {
			d.flag |= numFZero
			d.zeroStart = d.pre + 1
		}
		if !d.is(numFDecimal) {
			d.pre++
		} else {
			d.post++
		}
		d.zeroEnd = d.pre + d.post
	case numB:
		if d.pre == 0 && d.post == 0 && !d.is(numFZero) {
			d.flag |= numFBlank
		}
	case numD, numDec:
		if k == numD {
			d.flag |= numFLDecimal
		}
		if d.is(numFDecimal) {
			return numSyntaxError("multiple decimal points")
		}
		if d.is(numFMulti) {
			return numSyntaxError(`cannot use "V" and decimal point together`)
		}
		d.flag |= numFDecimal
	case numFM:
		d.flag |= numFFillMode
	case numS:
		if d.is(numFLSign) {
			return numSyntaxError(`cannot use "S" twice`)
		}
		if d.is(numFPlus) || d.is(numFMinus) || d.is(numFBracket) {
			return numSyntaxError(`cannot use "S" and "PL"/"MI"/"SG"/"PR" together`)
		}
		if !d.is(numFDecimal) {
			d.lsign = lsignPre
			d.preLsignNum = d.pre
			d.flag |= numFLSign
		} else if d.lsign == lsignNone {
			d.lsign = lsignPost
			d.flag |= numFLSign
		}
	case numMI, numPL:
		name, sign, post := "MI", numFMinus, numFMinusPost
		if k == numPL {
			name, sign, post = "PL", numFPlus, numFPlusPost
		}
		if d.is(numFLSign) {
			return numSyntaxError(`cannot use "S" and "` + name + `" together`)
		}
		d.flag |= sign
		if d.is(numFDecimal) {
			d.flag |= post
		}
	case numSG:
		if d.is(numFLSign) {
			return numSyntaxError(`cannot use "S" and "SG" together`)
		}
		d.flag |= numFMinus | numFPlus
	case numPR:
		if d.is(numFLSign) || d.is(numFPlus) || d.is(numFMinus) {
			return numSyntaxError(`cannot use "PR" and "S"/"PL"/"MI"/"SG" together`)
		}
		d.flag |= numFBracket
	case numRN, numRNLower:
		d.flag |= numFRoman
	case numV:
		if d.is(numFDecimal) {
			return numSyntaxError(`cannot use "V" and decimal point together`)
		}
		d.flag |= numFMulti
	case numE:
		if d.is(numFEEEE) {
			return numSyntaxError(`cannot use "EEEE" twice`)
		}
		if d.is(numFBlank) || d.is(numFFillMode) || d.is(numFLSign) || d.is(numFBracket) ||
			d.is(numFMinus) || d.is(numFPlus) || d.is(numFRoman) || d.is(numFMulti) {
			return pgerror.New(pgerror.SyntaxError, `"EEEE" is incompatible with other formats`).
				WithDetail(`"EEEE" may only be used together with digit and decimal point patterns.`)
		}
		d.flag |= numFEEEE
	}
	return nil
}

// parseNumberTemplate reads a number template as parse_format does.
func parseNumberTemplate(tmpl string) ([]numNode, numDesc, error) {
	var nodes []numNode
	var d numDesc
	for i := 0; i < len(tmpl); {
		key := numLiteral
		name := ""
		for _, kw := range numTemplateKeywords {
			if strings.HasPrefix(tmpl[i:], kw.name) {
				key, name = kw.key, kw.name
				break
			}
		}
		if key != numLiteral {
			if err := d.prepare(key); err != nil {
				return nil, d, err
			}
			nodes = append(nodes, numNode{key: key})
			i += len(name)
			continue
		}
		if tmpl[i] == '"' {
			i++
			for i < len(tmpl) {
				if tmpl[i] == '"' {
					i++
					break
				}
				if tmpl[i] == '\\' && i+1 < len(tmpl) {
					i++
				}
				n := runeLen(tmpl[i:])
				nodes = append(nodes, numNode{text: tmpl[i : i+n]})
				i += n
			}
			continue
		}
		if tmpl[i] == '\\' && i+1 < len(tmpl) && tmpl[i+1] == '"' {
			i++
		}
		n := runeLen(tmpl[i:])
		nodes = append(nodes, numNode{text: tmpl[i : i+n]})
		i += n
	}
	return nodes, d, nil
}

// runeLen is the length in bytes of the character s starts with.
func runeLen(s string) int {
	for i := range s {
		if i > 0 {
			return i
		}
	}
	return len(s)
}

// formatNumber is to_char of a number of the given kind.
func formatNumber(kind numberKind, v types.Value, tmpl string) (types.Value, error) {
	if tmpl == "" {
		return "", nil
	}
	nodes, d, err := parseNumberTemplate(tmpl)
	if err != nil {
		return nil, err
	}
	numstr, outPreSpaces, sign, err := numberDigits(kind, v, &d)
	if err != nil {
		return nil, err
	}
	return numProcess(nodes, &d, numstr, outPreSpaces, sign)
}

// numberDigits prints v as its type's to_char prints it before laying it
// out: the digits (or a Roman numeral, or scientific notation, or '#'s
// where the template has too few digits), the spaces the template has
// before them, and the sign ('+' or '-'; 0 for Roman and scientific).
func numberDigits(kind numberKind, v types.Value, d *numDesc) (numstr string, outPreSpaces int, sign byte, err error) {
	switch {
	case d.is(numFRoman):
		numstr, err = romanDigits(kind, v)
		return numstr, 0, 0, err
	case d.is(numFEEEE):
		return scientificDigits(kind, v, d), 0, 0, nil
	}
	var orgnum string
	switch kind {
	case numberInt4:
		n := v.(int64)
		if d.is(numFMulti) {
			// Since PostgreSQL 15.20 a product past int4's range is an
			// error, as for int8 (earlier releases wrapped it).
			m := math.Pow(10, float64(d.multi))
			if m > math.MaxInt32 {
				return "", 0, 0, eval.IntRangeError(types.Int4)
			}
			n *= int64(m)
			if n > math.MaxInt32 || n < math.MinInt32 {
				return "", 0, 0, eval.IntRangeError(types.Int4)
			}
			d.pre += d.multi
		}
		orgnum = strconv.FormatInt(n, 10)
	case numberInt8:
		n := v.(int64)
		if d.is(numFMulti) {
			m := math.Pow(10, float64(d.multi))
			if m >= 9223372036854775807 {
				return "", 0, 0, eval.IntRangeError(types.Int8)
			}
			overflow, product := mulInt64(n, int64(m))
			if overflow {
				return "", 0, 0, eval.IntRangeError(types.Int8)
			}
			n = product
			d.pre += d.multi
		}
		orgnum = strconv.FormatInt(n, 10)
	case numberNumeric:
		x := v.(*apd.Decimal)
		if d.is(numFMulti) {
			scaled := new(apd.Decimal)
			if _, err := eval.NumericCtx.Mul(scaled, x, apd.New(1, int32(d.multi))); err != nil {
				return "", 0, 0, eval.NumericChecked(scaled, err)
			}
			x = scaled
			d.pre += d.multi
		}
		rounded := new(apd.Decimal).Set(x)
		if x.Form == apd.Finite {
			if err := eval.RoundScale(rounded, d.post); err != nil {
				return "", 0, 0, err
			}
			eval.ShowScale(rounded, d.post)
		}
		orgnum = types.FormatText(types.Of(types.Numeric), rounded)
	case numberFloat4, numberFloat8:
		f := v.(float64)
		digits := 15 // DBL_DIG
		if kind == numberFloat4 {
			digits = 6 // FLT_DIG
		}
		if d.is(numFMulti) {
			if kind == numberFloat4 {
				f = float64(float32(f) * float32(math.Pow(10, float64(d.multi))))
			} else {
				f *= math.Pow(10, float64(d.multi))
			}
			d.pre += d.multi
		}
		preLen := len(cFormatFixed(math.Abs(f), 0))
		if preLen >= digits {
			d.post = 0
		} else if preLen+d.post > digits {
			d.post = digits - preLen
		}
		orgnum = cFormatFixed(f, d.post)
	}
	numstr, sign = orgnum, '+'
	if strings.HasPrefix(orgnum, "-") {
		numstr, sign = orgnum[1:], '-'
	}
	if (kind == numberInt4 || kind == numberInt8) && d.post > 0 {
		numstr += "." + strings.Repeat("0", d.post) // an integer's decimals are zeros
	}
	preLen := len(numstr)
	if i := strings.IndexByte(numstr, '.'); i >= 0 {
		preLen = i
	}
	switch {
	case preLen < d.pre:
		outPreSpaces = d.pre - preLen
	case preLen > d.pre:
		b := []byte(strings.Repeat("#", d.pre+d.post+1))
		b[d.pre] = '.'
		numstr = string(b)
	}
	return numstr, outPreSpaces, sign, nil
}

// mulInt64 is x*y and whether it overflowed int64.
func mulInt64(x, y int64) (overflow bool, r int64) {
	if x == 0 || y == 0 {
		return false, 0
	}
	r = x * y
	return r/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64), r
}

// cFormatFixed is "%.*f" as PostgreSQL's own snprintf prints it: f with
// prec decimals, correctly rounded from its exact binary value, and NaN,
// Infinity and -Infinity spelled so.
func cFormatFixed(f float64, prec int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'f', prec, 64)
}

// cFormatScientific is C's "%+.*e": a sign, one digit, prec decimals and an
// exponent of two digits at least.
func cFormatScientific(f float64, prec int) string {
	s := strconv.FormatFloat(f, 'e', prec, 64)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// romanDigits is the Roman numeral to_char's RN prints: of the value
// rounded to an integer (floats half to even, numerics half away from
// zero), '#'s outside 1 to 3999. A numeric, or a bigint, that is no int4
// is an error, as PostgreSQL 15 converts them so.
func romanDigits(kind numberKind, v types.Value) (string, error) {
	var n int64
	switch kind {
	case numberInt4:
		n = v.(int64)
	case numberInt8:
		n = v.(int64)
		if n < math.MinInt32 || n > math.MaxInt32 {
			return "", eval.IntRangeError(types.Int4)
		}
	case numberFloat4, numberFloat8:
		r := math.RoundToEven(v.(float64))
		if math.IsNaN(r) || r < 1 || r > 3999 {
			return strings.Repeat("#", 15), nil
		}
		n = int64(r)
	case numberNumeric:
		d := v.(*apd.Decimal)
		switch d.Form {
		case apd.NaN, apd.NaNSignaling:
			return "", pgerror.New(pgerror.FeatureNotSupported, "cannot convert NaN to integer")
		case apd.Infinite:
			return "", pgerror.New(pgerror.FeatureNotSupported, "cannot convert infinity to integer")
		}
		r := new(apd.Decimal).Set(d)
		if err := eval.RoundScale(r, 0); err != nil {
			return "", err
		}
		i, err := r.Int64()
		if err != nil || i < math.MinInt32 || i > math.MaxInt32 {
			return "", eval.IntRangeError(types.Int4)
		}
		n = i
	}
	if n < 1 || n > 3999 {
		return strings.Repeat("#", 15), nil
	}
	var b strings.Builder
	for _, step := range romanSteps {
		for n >= step.value {
			b.WriteString(step.digits)
			n -= step.value
		}
	}
	return b.String(), nil
}

var romanSteps = []struct {
	value  int64
	digits string
}{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

// scientificDigits is what EEEE prints: one digit before the point, the
// template's decimals after it, and the exponent, after a space or a minus
// sign. Integers and floats are printed as C's "%+.*e"; a bigint and a
// numeric as numeric_out_sci, which takes the exponent before it rounds
// (9.99 with one decimal is 10.0e+00). NaN and the infinities are '#'s in
// the template's shape.
func scientificDigits(kind numberKind, v types.Value, d *numDesc) string {
	hashes := func() string {
		b := []byte(strings.Repeat("#", d.pre+d.post+6))
		b[0], b[d.pre+1] = ' ', '.'
		return string(b)
	}
	var out string
	switch kind {
	case numberInt4:
		out = cFormatScientific(float64(v.(int64)), d.post)
	case numberFloat4, numberFloat8:
		f := v.(float64)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return hashes()
		}
		out = cFormatScientific(f, d.post)
	case numberInt8:
		out = numericScientific(apd.New(v.(int64), 0), d.post)
	case numberNumeric:
		x := v.(*apd.Decimal)
		if x.Form != apd.Finite {
			return hashes()
		}
		out = numericScientific(x, d.post)
	}
	if strings.HasPrefix(out, "+") {
		return " " + out[1:]
	}
	if !strings.HasPrefix(out, "-") {
		return " " + out
	}
	return out
}

// numericScientific is numeric_out_sci: the significand rounded (half away
// from zero) to scale decimals after the exponent is fixed, and "e" with a
// signed exponent of two digits at least.
func numericScientific(x *apd.Decimal, scale int) string {
	exp := 0
	if !x.IsZero() {
		exp = int(x.NumDigits()) + int(x.Exponent) - 1
	}
	sig := new(apd.Decimal).Set(x)
	sig.Exponent -= int32(exp)
	_ = eval.RoundScale(sig, scale)
	eval.ShowScale(sig, scale)
	sign := ""
	if sig.Negative && !sig.IsZero() {
		sign = "-"
	}
	sig.Negative = false
	es := "+"
	if exp < 0 {
		es, exp = "-", -exp
	}
	e := strconv.Itoa(exp)
	if len(e) < 2 {
		e = "0" + e
	}
	return sign + sig.Text('f') + "e" + es + e
}

// numProcessor is NUM_processor's state while it lays a number out.
type numProcessor struct {
	d            *numDesc
	out          strings.Builder
	number       string
	numberP      int // the next character of number to write
	lastRelevant int // FM's last digit worth writing after the point, -1 for none
	sign         byte
	signWrote    bool
	numCount     int
	numIn        bool
	numCurr      int
	outPreSpaces int
}

// numProcess lays out numstr (the value's digits) along the template's
// nodes, as NUM_processor does for to_char.
func numProcess(nodes []numNode, d *numDesc, numstr string, outPreSpaces int, sign byte) (types.Value, error) {
	np := &numProcessor{d: d, number: numstr, lastRelevant: -1}
	if d.zeroStart > 0 {
		d.zeroStart--
	}
	if d.is(numFEEEE) {
		return numstr, nil
	}
	if d.is(numFRoman) {
		d.lsign, d.preLsignNum, d.post, d.pre = 0, 0, 0, 0
		outPreSpaces, sign = 0, 0
		d.flag = d.flag&numFFillMode | numFRoman
	}
	np.sign = sign
	if d.is(numFPlus) || d.is(numFMinus) {
		// MI, PL and SG write the sign themselves, not in the number.
		np.signWrote = !(d.is(numFPlus) && !d.is(numFMinus))
	} else {
		if np.sign != '-' && d.is(numFFillMode) {
			d.flag &^= numFBracket
		}
		np.signWrote = np.sign == '+' && d.is(numFFillMode) && !d.is(numFLSign)
		if d.lsign == lsignPre && d.pre == d.preLsignNum {
			d.lsign = lsignPost
		}
	}
	np.numCount = d.post + d.pre - 1
	np.outPreSpaces = outPreSpaces
	if d.is(numFFillMode) && d.is(numFDecimal) {
		np.lastRelevant = lastRelevantDecimal(numstr)
		// Digits the template's 0s ask for after the point stay.
		if np.lastRelevant >= 0 && d.zeroEnd > np.outPreSpaces {
			lastZero := min(len(numstr)-1, d.zeroEnd-np.outPreSpaces)
			if np.lastRelevant < lastZero {
				np.lastRelevant = lastZero
			}
		}
	}
	if !np.signWrote && np.outPreSpaces == 0 {
		np.numCount++
	}
	for _, n := range nodes {
		if n.key == numLiteral {
			np.out.WriteString(n.text)
			continue
		}
		if err := np.node(n.key); err != nil {
			return nil, err
		}
	}
	// PostgreSQL builds the text in a C string: a NUL written into it (the
	// sign SG writes for a number without one, a digit position past the
	// end of the digits) ends the result there.
	out := np.out.String()
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out, nil
}

// lastRelevantDecimal is get_last_relevant_decnum: the index of the last
// nonzero digit after the point, or of the point when none is; -1 without
// a point.
func lastRelevantDecimal(num string) int {
	p := strings.IndexByte(num, '.')
	if p < 0 {
		return -1
	}
	r := p
	for i := p + 1; i < len(num); i++ {
		if num[i] != '0' {
			r = i
		}
	}
	return r
}

// at is the number's character at i, or 0 past its end (C's terminator).
func (np *numProcessor) at(i int) byte {
	if i >= 0 && i < len(np.number) {
		return np.number[i]
	}
	return 0
}

func (np *numProcessor) node(k numKey) error {
	d := np.d
	fill := d.is(numFFillMode)
	switch k {
	case num9, num0, numDec, numD:
		np.numpart(k)
	case numComma, numG:
		switch {
		case !np.numIn && fill:
		case !np.numIn:
			np.out.WriteByte(' ')
		default:
			np.out.WriteByte(',')
		}
	case numL:
		np.out.WriteByte(' ') // the C locale has no currency symbol; PostgreSQL writes a blank
	case numRN, numRNLower:
		r := np.number[min(np.numberP, len(np.number)):]
		if k == numRNLower {
			r = strings.ToLower(r)
		}
		if !fill && len(r) < 15 {
			r = strings.Repeat(" ", 15-len(r)) + r
		}
		np.out.WriteString(r)
	case numTH, numTHLower:
		if d.is(numFRoman) || np.at(0) == '#' || np.sign == '-' || d.is(numFDecimal) {
			return nil
		}
		th, err := ordinalOf(np.number, k == numTH)
		if err != nil {
			return err
		}
		np.out.WriteString(th)
	case numMI:
		switch {
		case np.sign == '-':
			np.out.WriteByte('-')
		case fill:
		default:
			np.out.WriteByte(' ')
		}
	case numPL:
		switch {
		case np.sign == '+':
			np.out.WriteByte('+')
		case fill:
		default:
			np.out.WriteByte(' ')
		}
	case numSG:
		np.out.WriteByte(np.sign) // 0 for a Roman numeral: see numProcess
	}
	return nil
}

// numpart is NUM_numpart_to_char: a digit, zero, blank or point, with the
// sign written in front of the first digit and a closing bracket or
// trailing locale sign after the last.
func (np *numProcessor) numpart(k numKey) {
	d := np.d
	if d.is(numFRoman) {
		return
	}
	np.numIn = false
	predecSpace := func() bool {
		return !d.is(numFZero) && np.numberP == 0 && np.at(0) == '0' && d.post != 0
	}
	lastIsPoint := np.lastRelevant >= 0 && np.at(np.lastRelevant) == '.'
	if !np.signWrote &&
		(np.numCurr >= np.outPreSpaces || (d.is(numFZero) && d.zeroStart == np.numCurr)) &&
		(!predecSpace() || lastIsPoint) {
		switch {
		case d.is(numFLSign):
			if d.lsign == lsignPre {
				if np.sign == '-' {
					np.out.WriteByte('-')
				} else {
					np.out.WriteByte('+')
				}
				np.signWrote = true
			}
		case d.is(numFBracket):
			if np.sign == '+' {
				np.out.WriteByte(' ')
			} else {
				np.out.WriteByte('<')
			}
			np.signWrote = true
		case np.sign == '+':
			if !d.is(numFFillMode) {
				np.out.WriteByte(' ')
			}
			np.signWrote = true
		case np.sign == '-':
			np.out.WriteByte('-')
			np.signWrote = true
		}
	}
	switch {
	case np.numCurr < np.outPreSpaces && (d.zeroStart > np.numCurr || !d.is(numFZero)):
		if !d.is(numFFillMode) {
			np.out.WriteByte(' ')
		}
	case d.is(numFZero) && np.numCurr < np.outPreSpaces && d.zeroStart <= np.numCurr:
		np.out.WriteByte('0')
		np.numIn = true
	default:
		if np.at(np.numberP) == '.' {
			if !lastIsPoint || d.is(numFFillMode) {
				np.out.WriteByte('.')
			}
		} else {
			switch {
			case np.lastRelevant >= 0 && np.numberP > np.lastRelevant && k != num0:
			case predecSpace():
				if !d.is(numFFillMode) {
					np.out.WriteByte(' ')
				} else if lastIsPoint {
					np.out.WriteByte('0')
				}
			default:
				np.out.WriteByte(np.at(np.numberP)) // 0 past the digits: see numProcess
				np.numIn = true
			}
		}
		if np.at(np.numberP) != 0 {
			np.numberP++
		}
	}
	end := np.numCount
	if np.outPreSpaces != 0 {
		end++
	}
	if d.is(numFDecimal) {
		end++
	}
	if np.lastRelevant >= 0 && np.lastRelevant == np.numberP {
		end = np.numCurr
	}
	if np.numCurr+1 == end {
		switch {
		case np.signWrote && d.is(numFBracket):
			if np.sign == '+' {
				np.out.WriteByte(' ')
			} else {
				np.out.WriteByte('>')
			}
		case d.is(numFLSign) && d.lsign == lsignPost:
			if np.sign == '-' {
				np.out.WriteByte('-')
			} else {
				np.out.WriteByte('+')
			}
		}
	}
	np.numCurr++
}
