package source

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// The upstream schema of the workload tests. items has a column of every
// common type, a TOASTed text (big, stored out of line uncompressed so
// that updates leave it unsent) and the default replica identity (deletes
// carry the key only); app.accounts has a two-column key, REPLICA
// IDENTITY FULL and TOASTed notes; ignored is published but not followed.
// Triggers write every change, in order, into audit tables, which are not
// published: they are what the source must equal.
const workloadSchema = `
CREATE TABLE public.items (
	id bigint PRIMARY KEY,
	i2 smallint, i4 integer, n numeric, t text, vc varchar(20), b boolean,
	d date, ts timestamp, tstz timestamptz, u uuid, j jsonb, by bytea,
	ia integer[], ta text[], big text);
ALTER TABLE public.items ALTER COLUMN big SET STORAGE EXTERNAL;
CREATE SCHEMA app;
CREATE TABLE app.accounts (region text, id integer, balance numeric(12,2), note text, PRIMARY KEY (region, id));
ALTER TABLE app.accounts ALTER COLUMN note SET STORAGE EXTERNAL;
ALTER TABLE app.accounts REPLICA IDENTITY FULL;
CREATE TABLE public.ignored (id integer PRIMARY KEY, v text);

CREATE SCHEMA audit;
CREATE SEQUENCE audit.seq;
CREATE TABLE audit.items (seq bigint, xid bigint, op text, at_lsn pg_lsn,
	id bigint, i2 smallint, i4 integer, n numeric, t text, vc varchar(20), b boolean,
	d date, ts timestamp, tstz timestamptz, u uuid, j jsonb, by bytea,
	ia integer[], ta text[], big text);
CREATE TABLE audit.accounts (seq bigint, xid bigint, op text, at_lsn pg_lsn,
	region text, id integer, balance numeric(12,2), note text);
CREATE FUNCTION audit.record() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE
	row_sql text := 'INSERT INTO audit.%I SELECT nextval(''audit.seq''), txid_current(), %L, pg_current_wal_insert_lsn(), ($1).*';
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		EXECUTE format('INSERT INTO audit.%I (seq, xid, op, at_lsn) VALUES (nextval(''audit.seq''), txid_current(), ''T'', pg_current_wal_insert_lsn())', TG_TABLE_NAME);
		RETURN NULL;
	END IF;
	IF TG_OP = 'UPDATE' THEN
		EXECUTE format(row_sql, TG_TABLE_NAME, 'UO') USING OLD;
		EXECUTE format(row_sql, TG_TABLE_NAME, 'UN') USING NEW;
	ELSIF TG_OP = 'DELETE' THEN
		EXECUTE format(row_sql, TG_TABLE_NAME, 'D') USING OLD;
	ELSE
		EXECUTE format(row_sql, TG_TABLE_NAME, 'I') USING NEW;
	END IF;
	RETURN NULL;
END $f$;
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON public.items FOR EACH ROW EXECUTE FUNCTION audit.record();
CREATE TRIGGER audit_truncate AFTER TRUNCATE ON public.items FOR EACH STATEMENT EXECUTE FUNCTION audit.record();
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON app.accounts FOR EACH ROW EXECUTE FUNCTION audit.record();
CREATE TRIGGER audit_truncate AFTER TRUNCATE ON app.accounts FOR EACH STATEMENT EXECUTE FUNCTION audit.record();
CREATE PUBLICATION pub FOR TABLE public.items, app.accounts, public.ignored;
`

// workloadTables are the tables a workload source follows.
var workloadTables = []TableRef{
	{Schema: "public", Table: "items"},
	{Schema: "app", Table: "accounts", As: "accounts_src"},
}

// followedTables say, for the verifier, where each source table comes
// from and where its audit is.
var workloadFollowed = []followedTable{
	{source: "items", upstream: "public.items", audit: "audit.items", key: []string{"id"}},
	{source: "accounts_src", upstream: "app.accounts", audit: "audit.accounts", key: []string{"region", "id"}, wholeOldRow: true},
}

// column is a workload column and the value it takes.
type column struct {
	name string
	kind string // what workload.value makes
	cast string // the SQL type to cast a parameter to
}

