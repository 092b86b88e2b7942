package catalogviews

import (
	"strings"

	"cdcdb/catalog"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// The catalog rows of indexes on expressions and partial indexes
// (catalog.ExprIndex, built and enforced by package sql's
// ddl_exprindex.go): pg_class and pg_index rows, pg_get_indexdef's text,
// and their names for regclass.

// exprIndexDef is pg_get_indexdef of an ExprIndex (col > 0: that key's
// text); ok is false when no table has the index.
func exprIndexDef(cat *catalog.Snapshot, oid uint32, col int) (def string, ok bool) {
	for _, t := range cat.Tables() {
		for _, ix := range t.ExprIndexes {
			if ix.OID != oid {
				continue
			}
			keys := make([]string, len(ix.Keys))
			for i, k := range ix.Keys {
				if k.Expr != "" {
					keys[i] = indexKeyText(k.Expr)
				} else if c := t.ColumnByAttnum(k.Attnum); c != nil {
					keys[i] = parse.QuoteIdent(c.Name)
				}
				if col == i+1 {
					if k.Expr != "" {
						return k.Expr, true
					}
					return keys[i], true
				}
				if k.Desc {
					keys[i] += " DESC"
				}
			}
			if col > 0 {
				return "", true
			}
			sc, _ := cat.SchemaByOID(t.Schema)
			unique := ""
			if ix.Unique {
				unique = "UNIQUE "
			}
			def = "CREATE " + unique + "INDEX " + parse.QuoteIdent(ix.Name) + " ON " + parse.QuoteIdent(sc.Name) + "." +
				parse.QuoteIdent(t.Name) + " USING btree (" + strings.Join(keys, ", ") + ")"
			if ix.Predicate != "" {
				def += " WHERE " + parenthesized(ix.Predicate)
			}
			return def, true
		}
	}
	return "", false
}

// exprIndexRows are pg_index rows of the expression indexes: an
// expression's key is 0 in indkey, as in PostgreSQL; indexprs and indpred
// are NULL, as cdcdb keeps no node trees (pg_get_indexdef prints them).
func exprIndexRows(cat *catalog.Snapshot, b *RowBuilder) []Row {
	var rows []Row
	for _, t := range cat.Tables() {
		for _, ix := range t.ExprIndexes {
			n := len(ix.Keys)
			keys := make([]int16, n)
			classes := make([]uint32, n)
			colls := make([]uint32, n)
			opts := make([]int16, n)
			for i, k := range ix.Keys {
				keys[i] = k.Attnum
				if c := t.ColumnByAttnum(k.Attnum); c != nil {
					classes[i] = defaultOpclass(c.Type.OID)
					colls[i] = typeFactsOf(c.Type.OID).collation
				}
				if k.Desc {
					opts[i] = 3
				}
			}
			rows = append(rows, b.Make("indexrelid", ix.OID, "indrelid", t.OID, "indnatts", n, "indnkeyatts", n,
				"indisunique", ix.Unique, "indnullsnotdistinct", false, "indisprimary", false,
				"indisexclusion", false, "indimmediate", true, "indisclustered", false, "indisvalid", true,
				"indcheckxmin", false, "indisready", true, "indislive", true, "indisreplident", false,
				"indkey", int2Vector(keys), "indcollation", oidVector(colls), "indclass", oidVector(classes),
				"indoption", int2Vector(opts)))
		}
	}
	return rows
}

// exprIndexNamed finds an expression index by schema and name, for
// regclass.
func exprIndexNamed(cat *catalog.Snapshot, schema catalog.OID, name string) (catalog.OID, bool) {
	for _, t := range cat.Tables() {
		if t.Schema != schema {
			continue
		}
		for _, ix := range t.ExprIndexes {
			if ix.Name == name {
				return ix.OID, true
			}
		}
	}
	return 0, false
}

// exprIndexByOID finds an expression index's name and schema by OID.
func exprIndexByOID(cat *catalog.Snapshot, oid uint32) (string, catalog.OID, bool) {
	for _, t := range cat.Tables() {
		for _, ix := range t.ExprIndexes {
			if ix.OID == oid {
				return ix.Name, t.Schema, true
			}
		}
	}
	return "", 0, false
}

// indexKeyText is an expression key as pg_get_indexdef prints it: a
// function call as it is, anything else in parentheses.
func indexKeyText(text string) string {
	if e, err := parse.ParseExpr(text); err == nil {
		if _, ok := e.(*ast.FuncCall); ok {
			return text
		}
	}
	return parenthesized(text)
}

// parenthesized is text in parentheses, unless one pair already encloses
// all of it.
func parenthesized(text string) string {
	if strings.HasPrefix(text, "(") {
		depth := 0
		for i, r := range text {
			switch r {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				if i == len(text)-1 {
					return text
				}
				break
			}
		}
	}
	return "(" + text + ")"
}
