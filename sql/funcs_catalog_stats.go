package sql

// cdcdb counts no scans, fetches or block reads: the statistics functions
// (catalogviews' funcs_stats.go) answer as PostgreSQL does with counting
// off, which this setting declares.

func init() {
	defineSetting(&settingDef{name: "track_counts", def: "off", readOnly: true,
		desc: "Collects statistics on database activity."})
}
