// Sequelize 6 (its postgres dialect over `pg`) against a gateway or PostgreSQL: `sync()` creating a table
// with SERIAL, INTEGER, STRING, TEXT, BOOLEAN, DATE, DECIMAL and UUID columns and unique and plain
// indexes (it reads pg_index, pg_class and pg_attribute and calls pg_get_indexdef), `sync()` again,
// `sync({ alter: true })` unchanged and with an added column (it reads information_schema and
// pg_description and issues ALTER COLUMN ... TYPE with each column's own type), describeTable and
// showIndex, CRUD, and managed and unmanaged transactions. Every assertion holds against PostgreSQL 15
// as well (sequelize.test.ts runs it there too). Foreign keys are left out (not kept by Pesto).

import assert from 'node:assert/strict';
import { DataTypes, Op, Sequelize, UniqueConstraintError, type ModelAttributes } from 'sequelize';

export interface Connection {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

const ATTRIBUTES: ModelAttributes = {
  id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
  name: { type: DataTypes.STRING, allowNull: false, unique: true },
  bio: DataTypes.TEXT,
  active: { type: DataTypes.BOOLEAN, defaultValue: true },
  born: DataTypes.DATE,
  balance: DataTypes.DECIMAL(10, 2),
  token: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4 },
  age: DataTypes.INTEGER,
};
const INDEXES = [{ fields: ['age'] }, { unique: true, fields: ['bio', 'age'] }];

/** describeTable's answer for the table sync creates, as PostgreSQL 15 gives it. */
const DESCRIBED = {
  id: { type: 'INTEGER', allowNull: false, defaultValue: 'nextval("SeqMembers_id_seq"::regclass)', comment: null, special: [], primaryKey: true },
  name: { type: 'CHARACTER VARYING(255)', allowNull: false, defaultValue: null, comment: null, special: [], primaryKey: false },
  bio: { type: 'TEXT', allowNull: true, defaultValue: null, comment: null, special: [], primaryKey: false },
  active: { type: 'BOOLEAN', allowNull: true, defaultValue: true, comment: null, special: [], primaryKey: false },
  born: { type: 'TIMESTAMP WITH TIME ZONE', allowNull: true, defaultValue: null, comment: null, special: [], primaryKey: false },
  balance: { type: 'NUMERIC', allowNull: true, defaultValue: null, comment: null, special: [], primaryKey: false },
  token: { type: 'UUID', allowNull: true, defaultValue: null, comment: null, special: [], primaryKey: false },
  age: { type: 'INTEGER', allowNull: true, defaultValue: null, comment: null, special: [], primaryKey: false },
  createdAt: { type: 'TIMESTAMP WITH TIME ZONE', allowNull: false, defaultValue: null, comment: null, special: [], primaryKey: false },
  updatedAt: { type: 'TIMESTAMP WITH TIME ZONE', allowNull: false, defaultValue: null, comment: null, special: [], primaryKey: false },
};

interface IndexInfo {
  name: string;
  primary: boolean;
  unique: boolean;
  indkey: string;
  definition: string;
  fields: { attribute: string }[];
}
const index = (name: string, unique: boolean, cols: string[], indkey: string, primary = false): IndexInfo => ({
  name, primary, unique, indkey,
  definition: `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${/^[a-z_]+$/.test(name) ? name : `"${name}"`} ON public."SeqMembers" USING btree (${cols.join(', ')})`,
  fields: cols.map((attribute) => ({ attribute })),
});

function connect(c: Connection, log: string[]): Sequelize {
  return new Sequelize(c.database, c.user, c.password, {
    host: '127.0.0.1', port: c.port, dialect: 'postgres', logging: (q: string) => void log.push(q.replace(/^Executing \(\S+\): /, '')),
  });
}

export async function sequelizeScenario(c: Connection): Promise<void> {
  const log: string[] = [];
  const s = connect(c, log);
  try {
    await s.getQueryInterface().dropTable('SeqMembers');
    const Member = s.define('SeqMember', ATTRIBUTES, { indexes: INDEXES });
    await s.sync();
    assert.ok(log.some((q) => q.startsWith('CREATE TABLE IF NOT EXISTS "SeqMembers"')));
    assert.equal(log.filter((q) => q.startsWith('CREATE INDEX') || q.startsWith('CREATE UNIQUE INDEX')).length, 2);

    // Again: showIndex finds both indexes, so nothing is created.
    log.length = 0;
    await s.sync();
    assert.deepEqual(log.filter((q) => /^(CREATE (UNIQUE )?INDEX|ALTER)/.test(q)), []);

    const qi = s.getQueryInterface();
    assert.deepEqual(await qi.describeTable('SeqMembers'), DESCRIBED);
    const indexes = (await qi.showIndex('SeqMembers')) as IndexInfo[];
    assert.deepEqual(indexes.map((i) => ({ ...i, fields: i.fields.map((f) => ({ attribute: f.attribute })) })), [
      index('SeqMembers_name_key', true, ['name'], '2'),
      index('SeqMembers_pkey', true, ['id'], '1', true),
      index('seq_members_age', false, ['age'], '8'),
      index('seq_members_bio_age', true, ['bio', 'age'], '3 8'),
    ]);

    // alter with nothing changed: an ALTER per column with its own type, and ADD UNIQUE for `name`
    // (Sequelize adds it again each time; PostgreSQL names the new one SeqMembers_name_key1).
    log.length = 0;
    await s.sync({ alter: true });
    assert.ok(log.some((q) => q.includes('ALTER TABLE "SeqMembers" ALTER COLUMN "age" DROP NOT NULL;ALTER TABLE "SeqMembers" ALTER COLUMN "age" DROP DEFAULT;ALTER TABLE "SeqMembers" ALTER COLUMN "age" TYPE INTEGER;')));
    assert.deepEqual(await qi.describeTable('SeqMembers'), DESCRIBED);
    assert.deepEqual(((await qi.showIndex('SeqMembers')) as IndexInfo[]).map((i) => i.name),
      ['SeqMembers_name_key', 'SeqMembers_name_key1', 'SeqMembers_pkey', 'seq_members_age', 'seq_members_bio_age']);

    // alter with a column added to the model.
    const Wider = s.define('SeqMember', { ...ATTRIBUTES, nickname: { type: DataTypes.STRING(40), defaultValue: 'none' } }, { indexes: INDEXES });
    log.length = 0;
    await Wider.sync({ alter: true });
    assert.ok(log.includes(`ALTER TABLE "public"."SeqMembers" ADD COLUMN "nickname" VARCHAR(40) DEFAULT 'none';`), log.join('\n'));
    assert.deepEqual((await qi.describeTable('SeqMembers'))['nickname'],
      { type: 'CHARACTER VARYING(40)', allowNull: true, defaultValue: 'none', comment: null, special: [], primaryKey: false });

    await crud(s, Member);
  } finally {
    await s.close();
  }
}

