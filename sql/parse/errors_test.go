package parse

import (
	"testing"

	"cdcdb/pgerror"
)

// TestPostgresErrors compares our errors with PostgreSQL 15's own, for
// texts whose error PostgreSQL raises while parsing (see pgErrorCases;
// each was sent to the reference server to record its code, message and
// position).
func TestPostgresErrors(t *testing.T) {
	for _, tt := range pgErrorCases {
		_, err := Parse(tt.in)
		pe, ok := err.(*pgerror.Error)
		if !ok {
			t.Errorf("Parse(%q) = %v, want %s %q at %d", tt.in, err, tt.code, tt.msg, tt.pos)
			continue
		}
		if pe.Code != tt.code || pe.Message != tt.msg || pe.Position != tt.pos {
			t.Errorf("Parse(%q)\n got  %s %q at %d\n want %s %q at %d", tt.in, pe.Code, pe.Message, pe.Position, tt.code, tt.msg, tt.pos)
		}
	}
}

func TestPostgresAccepts(t *testing.T) {
	for _, s := range pgAcceptedCases {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

// TestOwnErrors covers the errors that are cdcdb's: forms the tree cannot
// hold (0A000 rather than silently dropping a clause) and its own syntax.
func TestOwnErrors(t *testing.T) {
	tests := []struct {
		in, code, msg string
		pos           int
	}{
		{"select 1 into t", "0A000", "SELECT ... INTO is not supported", 10},
		{"select a from t group by rollup (a, ())", "42601", "syntax error at or near \")\"", 38},
		{"select a from t group by cube ()", "42601", "syntax error at or near \")\"", 32},
		{"select * from f() as t(a int)", "0A000", "column definition lists are not supported", 26},
		{"update t set (a, b) = (select 1, 2)", "0A000", "UPDATE ... SET (columns) = (SELECT ...) is not supported", 23},
		{"update t set a[1] = 2", "0A000", "assignment to a subscript or field of a column is not supported", 15},
		{"insert into t overriding system value values (1)", "0A000", "OVERRIDING ... VALUE is not supported", 15},
		{"insert into t values (1) on conflict (a) where a > 0 do nothing", "0A000", "ON CONFLICT with an index predicate is not supported", 42},
		{"delete from t where current of c", "0A000", "WHERE CURRENT OF is not supported", 21},
		{"copy t from '/etc/passwd'", "0A000", "COPY to or from a file or program is not supported", 13},
		{"copy t to program 'ls'", "0A000", "COPY to or from a file or program is not supported", 11},
		{"copy t from stdin where a > 1", "0A000", "COPY ... WHERE is not supported", 19},
		{"copy t from stdin (format csv, format text)", "42601", "conflicting or redundant options", 32},
		{"create table t (id int generated always as (1) stored)", "0A000", "generated columns are not supported", 24},
		{"create table t (a int unique deferrable)", "0A000", "deferrable constraints other than foreign keys are not supported", 30},
		{"create table t (a int references u not deferrable initially deferred)", "42601", "constraint declared INITIALLY DEFERRED must be DEFERRABLE", 51},
		{"create table t (like u)", "0A000", "CREATE TABLE ... (LIKE ...) is not supported", 17},
		{"create table t (a int) partition by range (a)", "0A000", "CREATE TABLE option PARTITION is not supported", 24},
		{"create temp view v as select 1", "0A000", "temporary and recursive views are not supported", 1},
		{"create view v as select 1 with check option", "0A000", "WITH CHECK OPTION is not supported", 27},
		{"create index i on t (a) include (b)", "0A000", "CREATE INDEX ... INCLUDE is not supported", 25},
		{"create schema s authorization bob", "0A000", "CREATE SCHEMA ... AUTHORIZATION is not supported", 17},
		{"alter view v rename to w", "0A000", "ALTER VIEW is not supported", 1},
		{"commit and chain", "0A000", "AND CHAIN is not supported", 8},
		{"with r as (select 1) search depth first by a set o select 1", "0A000", "SEARCH and CYCLE clauses are not supported", 22},
		{"select * from t join u using (a) as j", "0A000", "an alias for JOIN ... USING is not supported", 34},
		{"select * from h for business_time all for valid_time as of 1", "42601", "period clause FOR BUSINESS_TIME specified more than once at or near \"for\"", 39},
		{"create flow f as auto cdc into t from s keys (a) keys (b)", "42601", "clause KEYS specified more than once", 50},
		{"create flow f as auto cdc into t from s stored as scd type 3", "42601", "syntax error at or near \"3\"", 60},
		{"create flow f as auto cdc into t from s apply as upsert when x", "42601", "syntax error at or near \"upsert\"", 50},
		{"create flow f as auto cdc into t from s keys (a) bogus", "42601", "syntax error at or near \"bogus\"", 50},
		{"create flow f as auto cdc into t", "42601", "syntax error at end of input", 33},
		{"select 1 from t where x = $99999999999", "42601", "parameter number too large at or near \"$99999999999\"", 27},
		{"select " + "'é", "42601", "unterminated quoted string at or near \"'é\"", 8},
		{"cluster t", "0A000", "CLUSTER is not supported", 1},
		{"grant bi to bob granted by x", "0A000", "GRANTED BY is not supported", 17},
		{"grant select on t to bob with grant option", "0A000", "WITH GRANT OPTION is not supported", 26},
		{"grant select (a) on t to bob", "0A000", "column privileges are not supported", 14},
		{"grant usage on sequence s to bob", "0A000", "GRANT ON SEQUENCE is not supported", 16},
		{"revoke grant option for select on t from bob", "0A000", "REVOKE GRANT OPTION FOR is not supported", 8},
		{"alter role bob rename to b", "0A000", "ALTER ROLE ... RENAME is not supported", 16},
		{"create role bob bogus", "42601", "syntax error at or near \"bogus\"", 17},
		{"create sequence s logged", "0A000", "sequence option LOGGED is not supported here", 19},
		{"create materialized view v as select 1", "0A000", "CREATE MATERIALIZED VIEW is not supported", 1},
		{"create or replace function f() returns int as 'select 1' language sql", "0A000", "CREATE FUNCTION is not supported", 1},
		{"comment on text search dictionary d is 'x'", "0A000", "COMMENT ON TEXT SEARCH is not supported", 1},
		{"alter table t add primary key using index i", "0A000", "constraints USING INDEX are not supported", 31},
		{"drop function f", "0A000", "DROP FUNCTION is not supported", 1},
		{"alter sequence s rename to t", "0A000", "ALTER SEQUENCE ... RENAME is not supported", 18},
		{"refresh materialized view v", "0A000", "REFRESH MATERIALIZED VIEW is not supported", 1},
		{"create table t (a int) tablespace x", "0A000", "CREATE TABLE option TABLESPACE is not supported", 24},
		{"create temp table t (a int) on commit", "42601", "syntax error at end of input", 38},
		{"INSRT INTO t VALUES (1)", "42601", "syntax error at or near \"INSRT\"", 1},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		pe, ok := err.(*pgerror.Error)
		if !ok {
			t.Errorf("Parse(%q) = %v, want %s %q", tt.in, err, tt.code, tt.msg)
			continue
		}
		if pe.Code != tt.code || pe.Message != tt.msg || pe.Position != tt.pos {
			t.Errorf("Parse(%q)\n got  %s %q at %d\n want %s %q at %d", tt.in, pe.Code, pe.Message, pe.Position, tt.code, tt.msg, tt.pos)
		}
	}
}

// TestErrorHints checks the hints PostgreSQL gives with its errors.
func TestErrorHints(t *testing.T) {
	tests := []struct{ in, hint string }{
		{"select 1 limit 2, 3", "Use separate LIMIT and OFFSET clauses."},
		{`select E'\u12'`, `Unicode escapes must be \uXXXX or \UXXXXXXXX.`},
		{`select U&'\00'`, `Unicode escapes must be \XXXX or \+XXXXXX.`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if pe := pgerror.As(err); pe == nil || pe.Hint != tt.hint {
			t.Errorf("Parse(%q) = %#v, want hint %q", tt.in, err, tt.hint)
		}
	}
}