var itemColumns = []column{
	{"id", "id", "bigint"}, {"i2", "int2", "smallint"}, {"i4", "int4", "integer"}, {"n", "numeric", "numeric"},
	{"t", "text", "text"}, {"vc", "varchar", "varchar(20)"}, {"b", "bool", "boolean"}, {"d", "date", "date"},
	{"ts", "timestamp", "timestamp"}, {"tstz", "timestamptz", "timestamptz"}, {"u", "uuid", "uuid"},
	{"j", "jsonb", "jsonb"}, {"by", "bytea", "bytea"}, {"ia", "int4[]", "integer[]"}, {"ta", "text[]", "text[]"},
	{"big", "big", "text"},
}

type accountKey struct {
	region string
	id     int
}

// keySet is a set that picks a random member in constant time.
type keySet[K comparable] struct {
	keys []K
	pos  map[K]int
}

func newKeySet[K comparable]() keySet[K] { return keySet[K]{pos: map[K]int{}} }

func (s keySet[K]) clone() keySet[K] {
	c := keySet[K]{keys: append([]K(nil), s.keys...), pos: make(map[K]int, len(s.pos))}
	for k, v := range s.pos {
		c.pos[k] = v
	}
	return c
}

func (s *keySet[K]) add(k K) {
	if _, ok := s.pos[k]; !ok {
		s.pos[k] = len(s.keys)
		s.keys = append(s.keys, k)
	}
}

func (s *keySet[K]) remove(k K) {
	i, ok := s.pos[k]
	if !ok {
		return
	}
	last := s.keys[len(s.keys)-1]
	s.keys[i] = last
	s.pos[last] = i
	s.keys = s.keys[:len(s.keys)-1]
	delete(s.pos, k)
}

func (s *keySet[K]) has(k K) bool { _, ok := s.pos[k]; return ok }

func (s *keySet[K]) random(rng *rand.Rand) (K, bool) {
	var zero K
	if len(s.keys) == 0 {
		return zero, false
	}
	return s.keys[rng.IntN(len(s.keys))], true
}

// workload makes random transactions upstream, knowing which keys exist.
type workload struct {
	rng  *rand.Rand
	conn *pgconn.PgConn
	ctx  context.Context

	items    keySet[int64]
	accounts keySet[accountKey]
	nextID   int64
	cols     []column // items' columns now

	// Within a transaction: the key sets as it changes them, and as they
	// were at its savepoint.
	pendingItems, savedItems       keySet[int64]
	pendingAccounts, savedAccounts keySet[accountKey]

	// done counts transactions; the one-time schema changes and
	// truncates happen at fixed fractions of total.
	done, total int
	stats       map[string]int
}

func newWorkload(ctx context.Context, rng *rand.Rand, conn *pgconn.PgConn, total int) *workload {
	return &workload{
		ctx: ctx, rng: rng, conn: conn, total: total,
		items: newKeySet[int64](), accounts: newKeySet[accountKey](),
		nextID: 1, cols: append([]column(nil), itemColumns...),
		stats: map[string]int{},
	}
}

// exec runs one statement with text parameters (nil: NULL).
func (w *workload) exec(sql string, args ...*string) ([][]*string, error) {
	params := make([][]byte, len(args))
	for i, a := range args {
		if a != nil {
			params[i] = []byte(*a)
		}
	}
	rr := w.conn.ExecParams(w.ctx, sql, params, nil, nil, nil)
	var out [][]*string
	for rr.NextRow() {
		r := make([]*string, len(rr.Values()))
		for i, v := range rr.Values() {
			if v != nil {
				s := string(v)
				r[i] = &s
			}
		}
		out = append(out, r)
	}
	_, err := rr.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", firstLine(sql), err)
	}
	return out, nil
}

func (w *workload) simple(sql string) error {
	_, err := w.conn.Exec(w.ctx, sql).ReadAll()
	if err != nil {
		return fmt.Errorf("%s: %w", firstLine(sql), err)
	}
	return nil
}

func str(s string) *string { return &s }

// load fills the tables before the source starts: its snapshot's rows.
func (w *workload) load(items, accounts int) error {
	w.begin()
	if err := w.simple("BEGIN"); err != nil {
		return err
	}
	if err := w.copyItems(items); err != nil {
		return err
	}
	for range accounts {
		if err := w.insertAccount(); err != nil {
			return err
		}
	}
	return w.commit()
}

func (w *workload) begin() {
	w.pendingItems, w.pendingAccounts = w.items.clone(), w.accounts.clone()
}

