package sql

import (
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/sql/settings"
	"cdcdb/types"
)

// Statistics functions behind pg_stat_all_tables, pg_statio_all_tables and
// pg_stat_all_indexes. cdcdb counts no scans, fetches or block reads, so it
// declares track_counts off and answers as PostgreSQL does with counting
// off: zero counters and NULL times. The live row count is real: it is
// counted from storage.

func init() {
	settings.Define(&settings.Def{Name: "track_counts", Default: "off", Context: settings.ContextInternal,
		Desc: "Collects statistics on database activity."})
	zero := &builtins.Func{Resolve: builtins.Signature(types.Int8, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return int64(0), nil
	}}
	for _, name := range []string{"pg_stat_get_numscans", "pg_stat_get_tuples_returned", "pg_stat_get_tuples_fetched",
		"pg_stat_get_tuples_inserted", "pg_stat_get_tuples_updated", "pg_stat_get_tuples_deleted",
		"pg_stat_get_tuples_hot_updated", "pg_stat_get_dead_tuples", "pg_stat_get_mod_since_analyze",
		"pg_stat_get_ins_since_vacuum", "pg_stat_get_vacuum_count", "pg_stat_get_autovacuum_count",
		"pg_stat_get_analyze_count", "pg_stat_get_autoanalyze_count", "pg_stat_get_blocks_fetched",
		"pg_stat_get_blocks_hit", "pg_stat_get_xact_numscans", "pg_stat_get_xact_tuples_returned",
		"pg_stat_get_xact_tuples_fetched", "pg_stat_get_xact_tuples_inserted", "pg_stat_get_xact_tuples_updated",
		"pg_stat_get_xact_tuples_deleted", "pg_stat_get_xact_tuples_hot_updated"} {
		builtins.Register(name, zero)
	}
	never := &builtins.Func{Resolve: builtins.Signature(types.Timestamptz, types.Oid), Strict: true, Call: func(eval.Context, []types.Value) (types.Value, error) {
		return nil, nil
	}}
	for _, name := range []string{"pg_stat_get_last_vacuum_time", "pg_stat_get_last_autovacuum_time",
		"pg_stat_get_last_analyze_time", "pg_stat_get_last_autoanalyze_time", "pg_stat_get_lastscan"} {
		builtins.Register(name, never)
	}
	builtins.Register("pg_stat_get_live_tuples", &builtins.Func{Resolve: builtins.Signature(types.Int8, types.Oid), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		t, ok := x.catalogOf().TableByOID(uint32(a[0].(int64)))
		if !ok || t.Kind == catalog.KindView {
			return int64(0), nil
		}
		sp := x.tx.st.Space(catalog.DataSpace(t.OID))
		if sp == nil {
			return int64(0), nil
		}
		return int64(sp.Count()), nil
	}})
	builtins.Register("pg_sequence_last_value", &builtins.Func{Resolve: builtins.Signature(types.Int8, types.Regclass), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		if s, ok := catalogviews.SequenceByOID(x.catalogOf(), uint32(a[0].(int64))); ok {
			return sequenceLastValue(x, s), nil
		}
		return nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a sequence", catalogviews.QualifiedRelationName(x.catalogViews(), uint32(a[0].(int64))))
	}})
}

// sequenceLastValue is pg_sequence_last_value: the last value drawn, or
// NULL before the first.
func sequenceLastValue(x *execCtx, s catalogviews.SerialSequence) types.Value {
	sp := x.tx.st.Space(sequenceSpace(s.Table.OID, s.Column.Attnum))
	if sp == nil || sp.Sequence() == 0 {
		return nil
	}
	return int64(sp.Sequence())
}
