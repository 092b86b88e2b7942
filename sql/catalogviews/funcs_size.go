package catalogviews

import (
	"strconv"

	"cdcdb/catalog"
)

// sizePretty is pg_size_pretty, as PostgreSQL 15 computes it: bytes below
// 10 kB, then kB, MB, GB, TB, PB each below 20 * 1024 - 1 of it, halves
// rounded away from zero.
func sizePretty(size int64) string {
	units := []struct {
		name  string
		limit int64
		round bool
		bits  uint
	}{{"bytes", 10 * 1024, false, 0}, {"kB", 20*1024 - 1, true, 10}, {"MB", 20*1024 - 1, true, 20},
		{"GB", 20*1024 - 1, true, 30}, {"TB", 20*1024 - 1, true, 40}, {"PB", 20*1024 - 1, true, 50}}
	for i, u := range units {
		abs := size
		if abs < 0 {
			abs = -abs
		}
		if i == len(units)-1 || abs < u.limit {
			if u.round {
				if size < 0 {
					size = (size - 1) / 2
				} else {
					size = (size + 1) / 2
				}
			}
			return strconv.FormatInt(size, 10) + " " + u.name
		}
		bits := units[i+1].bits - u.bits
		if units[i+1].round {
			bits--
		}
		if u.round {
			bits++
		}
		size /= int64(1) << bits
	}
	return ""
}

// relationParts says which storage spaces a size function counts.
type relationParts struct{ data, history, indexes bool }

// relationSize counts the bytes a relation's keys and values take in
// storage: cdcdb's measure of what PostgreSQL counts in pages.
func relationSize(sess Session, oid uint32, parts relationParts) int64 {
	cat := sess.Catalog()
	spaceBytes := func(name string) int64 {
		sp := sess.Storage().Space(name)
		if sp == nil {
			return 0
		}
		var n int64
		c := sp.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			n += int64(len(k) + len(v))
		}
		return n
	}
	t, ok := cat.TableByOID(oid)
	if !ok {
		for _, tt := range cat.Tables() {
			for _, ix := range tt.Indexes {
				if ix.OID == oid && !ix.Primary {
					return spaceBytes(catalog.IndexSpace(ix.OID))
				}
			}
		}
		return 0
	}
	var n int64
	if parts.data {
		n += spaceBytes(catalog.DataSpace(t.OID))
	}
	if parts.history {
		n += spaceBytes(catalog.HistorySpace(t.OID))
	}
	if parts.indexes {
		for _, ix := range t.Indexes {
			if !ix.Primary {
				n += spaceBytes(catalog.IndexSpace(ix.OID))
			}
		}
	}
	return n
}
