package pgtests

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestExplainUsesIndexes shows over the wire that the planner reads
// secondary indexes and primary keys: filters with an equality or a range
// on an indexed column, and joins on an indexed column, say so in EXPLAIN,
// and the answers through the index are the ones a full scan gives.
func TestExplainUsesIndexes(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	for _, stmt := range []string{
		`CREATE TABLE people (id int PRIMARY KEY, name text, age int, city text)`,
		`INSERT INTO people SELECT g, 'p' || g, 18 + g % 60, 'city' || (g % 7) FROM generate_series(1, 2000) AS g`,
		`CREATE INDEX people_age_idx ON people (age)`,
		`CREATE INDEX people_city_name_idx ON people (city, name)`,
		`CREATE TABLE visits (id serial PRIMARY KEY, person_id int REFERENCES people, day date)`,
		`INSERT INTO visits (person_id, day) SELECT g % 2000 + 1, DATE '2024-01-01' + g % 30 FROM generate_series(1, 3000) AS g`,
		`CREATE INDEX visits_person_idx ON visits (person_id)`,
	} {
		mustExec(t, conn, stmt)
	}
	for _, c := range []struct {
		name, query string
		want        []string // each must appear in the plan, in order
	}{
		{"equality", `SELECT id FROM people WHERE age = 30`,
			[]string{"Index Scan using people_age_idx on people"}},
		{"range", `SELECT count(*) FROM people WHERE age >= 60 AND age < 63`,
			[]string{"Aggregate", "Index Scan using people_age_idx on people"}},
		{"between", `SELECT id FROM people WHERE age BETWEEN 20 AND 21`,
			[]string{"Index Scan using people_age_idx on people"}},
		{"leading column and range on the next", `SELECT id FROM people WHERE city = 'city3' AND name > 'p5'`,
			[]string{"Index Scan using people_city_name_idx on people"}},
		{"IN list", `SELECT count(*) FROM people WHERE age IN (20, 21, 22)`,
			[]string{"Index Scan using people_age_idx on people"}},
		{"primary key range", `SELECT name FROM people WHERE id > 1990`,
			[]string{"Index Scan using people_pkey on people"}},
		{"join on a primary key", `SELECT count(*) FROM visits v JOIN people p ON p.id = v.person_id WHERE v.day = DATE '2024-01-05'`,
			[]string{"Nested Loop", "Seq Scan on visits", "Index Scan using people_pkey on people"}},
		{"join on a secondary index", `SELECT p.name, v.day FROM people p JOIN visits v ON v.person_id = p.id WHERE p.age = 30`,
			[]string{"Nested Loop", "Index Scan using people_age_idx on people", "Index Scan using visits_person_idx on visits"}},
		{"left join on a secondary index", `SELECT p.id, count(v.id) FROM people p LEFT JOIN visits v ON v.person_id = p.id WHERE p.city = 'city1' GROUP BY p.id`,
			[]string{"Nested Loop Left Join", "Index Scan using people_city_name_idx on people", "Index Scan using visits_person_idx on visits"}},
		{"comma join with the equality in WHERE", `SELECT count(*) FROM people p, visits v WHERE v.person_id = p.id AND p.age = 41`,
			[]string{"Nested Loop", "Index Scan using people_age_idx on people", "Index Scan using visits_person_idx on visits"}},
		{"no usable index", `SELECT id FROM people WHERE name = 'p7'`,
			[]string{"Seq Scan on people"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := strings.Join(queryStrings(t, conn, "EXPLAIN "+c.query), "\n")
			at := 0
			for _, w := range c.want {
				i := strings.Index(plan[at:], w)
				if i < 0 {
					t.Fatalf("EXPLAIN %s\nwant %q (after what came before) in the plan:\n%s", c.query, w, plan)
				}
				at += i + len(w)
			}
			if strings.Contains(c.name, "no usable") && strings.Contains(plan, "Index Scan") {
				t.Fatalf("EXPLAIN %s uses an index it cannot:\n%s", c.query, plan)
			}
		})
	}

	// The same answers with and without the indexes.
	queries := []string{
		`SELECT id FROM people WHERE age = 30 ORDER BY id`,
		`SELECT count(*) FROM people WHERE age >= 60 AND age < 63`,
		`SELECT id FROM people WHERE age > 76 OR age < 19 ORDER BY id`,
		`SELECT id FROM people WHERE age IN (20, 77, 20, NULL) ORDER BY id`,
		`SELECT id FROM people WHERE city = 'city3' AND name > 'p5' ORDER BY id`,
		`SELECT p.id, v.id FROM people p JOIN visits v ON v.person_id = p.id WHERE p.age = 30 ORDER BY 1, 2`,
		`SELECT p.id, count(v.id) FROM people p LEFT JOIN visits v ON v.person_id = p.id WHERE p.city = 'city1' GROUP BY p.id ORDER BY 1`,
	}
	withIndex := make([]string, len(queries))
	for i, q := range queries {
		withIndex[i] = strings.Join(queryStrings(t, conn, q), ",")
	}
	mustExec(t, conn, `DROP INDEX people_age_idx`)
	mustExec(t, conn, `DROP INDEX people_city_name_idx`)
	mustExec(t, conn, `DROP INDEX visits_person_idx`)
	for i, q := range queries {
		if got := strings.Join(queryStrings(t, conn, q), ","); got != withIndex[i] {
			t.Errorf("%s\nthrough the index: %s\nby scanning:       %s", q, withIndex[i], got)
		}
	}
}

// queryStrings runs a query and returns its rows in PostgreSQL's text
// form, each row's columns joined by "|" (NULL as "NULL").
func queryStrings(t testing.TB, conn *pgx.Conn, sql string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), statementTimeout)
	defer cancel()
	results, err := conn.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var out []string
	for _, r := range results {
		for _, row := range r.Rows {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = "NULL"
				if v != nil {
					cells[i] = string(v)
				}
			}
			out = append(out, strings.Join(cells, "|"))
		}
	}
	return out
}
