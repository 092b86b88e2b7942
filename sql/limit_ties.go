package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// tiesIter is a limit that, once its count is reached, keeps returning the
// rows that sort equal to the last one counted (FETCH FIRST n ROWS WITH
// TIES), so the cut never splits a group of peers. Its input is sorted by
// keys.
type tiesIter struct {
	limitIter
	keys []sortKey
	env  *eval.Env
	last []types.Value // sort keys of the last row within the limit
	done bool
}

func (it *tiesIter) next() (eval.Row, error) {
	if it.limit < 0 {
		// The count evaluated to NULL, which PostgreSQL refuses here
		// rather than reading it as "no limit".
		return nil, pgerror.New(pgerror.InvalidRowCountInLimit, "row count cannot be null in FETCH FIRST ... WITH TIES clause")
	}
	if it.done {
		return nil, nil
	}
	if it.seen < it.limit {
		r, err := it.limitIter.next()
		if err != nil || r == nil {
			return r, err
		}
		if it.seen == it.limit {
			if it.last, err = it.sortKeys(r); err != nil {
				return nil, err
			}
		}
		return r, nil
	}
	if it.last == nil { // FETCH FIRST 0 ROWS: no row to tie with
		it.done = true
		return nil, nil
	}
	r, err := it.in.next()
	if err != nil || r == nil {
		return nil, err
	}
	k, err := it.sortKeys(r)
	if err != nil {
		return nil, err
	}
	if compareSortKeys(it.keys, it.last, k) != 0 {
		it.done = true
		return nil, nil
	}
	return r, nil
}

func (it *tiesIter) sortKeys(r eval.Row) ([]types.Value, error) {
	it.env.Row = r
	k := make([]types.Value, len(it.keys))
	for i, sk := range it.keys {
		v, err := sk.e.Eval(it.env)
		if err != nil {
			return nil, err
		}
		k[i] = v
	}
	return k, nil
}