func (w *workload) commit() error {
	if err := w.simple("COMMIT"); err != nil {
		return err
	}
	w.items, w.accounts = w.pendingItems, w.pendingAccounts
	return nil
}

// step runs the next random transaction.
func (w *workload) step() error {
	w.done++
	w.begin()
	if err := w.simple("BEGIN"); err != nil {
		return err
	}
	columns := len(w.cols)
	if err := w.body(); err != nil {
		return err
	}
	// A transaction that changed the schema commits: w.cols follows it.
	if len(w.cols) == columns && w.rng.IntN(25) == 0 {
		w.stats["rolled back"]++
		return w.simple("ROLLBACK")
	}
	return w.commit()
}

// body is one transaction's statements.
func (w *workload) body() error {
	at := func(fraction float64) bool { return w.done == int(fraction*float64(w.total)) }
	switch {
	case at(0.25):
		w.stats["add column"]++
		if err := w.simple("ALTER TABLE public.items ADD COLUMN extra text; ALTER TABLE audit.items ADD COLUMN extra text"); err != nil {
			return err
		}
		w.cols = append(w.cols, column{"extra", "text", "text"})
		return w.insertItem()
	case at(0.45):
		// A DEFAULT: upstream's existing rows take 7 without being written.
		w.stats["add column with default"]++
		if err := w.simple("ALTER TABLE public.items ADD COLUMN flag integer DEFAULT 7; ALTER TABLE audit.items ADD COLUMN flag integer"); err != nil {
			return err
		}
		w.cols = append(w.cols, column{"flag", "int4", "integer"})
		return w.updateItem()
	case at(0.6):
		w.stats["truncate"]++
		if err := w.insertItem(); err != nil {
			return err
		}
		if err := w.simple("TRUNCATE public.items"); err != nil {
			return err
		}
		w.pendingItems = newKeySet[int64]()
		return w.copyItems(50 + w.rng.IntN(100))
	case at(0.8):
		w.stats["truncate"]++
		if err := w.updateAccount(); err != nil {
			return err
		}
		if err := w.simple("TRUNCATE app.accounts"); err != nil {
			return err
		}
		w.pendingAccounts = newKeySet[accountKey]()
		for range 5 {
			if err := w.insertAccount(); err != nil {
				return err
			}
		}
		return nil
	}
	switch r := w.rng.IntN(100); {
	case r < 4:
		w.stats["bulk copy"]++
		return w.copyItems(100 + w.rng.IntN(500))
	case r < 8:
		w.stats["bulk update"]++
		return w.bulkUpdate()
	case r < 10:
		w.stats["bulk key change"]++
		return w.bulkKeyChange()
	case r < 12:
		w.stats["bulk delete"]++
		return w.bulkDelete()
	case r < 16:
		w.stats["ignored only"]++
		return w.touchIgnored()
	case r < 21:
		w.stats["savepoint"]++
		return w.savepoints()
	case r < 30:
		w.stats["medium"]++
		return w.ops(10 + w.rng.IntN(40))
	default:
		w.stats["small"]++
		return w.ops(1 + w.rng.IntN(5))
	}
}

