package sql

import (
	"strings"

	"cdcdb/catalog"
	"cdcdb/sql/ast"
)

// SELECT ... FOR UPDATE (and FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE):
// the rows a transaction reads this way are locked until it ends, as in
// PostgreSQL, so that a read followed by a write of what was read loses no
// update.
//
// A plain locking SELECT of one ordinary table (a select list and WHERE,
// without ORDER BY, LIMIT, DISTINCT, grouping, WITH, NOWAIT, SKIP LOCKED or
// OF) runs in a detached transaction (concurrent.go): it reads the rows
// with their storage keys, as an UPDATE's source does, and locks each one
// it returns; a row another transaction changed since the statement's
// snapshot makes a READ COMMITTED statement run again on the newest state
// (so it returns the new version, as PostgreSQL's re-check does) and
// fails REPEATABLE READ and SERIALIZABLE with 40001. Every lock is
// exclusive: two FOR SHARE readers of one row wait for each other, where
// PostgreSQL lets them share it. Any other locking SELECT takes the writer
// slot to the end of its transaction, which keeps every other writer's
// commit out meanwhile.

// lockingStrength returns the row-locking clause a SELECT's locking text
// starts with, as PostgreSQL names it in errors ("FOR UPDATE"), and false
// when it locks nothing (none, or FOR READ ONLY).
func lockingStrength(locking string) (string, bool) {
	text := strings.ToUpper(strings.Join(strings.Fields(locking), " "))
	for _, s := range []string{"FOR NO KEY UPDATE", "FOR KEY SHARE", "FOR UPDATE", "FOR SHARE"} {
		if strings.HasPrefix(text, s) {
			return s, true
		}
	}
	return "", false
}

// compileLockingSelect plans a plain locking SELECT of one ordinary table
// (see above); nil when the statement is not one, for the general path.
func (pc *planCtx) compileLockingSelect(st *ast.Select) (*compiled, error) {
	upper := strings.ToUpper(st.Locking)
	if st.With != nil || len(st.OrderBy) > 0 || st.Limit != nil || st.Offset != nil ||
		strings.Contains(upper, "NOWAIT") || strings.Contains(upper, "SKIP") || strings.Contains(upper, " OF ") || strings.Count(upper, "FOR ") > 1 {
		return nil, nil
	}
	core, ok := st.Body.(*ast.SelectCore)
	if !ok || core.Distinct || len(core.DistinctOn) > 0 || core.GroupBy != nil || core.Having != nil || len(core.Windows) > 0 || len(core.From) != 1 {
		return nil, nil
	}
	ref, ok := core.From[0].(*ast.TableRef)
	if !ok || len(ref.Periods) > 0 || ref.Only || (ref.Alias != nil && len(ref.Alias.Columns) > 0) {
		return nil, nil
	}
	t, schema, err := pc.lookupTable(ref.Name)
	if err != nil || t.Kind != catalog.KindTable || !keepsCommitHistory(t) || isTempTable(pc.cat, t) || len(pc.cat.FlowsFrom(t.OID)) > 0 {
		return nil, nil // the general path reports the error, or serves it
	}
	alias := ""
	if ref.Alias != nil {
		alias = ref.Alias.Name
	}
	// Bind on a copy of the planning state: a statement this path does not
	// take goes to the general path as if it had never been here.
	trial := *pc
	src, sc, err := trial.dmlSource(t, schema, alias, nil, core.Where, nil)
	if err != nil {
		return nil, nil
	}
	ret, err := trial.bindReturning(core.Targets, sc)
	if err != nil || ret == nil {
		return nil, nil
	}
	*pc = trial
	if err := pc.checkTablePrivilege(t, catalog.PrivSelect); err != nil {
		return nil, err
	}
	if err := pc.checkTablePrivilege(t, catalog.PrivUpdate); err != nil {
		return nil, err
	}
	pc.writing(t)
	keyIdx := len(src.columns()) - 1
	space := catalog.DataSpace(t.OID)
	c := &compiled{access: accessWrite, fields: ret.cols, explainPlan: src,
		run: lockingSelectStatement{table: t.Name, src: src, keyIdx: keyIdx, space: space, ret: ret}}
	return c, nil
}

// lockingSelectStatement is SELECT ... FOR UPDATE/SHARE of one table on
// the concurrent path: it reads the rows and takes each one's row lock,
// waiting for a writer that holds it (rowConflict).
type lockingSelectStatement struct {
	table  string
	src    plan
	keyIdx int
	space  string
	ret    *returning
}

func (s lockingSelectStatement) String() string { return "SELECT ... FOR UPDATE|SHARE on " + s.table }

func (s lockingSelectStatement) exec(x *execCtx, out *resultSink) (string, error) {
	rows, err := drain(x, s.src, nil)
	if err != nil {
		return "", err
	}
	n := 0
	for _, r := range rows {
		if err := x.CheckCancel(); err != nil {
			return "", err
		}
		if err := x.rowConflict(s.space, r[s.keyIdx].([]byte)); err != nil {
			return "", err
		}
		n++
		if err := s.ret.emit(x, out, r[:s.keyIdx]); err != nil {
			return "", err
		}
	}
	return selectTag(n), nil
}
