package source

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgerror"
)

// What the upstream PostgreSQL must be.
const (
	// minServerVersion: PostgreSQL 11 is the first to send TRUNCATE
	// through logical replication; following a 10 would miss truncates
	// and leave rows upstream no longer has.
	minServerVersion = 110000
	// outputPlugin is PostgreSQL's own logical replication output.
	outputPlugin = "pgoutput"
)

// connect opens a plain connection (replication false) or a logical
// replication connection upstream.
func connect(ctx context.Context, c Connection, replication bool) (*pgconn.PgConn, error) {
	cfg, err := c.pgconnConfig(replication)
	if err != nil {
		return nil, Permanent(err)
	}
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", c.address(), err)
	}
	return conn, nil
}

// closeConn closes conn (nil is fine) without waiting long for a server
// that may be gone.
func closeConn(conn *pgconn.PgConn) {
	if conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	_ = conn.Close(ctx)
}

// row is one result row as text; a nil element is NULL.
type row []*string

func (r row) text(i int) string {
	if r[i] == nil {
		return ""
	}
	return *r[i]
}

// query runs sql with text parameters and returns every row as text.
func query(ctx context.Context, conn *pgconn.PgConn, sql string, args ...string) ([]row, error) {
	params := make([][]byte, len(args))
	for i, a := range args {
		params[i] = []byte(a)
	}
	rr := conn.ExecParams(ctx, sql, params, nil, nil, nil)
	var rows []row
	for rr.NextRow() {
		values := rr.Values()
		r := make(row, len(values))
		for i, v := range values {
			if v != nil {
				s := string(v)
				r[i] = &s
			}
		}
		rows = append(rows, r)
	}
	if _, err := rr.Close(); err != nil {
		return nil, err
	}
	return rows, nil
}

// exec runs statements that return nothing of interest.
func exec(ctx context.Context, conn *pgconn.PgConn, sql string) error {
	_, err := conn.Exec(ctx, sql).ReadAll()
	return err
}

// checkServer checks that upstream can do logical replication for cdcdb
// and returns its server_version_num.
func checkServer(ctx context.Context, conn *pgconn.PgConn) (int, error) {
	rows, err := query(ctx, conn, "SELECT current_setting('server_version_num'), current_setting('wal_level')")
	if err != nil {
		return 0, fmt.Errorf("read upstream settings: %w", err)
	}
	version, err := strconv.Atoi(rows[0].text(0))
	if err != nil {
		return 0, fmt.Errorf("upstream server_version_num %q: %w", rows[0].text(0), err)
	}
	if version < minServerVersion {
		return 0, refusal(pgerror.FeatureNotSupported, "upstream runs PostgreSQL %d.%d; cdcdb follows PostgreSQL 11 or newer (10 does not replicate TRUNCATE)", version/10000, version%10000)
	}
	if level := rows[0].text(1); level != "logical" {
		return 0, refusal(pgerror.ObjectNotInPrerequisiteState, "upstream has wal_level = %s; logical replication needs wal_level = logical (set it in postgresql.conf and restart upstream)", level)
	}
	return version, nil
}

// checkPublication checks that the publication exists and sends every
// kind of change: a publication that leaves out deletes or truncates would
// leave rows in the source that upstream no longer has.
func checkPublication(ctx context.Context, conn *pgconn.PgConn, publication string) error {
	rows, err := query(ctx, conn, "SELECT pubinsert, pubupdate, pubdelete, pubtruncate FROM pg_catalog.pg_publication WHERE pubname = $1", publication)
	if err != nil {
		return fmt.Errorf("read publication %q: %w", publication, err)
	}
	if len(rows) == 0 {
		return refusal(pgerror.UndefinedObject, "publication %q does not exist upstream (CREATE PUBLICATION %s FOR TABLE ...)", publication, quoteIdent(publication))
	}
	var missing []string
	for i, op := range []string{"insert", "update", "delete", "truncate"} {
		if rows[0].text(i) != "t" {
			missing = append(missing, op)
		}
	}
	if len(missing) > 0 {
		return refusal(pgerror.ObjectNotInPrerequisiteState, "publication %q does not publish %s; cdcdb needs every change to keep the source exact (ALTER PUBLICATION %s SET (publish = 'insert, update, delete, truncate'))",
			publication, strings.Join(missing, ", "), quoteIdent(publication))
	}
	return nil
}

