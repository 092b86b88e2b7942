module cdcdb

go 1.26.8

require (
	github.com/cockroachdb/apd/v3 v3.2.3
	github.com/go-sql-driver/mysql v1.11.0
	github.com/jackc/pglogrepl v0.0.0-20251213150135-2e8d0df862c1
	github.com/jackc/pgx/v5 v5.12.0
	github.com/lib/pq v1.12.3
	go.etcd.io/bbolt v1.5.0
	golang.org/x/sys v0.45.0
	golang.org/x/text v0.41.0
)

require (
	filippo.io/edwards25519 v1.2.0 // indirect
	github.com/jackc/pgio v1.0.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
)
