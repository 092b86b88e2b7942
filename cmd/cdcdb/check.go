package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"cdcdb/storage"
)

// Exit statuses of cdcdb check.
const (
	checkClean     = 0 // no damage found
	checkDamaged   = 1 // damage found
	checkCannotRun = 2 // bad arguments, or the file could not be checked
)

// runCheck is `cdcdb check -data FILE`: it checks a whole database file no
// server has open (storage.CheckFile) and says what it found, on out.
func runCheck(args []string, out, errOut io.Writer) int {
	fs := flag.NewFlagSet("cdcdb check", flag.ContinueOnError)
	fs.SetOutput(errOut)
	data := fs.String("data", "cdcdb.db", "the database file to check (no server may have it open)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: cdcdb check -data FILE")
		fmt.Fprintln(errOut, "Checks every page, block, run, keyspace record and log record of a database file no server has open, and reports any damage.")
		fmt.Fprintln(errOut, "Exit status: 0 no damage found, 1 damage found, 2 the file could not be checked.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return checkCannotRun
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return checkCannotRun
	}
	report, err := storage.CheckFile(*data)
	if err != nil {
		fmt.Fprintf(errOut, "cdcdb check: cannot check %s: %v\n", *data, err)
		return checkCannotRun
	}
	if report.Unreadable {
		fmt.Fprintf(out, "%s: the damage below keeps what it holds from being read\n", report.File)
	} else {
		fmt.Fprintf(out, "%s: %d keyspaces, %d runs in %d blocks, %d commits in the log not yet checkpointed\n",
			report.File, report.Keyspaces, report.Runs, report.Blocks, report.LogRecords)
	}
	if report.OrphanBlocks > 0 {
		fmt.Fprintf(out, "%d blocks of runs a crash cut short (the next start removes them)\n", report.OrphanBlocks)
	}
	if len(report.Problems) == 0 {
		fmt.Fprintln(out, "no damage found")
		return checkClean
	}
	fmt.Fprintf(out, "DAMAGED: %d problems found:\n", len(report.Problems))
	for _, p := range report.Problems {
		var ce *storage.CorruptError
		if errors.As(p, &ce) {
			fmt.Fprintf(out, "  %s\n", ce.What())
		} else {
			fmt.Fprintf(out, "  %v\n", p)
		}
	}
	return checkDamaged
}
