package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// memoryBudgetAuto is -memory-budget's default: a share of the memory the
// machine (or the cgroup the server runs in, when it caps less) has.
const memoryBudgetAuto = "auto"

// autoBudgetShare is the part of the machine's memory the budget takes by
// default: the rest is for the storage engine's memtable and block cache,
// the Go runtime's headroom between collections, and the other processes.
const autoBudgetShare = 2

// minAutoBudget is the least default budget, whatever the machine reports.
const minAutoBudget = 256 << 20

// fallbackMemory is taken as the machine's memory where neither
// /proc/meminfo nor a cgroup says it.
const fallbackMemory = 4 << 30

// parseMemoryBudget reads -memory-budget: auto, a size, or off (no
// budget: memory is only counted, and a query may take what the kernel
// gives).
func parseMemoryBudget(s string) (int64, error) {
	if strings.EqualFold(strings.TrimSpace(s), memoryBudgetAuto) {
		return max(machineMemory()/autoBudgetShare, minAutoBudget), nil
	}
	n, err := parseSize("-memory-budget", s, true)
	if err != nil {
		return 0, err
	}
	if n == sizeOff {
		return 0, nil
	}
	return n, nil
}

// machineMemory is the memory this process may use: MemTotal, or the
// cgroup's limit when lower.
func machineMemory() int64 {
	total := memTotal()
	if limit := cgroupLimit(); limit > 0 && (total <= 0 || limit < total) {
		total = limit
	}
	if total <= 0 {
		return fallbackMemory
	}
	return total
}

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cgroupLimit is cgroup v2's memory.max of this process's group (0: none
// or unknown).
func cgroupLimit() int64 {
	b, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0 // "max": no limit
	}
	return n
}
