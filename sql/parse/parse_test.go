package parse

import (
	"reflect"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

func parseOne(t *testing.T, sql string) ast.Statement {
	t.Helper()
	stmts, err := Parse(sql)
	if err != nil {
		t.Fatalf("Parse(%q): %v", sql, err)
	}
	if len(stmts) != 1 {
		t.Fatalf("Parse(%q): %d statements", sql, len(stmts))
	}
	return stmts[0]
}

func TestParseRender(t *testing.T) {
	for _, tt := range renderCases {
		stmts, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if len(stmts) != 1 {
			t.Errorf("Parse(%q): %d statements", tt.in, len(stmts))
			continue
		}
		if got := render(stmts[0]); got != tt.want {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseStatements(t *testing.T) {
	stmts, err := Parse(";; select 1 ; ; select 2;\n-- done\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 2 {
		t.Fatalf("got %d statements, want 2", len(stmts))
	}
	for _, s := range []string{"", " ", ";", " -- only a comment", "/* c */ ;"} {
		stmts, err := Parse(s)
		if err != nil || len(stmts) != 0 {
			t.Errorf("Parse(%q) = %v, %v; want no statements", s, stmts, err)
		}
	}
	// An error in a later statement fails the whole text, pointing into it.
	_, err = Parse("select 1; select 2 +")
	if pe := pgerror.As(err); pe == nil || pe.Position != 21 {
		t.Errorf("got %v, want an error at 21", err)
	}
}

// TestTypeNames checks the canonical names of PostgreSQL's type spellings.
func TestTypeNames(t *testing.T) {
	tests := []struct{ in, want string }{
		{"int", "int4"}, {"integer", "int4"}, {"int4", "int4"}, {"smallint", "int2"}, {"int2", "int2"},
		{"bigint", "int8"}, {"int8", "int8"}, {"real", "float4"}, {"float", "float8"}, {"float(1)", "float4"},
		{"float(24)", "float4"}, {"float(25)", "float8"}, {"float(53)", "float8"}, {"double precision", "float8"},
		{"float8", "float8"}, {"numeric", "numeric"}, {"numeric(10)", "numeric(10)"}, {"numeric(10, 2)", "numeric(10,2)"},
		{"decimal(5,1)", "numeric(5,1)"}, {"dec", "numeric"}, {"boolean", "bool"}, {"bool", "bool"},
		{"text", "text"}, {"varchar", "varchar"}, {"varchar(10)", "varchar(10)"},
		{"character varying(3)", "varchar(3)"}, {"char varying", "varchar"}, {"char", "bpchar(1)"},
		{"character", "bpchar(1)"}, {"char(5)", "bpchar(5)"}, {"nchar(2)", "bpchar(2)"},
		{"national character varying(4)", "varchar(4)"}, {"bpchar", "bpchar"}, {`"char"`, "char"},
		{"bit", "bit(1)"}, {"bit(8)", "bit(8)"}, {"bit varying(8)", "varbit(8)"}, {"varbit", "varbit"},
		{"bytea", "bytea"}, {"date", "date"}, {"time", "time"}, {"time(3)", "time(3)"},
		{"time without time zone", "time"}, {"time with time zone", "timetz"}, {"timetz", "timetz"},
		{"timestamp", "timestamp"}, {"timestamp(6)", "timestamp(6)"}, {"timestamp without time zone", "timestamp"},
		{"timestamp with time zone", "timestamptz"}, {"timestamp(3) with time zone", "timestamptz(3)"},
		{"timestamptz", "timestamptz"}, {"interval", "interval"}, {"interval(3)", "interval(3)"},
		{"interval year", "interval YEAR"}, {"interval year to month", "interval YEAR TO MONTH"},
		{"interval day to second(2)", "interval DAY TO SECOND(2)"}, {"interval second(4)", "interval SECOND(4)"},
		{"uuid", "uuid"}, {"json", "json"}, {"jsonb", "jsonb"}, {"serial", "serial"}, {"bigserial", "bigserial"},
		{"smallserial", "smallserial"}, {"name", "name"}, {"oid", "oid"}, {"regclass", "regclass"},
		{"regtype", "regtype"}, {"regproc", "regproc"}, {"regnamespace", "regnamespace"},
		{"int2vector", "int2vector"}, {"oidvector", "oidvector"}, {"pg_catalog.int4", "pg_catalog.int4"},
		{"int[]", "int4[]"}, {"int[3]", "int4[]"}, {"text[][]", "text[][]"}, {"int array", "int4[]"},
		{"int array[4]", "int4[]"}, {"double", "double"}, {"string", "string"}, {`"MyType"`, `"MyType"`},
	}
	for _, tt := range tests {
		st := parseOne(t, "select x::"+tt.in)
		c := st.(*ast.Select).Body.(*ast.SelectCore).Targets[0].Expr.(*ast.Cast)
		if got := typeName(c.Type); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestKeywordsAsNames checks PostgreSQL's keyword categories at work: words
// that MySQL reserves work as names, PostgreSQL's reserved words do not.
func TestKeywordsAsNames(t *testing.T) {
	ok := []string{
		"create table key (key int, value text, name text, type int, date date, time time, text text, schema int, status int, data int, comment text, year int, month int, position int)",
		"select key, value, name, type, date, time, text, schema, status, comment, year, position from key",
		"select t.select, t.from, t.table from t",
		"select x as select, y as from, z table from t",
		"insert into t (key, value) values (1, 2) on conflict (key) do update set value = excluded.value",
		"select * from public.user u where u.key = 1",
		`select "default", "table" from "select"`,
		"select * from t left join u on true where left(x, 2) = 'ab'",
		"select current_schema, current_schema()",
		"select interval, time, timestamp, coalesce from t",
		"select stream, flow, keys, sequence, struct, business_time from streaming",
	}
	for _, s := range ok {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
	bad := []string{
		"create table default (a int)",
		"select table from t",
		"select x from user",
		"select left from t",
		"create table t (select int)",
	}
	for _, s := range bad {
		if _, err := Parse(s); pgerror.CodeOf(err) != pgerror.SyntaxError {
			t.Errorf("Parse(%q) = %v, want a syntax error", s, err)
		}
	}
}

// TestPositions checks Pos and OpPos: 0-based byte offsets.
func TestPositions(t *testing.T) {
	src := "select é + b::int, -5, x = any(y), c like 'd', 'x'::text from t where a between 1 and 2"
	st := parseOne(t, src).(*ast.Select)
	core := st.Body.(*ast.SelectCore)
	at := func(s string) int {
		i := strings.Index(src, s)
		if i < 0 {
			t.Fatalf("%q not in source", s)
		}
		return i
	}
	bin := core.Targets[0].Expr.(*ast.Binary)
	check := func(name string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %d, want %d", name, got, want)
		}
	}
	check("binary Pos", bin.Pos, at("é"))
	check("binary OpPos", bin.OpPos, at("+"))
	cast := bin.R.(*ast.Cast)
	check("cast Pos", cast.Pos, at("b::"))
	check("cast OpPos", cast.OpPos, at("::"))
	check("negative literal", core.Targets[1].Expr.(*ast.Literal).Pos, at("-5"))
	aa := core.Targets[2].Expr.(*ast.AnyAll)
	check("any Pos", aa.Pos, at("x ="))
	check("any OpPos", aa.OpPos, at("= any"))
	lk := core.Targets[3].Expr.(*ast.Like)
	check("like OpPos", lk.OpPos, at("like"))
	lit := core.Targets[4].Expr.(*ast.Cast).X.(*ast.Literal)
	check("literal in cast", lit.Pos, at("'x'"))
	check("target Pos", core.Targets[1].Pos, at("-5"))
	check("table Pos", core.From[0].(*ast.TableRef).Pos, at("t where"))
	bt := core.Where.(*ast.Between)
	check("between OpPos", bt.OpPos, at("between"))

	// A typed constant points at its type and keeps the string's own place.
	st = parseOne(t, "select timestamp 'x'").(*ast.Select)
	c := st.Body.(*ast.SelectCore).Targets[0].Expr.(*ast.Cast)
	check("typed literal Pos", c.Pos, 7)
	check("typed literal string", c.X.(*ast.Literal).Pos, 17)
}

func TestParseExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"nextval('s'::regclass)", "nextval(('s')::regclass)"},
		{"now()", "now()"},
		{"'x'::text || 'y'", "(('x')::text || 'y')"},
		{"-1", "(-1)"},
		{"CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP"},
		{"(a > 0) and b", "((a > 0) AND b)"},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tt.in, err)
			continue
		}
		if got := render(e); got != tt.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{"", "1 2", "select 1", "1;"} {
		if _, err := ParseExpr(bad); pgerror.CodeOf(err) != pgerror.SyntaxError {
			t.Errorf("ParseExpr(%q) = %v, want a syntax error", bad, err)
		}
	}
}

func TestDatabricksDialect(t *testing.T) {
	sql := "CREATE FLOW f AS AUTO CDC INTO `Target` FROM stream(src) KEYS (`UserId`) " +
		`APPLY AS DELETE WHEN operation = "DELETE" SEQUENCE BY seq`
	stmts, err := ParseWithOptions(sql, Options{Dialect: DialectDatabricks})
	if err != nil {
		t.Fatal(err)
	}
	cf := stmts[0].(*ast.CreateFlow)
	// Backquoted names are case-insensitive, as in Databricks.
	if got := render(cf); got != `CREATE FLOW f AS AUTO CDC INTO target FROM src KEYS (userid) APPLY AS DELETE WHEN (operation = 'DELETE') SEQUENCE BY seq` {
		t.Errorf("got %s", got)
	}
	// The same text in the PostgreSQL dialect: "DELETE" is a quoted name,
	// which the planner may read as a string inside a flow.
	_, err = Parse(sql)
	if pgerror.CodeOf(err) != pgerror.SyntaxError { // the backquotes are operators there
		t.Errorf("got %v", err)
	}
	cf = parseOne(t, `create flow f as auto cdc into t from s keys (id) apply as delete when op = "DELETE" sequence by seq`).(*ast.CreateFlow)
	ref, ok := cf.DeleteWhen.(*ast.Binary).R.(*ast.ColumnRef)
	if !ok || !ref.Quoted || ref.Parts[0] != "DELETE" {
		t.Errorf("got %#v, want a quoted column reference", cf.DeleteWhen.(*ast.Binary).R)
	}
}

func TestCreateFlow(t *testing.T) {
	src := "/* c */ CREATE FLOW apply_cdc COMMENT 'users' AS AUTO CDC ONCE INTO users_current\n" +
		"FROM STREAM(users_cdf) KEYS (userId)\n" +
		"APPLY AS DELETE WHEN operation = 'DELETE'\n" +
		"SEQUENCE BY STRUCT(ts, id)\n" +
		"COLUMNS * EXCEPT (operation)\n" +
		"STORED AS SCD TYPE 2 ; select 1"
	stmts, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	cf := stmts[0].(*ast.CreateFlow)
	want := &ast.CreateFlow{
		Name:             "apply_cdc",
		Comment:          "users",
		Once:             true,
		Target:           ast.QualifiedName{Parts: []string{"users_current"}, Pos: strings.Index(src, "users_current")},
		Source:           ast.QualifiedName{Parts: []string{"users_cdf"}, Pos: strings.Index(src, "users_cdf")},
		Keys:             []string{"userid"},
		SequenceIsStruct: true,
		Columns:          &ast.ColumnSelection{All: true, Columns: []string{"operation"}},
		StoredAs:         "SCD TYPE 2",
		Text:             src[strings.Index(src, "CREATE") : strings.Index(src, "TYPE 2")+6],
		Pos:              strings.Index(src, "CREATE"),
	}
	if cf.Name != want.Name || cf.Comment != want.Comment || cf.Once != want.Once ||
		!reflect.DeepEqual(cf.Target, want.Target) || !reflect.DeepEqual(cf.Source, want.Source) ||
		!reflect.DeepEqual(cf.Keys, want.Keys) || cf.SequenceIsStruct != want.SequenceIsStruct ||
		len(cf.SequenceBy) != 2 || !reflect.DeepEqual(cf.Columns, want.Columns) || cf.StoredAs != want.StoredAs ||
		cf.Text != want.Text || cf.Pos != want.Pos || cf.DeleteWhen == nil {
		t.Errorf("got  %+v\nwant %+v", cf, want)
	}
	clauses := map[string]int{
		"INTO":                 strings.Index(src, "INTO"),
		"FROM":                 strings.Index(src, "FROM"),
		"KEYS":                 strings.Index(src, "KEYS"),
		"APPLY AS DELETE WHEN": strings.Index(src, "APPLY"),
		"SEQUENCE BY":          strings.Index(src, "SEQUENCE"),
		"COLUMNS":              strings.Index(src, "COLUMNS"),
		"STORED AS":            strings.Index(src, "STORED"),
	}
	if !reflect.DeepEqual(cf.Clauses, clauses) {
		t.Errorf("clauses: got %v, want %v", cf.Clauses, clauses)
	}
	// Missing KEYS and SEQUENCE BY are the planner's to report.
	cf = parseOne(t, "create flow f as auto cdc into t from s").(*ast.CreateFlow)
	if cf.Keys != nil || cf.SequenceBy != nil {
		t.Errorf("got %+v", cf)
	}
	// The older spelling names the flow after its target.
	cf = parseOne(t, "APPLY CHANGES INTO LIVE.target FROM STREAM(LIVE.src) KEYS (id) SEQUENCE BY ts").(*ast.CreateFlow)
	if cf.Name != "target" || qname(cf.Target) != "target" || qname(cf.Source) != "src" || cf.Text == "" {
		t.Errorf("got %+v", cf)
	}
	// A change feed source: the function and its arguments, no table.
	for _, tt := range []struct {
		sql, fn string
		args    int
	}{
		{"create flow f as auto cdc into t from stream(cdcdb.table_changes('s', 0)) keys (id) sequence by _commit_version", "cdcdb.table_changes", 2},
		{"create flow f as auto cdc into t from STREAM(table_changes('s', now() - interval '1 day', 5)) keys (id)", "table_changes", 3},
		{"create flow f as auto cdc into t from stream(f()) keys (id)", "f", 0},
	} {
		cf = parseOne(t, tt.sql).(*ast.CreateFlow)
		if cf.Feed == nil || qname(cf.Feed.Func) != tt.fn || len(cf.Feed.Args) != tt.args || len(cf.Source.Parts) != 0 || len(cf.Keys) != 1 {
			t.Errorf("%s: got %+v (feed %+v)", tt.sql, cf, cf.Feed)
		}
	}
	if _, err := Parse("create flow f as auto cdc into t from stream(cdcdb.table_changes('s', 0) keys (id)"); pgerror.CodeOf(err) != pgerror.SyntaxError {
		t.Errorf("unclosed stream(: %v", err)
	}
	// A repeated clause is a syntax error at the repeat.
	for _, tt := range []struct{ sql, clause string }{
		{"create flow f as auto cdc into t from s sequence by a keys (x) sequence by b", "SEQUENCE BY"},
		{"create flow f as auto cdc into t from s columns a columns b", "COLUMNS"},
		{"create flow f as auto cdc into t from s stored as scd type 1 stored as bitemporal", "STORED AS"},
		{"create flow f as auto cdc into t from s apply as delete when x apply as delete when y", "APPLY AS DELETE WHEN"},
	} {
		_, err := Parse(tt.sql)
		pe := pgerror.As(err)
		i := strings.LastIndex(strings.ToUpper(tt.sql), strings.Fields(tt.clause)[0])
		if pe == nil || pe.Code != pgerror.SyntaxError || pe.Message != "clause "+tt.clause+" specified more than once" || pe.Position != i+1 {
			t.Errorf("Parse(%q) = %v (position %d), want the repeat at %d", tt.sql, err, pe.Position, i+1)
		}
	}
}

func TestCreateFlowFromSnapshot(t *testing.T) {
	for _, tt := range []struct{ sql, want string }{
		{"create flow f as auto cdc into t from snapshot (select * from s) keys (id) stored as scd type 2",
			"CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT * FROM s) KEYS (id) STORED AS SCD TYPE 2"},
		{"create flow f as auto cdc into t from snapshot s version by v trigger on update keys (id)",
			"CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT s VERSION BY v TRIGGER ON UPDATE KEYS (id)"},
		{"create flow f as auto cdc into t from snapshot (select * from s where v = (select version from current_snapshot_version())) " +
			"keys (id) with version (select max(v) as version from s)",
			"CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT * FROM s WHERE (v = (SELECT version FROM current_snapshot_version()))) " +
				"WITH VERSION (SELECT max(v) AS version FROM s) KEYS (id)"},
		// A table named snapshot stays a change-event source.
		{"create flow f as auto cdc into t from snapshot keys (id) sequence by v",
			"CREATE FLOW f AS AUTO CDC INTO t FROM snapshot KEYS (id) SEQUENCE BY v"},
	} {
		cf := parseOne(t, tt.sql).(*ast.CreateFlow)
		if got := render(cf); got != tt.want {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tt.sql, got, tt.want)
		}
	}
	for _, tt := range []struct{ sql, msg, at string }{
		{"create flow f as auto cdc into t from snapshot s version by a keys (x) version by b", "clause VERSION BY specified more than once", "version by b"},
		{"create flow f as auto cdc into t from snapshot s trigger on update trigger on update", "clause TRIGGER ON UPDATE specified more than once", "trigger on update"},
		{"create flow f as auto cdc into t from snapshot (select 1) with version (select 1) version by a", "WITH VERSION and VERSION BY cannot be combined", "version by"},
		{"create flow f as auto cdc into t from s keys (x) version by a", "clause VERSION BY is only allowed in a flow FROM SNAPSHOT", "version by"},
	} {
		_, err := Parse(tt.sql)
		pe := pgerror.As(err)
		i := strings.LastIndex(tt.sql, tt.at)
		if pe == nil || pe.Code != pgerror.SyntaxError || pe.Message != tt.msg || pe.Position != i+1 {
			t.Errorf("Parse(%q) = %v, want %q at %d", tt.sql, err, tt.msg, i+1)
		}
	}
}

func TestCreateSchemaInCatalogMain(t *testing.T) {
	stmts, err := ParseWithOptions("CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;", Options{Dialect: DialectDatabricks})
	if err != nil {
		t.Fatal(err)
	}
	if cs := stmts[0].(*ast.CreateSchema); cs.Name != "cdc_tutorial" || !cs.IfNotExists {
		t.Errorf("got %+v", cs)
	}
	_, err = ParseWithOptions("CREATE SCHEMA other.s", Options{Dialect: DialectDatabricks})
	if pe := pgerror.As(err); pe == nil || pe.Code != pgerror.FeatureNotSupported || pe.Position != 15 {
		t.Errorf("got %v", err)
	}
	// PostgreSQL's grammar has no catalog in a schema name.
	if _, err := Parse("CREATE SCHEMA main.s"); pgerror.CodeOf(err) != pgerror.SyntaxError {
		t.Errorf("got %v", err)
	}
}

func TestCreateViewText(t *testing.T) {
	src := "create view v as\n  select a, 'b''c' /* kept */ from t ; select 1"
	cv := parseOne(t, src[:strings.Index(src, ";")]).(*ast.CreateView)
	if want := "select a, 'b''c' /* kept */ from t"; cv.Text != want {
		t.Errorf("got %q, want %q", cv.Text, want)
	}
}

func TestPeriodClauses(t *testing.T) {
	st := parseOne(t, "select * from h for valid_time from $1 to $2 for system_time as of now() as h1 join k for system_time all on true").(*ast.Select)
	j := st.Body.(*ast.SelectCore).From[0].(*ast.Join)
	h := j.Left.(*ast.TableRef)
	if len(h.Periods) != 2 || h.Periods[0].Axis != ast.BusinessTime || h.Periods[0].Op != ast.PeriodFromTo ||
		h.Periods[1].Axis != ast.SystemTime || h.Periods[1].Op != ast.PeriodAsOf || h.Alias.Name != "h1" {
		t.Errorf("got %+v", h)
	}
	if p, ok := h.Periods[0].A.(*ast.Param); !ok || p.Index != 1 {
		t.Errorf("A = %#v", h.Periods[0].A)
	}
	k := j.Right.(*ast.TableRef)
	if len(k.Periods) != 1 || k.Periods[0].Op != ast.PeriodAll {
		t.Errorf("got %+v", k)
	}
	for _, bad := range []string{
		"select * from h for business_time all for valid_time all",
		"select * from h for system_time as of 1 for system_time as of 2",
	} {
		_, err := Parse(bad)
		pe := pgerror.As(err)
		if pe == nil || pe.Code != pgerror.SyntaxError || pe.Position != strings.LastIndex(bad, "for")+1 {
			t.Errorf("Parse(%q) = %v", bad, err)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	for _, src := range []string{
		"select " + strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000),
		"select " + strings.Repeat("- ", 20000) + "1",
		"select 1" + strings.Repeat(" + (1", 20000),
		"select " + strings.Repeat("not ", 20000) + "true",
		"select " + strings.Repeat("array[", 20000) + "1" + strings.Repeat("]", 20000),
		strings.Repeat("(", 20000) + "select 1" + strings.Repeat(")", 20000),
		"select * from " + strings.Repeat("(", 20000) + "t",
		"select * from a" + strings.Repeat(" join a", 20000) + strings.Repeat(" on true", 20000),
		"select " + strings.Repeat("f(", 20000) + strings.Repeat(")", 20000),
		"select " + strings.Repeat("case when x then ", 20000),
	} {
		_, err := Parse(src)
		pe := pgerror.As(err)
		if pe == nil || pe.Code != pgerror.SyntaxError {
			t.Errorf("%.40s...: got %v, want a syntax error", src, err)
		}
	}
	// PostgreSQL 15 parses 9000 nested parentheses; so must we.
	src := "select " + strings.Repeat("(", 9000) + "1" + strings.Repeat(")", 9000)
	if _, err := Parse(src); err != nil {
		t.Errorf("9000 parentheses: %v", err)
	}
}

func TestGroupByEmptySet(t *testing.T) {
	core := parseOne(t, "select count(*) from t group by ()").(*ast.Select).Body.(*ast.SelectCore)
	if core.GroupBy == nil || len(core.GroupBy) != 0 {
		t.Errorf("GROUP BY (): got %#v, want an empty non-nil list", core.GroupBy)
	}
	core = parseOne(t, "select a from t group by (), a, ()").(*ast.Select).Body.(*ast.SelectCore)
	if len(core.GroupBy) != 1 {
		t.Errorf("GROUP BY (), a, (): got %#v", core.GroupBy)
	}
	core = parseOne(t, "select a from t").(*ast.Select).Body.(*ast.SelectCore)
	if core.GroupBy != nil {
		t.Errorf("no GROUP BY: got %#v", core.GroupBy)
	}
}
