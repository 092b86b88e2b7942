package main

import (
	"fmt"
	"sort"
	"strings"
)

// settingFlags collects -c name=value, as postgres takes them: the server's
// default of a run-time parameter for every session. The names and values
// are checked by the SQL engine, which knows the parameters.
type settingFlags struct {
	values map[string]string
}

func (f *settingFlags) String() string {
	if f == nil || len(f.values) == 0 {
		return ""
	}
	parts := make([]string, 0, len(f.values))
	for k, v := range f.values {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func (f *settingFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("want name=value, not %q", s)
	}
	if f.values == nil {
		f.values = map[string]string{}
	}
	f.values[strings.ToLower(name)] = value
	return nil
}
