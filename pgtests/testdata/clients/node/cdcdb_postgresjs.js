// Drives cdcdb through postgres.js (npm postgres): sql.begin with nested
// sql.savepoint blocks, one of which fails and is rolled back to its
// savepoint while the transaction goes on, rows and an AUTO CDC flow's
// target alike. Args: host port. Prints "POSTGRESJS OK" or exits non-zero
// with the reason.
'use strict';
const postgres = require('postgres');

function check(ok, what) {
  if (!ok) {
    throw new Error('check failed: ' + what);
  }
}

async function main() {
  const [host, port] = process.argv.slice(2);
  const sql = postgres({ host, port: Number(port), user: 'cdcdb', database: 'main', max: 1, onnotice: () => {} });
  try {
    await sql`CREATE TABLE accounts (id int PRIMARY KEY, owner text NOT NULL)`;
    await sql`CREATE TABLE ev (id int, v text, seq int)`;
    await sql`CREATE STREAMING TABLE ev_latest`;
    await sql`CREATE FLOW ev_f AS AUTO CDC INTO ev_latest FROM stream(ev) KEYS (id) SEQUENCE BY seq`;

    await sql.begin(async (tx) => {
      await tx`INSERT INTO accounts VALUES (1, 'ana')`;
      await tx`INSERT INTO ev VALUES (1, 'kept', 1)`;
      // A savepoint whose block fails: its writes go, the transaction stays.
      const failed = await tx.savepoint(async (sp) => {
        await sp`INSERT INTO accounts VALUES (2, 'bo')`;
        await sp`INSERT INTO ev VALUES (1, 'lost', 2)`;
        await sp`INSERT INTO accounts VALUES (1, 'duplicate')`;
      }).then(() => null, (e) => e);
      check(failed && failed.code === '23505', 'the failing savepoint block raised ' + (failed && failed.code));
      // Nested savepoints that succeed keep their writes.
      await tx.savepoint(async (sp) => {
        await sp`INSERT INTO accounts VALUES (3, 'cy')`;
        await sp.savepoint(async (inner) => {
          await inner`INSERT INTO ev VALUES (2, 'nested', 1)`;
        });
      });
      const mid = await tx`SELECT v FROM ev_latest ORDER BY id`;
      check(JSON.stringify(mid.map((r) => r.v)) === '["kept","nested"]', 'flow target inside the transaction ' + JSON.stringify(mid));
    });

    const accounts = await sql`SELECT id, owner FROM accounts ORDER BY id`;
    check(JSON.stringify(accounts.map((r) => r.id + r.owner)) === '["1ana","3cy"]', 'accounts ' + JSON.stringify(accounts));
    const latest = await sql`SELECT id, v, seq FROM ev_latest ORDER BY id`;
    check(JSON.stringify(latest.map((r) => [r.id, r.v, r.seq])) === '[[1,"kept",1],[2,"nested",1]]', 'flow target ' + JSON.stringify(latest));
    // The flow goes on from the state the savepoint left: seq 2 for key 1
    // was rolled back, so it applies now.
    await sql`INSERT INTO ev VALUES (1, 'later', 2)`;
    const after = await sql`SELECT v FROM ev_latest WHERE id = 1`;
    check(after[0].v === 'later', 'flow after the savepoint ' + JSON.stringify(after));
  } finally {
    await sql.end();
  }
  console.log('POSTGRESJS OK');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
