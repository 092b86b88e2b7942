package main

import "testing"

func TestParseMemoryBudget(t *testing.T) {
	auto, err := parseMemoryBudget("auto")
	if err != nil {
		t.Fatal(err)
	}
	if auto < minAutoBudget || auto > machineMemory() {
		t.Fatalf("auto budget %d: want between %d and the machine's %d", auto, minAutoBudget, machineMemory())
	}
	for _, c := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "256MiB", want: 256 << 20},
		{in: "1GiB", want: 1 << 30},
		{in: "off", want: 0},
		{in: "AUTO", want: auto},
		{in: "0", bad: true},
		{in: "-1MiB", bad: true},
		{in: "lots", bad: true},
	} {
		got, err := parseMemoryBudget(c.in)
		if c.bad {
			if err == nil {
				t.Fatalf("-memory-budget %q: accepted as %d", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Fatalf("-memory-budget %q: got %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}
