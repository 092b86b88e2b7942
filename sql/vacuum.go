package sql

import (
	"sort"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// VACUUM and ANALYZE, which pgbench -i, vacuumdb and migration tools send.
//
// What they do here: cdcdb's storage has no dead row versions for VACUUM to
// reclaim (a replaced version moves to the table's history, kept by design
// and pruned by history_retention; the LSM compacts its runs by itself), and
// its planner keeps no statistics for ANALYZE to refresh (pg_class.reltuples
// stays -1, "never analyzed"). So both check what they are given as
// PostgreSQL does (the tables and columns exist, VACUUM runs outside a
// transaction block, a table the role does not own is skipped with a
// warning) and change nothing. The options that only steer PostgreSQL's
// heap work (FULL, FREEZE, VERBOSE, DISABLE_PAGE_SKIPPING, PARALLEL,
// INDEX_CLEANUP OFF, PROCESS_TOAST OFF, TRUNCATE OFF) are refused rather
// than accepted and ignored; ANALYZE and SKIP_LOCKED (cdcdb takes no table
// locks) are what they say.

// vacuumOptions are the options VACUUM and ANALYZE know, with whether each
// is honoured at a value (nil: every value).
var vacuumOptions = map[string]map[string]func(string) bool{
	"VACUUM": {
		"analyze": nil, "skip_locked": nil,
		"full": isFalse, "freeze": isFalse, "verbose": isFalse, "disable_page_skipping": isFalse,
		"process_toast": isTrue, "truncate": isTrue,
		"index_cleanup": func(v string) bool { return strings.EqualFold(v, "auto") },
		"parallel":      func(string) bool { return false },
	},
	"ANALYZE": {"skip_locked": nil, "verbose": isFalse},
}

func isTrue(v string) bool  { b, ok := boolOption(v); return ok && b }
func isFalse(v string) bool { b, ok := boolOption(v); return ok && !b }

// boolOption reads an option's value as PostgreSQL's defGetBoolean does.
func boolOption(v string) (value, ok bool) {
	switch strings.ToLower(v) {
	case "true", "on", "1", "yes":
		return true, true
	case "false", "off", "0", "no":
		return false, true
	}
	return false, false
}

// vacuum runs VACUUM or ANALYZE.
func (x *execCtx) vacuum(st *ast.Vacuum) error {
	known := vacuumOptions[st.Verb]
	names := make([]string, 0, len(st.Options))
	for name := range st.Options {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		honoured, ok := known[name]
		if !ok {
			pos, ok := st.OptionPos[name]
			if !ok {
				pos = st.Pos
			}
			return pgerror.New(pgerror.SyntaxError, "unrecognized %s option \"%s\"", st.Verb, name).WithPosition(pos + 1)
		}
		value := st.Options[name]
		if name != "index_cleanup" && name != "parallel" {
			if _, ok := boolOption(value); !ok {
				return pgerror.New(pgerror.SyntaxError, "%s requires a Boolean value", name)
			}
		}
		if honoured != nil && !honoured(value) {
			return pgerror.New(pgerror.FeatureNotSupported, "%s option %s is not supported", st.Verb, strings.ToUpper(name)).
				WithHint("cdcdb's storage has no dead row versions to reclaim and compacts itself: VACUUM checks its tables and changes nothing.")
		}
	}
	analyze := st.Verb == "ANALYZE" || isTrue(st.Options["analyze"])
	if b := x.sess.block; st.Verb == "VACUUM" && b != nil && (!b.implicit || b.multiStatement) {
		return pgerror.New(pgerror.ActiveSQLTransaction, "VACUUM cannot run inside a transaction block")
	}
	pc := x.planCtx()
	for _, target := range st.Tables {
		if len(target.Columns) > 0 && !analyze {
			return pgerror.New(pgerror.FeatureNotSupported, "ANALYZE option must be specified when a column list is provided")
		}
		t, _, err := pc.lookupRelation(target.Name)
		if err != nil {
			return err
		}
		for _, c := range target.Columns {
			if _, ok := t.Column(c); !ok {
				return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c, t.Name)
			}
		}
		verb := strings.ToLower(st.Verb)
		if t.Kind == catalog.KindView {
			x.warning(pgerror.Warning, "skipping \"%s\" --- cannot %s non-tables or special system tables", t.Name, verb)
			continue
		}
		if x.checkOwner(t) != nil {
			x.warning(pgerror.Warning, "skipping \"%s\" --- only table or database owner can %s it", t.Name, verb)
		}
	}
	return nil
}

// vacuumStatement is VACUUM or ANALYZE.
type vacuumStatement struct{ st *ast.Vacuum }

func (v vacuumStatement) String() string {
	s := v.st.Verb
	var targets []string
	for _, t := range v.st.Tables {
		target := qualifiedName(t.Name)
		if len(t.Columns) > 0 {
			target += " (" + identList(t.Columns) + ")"
		}
		targets = append(targets, target)
	}
	if len(targets) > 0 {
		s += " " + strings.Join(targets, ", ")
	}
	return s
}

func (v vacuumStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return v.st.Verb, x.vacuum(v.st)
}
