// Command cdcbench measures cdcdb against a real PostgreSQL 15 on the same
// machine, in one run, and checks that both computed the same thing; and,
// for system-versioned tables, against MariaDB, which has them.
//
//	go run ./cmd/cdcbench                 # full sizes (tens of minutes on 2 cores)
//	go run ./cmd/cdcbench -quick          # tiny sizes, under two minutes (CI runs this)
//	go run ./cmd/cdcbench -only reads,pgbench -chart /tmp/c.svg
//
// It builds ./cmd/cdcdb (or takes -cdcdb PATH), initdbs a PostgreSQL 15 into
// a temporary directory (as the postgres OS user when run as root, since
// PostgreSQL refuses root) and starts both on loopback with their default
// durability: fsync on every commit. It then runs nine workloads against
// both — SCD TYPE 2 and BITEMPORAL ingest through COPY, time-travel reads,
// the change feed's latest window over a 1x and a 10x history (changes.go;
// PostgreSQL keeps its feed in a trigger-filled change table), pgbench
// point selects, durable single-row commits, transfers from 1, 8 and 32
// clients while one more transaction idles (writers.go), following an upstream
// PostgreSQL of its own (wal_level = logical) through CREATE SOURCE while it
// takes a load (follow.go), and snapshots applied by a FROM SNAPSHOT flow
// (snapshots.go) — and prints medians
// of several repetitions, the ratio cdcdb / PostgreSQL and the goal
// for each figure, and draws the ratios as an SVG chart.
//
// The sysver workload (sysver.go) has MariaDB as its peer: it
// bootstraps a MariaDB (Debian's mariadb-server) into a temporary data
// directory, starts it on loopback with innodb_flush_log_at_trx_commit=1
// (mariadb.go; as root with --user=root) and stops it when the workload
// ends. MariaDB's table is WITH SYSTEM VERSIONING, cdcdb's a plain table
// (cdcdb keeps every table's commit-time history) and PostgreSQL's a plain
// table without history, there only as the floor of what an UPDATE
// costs. Rounds of single-row UPDATEs, each followed by a recorded moment,
// then FOR SYSTEM_TIME AS OF reads at those moments; a reference model
// (each client updates rows of its own, so a round's outcome is fixed)
// holds both sides' answers at every moment before a figure is reported.
// Only this file and mariadb.go speak to MariaDB, through
// go-sql-driver/mysql, which nothing else in the module may import.
//
// Why the PostgreSQL side is written the way it is: the point of cdcdb is that
// users do not have to hand-write out-of-order SCD2 logic. So PostgreSQL gets
// the best set-based SQL we know for the same contract (an indexed event log,
// then per batch a delete-and-rebuild, with window functions, of the stretch
// of each touched key's history that the batch can change; see pg.go), and
// the benchmark refuses to report a figure unless both targets hold exactly
// the same rows. Before measuring anything, that SQL
// is run on the worked examples of the AUTO CDC contract (docs/autocdc.md,
// §4 and the §5 walk-through)
// and compared with the expected tables, and so is cdcdb.
//
// Every comparison is a check, not an assumption: targets are compared by an
// order-independent digest of every row (with a row-by-row diff on mismatch),
// time-travel reads by the rows a sample of queries returns, pgbench by a
// sample of the kv rows, commits by counting the rows that made it. A
// mismatch makes the run fail; figures from a run that failed a check are not
// printed as results.
//
// Both ingest sides are timed warm. Each ingest workload gets one cdcdb
// process and data file, which takes the feed once untimed; each
// repetition then creates the source, the target and the flow, runs the
// timed feed, compares, and drops them (warmUpCdcdb). PostgreSQL keeps one
// cluster for the run, takes the feed once untimed before the first timed
// ingest, and gets a fresh database for each repetition (warmUpPostgres).
// A fresh server of either kind ran its first feed slower than its next.
// cdcdb's peak RSS (VmHWM from /proc) is that server's over the warm-up and
// every repetition; a sampler (residentSampler) reads its RSS every 20 ms
// as well, and the report splits the peak into its anonymous part (the Go
// heap and runtime) and its file part (the data file's pages mapped in),
// with the phase each was reached in logged. The time-travel reads load their small and their grown
// history side by side, each into a cdcdb server and a PostgreSQL database
// of its own, so that every repetition measures both. Pass -cpuprofile DIR
// to start cdcdb with its -pprof flag and save a CPU profile of each
// workload's first repetition, for `go tool pprof`.
//
// Before either server starts, probeDisk measures the disk's durable
// write in the directory their data goes to, and the report shows it
// beside the machine and the load average.
//
// docs/benchmarks.md says how to run it and shows the latest full run
// (-markdown prints its table); docs/findings.md keeps what the runs found:
// every full run, the profiles and traces of each workload, what was tried.
package main
