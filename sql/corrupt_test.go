package sql_test

import (
	"context"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
	"cdcdb/storage"
)

// TestACorruptReadNamesTheTable: a storage read that finds the file damaged
// (a panic with a storage.CorruptError naming the keyspace) fails the
// statement with XX001 naming the table the keyspace holds, with the
// table in the error's fields and what storage found damaged in it.
func TestACorruptReadNamesTheTable(t *testing.T) {
	d := sqltest.Open(t)
	c := d.Conn()
	c.MustExec("CREATE TABLE orders (i int)")
	c.MustExec("INSERT INTO orders SELECT g FROM generate_series(1, 10) AS g")
	oid := c.MustExec("SELECT 'orders'::regclass::oid").Rows[0][0]
	sess := newSession(t, d)
	portal := bindQuery(t, sess, "SELECT i FROM orders")
	w := &panickingWriter{panicWith: &storage.CorruptError{Space: "t/" + oid, Run: 12, Block: 3, Detail: "fails its checksum"}}
	_, _, err := portal.Execute(context.Background(), 0, w)
	pe := pgerror.As(err)
	if err == nil || pe.Code != pgerror.DataCorrupted || pe.Table != "orders" || pe.Schema != "public" ||
		!strings.Contains(pe.Message, `could not read table "orders"`) || !strings.Contains(pe.Message, "run 12, block 3: fails its checksum") {
		t.Fatalf("Execute that met a damaged block: %#v", pe)
	}
}