func (w *workload) ops(n int) error {
	for range n {
		var err error
		switch r := w.rng.IntN(100); {
		case r < 22:
			err = w.insertItem()
		case r < 45:
			err = w.updateItem()
		case r < 52:
			err = w.changeItemKey()
		case r < 60:
			err = w.deleteItem()
		case r < 70:
			err = w.insertAccount()
		case r < 82:
			err = w.updateAccount()
		case r < 86:
			err = w.changeAccountKey()
		case r < 92:
			err = w.deleteAccount()
		default:
			err = w.touchIgnored()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// savepoints runs statements, some of them rolled back to a savepoint:
// those must never reach the source.
func (w *workload) savepoints() error {
	if err := w.ops(1 + w.rng.IntN(3)); err != nil {
		return err
	}
	if err := w.simple("SAVEPOINT s"); err != nil {
		return err
	}
	w.savedItems, w.savedAccounts = w.pendingItems.clone(), w.pendingAccounts.clone()
	if err := w.ops(1 + w.rng.IntN(5)); err != nil {
		return err
	}
	if w.rng.IntN(2) == 0 {
		if err := w.simple("ROLLBACK TO SAVEPOINT s"); err != nil {
			return err
		}
		w.pendingItems, w.pendingAccounts = w.savedItems, w.savedAccounts
	}
	return w.ops(1 + w.rng.IntN(3))
}

func (w *workload) newItemID() int64 {
	id := w.nextID
	w.nextID += 1 + int64(w.rng.IntN(3))
	return id
}

func (w *workload) itemRow(id int64) []*string {
	row := make([]*string, len(w.cols))
	row[0] = str(strconv.FormatInt(id, 10))
	for i, c := range w.cols[1:] {
		row[i+1] = w.value(c.kind)
	}
	return row
}

func (w *workload) insertItem() error {
	id := w.newItemID()
	names, params := make([]string, len(w.cols)), make([]string, len(w.cols))
	for i, c := range w.cols {
		names[i] = quoteIdent(c.name)
		params[i] = fmt.Sprintf("$%d::%s", i+1, c.cast)
	}
	_, err := w.exec(fmt.Sprintf("INSERT INTO public.items (%s) VALUES (%s)", strings.Join(names, ", "), strings.Join(params, ", ")), w.itemRow(id)...)
	w.pendingItems.add(id)
	return err
}

// updateItem sets some columns of an item, often leaving its TOASTed big
// value alone (which pgoutput then does not send).
func (w *workload) updateItem() error {
	id, ok := w.pendingItems.random(w.rng)
	if !ok {
		return w.insertItem()
	}
	var sets []string
	var args []*string
	for _, c := range w.cols[1:] {
		if w.rng.IntN(4) != 0 || (c.kind == "big" && w.rng.IntN(3) != 0) {
			continue
		}
		args = append(args, w.value(c.kind))
		sets = append(sets, fmt.Sprintf("%s = $%d::%s", quoteIdent(c.name), len(args), c.cast))
	}
	if len(sets) == 0 {
		sets = append(sets, "i4 = coalesce(i4, 0) + 1")
	}
	args = append(args, str(strconv.FormatInt(id, 10)))
	_, err := w.exec(fmt.Sprintf("UPDATE public.items SET %s WHERE id = $%d", strings.Join(sets, ", "), len(args)), args...)
	return err
}

func (w *workload) changeItemKey() error {
	id, ok := w.pendingItems.random(w.rng)
	if !ok {
		return w.insertItem()
	}
	to := w.newItemID()
	sets := "id = $1"
	if w.rng.IntN(2) == 0 {
		sets += ", t = 'moved'"
	}
	_, err := w.exec("UPDATE public.items SET "+sets+" WHERE id = $2", str(strconv.FormatInt(to, 10)), str(strconv.FormatInt(id, 10)))
	w.pendingItems.remove(id)
	w.pendingItems.add(to)
	return err
}

func (w *workload) deleteItem() error {
	id, ok := w.pendingItems.random(w.rng)
	if !ok {
		return nil
	}
	_, err := w.exec("DELETE FROM public.items WHERE id = $1", str(strconv.FormatInt(id, 10)))
	w.pendingItems.remove(id)
	return err
}

// copyItems inserts n items with COPY, which PostgreSQL writes as
// multi-row WAL records: many changes at one WAL position.
func (w *workload) copyItems(n int) error {
	names := make([]string, len(w.cols))
	for i, c := range w.cols {
		names[i] = quoteIdent(c.name)
	}
	var data strings.Builder
	for range n {
		id := w.newItemID()
		for i, v := range w.itemRow(id) {
			if i > 0 {
				data.WriteByte('\t')
			}
			if v == nil {
				data.WriteString(`\N`)
			} else {
				data.WriteString(strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(*v))
			}
		}
		data.WriteByte('\n')
		w.pendingItems.add(id)
	}
	_, err := w.conn.CopyFrom(w.ctx, strings.NewReader(data.String()), fmt.Sprintf("COPY public.items (%s) FROM STDIN", strings.Join(names, ", ")))
	if err != nil {
		return fmt.Errorf("COPY items: %w", err)
	}
	return nil
}

func (w *workload) bulkUpdate() error {
	m := 8 + w.rng.IntN(20)
	_, err := w.exec("UPDATE public.items SET i4 = coalesce(i4, 0) + 1, b = NOT coalesce(b, false) WHERE id % $1 = $2",
		str(strconv.Itoa(m)), str(strconv.Itoa(w.rng.IntN(m))))
	return err
}

// bulkKeyChange moves many items to new keys in one statement, above
// every key there is so that no two collide.
func (w *workload) bulkKeyChange() error {
	offset := w.nextID + 1_000_000
	m := 10 + w.rng.IntN(20)
	rows, err := w.exec("UPDATE public.items SET id = id + $1 WHERE id % $2 = $3 RETURNING id",
		str(strconv.FormatInt(offset, 10)), str(strconv.Itoa(m)), str(strconv.Itoa(w.rng.IntN(m))))
	if err != nil {
		return err
	}
	for _, r := range rows {
		to, _ := strconv.ParseInt(*r[0], 10, 64)
		w.pendingItems.remove(to - offset)
		w.pendingItems.add(to)
		w.nextID = max(w.nextID, to+1)
	}
	return nil
}

func (w *workload) bulkDelete() error {
	m := 8 + w.rng.IntN(20)
	rows, err := w.exec("DELETE FROM public.items WHERE id % $1 = $2 RETURNING id", str(strconv.Itoa(m)), str(strconv.Itoa(w.rng.IntN(m))))
	if err != nil {
		return err
	}
	for _, r := range rows {
		id, _ := strconv.ParseInt(*r[0], 10, 64)
		w.pendingItems.remove(id)
	}
	return nil
}

var regions = []string{"eu", "us", "apac", "Zürich", "a\tb"}

func (w *workload) newAccountKey() accountKey {
	for {
		k := accountKey{regions[w.rng.IntN(len(regions))], w.rng.IntN(100_000)}
		if !w.pendingAccounts.has(k) {
			return k
		}
	}
}

func (w *workload) note() *string {
	switch w.rng.IntN(4) {
	case 0:
		return nil
	case 1:
		return w.value("big")
	}
	return w.value("text")
}

func (w *workload) insertAccount() error {
	k := w.newAccountKey()
	_, err := w.exec("INSERT INTO app.accounts VALUES ($1, $2::integer, $3::numeric, $4)",
		str(k.region), str(strconv.Itoa(k.id)), w.balance(), w.note())
	w.pendingAccounts.add(k)
	return err
}

func (w *workload) balance() *string {
	if w.rng.IntN(10) == 0 {
		return nil
	}
	return str(fmt.Sprintf("%d.%02d", w.rng.IntN(2_000_000)-1_000_000, w.rng.IntN(100)))
}

// updateAccount changes the balance, and only sometimes the TOASTed note:
// with REPLICA IDENTITY FULL the old row carries it whole.
func (w *workload) updateAccount() error {
	k, ok := w.pendingAccounts.random(w.rng)
	if !ok {
		return w.insertAccount()
	}
	sql, args := "UPDATE app.accounts SET balance = $1::numeric", []*string{w.balance()}
	if w.rng.IntN(3) == 0 {
		sql, args = sql+", note = $2", append(args, w.note())
	}
	args = append(args, str(k.region), str(strconv.Itoa(k.id)))
	_, err := w.exec(fmt.Sprintf("%s WHERE region = $%d AND id = $%d::integer", sql, len(args)-1, len(args)), args...)
	return err
}

func (w *workload) changeAccountKey() error {
	k, ok := w.pendingAccounts.random(w.rng)
	if !ok {
		return w.insertAccount()
	}
	to := w.newAccountKey()
	_, err := w.exec("UPDATE app.accounts SET region = $1, id = $2::integer WHERE region = $3 AND id = $4::integer",
		str(to.region), str(strconv.Itoa(to.id)), str(k.region), str(strconv.Itoa(k.id)))
	w.pendingAccounts.remove(k)
	w.pendingAccounts.add(to)
	return err
}

func (w *workload) deleteAccount() error {
	k, ok := w.pendingAccounts.random(w.rng)
	if !ok {
		return nil
	}
	_, err := w.exec("DELETE FROM app.accounts WHERE region = $1 AND id = $2::integer", str(k.region), str(strconv.Itoa(k.id)))
	w.pendingAccounts.remove(k)
	return err
}

func (w *workload) touchIgnored() error {
	_, err := w.exec("INSERT INTO public.ignored VALUES ($1::integer, 'x') ON CONFLICT (id) DO UPDATE SET v = excluded.v || 'y'", str(strconv.Itoa(w.rng.IntN(50))))
	return err
}

// marker commits one last insert and returns its transaction id: once the
// source holds it, it holds everything committed before.
func (w *workload) marker() (uint32, error) {
	w.begin()
	if err := w.simple("BEGIN"); err != nil {
		return 0, err
	}
	if err := w.insertItem(); err != nil {
		return 0, err
	}
	rows, err := w.exec("SELECT txid_current() % 4294967296")
	if err != nil {
		return 0, err
	}
	xid, _ := strconv.ParseUint(*rows[0][0], 10, 32)
	return uint32(xid), w.commit()
}

// Values. Texts mix in what COPY and array syntax must escape, and
// characters beyond ASCII.
var textRunes = []rune("abcdefghij klmnopqrstuvwxyz0123456789\t\n\\\"',{}()é€🙂\r")

func (w *workload) text(n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(textRunes[w.rng.IntN(len(textRunes))])
	}
	return b.String()
}

func (w *workload) value(kind string) *string {
	if kind != "big" && w.rng.IntN(8) == 0 {
		return nil
	}
	r := w.rng
	switch kind {
	case "int2":
		return str(strconv.Itoa(r.IntN(65536) - 32768))
	case "int4":
		return str(strconv.Itoa(int(r.Int32()) - r.IntN(1<<30)))
	case "numeric":
		switch r.IntN(6) {
		case 0:
			return str("NaN")
		case 1:
			return str("123456789012345678901234567890.000000000000000000001")
		}
		return str(fmt.Sprintf("%d.%0*d", r.IntN(2_000_000)-1_000_000, 1+r.IntN(8), r.IntN(1000)))
	case "text":
		return str(w.text(r.IntN(40)))
	case "varchar":
		return str(w.text(r.IntN(21)))
	case "bool":
		return str([]string{"true", "false"}[r.IntN(2)])
	case "date":
		switch r.IntN(10) {
		case 0:
			return str("infinity")
		case 1:
			return str("0044-03-15 BC")
		}
		return str(time.Date(1900+r.IntN(200), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC).Format("2006-01-02"))
	case "timestamp":
		if r.IntN(10) == 0 {
			return str("-infinity")
		}
		return str(w.instant().Format("2006-01-02 15:04:05.999999"))
	case "timestamptz":
		return str(w.instant().Format("2006-01-02 15:04:05.999999") + []string{"+00", "+05:30", "-08", "+14"}[r.IntN(4)])
	case "uuid":
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		h := hex.EncodeToString(b)
		return str(h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:])
	case "jsonb":
		doc := map[string]any{"n": r.IntN(1000), "s": w.text(r.IntN(10)), "list": []any{r.Float64(), nil, true, w.text(3)}}
		if r.IntN(3) == 0 {
			doc["nested"] = map[string]any{"k": []int{1, 2, 3}, "e": ""}
		}
		b, _ := json.Marshal(doc)
		return str(string(b))
	case "bytea":
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return str(`\x` + hex.EncodeToString(b))
	case "int4[]":
		switch r.IntN(5) {
		case 0:
			return str("{}")
		case 1:
			return str(fmt.Sprintf("{{%d,%d},{%d,NULL}}", r.IntN(100), r.IntN(100), r.IntN(100)))
		}
		parts := make([]string, 1+r.IntN(6))
		for i := range parts {
			parts[i] = strconv.Itoa(r.IntN(2000) - 1000)
			if r.IntN(6) == 0 {
				parts[i] = "NULL"
			}
		}
		return str("{" + strings.Join(parts, ",") + "}")
	case "text[]":
		parts := make([]string, r.IntN(5))
		for i := range parts {
			if r.IntN(6) == 0 {
				parts[i] = "NULL"
				continue
			}
			parts[i] = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(w.text(r.IntN(8))) + `"`
		}
		return str("{" + strings.Join(parts, ",") + "}")
	case "big":
		if r.IntN(4) == 0 {
			return nil
		}
		// Over 2 kB: stored out of line.
		return str(w.text(2500 + r.IntN(4000)))
	}
	panic("unknown value kind " + kind)
}

func (w *workload) instant() time.Time {
	return time.Date(1950+w.rng.IntN(120), time.January, 1, 0, 0, 0, 0, time.UTC).
		Add(time.Duration(w.rng.Int64N(int64(365 * 24 * time.Hour))))
}
