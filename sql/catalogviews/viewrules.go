package catalogviews

import "cdcdb/catalog"

// Each view's "_RETURN" rewrite rule, as PostgreSQL keeps a view's query:
// pg_rewrite lists it, and pg_depend says the rule depends on every
// relation the view reads, which is how pg_dump orders a view after what
// it reads. What a view reads comes from the planner (Session.ViewReads).

// pgRewriteOID is pg_rewrite's OID, pg_depend's classid for a rule.
const pgRewriteOID = 2618

// viewRuleOID gives a view's "_RETURN" rule an OID: derived from the view,
// so stable, in attrdefOID's range with an attnum (2047) no column has
// (PostgreSQL allows 1600), so no OID of the catalog's or of a column
// default is the same.
func viewRuleOID(view catalog.OID) uint32 { return attrdefOID(view, 0x7ff) }

func init() {
	liveCatalogs["pg_rewrite"] = livePgRewrite
}

// livePgRewrite lists each view's "_RETURN" rule. ev_qual and ev_action
// are "<>", PostgreSQL's text of an empty node tree: cdcdb keeps no query
// trees (pg_get_viewdef prints the query).
func livePgRewrite(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_rewrite")
	var rows []Row
	for _, t := range sess.Catalog().Tables() {
		if t.Kind != catalog.KindView {
			continue
		}
		rows = append(rows, b.Make("oid", viewRuleOID(t.OID), "rulename", "_RETURN", "ev_class", t.OID,
			"ev_type", "1", "ev_enabled", "O", "is_instead", true, "ev_qual", "<>", "ev_action", "<>"))
	}
	return rows, nil
}

// viewRuleDepends are the pg_depend rows of the views' rules: each rule
// depends (normal) on every relation its view reads.
func viewRuleDepends(sess Session, b *RowBuilder) []Row {
	var rows []Row
	for _, t := range sess.Catalog().Tables() {
		if t.Kind != catalog.KindView {
			continue
		}
		for _, rel := range sess.ViewReads(t) {
			rows = append(rows, b.Make("classid", pgRewriteOID, "objid", viewRuleOID(t.OID), "objsubid", 0,
				"refclassid", pgClassOID, "refobjid", rel, "refobjsubid", 0, "deptype", "n"))
		}
	}
	return rows
}
