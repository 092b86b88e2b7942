package storage

import "maps"

// spaceMap is a layer's keyspace states by name. A commit publishes a new
// version of the active layer, and copying a map of every keyspace the layer
// touched at each commit would make a commit cost as much as the schema is
// large; so a version is a shared base map plus a small map of the states
// changed since that base was made, folded into a new base once it grows.
// Both maps are immutable once published.
type spaceMap struct {
	base, delta map[string]*spaceState
}

func (m spaceMap) get(name string) *spaceState {
	if st, ok := m.delta[name]; ok {
		return st
	}
	return m.base[name]
}

func (m spaceMap) empty() bool { return len(m.base) == 0 && len(m.delta) == 0 }

// with returns the map with states set (it does not change m).
func (m spaceMap) with(states map[string]*spaceState) spaceMap {
	if len(states) == 0 {
		return m
	}
	if n := len(m.delta) + len(states); n > 32 && n > len(m.base)/8 {
		base := make(map[string]*spaceState, len(m.base)+n)
		maps.Copy(base, m.base)
		maps.Copy(base, m.delta)
		maps.Copy(base, states)
		return spaceMap{base: base}
	}
	delta := make(map[string]*spaceState, len(m.delta)+len(states))
	maps.Copy(delta, m.delta)
	maps.Copy(delta, states)
	return spaceMap{base: m.base, delta: delta}
}

// each calls fn for every keyspace the map has a state of.
func (m spaceMap) each(fn func(name string, st *spaceState)) {
	for name, st := range m.base {
		if _, replaced := m.delta[name]; !replaced {
			fn(name, st)
		}
	}
	for name, st := range m.delta {
		fn(name, st)
	}
}
