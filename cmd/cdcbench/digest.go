package main

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// digest summarises a result set independently of row order: the row count
// and the sum of a strong hash of each row. Two multisets of rows with the
// same digest are, for any practical purpose, equal; comparing digests lets
// us check million-row targets without sorting them on the servers.
type digest struct {
	rows int64
	sum  uint64
}

func (d digest) String() string { return fmt.Sprintf("%d rows, sum %016x", d.rows, d.sum) }

// digestSeed is fixed for the process: both servers' rows are hashed with it.
var digestSeed = maphash.MakeSeed()

// rowHash hashes a row's text values; NULL is distinguished from every
// string, and each value is length-prefixed so values cannot run together.
func rowHash(vals [][]byte) uint64 {
	var h maphash.Hash
	h.SetSeed(digestSeed)
	var n [9]byte
	for _, v := range vals {
		if v == nil {
			n[0] = 0xff
			h.Write(n[:1])
			continue
		}
		l := len(v)
		n[0] = 0
		for i := 1; i < 9; i++ {
			n[i] = byte(l >> (8 * (i - 1)))
		}
		h.Write(n[:])
		h.Write(v)
	}
	return h.Sum64()
}

// tableDigest runs query with the simple protocol (text results, the same
// text on both servers for the types we use) and digests its rows.
func tableDigest(ctx context.Context, conn *pgx.Conn, query string) (digest, error) {
	var d digest
	rr := conn.PgConn().Exec(ctx, query)
	for rr.NextResult() {
		res := rr.ResultReader()
		for res.NextRow() {
			d.rows++
			d.sum += rowHash(res.Values())
		}
		if _, err := res.Close(); err != nil {
			rr.Close()
			return d, err
		}
	}
	return d, rr.Close()
}

// tableRows returns every row of query as one string per row ("|"
// separated, NULL as ∅), sorted; for explaining a digest mismatch.
func tableRows(ctx context.Context, conn *pgx.Conn, query string) ([]string, error) {
	var out []string
	rr := conn.PgConn().Exec(ctx, query)
	for rr.NextResult() {
		res := rr.ResultReader()
		for res.NextRow() {
			out = append(out, rowText(res.Values()))
		}
		if _, err := res.Close(); err != nil {
			rr.Close()
			return nil, err
		}
	}
	if err := rr.Close(); err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

func rowText(vals [][]byte) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		if v == nil {
			parts[i] = "∅"
		} else {
			parts[i] = string(v)
		}
	}
	return strings.Join(parts, "|")
}

// diffRows lists up to limit rows that only one side has, for an error
// message.
func diffRows(a, b []string, nameA, nameB string, limit int) string {
	var lines []string
	i, j := 0, 0
	for (i < len(a) || j < len(b)) && len(lines) < limit {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			lines = append(lines, "  only in "+nameA+": "+a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			lines = append(lines, "  only in "+nameB+": "+b[j])
			j++
		default:
			i++
			j++
		}
	}
	return strings.Join(lines, "\n")
}

// compareTables checks that query gives the same rows on both connections;
// on a mismatch the error shows the first differing rows.
func compareTables(ctx context.Context, cdc, pg *pgx.Conn, cdcQuery, pgQuery, what string) (digest, error) {
	dc, err := tableDigest(ctx, cdc, cdcQuery)
	if err != nil {
		return dc, fmt.Errorf("%s: reading cdcdb: %v", what, err)
	}
	dp, err := tableDigest(ctx, pg, pgQuery)
	if err != nil {
		return dc, fmt.Errorf("%s: reading PostgreSQL: %v", what, err)
	}
	if dc == dp {
		return dc, nil
	}
	rc, err := tableRows(ctx, cdc, cdcQuery)
	if err != nil {
		return dc, err
	}
	rp, err := tableRows(ctx, pg, pgQuery)
	if err != nil {
		return dc, err
	}
	return dc, fmt.Errorf("%s differ: cdcdb %v, PostgreSQL %v\n%s", what, dc, dp, diffRows(rc, rp, "cdcdb", "PostgreSQL", 12))
}
