// Package pgserver runs database servers for end-to-end tests: the cdcdb
// binary (built once, started on 127.0.0.1:0 with its data file in a temporary
// directory, stopped, killed and restarted at will) and a real PostgreSQL 15
// (initdb into a temporary directory, started with pg_ctl) to compare against,
// or, for the tests of source/, to follow (halted, cleanly or as a crash, and
// started again on its port with Halt and StartAgain).
// It also finds the psql client.
//
// It must not know anything about SQL or the wire protocol: it starts and
// stops processes and tells where to connect. Tests talk to the servers with
// real clients (pgx, lib/pq, psql).
//
// Data passes one way: a test asks for a server, gets its address and DSNs,
// and the server is stopped when the test ends (t.Cleanup), with its stderr
// logged when the test failed.
//
// cmd/cdcbench starts its PostgreSQL here too (StartPostgresWith, keeping
// PostgreSQL's default settings where the tests turn fsync off), so the
// benchmark and the tests set the server up in one way.
package pgserver