type MemberModel = ReturnType<Sequelize['define']>;

async function crud(s: Sequelize, Member: MemberModel): Promise<void> {
  const born = new Date('1990-05-17T10:00:00.000Z');
  const ann = await Member.create({ name: 'ann', bio: 'writes', born, balance: '12.50', age: 34 });
  const annId = ann.get('id') as number;
  assert.equal(typeof annId, 'number');
  assert.match(ann.get('token') as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  await Member.bulkCreate([{ name: 'bob', age: 20, balance: '0.10' }, { name: 'cy', age: 51, active: false }]);

  const older = await Member.findAll({ where: { age: { [Op.gt]: 30 } }, order: [['age', 'DESC']] });
  assert.deepEqual(older.map((m) => [m.get('name'), m.get('age'), m.get('active')]), [['cy', 51, false], ['ann', 34, true]]);
  const found = await Member.findOne({ where: { name: 'ann' } });
  assert.ok(found !== null);
  assert.equal(found.get('balance'), '12.50');
  assert.deepEqual(found.get('born'), born);
  assert.equal(found.get('bio'), 'writes');
  assert.equal(await Member.count({ where: { active: true } }), 2);

  const [updated] = await Member.update({ balance: '99.99', bio: null }, { where: { name: { [Op.in]: ['ann', 'bob'] } } });
  assert.equal(updated, 2);
  assert.deepEqual((await Member.findAll({ attributes: ['name', 'balance', 'bio'], order: ['name'], raw: true })),
    [{ name: 'ann', balance: '99.99', bio: null }, { name: 'bob', balance: '99.99', bio: null }, { name: 'cy', balance: null, bio: null }]);
  assert.equal(await Member.destroy({ where: { name: 'bob' } }), 1);
  assert.equal(await Member.count(), 2);

  // Managed: committed when the callback returns, rolled back when it throws.
  await s.transaction(async (t) => {
    await Member.create({ name: 'dee', age: 40 }, { transaction: t });
    await Member.update({ age: 35 }, { where: { name: 'ann' }, transaction: t });
  });
  await assert.rejects(s.transaction(async (t) => {
    await Member.create({ name: 'eve', age: 22 }, { transaction: t });
    await Member.create({ name: 'ann', age: 1 }, { transaction: t });
  }), UniqueConstraintError);
  // Unmanaged: rolled back by hand.
  const t = await s.transaction();
  await Member.destroy({ where: {}, transaction: t });
  assert.equal(await Member.count({ transaction: t }), 0);
  await t.rollback();
  assert.deepEqual((await Member.findAll({ order: ['name'] })).map((m) => [m.get('name'), m.get('age')]), [['ann', 35], ['cy', 51], ['dee', 40]]);
  const u = await s.transaction();
  await Member.update({ age: 36 }, { where: { name: 'ann' }, transaction: u });
  await u.commit();
  assert.equal((await Member.findByPk(annId))?.get('age'), 36);
}

/**
 * `sync({ alter: true })` after a column's type changed in the model: Sequelize sends ALTER COLUMN ...
 * TYPE with the new type. PostgreSQL converts the rows; Pesto refuses it with 0A000 (its rows are not
 * converted in place) and the table stays as it was. Resolves to the error, or null when it succeeded.
 */
export async function sequelizeTypeChange(c: Connection): Promise<{ code: string; message: string } | null> {
  const s = connect(c, []);
  try {
    await s.getQueryInterface().dropTable('SeqTyped');
    const before = s.define('SeqTyped', { id: { type: DataTypes.INTEGER, primaryKey: true }, n: DataTypes.INTEGER }, { timestamps: false, tableName: 'SeqTyped' });
    await before.sync();
    await before.create({ id: 1, n: 7 });
    const after = s.define('SeqTyped', { id: { type: DataTypes.INTEGER, primaryKey: true }, n: DataTypes.BIGINT }, { timestamps: false, tableName: 'SeqTyped' });
    let error: { code: string; message: string } | null = null;
    try {
      await after.sync({ alter: true });
    } catch (e) {
      const parent = (e as { parent?: { code?: string; message?: string } }).parent;
      error = { code: parent?.code ?? '', message: parent?.message ?? String(e) };
    }
    assert.deepEqual(await s.query('SELECT id, n FROM "SeqTyped"', { type: 'SELECT' }), [{ id: 1, n: error === null ? '7' : 7 }]);
    return error;
  } finally {
    await s.close();
  }
}
