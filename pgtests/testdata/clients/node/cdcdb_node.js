// Drives cdcdb through node-postgres (npm pg): DDL with an AUTO CDC flow,
// named prepared statements with parameters, binary results, the SCD2
// target and a temporal read, and the table OID / column number in result
// fields, LISTEN/NOTIFY between two clients, and the change feed with parameters. Args: host port. Prints "NODE OK" or exits non-zero with the reason.
'use strict';
const { Client } = require('pg');

function check(ok, what) {
  if (!ok) {
    throw new Error('check failed: ' + what);
  }
}

async function main() {
  const [host, port] = process.argv.slice(2);
  const c = new Client({ host, port: Number(port), user: 'cdcdb', database: 'main' });
  await c.connect();
  try {
    for (const stmt of [
      'CREATE SCHEMA s',
      'CREATE TABLE s.src (id int, v text, seq int)',
      'CREATE STREAMING TABLE s.tgt',
      'CREATE FLOW s_f AS AUTO CDC INTO s.tgt FROM stream(s.src) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2',
    ]) {
      await c.query(stmt);
    }
    // A named prepared statement, parsed once and executed with each event.
    for (const ev of [[1, 'a', 1], [1, 'b', 2], [2, 'x', 1], [1, 'c', 3]]) {
      const r = await c.query({ name: 'ins', text: 'INSERT INTO s.src (id, v, seq) VALUES ($1, $2, $3)', values: ev });
      check(r.rowCount === 1, 'insert rowCount ' + r.rowCount);
    }
    const want = [[1, 'a', 1, 2], [1, 'b', 2, 3], [1, 'c', 3, null], [2, 'x', 1, null]];
    const q = 'SELECT id, v, __start_at, __end_at FROM s.tgt ORDER BY id, __start_at';
    const text = await c.query({ text: q, rowMode: 'array' });
    check(JSON.stringify(text.rows) === JSON.stringify(want), 'target rows ' + JSON.stringify(text.rows));
    // Binary results: every column in binary format. node-postgres hands
    // binary fields to type parsers as strings (one char per byte for the
    // small values here), so the test decodes int4 itself.
    const raw = { getTypeParser: () => (v) => v };
    const int4 = (s) => s === null ? null : ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3));
    const bin = await c.query({ text: q, rowMode: 'array', binary: true, queryMode: 'extended', types: raw });
    const decoded = bin.rows.map((r) => [int4(r[0]), r[1], int4(r[2]), int4(r[3])]);
    check(JSON.stringify(decoded) === JSON.stringify(want), 'binary target rows ' + JSON.stringify(decoded));
    check(bin.rows[0][0].length === 4, 'int4 is 4 bytes in binary');
    check(bin.fields.every((f) => f.format === 'binary'), 'binary formats ' + JSON.stringify(bin.fields));
    // Result fields carry the table OID and column number.
    const oid = (await c.query("SELECT 's.tgt'::regclass::oid AS oid")).rows[0].oid;
    const f = text.fields;
    check(f[0].tableID === Number(oid) && f[0].columnID === 1 && f[1].columnID === 2 && f[3].columnID === 5,
      'fields ' + JSON.stringify(f) + ' table ' + oid);
    check(f[0].dataTypeID === 23 && f[1].dataTypeID === 25, 'type ids ' + JSON.stringify(f));
    // A temporal read, as a named prepared statement with a parameter.
    const asof = await c.query({ name: 'asof', text: 'SELECT v FROM s.tgt FOR BUSINESS_TIME AS OF 2 WHERE id = $1', values: [1] });
    check(asof.rows.length === 1 && asof.rows[0].v === 'b', 'as of 2 ' + JSON.stringify(asof.rows));
    const again = await c.query({ name: 'asof', text: 'SELECT v FROM s.tgt FOR BUSINESS_TIME AS OF 2 WHERE id = $1', values: [2] });
    check(again.rows.length === 1 && again.rows[0].v === 'x', 'as of 2, key 2 ' + JSON.stringify(again.rows));
    // Catalog introspection as ORMs do it.
    const cols = await c.query(
      'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
      ['s', 'tgt']);
    check(JSON.stringify(cols.rows.map((r) => r.column_name + ':' + r.data_type)) ===
      JSON.stringify(['id:integer', 'v:text', 'seq:integer', '__start_at:integer', '__end_at:integer']),
      'information_schema.columns ' + JSON.stringify(cols.rows));
    // LISTEN / NOTIFY: a second client listens; notifications sent in a
    // transaction arrive when it commits (identical ones once), none from
    // one rolled back.
    const listener = new Client({ host, port: Number(port), user: 'cdcdb', database: 'main' });
    await listener.connect();
    try {
      const heard = [];
      let arrived = null;
      listener.on('notification', (n) => {
        heard.push(n.channel + ':' + n.payload);
        if (arrived) {
          arrived();
        }
      });
      await listener.query('LISTEN jobs');
      await c.query('BEGIN');
      await c.query("NOTIFY jobs, 'rolled back'");
      await c.query('ROLLBACK');
      const waitFor = (count) => new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('notifications heard: ' + JSON.stringify(heard))), 5000);
        arrived = () => {
          if (heard.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        };
        arrived();
      });
      await c.query('BEGIN');
      await c.query("NOTIFY jobs, 'first'");
      await c.query("SELECT pg_notify('jobs', $1)", ['second']);
      await c.query("NOTIFY jobs, 'first'");
      await c.query('COMMIT');
      await waitFor(2);
      await c.query("NOTIFY jobs, 'third'");
      await waitFor(3);
      check(JSON.stringify(heard) === '["jobs:first","jobs:second","jobs:third"]', 'notifications ' + JSON.stringify(heard));
    } finally {
      await listener.end();
    }
    // The change feed of s.src (one insert a commit), with parameters: a
    // window by version, then by the commit's time.
    const versions = (await c.query({
      text: "SELECT DISTINCT _commit_version::text AS v FROM cdcdb.table_changes('s.src', $1) ORDER BY 1", values: [0],
    })).rows.map((r) => r.v);
    check(versions.length === 4, 'feed commits ' + JSON.stringify(versions));
    const feedQuery = "SELECT id, v, _change_type, _commit_timestamp FROM cdcdb.table_changes('s.src', $1, $2)";
    const win = await c.query({ name: 'feed', text: feedQuery, values: [versions[1], versions[1]] });
    check(win.rows.length === 1 && win.rows[0].v === 'b' && win.rows[0]._change_type === 'insert', 'window by version ' + JSON.stringify(win.rows));
    check(win.rows[0]._commit_timestamp instanceof Date, 'timestamptz ' + JSON.stringify(win.rows[0]));
    const at = (await c.query({
      text: "SELECT _commit_timestamp::text AS t FROM cdcdb.table_changes('s.src', $1, $1)", values: [versions[1]],
    })).rows[0].t;
    const byTime = await c.query({ name: 'feed', text: feedQuery, values: [at, at] });
    check(byTime.rows.length === 1 && byTime.rows[0].v === 'b', 'window by time ' + at + ' ' + JSON.stringify(byTime.rows));
  } finally {
    await c.end();
  }
  console.log('NODE OK');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
