// Command cdcdb runs the cdcdb server: a PostgreSQL-wire-compatible database
// for change data capture with history, keeping everything in one bbolt
// file.
//
//	go run ./cmd/cdcdb                       # 127.0.0.1:5433, data in ./cdcdb.db
//	go run ./cmd/cdcdb -listen 127.0.0.1:0 -data /tmp/x.db -password secret
//	go run ./cmd/cdcdb -tls auto             # TLS with a self-signed cdcdb.db.crt
//	go run ./cmd/cdcdb check -data /tmp/x.db # check a file no server has open
//	go run ./cmd/cdcdb backup -data /tmp/x.db -to /backups/x.db # copy one
//	go run ./cmd/cdcdb -fast-paths-off       # the general paths only
//
// It wires the pieces together (storage, the SQL engine, the wire server),
// handles flags and signals (and makes -tls auto's certificate, tls.go;
// reads -hba-file and the connection limits, connrules.go),
// runs the check subcommand (check.go: storage.CheckFile, reported) and
// the backup subcommand (backup.go: storage's Backup of a file no server
// has open),
// paces the garbage collector for a server's load (gcpace.go), on Linux
// restarts itself once so that Go returns freed memory lazily
// (lazyfree_linux.go), turns the benchmarks' fast paths off on request
// (fastpaths.go: -fast-paths-off names each, and hands the engine's to
// sql.Options and the socket's to wire.Config), and nothing else.
package main
