package catalogviews

import (
	"cdcdb/catalog"
)

// Schema cdcdb, cdcdb's own system views (cdcdb.flows, cdcdb.storage, ...),
// comes with the server as plpgsql comes with PostgreSQL: it is listed as
// a built-in extension, cdcdb, whose members are the schema and its
// relations. pg_dump dumps neither a built-in extension (its OID is below
// FirstNormalObjectId) nor what belongs to one, so a dump of a cdcdb
// database holds the user's objects only and restores into PostgreSQL or
// cdcdb alike.

const (
	// cdcdbExtensionOID is below FirstNormalObjectId (16384), as a
	// built-in object's is.
	cdcdbExtensionOID = 16382
	pgExtensionOID    = 3079
)

func init() {
	liveCatalogs["pg_extension"] = livePgExtension
}

func livePgExtension(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_extension")
	return []Row{b.Make("oid", uint32(cdcdbExtensionOID), "extname", "cdcdb", "extowner", uint32(superuserOID),
		"extnamespace", uint32(catalog.CdcdbNamespace), "extrelocatable", false, "extversion", "1.0")}, nil
}

// cdcdbExtensionMembers are pg_depend's rows that make schema cdcdb and
// its relations members of extension cdcdb (deptype 'e').
func cdcdbExtensionMembers(b *RowBuilder) []Row {
	member := func(classID, objID uint32) Row {
		return b.Make("classid", classID, "objid", objID, "objsubid", 0, "refclassid", uint32(pgExtensionOID),
			"refobjid", uint32(cdcdbExtensionOID), "refobjsubid", 0, "deptype", "e")
	}
	rows := []Row{member(pgNamespaceOID, uint32(catalog.CdcdbNamespace))}
	for _, st := range systemRelations() {
		if st.schema == "cdcdb" {
			rows = append(rows, member(pgClassOID, st.oid))
		}
	}
	return rows
}
