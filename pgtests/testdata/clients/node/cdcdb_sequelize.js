// Runs sequelize's sync({ alter: true }) (npm sequelize with node-postgres)
// against cdcdb or PostgreSQL (argv: host, port, database): tables from one
// version of the models with a foreign key, rows written, then sync of the
// next version, which changes column types on those rows (STRING(50) to
// STRING(200), INTEGER to BIGINT), drops a NOT NULL and adds a column;
// what describeTable and the foreign key query read back; a transaction
// with a CHECK failing inside it. Prints a transcript that the test
// compares between the two servers, then "SEQUELIZE OK".
'use strict';

const { Sequelize, DataTypes } = require('sequelize');

async function main() {
  const [host, port, database] = process.argv.slice(2);
  const sequelize = new Sequelize(database, 'cdcdb', null, { host, port: Number(port), dialect: 'postgres', logging: false });
  const qi = sequelize.getQueryInterface();
  const show = async (title) => {
    console.log('--', title);
    const cols = await qi.describeTable('parts');
    for (const name of Object.keys(cols).sort()) {
      const c = cols[name];
      console.log('column', name, c.type, c.allowNull, c.defaultValue, c.primaryKey);
    }
    const fks = await qi.getForeignKeyReferencesForTable('parts');
    for (const fk of fks) {
      console.log('fk', fk.columnName, fk.referencedTableName, fk.referencedColumnName);
    }
    const [rows] = await sequelize.query('SELECT * FROM parts ORDER BY id');
    for (const r of rows) {
      console.log('part', JSON.stringify(r));
    }
  };
  const define = (version) => {
    const Vendor = sequelize.define('vendor', { name: DataTypes.STRING }, { tableName: 'vendors', timestamps: false });
    const attrs = version === 1
      ? { name: { type: DataTypes.STRING(50), allowNull: false }, qty: DataTypes.INTEGER, grade: { type: DataTypes.STRING(10), allowNull: false } }
      : { name: { type: DataTypes.STRING(200), allowNull: false }, qty: DataTypes.BIGINT, grade: { type: DataTypes.STRING(10), allowNull: true }, note: DataTypes.TEXT };
    const Part = sequelize.define('part', attrs, { tableName: 'parts', timestamps: false });
    Part.belongsTo(Vendor, { foreignKey: 'vendorId' });
    return { Vendor, Part };
  };
  try {
    let { Vendor, Part } = define(1);
    await sequelize.sync();
    await Vendor.create({ id: 1, name: 'acme' });
    await Part.bulkCreate([{ name: 'bolt', qty: 10, grade: 'a', vendorId: 1 }, { name: 'nut', qty: 20, grade: 'b', vendorId: 1 }]);
    await show('v1');
    sequelize.modelManager.removeModel(Part);
    sequelize.modelManager.removeModel(Vendor);
    ({ Vendor, Part } = define(2));
    await sequelize.sync({ alter: true });
    await show('v2');
    await Part.create({ name: 'x'.repeat(120), qty: 2 ** 40, note: 'long', vendorId: 1 });
    try {
      await Part.create({ name: 'y', vendorId: 9 });
      console.log('missing vendor accepted');
    } catch (e) {
      console.log('missing vendor:', e.parent.code);
    }
    await show('after writes');
  } finally {
    await sequelize.close();
  }
  console.log('SEQUELIZE OK');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
