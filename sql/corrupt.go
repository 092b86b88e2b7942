package sql

import (
	"errors"
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/storage"
)

// corruptionError is the error a statement reports when storage found the
// data file damaged (storage.CorruptError, whether a read panicked with it
// or a call returned it): XX001, naming the table (index, flow, sequence)
// whose keyspace is damaged as cat knows it, and what storage says is
// damaged in it. Any other error is returned as it is.
func corruptionError(cat *catalog.Snapshot, err error) error {
	var ce *storage.CorruptError
	if !errors.As(err, &ce) {
		if errors.Is(err, storage.ErrCorrupt) {
			return pgerror.New(pgerror.DataCorrupted, "%v", err)
		}
		return err
	}
	what, table := describeKeyspace(cat, ce.Space)
	pe := &pgerror.Error{Code: pgerror.DataCorrupted}
	switch {
	case what == "":
		pe.Message = "the database file is damaged: " + ce.Where()
	default:
		pe.Message = "could not read " + what + ": the database file is damaged: " + ce.Where()
	}
	if table != nil {
		pe.Table = table.Name
		if sc, ok := cat.SchemaByOID(table.Schema); ok {
			pe.Schema = sc.Name
		}
	}
	pe.Hint = "Stop the server and run cdcdb check -data FILE to see all of the damage; restore the file from a backup."
	return pe
}

// describeKeyspace says what keyspace space holds, in the words of a
// message ("" for none), and its table when it is a table's.
func describeKeyspace(cat *catalog.Snapshot, space string) (string, *catalog.Table) {
	if space == "" {
		return "", nil
	}
	if space == catalog.Space {
		return "the catalog", nil
	}
	kind, rest, _ := strings.Cut(space, "/")
	idPart, _, _ := strings.Cut(rest, "/")
	id, err := strconv.ParseUint(idPart, 10, 32)
	if err != nil || cat == nil {
		return strconv.Quote(space), nil
	}
	oid := catalog.OID(id)
	switch kind {
	case "t", "h", "hx", "q":
		if t, ok := cat.TableByOID(oid); ok {
			switch kind {
			case "t":
				return "table " + strconv.Quote(t.Name), t
			case "q":
				return "the sequence of a column of table " + strconv.Quote(t.Name), t
			}
			return "the history of table " + strconv.Quote(t.Name), t
		}
	case "i":
		for _, t := range cat.Tables() {
			for _, ix := range t.Indexes {
				if ix.OID == oid {
					return "index " + strconv.Quote(ix.Name) + " of table " + strconv.Quote(t.Name), t
				}
			}
		}
	case "f":
		for _, f := range cat.Flows() {
			if f.OID == oid {
				return "the state of flow " + strconv.Quote(f.Name), nil
			}
		}
	}
	return strconv.Quote(space), nil
}
