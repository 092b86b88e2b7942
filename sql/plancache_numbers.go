package sql

import (
	"reflect"
	"strconv"
	"strings"

	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// Generic plans for queries that differ only in their numbers.
//
// A client that spells its values out (pgbench -M simple, an ORM that
// inlines integers) sends a new text for every key, so the plan cache,
// keyed by text, never hits. For such a text the cache also keeps a
// generic plan under the text with its numbers replaced by parameters
// (parse.ParameterizeNumbers), planned with each parameter of the type its
// number has (int4, int8 or numeric, as the binder types a constant), and
// runs it with the numbers as the parameters' values.
//
// A generic plan is made the second time its rewritten text is seen (most
// texts are never seen twice), and only when it means what the text's own
// plan means: a query (SELECT) whose rewritten form parses, has no number
// in an ORDER BY, GROUP BY, DISTINCT ON or window clause (where "1" is an
// output column and "$1" a constant), plans without error, keeps every
// parameter of its number's type, and describes the same result columns
// with the same notices as the text's own plan, made just before. When it
// does not, the rewritten text is remembered as having none, and its texts
// are planned (and cached by text) as any other. A generic plan that read
// the clock is refused by the cache as any such plan is (see planCache):
// its rewritten text is then remembered as having none too.

// numberKey is the cache key of a rewritten text's generic plan: the text,
// and its constants' types (a number's type is part of what the plan
// means).
func numberKey(text string, consts []parse.NumberConstant) planKey {
	var b strings.Builder
	for _, c := range consts {
		b.WriteByte(numberType(c).name())
	}
	return planKey{text: text, paramTypes: b.String(), numbers: true}
}

type constType int

const (
	constInt4 constType = iota
	constInt8
	constNumeric
)

func (t constType) name() byte { return "48n"[t] }

func (t constType) typ() types.T {
	switch t {
	case constInt4:
		return eval.Int4T()
	case constInt8:
		return eval.Int8T()
	}
	return types.Of(types.Numeric)
}

// numberType is the type bindLiteral gives the constant.
func numberType(c parse.NumberConstant) constType {
	if !c.Integer {
		return constNumeric
	}
	n, err := strconv.ParseInt(c.Text, 10, 64)
	switch {
	case err != nil:
		return constNumeric
	case n >= -2147483648 && n <= 2147483647:
		return constInt4
	}
	return constInt8
}

// constantValues are the constants as the values bindLiteral makes of
// them.
func constantValues(consts []parse.NumberConstant) ([]types.Value, bool) {
	out := make([]types.Value, len(consts))
	for i, c := range consts {
		if numberType(c) != constNumeric {
			n, err := strconv.ParseInt(c.Text, 10, 64)
			if err != nil {
				return nil, false
			}
			out[i] = n
			continue
		}
		v, err := types.ParseText(types.Of(types.Numeric), c.Text)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// numberedPlan returns a prepared statement running query through the
// generic plan of its rewritten text, if there is one.
func (s *Session) numberedPlan(query string, env planEnv) (ps *preparedStatement, key planKey, consts []parse.NumberConstant, ok bool) {
	if !looksLikeQuery(query) {
		return nil, planKey{}, nil, false
	}
	text, consts, ok := parse.ParameterizeNumbers(query, s.dialect())
	if !ok {
		return nil, planKey{}, nil, false
	}
	key = numberKey(text, consts)
	e, found := s.plans.get(key, env)
	if !found || e.c == nil {
		return nil, key, consts, true
	}
	vals, ok := constantValues(consts)
	if !ok {
		return nil, key, consts, true
	}
	return &preparedStatement{s: s, src: parsedStmt{stmt: e.src.stmt, text: query}, c: e.c, declared: e.declared, constants: vals}, key, consts, true
}

// numberedTextMax bounds the texts rewritten: lexing a text twice (here
// and to parse it) is cheap for a query, not for a bulk INSERT.
const numberedTextMax = 4096

// looksLikeQuery is a cheap first look, before the text is lexed: only
// queries get generic plans, and most statements that are not say so in
// their first word.
func looksLikeQuery(query string) bool {
	if len(query) > numberedTextMax {
		return false
	}
	q := strings.TrimLeft(query, " \t\r\n(")
	return len(q) >= 6 && strings.EqualFold(q[:6], "select")
}

// noteNumberedText is called after a text with numbers was planned as
// itself (ps): the first time its rewritten text is seen this remembers it;
// the second time it makes the generic plan, or remembers that there is
// none. It reports whether the text's own plan is worth caching too: not
// once a generic plan serves its texts.
func (s *Session) noteNumberedText(key planKey, consts []parse.NumberConstant, ps *preparedStatement) (cacheText bool) {
	env := s.planEnv(ps.c.catVersion, ps.c.catGen)
	e, seen := s.plans.get(key, env)
	switch {
	case !seen:
		s.plans.put(key, env, parsedStmt{}, nil, nil) // seen once
		return true
	case e.c != nil || e.noGeneric:
		return e.noGeneric
	}
	src, declared, c := s.planGeneric(key, consts, ps)
	if c == nil || !s.plans.put(key, env, src, declared, c) {
		// None to make, or one the cache refuses (it read the clock, and
		// so does every text it would serve).
		s.plans.put(key, env, parsedStmt{}, nil, nil)
		s.plans.entries[key].noGeneric = true
		return true
	}
	return false
}

// planGeneric plans the rewritten text, or returns a nil plan when its
// plan would not mean what the text's own plan (lit) means.
func (s *Session) planGeneric(key planKey, consts []parse.NumberConstant, lit *preparedStatement) (parsedStmt, []types.T, *compiled) {
	if _, isQuery := lit.src.stmt.(*ast.Select); !isQuery || lit.c.query == nil {
		return parsedStmt{}, nil, nil
	}
	stmts, err := s.engine.parse(key.text, s.dialect())
	if err != nil || len(stmts) != 1 {
		return parsedStmt{}, nil, nil
	}
	sel, ok := stmts[0].stmt.(*ast.Select)
	if !ok || paramInOrderingClause(sel) {
		return parsedStmt{}, nil, nil
	}
	declared := make([]types.T, len(consts))
	for i, c := range consts {
		declared[i] = numberType(c).typ()
	}
	c, err := s.compile(sel, key.text, declared, s.planningCatalog())
	if err != nil || c.query == nil || !sameMeaning(c, lit.c, declared) {
		return parsedStmt{}, nil, nil
	}
	return stmts[0], declared, c
}

// sameMeaning compares what a client can see of two plans of one query.
func sameMeaning(generic, lit *compiled, declared []types.T) bool {
	if generic.access != lit.access || generic.catGen != lit.catGen ||
		len(generic.fields) != len(lit.fields) || !slicesEqual(generic.notices, lit.notices) ||
		len(generic.params) != len(declared) || len(lit.params) != 0 {
		return false
	}
	for i, t := range generic.params {
		if t != declared[i] {
			return false
		}
	}
	for i, f := range generic.fields {
		l := lit.fields[i]
		if f.name != l.name || f.t != l.t || f.tableOID != l.tableOID || f.attnum != l.attnum {
			return false
		}
	}
	return true
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// paramInOrderingClause reports whether a parameter appears, at any query
// level, in a clause where an integer constant would name an output column
// (ORDER BY, GROUP BY, DISTINCT ON) or in a window's definition: there a
// number and a parameter do not mean the same, and those clauses are left
// alone rather than told apart.
func paramInOrderingClause(sel *ast.Select) bool {
	return paramIn(reflect.ValueOf(sel), false)
}

var (
	orderItemType   = reflect.TypeOf(ast.OrderItem{})
	windowSpecType  = reflect.TypeOf(ast.WindowSpec{})
	namedWindowType = reflect.TypeOf(ast.NamedWindow{})
	selectCoreType  = reflect.TypeOf(ast.SelectCore{})
	paramType       = reflect.TypeOf(&ast.Param{})
)

func paramIn(v reflect.Value, ordering bool) bool {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		return paramIn(v.Elem(), ordering)
	case reflect.Pointer:
		if v.IsNil() {
			return false
		}
		if v.Type() == paramType {
			return ordering
		}
		return paramIn(v.Elem(), ordering)
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if paramIn(v.Index(i), ordering) {
				return true
			}
		}
	case reflect.Struct:
		t := v.Type()
		inside := ordering || t == orderItemType || t == windowSpecType || t == namedWindowType
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fieldOrdering := inside || t == selectCoreType && (f.Name == "GroupBy" || f.Name == "DistinctOn")
			if paramIn(v.Field(i), fieldOrdering) {
				return true
			}
		}
	}
	return false
}
