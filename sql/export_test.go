package sql

// SpoolsJoined reads how many COPY statements stored their source rows
// through a sourceSpool (sourcespool.go).
func SpoolsJoined() int64 { return spoolsJoined.Load() }
