package sql_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestDeferredForeignKeyMatchesModel: random transactions of writes to a
// parent and a child joined by a DEFERRABLE INITIALLY DEFERRED foreign key
// (NO ACTION) commit exactly when the rows they leave satisfy the key, as
// PostgreSQL's checks at commit decide; a committed transaction leaves the
// model's rows, a refused one the rows before it. Some transactions move
// the check with SET CONSTRAINTS ... IMMEDIATE in their middle, or roll
// back to a savepoint, and the model follows. The seed is printed.
func TestDeferredForeignKeyMatchesModel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 9))
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE mp (id int PRIMARY KEY)")
	c.MustExec("CREATE TABLE mc (id int PRIMARY KEY, pid int REFERENCES mp DEFERRABLE INITIALLY DEFERRED)")
	parents, children := map[int]bool{}, map[int]int{} // committed state
	valid := func(p map[int]bool, ch map[int]int) bool {
		for _, pid := range ch {
			if !p[pid] {
				return false
			}
		}
		return true
	}
	state := func() string {
		ps := strings.TrimSpace(c.MustExec("SELECT id FROM mp ORDER BY id").String())
		cs := strings.TrimSpace(c.MustExec("SELECT id || ':' || pid FROM mc ORDER BY id").String())
		return ps + " / " + cs
	}
	render := func(p map[int]bool, ch map[int]int) string {
		var ps, cs []string
		pk := make([]int, 0, len(p))
		for k := range p {
			pk = append(pk, k)
		}
		slices.Sort(pk)
		for _, k := range pk {
			ps = append(ps, fmt.Sprint(k))
		}
		ck := make([]int, 0, len(ch))
		for k := range ch {
			ck = append(ck, k)
		}
		slices.Sort(ck)
		for _, k := range ck {
			cs = append(cs, fmt.Sprintf("%d:%d", k, ch[k]))
		}
		return strings.Join(ps, "\n") + " / " + strings.Join(cs, "\n")
	}
	for round := 0; round < 120; round++ {
		p, ch := map[int]bool{}, map[int]int{}
		for k, v := range parents {
			p[k] = v
		}
		for k, v := range children {
			ch[k] = v
		}
		var log []string
		exec := func(sql string) error {
			log = append(log, sql)
			_, err := c.Exec(sql)
			return err
		}
		if err := exec("BEGIN"); err != nil {
			t.Fatal(err)
		}
		failed := false
		var saved *[2]map[int]int // parents (as 0/1) and children at the savepoint
		for step := 0; step < 1+rng.IntN(6) && !failed; step++ {
			switch op := rng.IntN(8); {
			case op == 0 && len(p) < 6:
				id := rng.IntN(6)
				if p[id] {
					continue
				}
				p[id] = true
				failed = exec(fmt.Sprintf("INSERT INTO mp VALUES (%d)", id)) != nil
			case op == 1:
				id := rng.IntN(6)
				delete(p, id)
				failed = exec(fmt.Sprintf("DELETE FROM mp WHERE id = %d", id)) != nil
			case op <= 3:
				id := rng.IntN(8)
				if _, ok := ch[id]; ok {
					continue
				}
				ch[id] = rng.IntN(6)
				failed = exec(fmt.Sprintf("INSERT INTO mc VALUES (%d, %d)", id, ch[id])) != nil
			case op == 4:
				id := rng.IntN(8)
				if _, ok := ch[id]; !ok {
					continue
				}
				ch[id] = rng.IntN(6)
				failed = exec(fmt.Sprintf("UPDATE mc SET pid = %d WHERE id = %d", ch[id], id)) != nil
			case op == 5:
				id := rng.IntN(8)
				delete(ch, id)
				failed = exec(fmt.Sprintf("DELETE FROM mc WHERE id = %d", id)) != nil
			case op == 6 && saved == nil:
				s := [2]map[int]int{{}, {}}
				for k := range p {
					s[0][k] = 1
				}
				for k, v := range ch {
					s[1][k] = v
				}
				saved = &s
				failed = exec("SAVEPOINT s") != nil
			case op == 6:
				p, ch = map[int]bool{}, map[int]int{}
				for k := range saved[0] {
					p[k] = true
				}
				for k, v := range saved[1] {
					ch[k] = v
				}
				failed = exec("ROLLBACK TO SAVEPOINT s") != nil
			case op == 7:
				// Everything so far must hold now; later writes are
				// checked at commit again.
				err := exec("SET CONSTRAINTS ALL IMMEDIATE")
				if (err == nil) != valid(p, ch) {
					t.Fatalf("round %d: SET CONSTRAINTS ALL IMMEDIATE gave %v with rows %s\n%s", round, err, render(p, ch), strings.Join(log, "\n"))
				}
				failed = err != nil
				if err == nil {
					failed = exec("SET CONSTRAINTS ALL DEFERRED") != nil
				}
			}
		}
		if failed {
			if _, err := c.Exec("ROLLBACK"); err != nil {
				t.Fatal(err)
			}
		} else {
			_, err := c.Exec("COMMIT")
			if (err == nil) != valid(p, ch) {
				t.Fatalf("round %d: COMMIT gave %v with rows %s\n%s", round, err, render(p, ch), strings.Join(log, "\n"))
			}
			if err == nil {
				parents, children = p, ch
			}
		}
		if got, want := state(), render(parents, children); got != want {
			t.Fatalf("round %d: rows %q, want %q\n%s", round, got, want, strings.Join(log, "\n"))
		}
	}
}