// slotState is a replication slot as pg_replication_slots shows it.
type slotState struct {
	plugin         string
	database       string
	slotType       string
	temporary      bool
	activePID      string // "" when no one streams from it
	confirmedFlush LSN
	walStatus      string // "lost": the WAL it needs is gone
}

// readSlot returns the slot named name, or nil when there is none.
func readSlot(ctx context.Context, conn *pgconn.PgConn, name string) (*slotState, error) {
	rows, err := query(ctx, conn, `SELECT plugin, database, slot_type, temporary, active_pid, confirmed_flush_lsn,
		CASE WHEN current_setting('server_version_num')::int >= 130000 THEN (to_jsonb(s) ->> 'wal_status') END
		FROM pg_catalog.pg_replication_slots s WHERE slot_name = $1`, name)
	if err != nil {
		return nil, fmt.Errorf("read replication slot %q: %w", name, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	r := rows[0]
	s := &slotState{plugin: r.text(0), database: r.text(1), slotType: r.text(2), temporary: r.text(3) == "t", activePID: r.text(4), walStatus: r.text(6)}
	if r[5] != nil {
		if s.confirmedFlush, err = ParseLSN(*r[5]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// usable says why cdcdb cannot stream from the slot, or nil.
func (s *slotState) usable(name, database string) error {
	switch {
	case s.slotType != "logical" || s.plugin != outputPlugin:
		return Permanent(fmt.Errorf("replication slot %q is a %s slot with plugin %q; cdcdb reads logical slots of plugin %s", name, s.slotType, s.plugin, outputPlugin))
	case s.database != database:
		return Permanent(fmt.Errorf("replication slot %q belongs to database %q, not %q", name, s.database, database))
	case s.temporary:
		return Permanent(fmt.Errorf("replication slot %q is temporary: it would vanish with its session", name))
	case s.walStatus == "lost":
		return Permanent(fmt.Errorf("replication slot %q has lost the WAL it needs (max_slot_wal_keep_size): changes are gone; drop the source and create it again", name))
	case s.activePID != "":
		// Often our own previous connection, which upstream has not yet
		// noticed is gone: retried.
		return fmt.Errorf("replication slot %q is in use by upstream process %s", name, s.activePID)
	}
	return nil
}

// currentWAL returns upstream's current WAL write position.
func currentWAL(ctx context.Context, conn *pgconn.PgConn) (LSN, error) {
	rows, err := query(ctx, conn, "SELECT pg_catalog.pg_current_wal_lsn()")
	if err != nil {
		return 0, fmt.Errorf("read upstream WAL position: %w", err)
	}
	return ParseLSN(rows[0].text(0))
}

// awaitVisible waits until upstream transaction xid, which the stream has
// just delivered, is visible to new snapshots there. pgoutput sends a
// transaction once its commit record is flushed, and the committing
// session becomes visible a moment later, or, waiting for a synchronous
// standby, much later: a catalog read about the transaction's schema
// change before then would not see it. The 32-bit xid of the stream takes
// its epoch from a snapshot taken now, which it is within 2^31 of.
func awaitVisible(ctx context.Context, conn *pgconn.PgConn, xid uint32) error {
	const visible = `SELECT txid_visible_in_snapshot(CASE WHEN c > m THEN c - 4294967296 ELSE c END, s)
		FROM (SELECT txid_current_snapshot() AS s) snap,
		LATERAL (SELECT txid_snapshot_xmax(snap.s) AS m) xmax,
		LATERAL (SELECT (xmax.m >> 32 << 32) | $1::bigint AS c) candidate`
	for {
		rows, err := query(ctx, conn, visible, strconv.FormatUint(uint64(xid), 10))
		if err != nil {
			return fmt.Errorf("wait for upstream transaction %d: %w", xid, err)
		}
		if rows[0].text(0) == "t" {
			return nil
		}
		if !sleep(ctx, 10*time.Millisecond) {
			return ctx.Err()
		}
	}
}

// describeAddedColumn reads what the stream does not tell of a column
// added upstream: how upstream spells its type, its number, and the value
// the rows already in the table have in it. PostgreSQL 11 and newer add a
// column with a non-volatile DEFAULT without writing the rows, keeping the
// value in pg_attribute.attmissingval; the stream never shows it.
//
// It reads the catalog as it is now, which is right unless the column was
// altered again since (its table rewritten, say): the stream will then
// stop at a Relation message that no longer matches.
func describeAddedColumn(ctx context.Context, conn *pgconn.PgConn, relation uint32, c Column) (Column, Value, error) {
	rows, err := query(ctx, conn, `SELECT pg_catalog.format_type($2, $3), a.attnum,
		CASE WHEN a.atthasmissing THEN (a.attmissingval::text::text[])[1] END
		FROM (SELECT 1) one LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = $1 AND a.attname = $4 AND NOT a.attisdropped`,
		strconv.FormatUint(uint64(relation), 10), strconv.FormatUint(uint64(c.TypeOID), 10), strconv.FormatInt(int64(c.TypeMod), 10), c.Name)
	if err != nil {
		return c, Value{}, fmt.Errorf("read upstream column %q: %w", c.Name, err)
	}
	c.TypeName = rows[0].text(0)
	if rows[0][1] != nil {
		if c.AttNum, err = strconv.Atoi(*rows[0][1]); err != nil {
			return c, Value{}, fmt.Errorf("upstream column %q: attnum: %w", c.Name, err)
		}
	}
	existing := Null()
	if v := rows[0][2]; v != nil {
		existing = Text(*v)
	}
	return c, existing, nil
}

// checkColumnNumbers compares the numbers upstream's catalog gives the
// table's columns now with those the source knows. A Relation message
// names columns by name and type only, so a column dropped and added again
// under its name and type comes back looking the same, while every row
// upstream lost its values: its number tells. The catalog is read as it is
// now, possibly ahead of the stream; a difference is a change that cannot
// be followed either way, only found a little early. A table that no
// longer exists is left to the stream, which ends where it was dropped.
func checkColumnNumbers(ctx context.Context, conn *pgconn.PgConn, t *Table) error {
	rows, err := query(ctx, conn, `SELECT attname, attnum FROM pg_catalog.pg_attribute
		WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped`, strconv.FormatUint(uint64(t.RelationID), 10))
	if err != nil {
		return fmt.Errorf("read columns of upstream table %s: %w", t.Upstream, err)
	}
	if len(rows) == 0 {
		return nil
	}
	numbers := map[string]int{}
	for _, r := range rows {
		n, err := strconv.Atoi(r.text(1))
		if err != nil {
			return fmt.Errorf("upstream table %s: attnum %q: %w", t.Upstream, r.text(1), err)
		}
		numbers[r.text(0)] = n
	}
	for _, c := range t.Columns {
		n, ok := numbers[c.Name]
		switch {
		case !ok:
			return unfollowable(t, "column %q was dropped or renamed", c.Name)
		case c.AttNum != 0 && n != c.AttNum:
			return unfollowable(t, "column %q was dropped and added again (its values are gone upstream)", c.Name)
		}
	}
	return nil
}

// snapshotTable is what readTable learns of one table: its description
// and the COPY that reads its published rows.
type snapshotTable struct {
	table Table
	copy  string
}

// readTable reads one followed table from upstream's catalog (inside the
// snapshot's transaction, so that the description matches the rows) and
// checks that cdcdb can follow it.
func readTable(ctx context.Context, conn *pgconn.PgConn, version int, publication string, ref TableRef) (snapshotTable, error) {
	name := ref.upstream()
	rows, err := query(ctx, conn, `SELECT c.oid, c.relkind, c.relreplident FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`, name.Schema, name.Name)
	if err != nil {
		return snapshotTable{}, fmt.Errorf("read upstream table %s: %w", name, err)
	}
	if len(rows) == 0 {
		return snapshotTable{}, refusal(pgerror.UndefinedTable, "upstream table %s does not exist", name)
	}
	oidText, relkind, replident := rows[0].text(0), rows[0].text(1), rows[0].text(2)
	oid, err := strconv.ParseUint(oidText, 10, 32)
	if err != nil {
		return snapshotTable{}, fmt.Errorf("upstream table %s: oid %q: %w", name, oidText, err)
	}
	switch relkind {
	case "r":
	case "p":
		return snapshotTable{}, refusal(pgerror.FeatureNotSupported, "upstream table %s is partitioned; cdcdb does not follow partitioned tables yet (follow its partitions)", name)
	default:
		return snapshotTable{}, refusal(pgerror.WrongObjectType, "upstream relation %s is not a table", name)
	}

	// The publication: the table must be in it, and since PostgreSQL 15
	// it may publish some columns only, or some rows only: the snapshot
	// reads what the stream will send.
	pubSQL := `SELECT NULL, NULL FROM pg_catalog.pg_publication_tables WHERE pubname = $1 AND schemaname = $2 AND tablename = $3`
	if version >= 150000 {
		pubSQL = `SELECT attnames::text, rowfilter FROM pg_catalog.pg_publication_tables WHERE pubname = $1 AND schemaname = $2 AND tablename = $3`
	}
	pubRows, err := query(ctx, conn, pubSQL, publication, name.Schema, name.Name)
	if err != nil {
		return snapshotTable{}, fmt.Errorf("read publication %q: %w", publication, err)
	}
	if len(pubRows) == 0 {
		return snapshotTable{}, refusal(pgerror.UndefinedObject, "upstream table %s is not in publication %q (ALTER PUBLICATION %s ADD TABLE %s)", name, publication, quoteIdent(publication), name)
	}
	publishedColumns, rowFilter := pubRows[0][0], pubRows[0][1]

	// Columns as pgoutput sends them: not dropped, not generated (12+),
	// and in the publication's column list (15+).
	colSQL := `SELECT a.attname, a.atttypid, a.atttypmod, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnum
		FROM pg_catalog.pg_attribute a WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped`
	args := []string{oidText}
	if version >= 120000 {
		colSQL += ` AND a.attgenerated = ''`
	}
	if publishedColumns != nil {
		colSQL += ` AND a.attname = ANY ($2::name[])`
		args = append(args, *publishedColumns)
	}
	colRows, err := query(ctx, conn, colSQL+` ORDER BY a.attnum`, args...)
	if err != nil {
		return snapshotTable{}, fmt.Errorf("read columns of upstream table %s: %w", name, err)
	}
	keyRows, err := query(ctx, conn, `SELECT a.attname FROM pg_catalog.pg_index i
		JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
		WHERE i.indrelid = $1 AND CASE WHEN $2 = 'i' THEN i.indisreplident ELSE i.indisprimary END`, oidText, replident)
	if err != nil {
		return snapshotTable{}, fmt.Errorf("read key of upstream table %s: %w", name, err)
	}
	isKey := map[string]bool{}
	for _, r := range keyRows {
		isKey[r.text(0)] = true
	}

	t := Table{Upstream: name, Name: ref.Name(), RelationID: uint32(oid)}
	var columnList []string
	for _, r := range colRows {
		typeOID, err1 := strconv.ParseUint(r.text(1), 10, 32)
		typeMod, err2 := strconv.ParseInt(r.text(2), 10, 32)
		attnum, err3 := strconv.Atoi(r.text(4))
		if err := errors.Join(err1, err2, err3); err != nil {
			return snapshotTable{}, fmt.Errorf("column %q of upstream table %s: %w", r.text(0), name, err)
		}
		t.Columns = append(t.Columns, Column{Name: r.text(0), TypeOID: uint32(typeOID), TypeMod: int32(typeMod), TypeName: r.text(3), Key: isKey[r.text(0)], AttNum: attnum})
		columnList = append(columnList, quoteIdent(r.text(0)))
	}
	if len(t.Columns) == 0 {
		return snapshotTable{}, refusal(pgerror.ObjectNotInPrerequisiteState, "upstream table %s publishes no columns", name)
	}
	copySQL := fmt.Sprintf("COPY %s (%s) TO STDOUT", name, strings.Join(columnList, ", "))
	if rowFilter != nil {
		copySQL = fmt.Sprintf("COPY (SELECT %s FROM ONLY %s WHERE %s) TO STDOUT", strings.Join(columnList, ", "), name, *rowFilter)
	}
	return snapshotTable{table: t, copy: copySQL}, nil
}

// lockSnapshotTables keeps the snapshot's tables from being truncated or
// rewritten until its transaction ends, and makes sure none was between
// the slot's consistent point and the lock. TRUNCATE and the forms of
// ALTER TABLE that rewrite a table are not MVCC-safe: they put the rows in
// a new file, and a transaction whose snapshot is older than theirs reads
// that file, empty of the rows it should see, without an error. The
// stream would then bring the changes after the consistent point to rows
// the snapshot never had. The file the snapshot's catalog names
// (pg_class, read in the snapshot) and the one the table has now
// (pg_relation_filenode, from the current catalog) differ exactly when
// that happened; the snapshot then fails, to be started over with a new
// slot whose consistent point comes after the rewrite.
func lockSnapshotTables(ctx context.Context, conn *pgconn.PgConn, tables []Table, consistentPoint LSN) error {
	if len(tables) == 0 {
		return nil
	}
	names := make([]string, len(tables))
	oids := make([]string, len(tables))
	for i, t := range tables {
		names[i] = "ONLY " + t.Upstream.String() // as COPY reads it: not its inheritance children
		oids[i] = strconv.FormatUint(uint64(t.RelationID), 10)
	}
	if err := exec(ctx, conn, "LOCK TABLE "+strings.Join(names, ", ")+" IN ACCESS SHARE MODE"); err != nil {
		return fmt.Errorf("lock the snapshot's tables: %w", err)
	}
	rows, err := query(ctx, conn, `SELECT c.oid FROM pg_catalog.pg_class c
		WHERE c.oid = ANY ($1::pg_catalog.oid[]) AND c.relfilenode IS DISTINCT FROM pg_catalog.pg_relation_filenode(c.oid)`,
		"{"+strings.Join(oids, ",")+"}")
	if err != nil {
		return fmt.Errorf("check the snapshot's tables: %w", err)
	}
	if len(rows) > 0 {
		name := rows[0].text(0)
		for _, t := range tables {
			if strconv.FormatUint(uint64(t.RelationID), 10) == name {
				name = t.Upstream.String()
			}
		}
		return fmt.Errorf("upstream table %s was truncated, rewritten or dropped after the snapshot's consistent point %s: the snapshot cannot read it and starts over", name, consistentPoint)
	}
	return nil
}

// createSlot creates a logical slot for pgoutput with an exported snapshot,
// which stays valid while conn runs no other command. The snapshot sees
// exactly the transactions that commit before the slot's consistent point:
// PostgreSQL builds it from the WAL it decoded, not from which
// transactions happen to look finished at that moment. A temporary slot
// vanishes with conn.
func createSlot(ctx context.Context, repl *pgconn.PgConn, name string, temporary bool) (consistentPoint LSN, snapshotName string, err error) {
	res, err := pglogrepl.CreateReplicationSlot(ctx, repl, name, outputPlugin, pglogrepl.CreateReplicationSlotOptions{
		Temporary:      temporary,
		Mode:           pglogrepl.LogicalReplication,
		SnapshotAction: "EXPORT_SNAPSHOT",
	})
	if err != nil {
		return 0, "", fmt.Errorf("create replication slot %q: %w", name, err)
	}
	cp, err := ParseLSN(res.ConsistentPoint)
	if err != nil {
		return 0, "", fmt.Errorf("create replication slot %q: consistent point: %w", name, err)
	}
	return cp, res.SnapshotName, nil
}

// dropSlot drops the slot named name if it exists, waiting for a session
// that still holds it (a connection of ours upstream has not yet seen
// close) to let go.
func dropSlot(ctx context.Context, repl *pgconn.PgConn, name string) error {
	err := pglogrepl.DropReplicationSlot(ctx, repl, name, pglogrepl.DropReplicationSlotOptions{Wait: true})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42704" { // undefined_object: already gone
		return nil
	}
	if err != nil {
		return fmt.Errorf("drop replication slot %q: %w", name, err)
	}
	return nil
}
