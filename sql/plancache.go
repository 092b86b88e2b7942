package sql

import (
	"encoding/binary"

	"cdcdb/sql/parse"
	"cdcdb/types"
)

// planCache keeps a session's recently planned queries by their text, so a
// client that sends the same text again (the unnamed statement pgbench -M
// extended and many drivers parse before every execution, or a repeated
// simple Query) is neither parsed nor planned again.
//
// The cache belongs to one session, not to the engine: a plan is then only
// ever used by the goroutine that made it, and everything planning reads
// from the session (search_path, the time zone literals are read in, the
// dialect) is that session's own. What else a plan depends on is the
// catalog it was planned against, and the cache checks that on every hit;
// see planEnv. The one thing no hit can check is the clock: a plan that
// read a literal as the current time ('now'::timestamptz, 'today'::date,
// FOR SYSTEM_TIME AS OF 'now') holds the moment it was planned, where
// PostgreSQL, planning each simple Query and unnamed Parse afresh, reads
// the clock again; such a plan (compiled.readsClock) is never cached, by
// text or as a generic plan.
type planCache struct {
	entries map[planKey]*planEntry
	// The entries form a ring in use order: newest is the one used last,
	// newest.older the one before it, and so on round to newest.newer, the
	// one used longest ago, which is evicted when the cache is full.
	newest *planEntry
}

// planCacheSize bounds a session's cache. Clients repeat a few statements
// many times; a client that never repeats one (pgbench -M simple spells
// each key out) only churns the cache, and a bounded cache keeps that cheap.
const planCacheSize = 128

// planKey is what a statement's text and Parse message say.
type planKey struct {
	text string
	// paramTypes holds the parameter type OIDs declared at Parse, four
	// bytes each (0: to be inferred), since they steer planning.
	paramTypes string
	// numbers marks the key of a generic plan (plancache_numbers.go):
	// text is then a rewritten text, and paramTypes its constants' types.
	numbers bool
}

func newPlanKey(text string, paramTypes []uint32) planKey {
	k := planKey{text: text}
	if len(paramTypes) > 0 {
		b := make([]byte, 0, 4*len(paramTypes))
		for _, o := range paramTypes {
			b = binary.BigEndian.AppendUint32(b, o)
		}
		k.paramTypes = string(b)
	}
	return k
}

// planEnv is everything besides the text that planning a query reads: the
// catalog (by generation, which changes with every edit, committed or not,
// so neither DDL nor a rollback of it can leave a plan for objects that are
// gone) and the session state name resolution and literals depend on.
type planEnv struct {
	catVersion, catGen uint64
	dialect            parse.Dialect
	searchPath         string
	user               string
	timeZone           string
}

func (s *Session) planEnv(catVersion, catGen uint64) planEnv {
	return planEnv{
		catVersion: catVersion,
		catGen:     catGen,
		dialect:    s.dialect(),
		searchPath: s.settings["search_path"],
		user:       s.currentRoleName(),
		timeZone:   s.settings["timezone"],
	}
}

type planEntry struct {
	key      planKey
	env      planEnv
	src      parsedStmt
	declared []types.T
	c        *compiled
	// For a numbers key, c is nil until the generic plan is made (the
	// rewritten text was seen once), and noGeneric is set when there is
	// none to make.
	noGeneric    bool
	older, newer *planEntry
}

// get returns the plan cached for key if it was made in env.
func (pc *planCache) get(key planKey, env planEnv) (*planEntry, bool) {
	e, ok := pc.entries[key]
	if !ok {
		return nil, false
	}
	if e.env != env {
		// Planned against another catalog or settings: useless now, and
		// likely to be replaced by the plan the caller makes next.
		pc.remove(e)
		return nil, false
	}
	pc.touch(e)
	return e, true
}

// put caches a plan, evicting the least recently used one if full. A plan
// that read the clock is refused; it reports whether c was kept.
func (pc *planCache) put(key planKey, env planEnv, src parsedStmt, declared []types.T, c *compiled) bool {
	if c != nil && c.readsClock {
		return false
	}
	if pc.entries == nil {
		pc.entries = make(map[planKey]*planEntry)
	}
	if old, ok := pc.entries[key]; ok {
		pc.remove(old)
	}
	if len(pc.entries) >= planCacheSize {
		pc.remove(pc.newest.newer)
	}
	e := &planEntry{key: key, env: env, src: src, declared: declared, c: c}
	pc.entries[key] = e
	pc.link(e)
	return true
}

// clear drops every plan.
func (pc *planCache) clear() {
	pc.entries = nil
	pc.newest = nil
}

func (pc *planCache) touch(e *planEntry) {
	if pc.newest == e {
		return
	}
	pc.unlink(e)
	pc.link(e)
}

func (pc *planCache) remove(e *planEntry) {
	delete(pc.entries, e.key)
	pc.unlink(e)
}

// link makes e the newest entry.
func (pc *planCache) link(e *planEntry) {
	if pc.newest == nil {
		e.older, e.newer = e, e
	} else {
		oldest := pc.newest.newer
		e.older, e.newer = pc.newest, oldest
		pc.newest.newer = e
		oldest.older = e
	}
	pc.newest = e
}

func (pc *planCache) unlink(e *planEntry) {
	if e.newer == e {
		pc.newest = nil
	} else {
		e.older.newer = e.newer
		e.newer.older = e.older
		if pc.newest == e {
			pc.newest = e.older
		}
	}
	e.older, e.newer = nil, nil
}
