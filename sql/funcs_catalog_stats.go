package sql

import "cdcdb/sql/settings"

// cdcdb counts no scans, fetches or block reads: the statistics functions
// (catalogviews' funcs_stats.go) answer as PostgreSQL does with counting
// off, which this setting declares.

func init() {
	settings.Define(&settings.Def{Name: "track_counts", Default: "off", Context: settings.ContextInternal,
		Desc: "Collects statistics on database activity."})
}
