package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"cdcdb/storage"
)

// runBackup is `cdcdb backup -data FILE -to OUT`: it copies a database file
// no server has open into a new file (storage's Backup, as cdcdb.backup
// does for a running server), read-only, so a file a crash left behind is
// copied with the commits its log holds and is itself left as it was.
func runBackup(args []string, out, errOut io.Writer) int {
	fs := flag.NewFlagSet("cdcdb backup", flag.ContinueOnError)
	fs.SetOutput(errOut)
	data := fs.String("data", "cdcdb.db", "the database file to copy (no server may have it open; for a running server, SELECT cdcdb.backup('/path'))")
	to := fs.String("to", "", "the new file to write: an absolute path that does not exist yet")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: cdcdb backup -data FILE -to OUT")
		fmt.Fprintln(errOut, "Copies a database file no server has open, every table, flow and version of history, into a new file a server can start on.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *to == "" {
		fs.Usage()
		return 2
	}
	db, err := storage.Open(*data, storage.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		if errors.Is(err, storage.ErrTimeout) {
			fmt.Fprintf(errOut, "cdcdb backup: %s is open in a server: back it up with SELECT cdcdb.backup('%s') there\n", *data, *to)
			return 1
		}
		fmt.Fprintf(errOut, "cdcdb backup: cannot open %s: %v\n", *data, err)
		return 1
	}
	defer db.Close()
	stats, err := db.Backup(context.Background(), *to)
	if err != nil {
		fmt.Fprintf(errOut, "cdcdb backup: %v\n", err)
		return 1
	}
	fmt.Fprintf(out, "%s: %d keyspaces, %d entries, %d bytes copied from %s\n", *to, stats.Spaces, stats.Entries, stats.Bytes, *data)
	return 0
}
