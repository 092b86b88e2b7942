package sql

import (
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/sql/spill"
	"cdcdb/types"
)

// What aggregation keeps in memory, accounted to the memory budget: each
// group (its keys, its states), the inputs a DISTINCT or ORDER BY
// aggregate buffers, and the states that grow with their input
// (array_agg, string_agg, the JSON aggregates, the ordered-set ones that
// keep every value). count, sum, min and the like hold a fixed size.

// groupOverhead is what a group costs beyond its keys: the map entry, the
// group struct, and a state per aggregate.
const groupOverhead = 96

const stateOverhead = 48

// growingBufferCost is what n more bytes of a growing buffer's capacity
// cost: twice n, since the buffer's next growth copies it into one
// bigger (a quarter bigger, for a big slice) while it is still held.
func growingBufferCost(n int64) int64 { return 2 * n }

// interfaceSlot is a types.Value's slot in a slice.
const interfaceSlot = builtins.ValueSlotBytes

// aggStateGrowth returns how an aggregate's state grows with one row's
// arguments beyond what its HeldBytes says (for array_agg, the elements'
// own bytes), or nil for an aggregate whose state does not grow.
func aggStateGrowth(name string) func(args []types.Value) int64 {
	switch name {
	case "string_agg", "mode":
		return nil // string_agg's buffer is its HeldBytes; mode keeps two values
	case "array_agg":
		return func(args []types.Value) int64 { return spill.ValueSize(args[0]) }
	case "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg",
		"percentile_cont", "percentile_disc", "json_agg_strict", "jsonb_agg_strict":
		// Their parts' slices double too: a slot counts twice.
		return func(args []types.Value) int64 {
			var n int64
			for _, a := range args {
				n += 2*interfaceSlot + spill.ValueSize(a)
			}
			return n
		}
	}
	return nil
}

// groupCost is what a new group of the given keys and key text costs.
func groupCost(keys eval.Row, key string, aggs int) int64 {
	return spill.RowSize(keys) + int64(len(key)) + groupOverhead + int64(aggs)*stateOverhead
}
