package parse

import (
	"reflect"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

func TestParseSourceStatements(t *testing.T) {
	cases := []struct {
		sql  string
		want ast.Statement
	}{
		{`CREATE CONNECTION pg TO POSTGRES (HOST 'h', PORT 5433, USER 'u', PASSWORD 'p', DATABASE 'd', SSL MODE 'require')`,
			&ast.CreateConnection{Name: "pg", Kind: "postgres", Options: []ast.SourceOption{
				{Name: "HOST", Value: "h", Pos: 34, ValuePos: 39},
				{Name: "PORT", Value: "5433", IsNumber: true, Pos: 44, ValuePos: 49},
				{Name: "USER", Value: "u", Pos: 55, ValuePos: 60},
				{Name: "PASSWORD", Value: "p", Pos: 65, ValuePos: 74},
				{Name: "DATABASE", Value: "d", Pos: 79, ValuePos: 88},
				{Name: "SSL MODE", Value: "require", Pos: 93, ValuePos: 102},
			}}},
		{`create source s from postgres connection pg (publication 'pub', slot 'sl') for tables (public.a, b as bee)`,
			&ast.CreateSource{Name: "s", Kind: "postgres", Connection: "pg", Options: []ast.SourceOption{
				{Name: "PUBLICATION", Value: "pub", Pos: 45, ValuePos: 57},
				{Name: "SLOT", Value: "sl", Pos: 64, ValuePos: 69},
			}, Tables: []ast.SourceTable{
				{Upstream: ast.QualifiedName{Parts: []string{"public", "a"}, Pos: 87}},
				{Upstream: ast.QualifiedName{Parts: []string{"b"}, Pos: 97}, As: "bee"},
			}}},
		{`DROP SOURCE IF EXISTS s1, s2`, &ast.Drop{Kind: ast.ObjectSource, IfExists: true,
			Names: []ast.QualifiedName{{Parts: []string{"s1"}, Pos: 22}, {Parts: []string{"s2"}, Pos: 26}}}},
		{`DROP CONNECTION pg`, &ast.Drop{Kind: ast.ObjectConnection, Names: []ast.QualifiedName{{Parts: []string{"pg"}, Pos: 16}}}},
	}
	for _, c := range cases {
		stmts, err := Parse(c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if !reflect.DeepEqual(stmts[0], c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.sql, stmts[0], c.want)
		}
	}
}

func TestParseSourceStatementErrors(t *testing.T) {
	cases := []struct {
		sql, code string
	}{
		{`CREATE CONNECTION pg TO MYSQL (HOST 'h')`, pgerror.SyntaxError},
		{`CREATE CONNECTION pg TO POSTGRES (HOST)`, pgerror.SyntaxError},
		{`CREATE CONNECTION pg TO POSTGRES ()`, pgerror.SyntaxError},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES ()`, pgerror.SyntaxError},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES (a.b.c)`, pgerror.SyntaxError},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p')`, pgerror.SyntaxError},
		{`DROP SOURCE a.b`, pgerror.SyntaxError},
	}
	for _, c := range cases {
		_, err := Parse(c.sql)
		if got := pgerror.CodeOf(err); got != c.code {
			t.Errorf("%s: got %v, want SQLSTATE %s", c.sql, err, c.code)
		}
	}
}
