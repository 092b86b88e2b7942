package settings

import (
	"maps"
	"math/rand"
	"strconv"
	"testing"
	"time"
)

// scopeModel is the plain reference for one transaction block's parameter
// scope: per parameter, the value it has now, the value a commit keeps
// (pending, from the last SET), and a stack of both saved at each
// savepoint.
type scopeModel struct {
	atBegin, current map[string]string
	pending          map[string]string // by name; absent: no SET in the block
	saved            []struct{ current, pending map[string]string }
}

func (m *scopeModel) set(ln, v string, local bool) {
	m.current[ln] = v
	if !local {
		m.pending[ln] = v
	}
}

func (m *scopeModel) end(commit bool) map[string]string {
	out := maps.Clone(m.atBegin)
	if commit {
		maps.Copy(out, m.pending)
	}
	return out
}

// TestScopeAgainstModel runs random blocks of SET, SET LOCAL, SAVEPOINT,
// ROLLBACK TO, RELEASE and COMMIT or ROLLBACK over three parameters
// through Changes, RolledBack and Clone as the session uses them, and
// compares every value after every step with scopeModel.
func TestScopeAgainstModel(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	names := []string{"a", "b", "c"}
	for block := 0; block < 2000; block++ {
		values := map[string]string{"a": "0", "b": "0", "c": "0"}
		model := &scopeModel{atBegin: maps.Clone(values), current: maps.Clone(values), pending: map[string]string{}}
		var changes Changes
		type savepoint struct {
			values  map[string]string
			changes Changes
		}
		var savepoints []savepoint
		var trace []string
		for step, ended := 0, false; !ended; step++ {
			op := rng.Intn(10)
			if step > 12 {
				op = 9
			}
			switch {
			case op < 5: // SET or SET LOCAL
				ln, v, local := names[rng.Intn(len(names))], strconv.Itoa(rng.Intn(5)), rng.Intn(2) == 0
				changes.Record(ln, values[ln], v, local)
				values[ln] = v
				model.set(ln, v, local)
				trace = append(trace, map[bool]string{true: "SET LOCAL ", false: "SET "}[local]+ln+"="+v)
			case op == 5: // SAVEPOINT
				savepoints = append(savepoints, savepoint{maps.Clone(values), changes.Clone()})
				model.saved = append(model.saved, struct{ current, pending map[string]string }{maps.Clone(model.current), maps.Clone(model.pending)})
				trace = append(trace, "SAVEPOINT")
			case op == 6 && len(savepoints) > 0: // ROLLBACK TO the latest
				sp := savepoints[len(savepoints)-1]
				maps.Copy(values, RolledBack(values, sp.values))
				changes = sp.changes.Clone()
				ms := model.saved[len(model.saved)-1]
				model.current, model.pending = maps.Clone(ms.current), maps.Clone(ms.pending)
				trace = append(trace, "ROLLBACK TO")
			case op == 7 && len(savepoints) > 0: // RELEASE the latest
				savepoints = savepoints[:len(savepoints)-1]
				model.saved = model.saved[:len(model.saved)-1]
				trace = append(trace, "RELEASE")
			case op >= 8: // COMMIT or ROLLBACK
				commit := op == 9 || rng.Intn(2) == 0
				maps.Copy(values, changes.AtEnd(commit))
				trace = append(trace, map[bool]string{true: "COMMIT", false: "ROLLBACK"}[commit])
				ended = true
				if want := model.end(commit); !maps.Equal(values, want) {
					t.Fatalf("seed %d, block %d: %v leave %v, the model %v", seed, block, trace, values, want)
				}
			}
			if !ended && !maps.Equal(values, model.current) {
				t.Fatalf("seed %d, block %d: after %v values %v, the model %v", seed, block, trace, values, model.current)
			}
		}
	}
}
