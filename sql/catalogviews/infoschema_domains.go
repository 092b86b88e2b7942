package catalogviews

import (
	"strings"
	"sync"

	"cdcdb/catalog"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
	"cdcdb/sql/pgdefs"
	"cdcdb/types"
)

// information_schema's domains (sql_identifier, cardinal_number,
// character_data, yes_or_no, time_stamp), from information_schema.sql. The
// information_schema views' columns are of these domains in pg_attribute,
// as in PostgreSQL (\d information_schema.tables shows them), while result
// columns report the domains' base types, as PostgreSQL reports them to
// clients.

// Domain OIDs: initdb numbers the domains after the information_schema
// namespace; cdcdb gives them the OIDs after its information_schema
// namespace's (13000), and their CHECK constraints the ten after those.
const (
	firstDomainOID           = catalog.InformationSchemaNamespace + 1
	firstDomainConstraintOID = catalog.InformationSchemaNamespace + 11
)

// infoDomain is one information_schema domain, resolved.
type infoDomain struct {
	def       pgdefs.Domain
	oid       uint32
	conOID    uint32
	base      types.T
	collation uint32
}

var (
	infoDomainsOnce sync.Once
	infoDomainList  []*infoDomain
)

// infoDomains resolves the domains' base types once.
func infoDomains(resolver TypeResolver) []*infoDomain {
	infoDomainsOnce.Do(func() {
		for i, d := range pgdefs.InfoSchemaDomains() {
			e, err := parse.ParseExpr("NULL::" + d.Type)
			if err != nil {
				continue
			}
			cast, ok := e.(*ast.Cast)
			if !ok {
				continue
			}
			base, err := resolver.ResolveType(&cast.Type)
			if err != nil {
				continue
			}
			coll := typeFactsOf(base.OID).collation
			if d.Collate == "C" {
				coll = cCollation
			}
			infoDomainList = append(infoDomainList, &infoDomain{def: d, oid: firstDomainOID + uint32(i),
				conOID: firstDomainConstraintOID + uint32(i), base: base, collation: coll})
		}
	})
	return infoDomainList
}

// infoDomainByName and infoDomainByOID find a domain.
func infoDomainByName(resolver TypeResolver, name string) *infoDomain {
	for _, d := range infoDomains(resolver) {
		if d.def.Name == name {
			return d
		}
	}
	return nil
}

func infoDomainByOID(resolver TypeResolver, oid uint32) *infoDomain {
	for _, d := range infoDomains(resolver) {
		if d.oid == oid {
			return d
		}
	}
	return nil
}

// domainTypeName prints a domain as format_type does: qualified unless
// information_schema is on the search path (always without a session).
func domainTypeName(sess Session, d *infoDomain) string {
	if sess != nil && schemaVisible(sess, "information_schema") {
		return d.def.Name
	}
	return "information_schema." + d.def.Name
}

// infoSchemaColumnDefs keeps each information_schema view's column
// definitions, for their domains.
var infoSchemaColumnDefs = map[string][]pgdefs.Column{}

// domainDefault prints a domain's default as PostgreSQL stores its text:
// the SQL-standard functions (CURRENT_TIMESTAMP(2)) upper-case.
func domainDefault(d *infoDomain) types.Value {
	if d.def.Default == "" {
		return nil
	}
	if e, err := parse.ParseExpr(d.def.Default); err == nil {
		if _, ok := e.(*ast.SpecialFunc); ok {
			return strings.ToUpper(d.def.Default)
		}
	}
	return d.def.Default
}

// domainTypeRows are the domains' pg_type rows.
func domainTypeRows(resolver TypeResolver, b *RowBuilder) []Row {
	var rows []Row
	for _, d := range infoDomains(resolver) {
		f := typeFactsOf(d.base.OID)
		info, _ := types.Lookup(d.base.OID)
		base := StaticRowByOID("pg_type", int64(d.base.OID))
		out, send := int64(0), int64(0)
		if base != nil {
			tb := CatalogRowBuilder("pg_type")
			out, _ = base[tb.Col("typoutput")].(int64)
			send, _ = base[tb.Col("typsend")].(int64)
		}
		rows = append(rows, b.Make("oid", d.oid, "typname", d.def.Name, "typnamespace", catalog.InformationSchemaNamespace,
			"typowner", superuserOID, "typlen", f.len, "typbyval", info.ByVal, "typtype", "d",
			"typcategory", string(info.Category), "typispreferred", false, "typisdefined", true, "typdelim", ",",
			"typrelid", 0, "typsubscript", 0, "typelem", 0, "typarray", 0,
			"typinput", 2597, "typoutput", out, "typreceive", 2598, "typsend", send, // domain_in, domain_recv
			"typmodin", 0, "typmodout", 0, "typanalyze", 0, "typalign", f.align, "typstorage", f.storage,
			"typnotnull", false, "typbasetype", uint32(d.base.OID), "typtypmod", d.base.Typmod, "typndims", 0,
			"typcollation", d.collation, "typdefault", domainDefault(d)))
	}
	return rows
}

// domainConstraintRows are the domains' CHECK constraints.
func domainConstraintRows(resolver TypeResolver, b *RowBuilder) []Row {
	var rows []Row
	for _, d := range infoDomains(resolver) {
		if d.def.CheckName == "" {
			continue
		}
		rows = append(rows, b.Make("oid", d.conOID, "conname", d.def.CheckName,
			"connamespace", catalog.InformationSchemaNamespace, "contype", "c", "condeferrable", false,
			"condeferred", false, "convalidated", true, "conrelid", 0, "contypid", d.oid, "conindid", 0,
			"conparentid", 0, "confrelid", 0, "confupdtype", " ", "confdeltype", " ", "confmatchtype", " ",
			"conislocal", true, "coninhcount", 0, "connoinherit", false, "conbin", d.def.Check))
	}
	return rows
}

// domainConstraintDef is pg_get_constraintdef of a domain's CHECK: its
// expression over VALUE, printed as ruleutils prints it.
func domainConstraintDef(d *infoDomain, pretty bool) string {
	t := &catalog.Table{Columns: []catalog.Column{{Name: "value", Type: d.base, Attnum: 1}}}
	p := &rulePrinter{t: t, pretty: pretty, domainValue: true}
	if e, err := parse.ParseExpr(d.def.Check); err == nil {
		if s, _, ok := p.expr(e, 0); ok {
			return "CHECK (" + s + ")"
		}
	}
	return "CHECK (" + d.def.Check + ")"
}
