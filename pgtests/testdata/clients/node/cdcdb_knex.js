// Runs a knex migration (npm knex with node-postgres) against cdcdb or
// PostgreSQL (argv: host, port, database): tables with a DEFERRABLE
// INITIALLY DEFERRED foreign key and knex's enum (a CHECK constraint), rows
// written, then .alter() of column types on them (varchar(50) to
// varchar(200), integer to bigint, varchar to integer, which knex writes
// with USING); a write that needs the deferred check; what knex's
// columnInfo reads back. Prints a transcript that the test compares
// between the two servers, then "KNEX OK".
'use strict';

const knex = require('knex');

async function main() {
  const [host, port, database] = process.argv.slice(2);
  const db = knex({ client: 'pg', connection: { host, port: Number(port), user: 'cdcdb', database } });
  const show = async (title) => {
    console.log('--', title);
    const info = await db('parts').columnInfo();
    for (const name of Object.keys(info).sort()) {
      const c = info[name];
      console.log('column', name, c.type, c.maxLength, c.nullable, c.defaultValue);
    }
    for (const r of await db('parts').orderBy('id')) {
      console.log('part', JSON.stringify(r));
    }
  };
  try {
    await db.schema.createTable('vendors', (t) => {
      t.increments('id');
      t.string('name').notNullable();
    });
    await db.schema.createTable('parts', (t) => {
      t.increments('id');
      t.string('name', 50).notNullable();
      t.integer('qty');
      t.string('code', 20);
      t.enu('status', ['new', 'used']).defaultTo('new');
      t.integer('vendor_id').references('id').inTable('vendors').deferrable('deferred');
    });
    await db('vendors').insert({ id: 1, name: 'acme' });
    await db('parts').insert([
      { name: 'bolt', qty: 10, code: '4711', vendor_id: 1 },
      { name: 'nut', qty: 20, code: '0815', status: 'used', vendor_id: 1 },
    ]);
    await show('created');
    await db.schema.alterTable('parts', (t) => {
      t.string('name', 200).notNullable().alter();
      t.bigInteger('qty').alter();
      t.integer('code').alter();
    });
    await show('altered');
    try {
      await db('parts').insert({ id: 99, name: 'x', status: 'broken' });
      console.log('bad enum value accepted');
    } catch (e) {
      console.log('bad enum value:', e.code);
    }
    try {
      await db.schema.alterTable('parts', (t) => {
        t.integer('name').alter();
      });
      console.log('name to integer accepted');
    } catch (e) {
      console.log('name to integer:', e.code, e.message.replace(/^.* - /, ''));
    }
    // A part before its vendor, in one transaction: checked at commit.
    await db.transaction(async (trx) => {
      await trx('parts').insert({ name: 'gear', qty: 2 ** 40, code: 7, vendor_id: 2 });
      await trx('vendors').insert({ id: 2, name: 'globex' });
    });
    try {
      await db.transaction(async (trx) => {
        await trx('parts').insert({ id: 98, name: 'orphan', vendor_id: 3 });
      });
      console.log('orphan committed');
    } catch (e) {
      console.log('orphan refused at commit:', e.code);
    }
    await show('after writes');
  } finally {
    await db.destroy();
  }
  console.log('KNEX OK');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
