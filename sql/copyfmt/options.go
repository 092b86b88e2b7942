package copyfmt

import (
	"slices"
	"strings"

	"cdcdb/pgerror"
)

// Format is the form of COPY data.
type Format uint8

const (
	Text Format = iota
	CSV
	Binary
)

var formatNames = [...]string{Text: "text", CSV: "csv", Binary: "binary"}

// String is the format's name as the FORMAT option spells it.
func (f Format) String() string { return formatNames[f] }

// Options are the parsed options of a COPY statement that shape its data.
type Options struct {
	Format    Format
	Delimiter byte
	Null      string
	// Header: the data starts with a line of column names (text and CSV).
	Header bool
	// HeaderMatch (HEADER MATCH, COPY FROM only) checks the header line's
	// names against the columns copied into instead of skipping it.
	HeaderMatch bool
	Quote       byte
	Escape      byte
	// The CSV column options, by column name as written (forceQuoteAll:
	// FORCE_QUOTE *), and, once the columns are known (ResolveForced), by
	// column position.
	forceQuoteNames, forceNotNullNames, forceNullNames []string
	forceQuoteAll                                      bool
	forceQuote, forceNotNull, forceNull                []bool
}

// ParseOptions reads a COPY statement's options, given by lower-case name
// with their values as written (a list as names joined by commas).
func ParseOptions(opts map[string]string) (Options, error) {
	o := Options{Format: Text, Delimiter: '\t', Null: `\N`, Quote: '"', Escape: '"'}
	if f, ok := opts["format"]; ok {
		switch strings.ToLower(f) {
		case "text":
		case "csv":
			o.Format, o.Delimiter, o.Null = CSV, ',', ""
		case "binary":
			o.Format = Binary
		default:
			return o, pgerror.New(pgerror.InvalidParameterValue, "COPY format \"%s\" not recognized", strings.ToLower(f))
		}
	}
	for k, v := range opts {
		switch k {
		case "format", "freeze":
		case "encoding":
			if err := checkEncoding(v); err != nil {
				return o, err
			}
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
			o.Delimiter = v[0]
		case "null":
			o.Null = v
		case "header":
			o.HeaderMatch = strings.EqualFold(v, "match")
			on, ok := parseBool(v)
			if !ok && !o.HeaderMatch {
				return o, pgerror.New(pgerror.SyntaxError, "header requires a Boolean value or \"match\"")
			}
			o.Header = on || o.HeaderMatch
		case "quote":
			if len(v) != 1 {
				return o, pgerror.New(pgerror.FeatureNotSupported, "COPY quote must be a single one-byte character")
			}
			o.Quote = v[0]
		case "escape":
			if len(v) != 1 {
				return o, pgerror.New(pgerror.FeatureNotSupported, "COPY escape must be a single one-byte character")
			}
			o.Escape = v[0]
		default:
			return o, pgerror.New(pgerror.SyntaxError, "option \"%s\" not recognized", k)
		}
	}
	if o.Header && o.Format == Binary {
		return o, pgerror.New(pgerror.FeatureNotSupported, "cannot specify HEADER in BINARY mode")
	}
	if _, ok := opts["escape"]; !ok && o.Format == CSV {
		o.Escape = o.Quote
	}
	return o, nil
}

// parseBool reads a Boolean option value as PostgreSQL's parse_bool does
// for the spellings clients use.
func parseBool(v string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y":
		return true, true
	case "off", "false", "no", "0", "f", "n":
		return false, true
	}
	return false, false
}

// checkEncoding honours ENCODING: the data is read and written in the
// server's encoding, UTF8, so that is the one encoding COPY accepts;
// another would need a conversion this package does not make.
func checkEncoding(v string) error {
	switch strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(v), "-", "")) {
	case "UTF8", "UNICODE":
		return nil
	}
	return pgerror.New(pgerror.FeatureNotSupported, "COPY ENCODING \"%s\" is not supported: cdcdb reads and writes COPY data in UTF8 only", v)
}

// CheckForced refuses the CSV column options where PostgreSQL does:
// outside CSV, and in the direction they have no meaning in (from: COPY
// FROM).
func (o *Options) CheckForced(from bool) error {
	csv := o.Format == CSV
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

// ResolveForced turns the CSV column options' names into flags by the
// position of the columns copied (copied), refusing, as PostgreSQL does, a
// name that is no column of the table (42703) or not one of those copied
// (42P10). For COPY (query), table is "" and tableColumns nil: all the
// query's columns are copied.
func (o *Options) ResolveForced(table string, tableColumns, copied []string) error {
	resolve := func(option string, given []string) ([]bool, error) {
		if given == nil {
			return nil, nil
		}
		flags := make([]bool, len(copied))
		for _, g := range given {
			i := slices.Index(copied, g)
			switch {
			case i >= 0:
				flags[i] = true
			case table == "":
				return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", g)
			case !slices.Contains(tableColumns, g):
				return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", g, table)
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
		o.forceQuote = make([]bool, len(copied))
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

// MatchHeader checks a HEADER MATCH line: as many fields as columns are
// copied into, each the name of its column, exactly as PostgreSQL compares
// them (case and all).
func (o *Options) MatchHeader(fields []*string, columns []string) error {
	if len(fields) != len(columns) {
		return pgerror.New(pgerror.BadCopyFileFormat, "wrong number of fields in header line: got %d, expected %d", len(fields), len(columns))
	}
	for i, f := range fields {
		if f == nil {
			return pgerror.New(pgerror.BadCopyFileFormat, "column name mismatch in header line field %d: got null value (\"%s\"), expected \"%s\"", i+1, o.Null, columns[i])
		}
		if *f != columns[i] {
			return pgerror.New(pgerror.BadCopyFileFormat, "column name mismatch in header line field %d: got \"%s\", expected \"%s\"", i+1, *f, columns[i])
		}
	}
	return nil
}
