package pgtests

import (
	"fmt"
	"sync"
	"testing"
)

// Catalog queries from many sessions while another session creates tables:
// each reader sees a consistent catalog (a table is listed with all its
// columns or not at all), and the shared caches of the catalog relations
// hold up under concurrent use.
func TestCatalogQueriesDuringDDL(t *testing.T) {
	s := startServer(t)
	const tables = 20
	writer := connect(t, s.URL())
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	stop := make(chan struct{})
	ctx := testContext(t)
	for r := 0; r < 4; r++ {
		conn := connect(t, s.URL()) // here: t.Fatal only on the test's goroutine
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				var bad int64
				err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_class c
					WHERE c.relname LIKE 'cc%' AND c.relkind = 'r'
					  AND (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0) <> 3`).Scan(&bad)
				if err != nil {
					errs <- err
					return
				}
				if bad != 0 {
					errs <- fmt.Errorf("%d tables listed without all their columns", bad)
					return
				}
			}
		}()
	}
	for i := 0; i < tables; i++ {
		mustExec(t, writer, fmt.Sprintf("CREATE TABLE cc%d (id int PRIMARY KEY, a text, b int)", i))
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := queryInt64s(t, writer, "SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'cc%'"); n[0] != tables {
		t.Fatalf("information_schema.tables lists %d of %d tables", n[0], tables)
	}
}
