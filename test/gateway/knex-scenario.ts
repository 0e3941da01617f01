// knex (query builder and migrations, over the `pg` driver) against a gateway: migrations up (CREATE
// TABLE with increments, unique, timestamps, decimal, uuid, date, an index; ALTER TABLE ADD COLUMN and
// hasColumn, which reads information_schema), queries, a transaction, columnInfo, and the migrations
// rolled back (DROP COLUMN, DROP TABLE). The values asserted are what the same scenario gives against
// PostgreSQL 15. Run by knex.test.ts (engine) and cluster.test.ts.

import assert from 'node:assert/strict';
import knexLib, { type Knex } from 'knex';

const migrations: Record<string, { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> }> = {
  '20240101_init': {
    async up(k) {
      await k.schema.createTable('authors', (t) => {
        t.increments('id');
        t.string('name', 100).notNullable().unique();
        t.timestamps(true, true);
      });
      await k.schema.createTable('books', (t) => {
        t.increments('id');
        t.integer('author_id').notNullable();
        t.string('title');
        t.decimal('price', 8, 2);
        t.boolean('published').defaultTo(false);
        t.uuid('ref');
        t.date('released');
        t.index(['author_id']);
      });
    },
    async down(k) {
      await k.schema.dropTable('books');
      await k.schema.dropTable('authors');
    },
  },
  '20240102_alter': {
    async up(k) {
      await k.schema.alterTable('books', (t) => t.text('summary'));
      if (!(await k.schema.hasColumn('books', 'summary'))) throw new Error('hasColumn: no summary');
    },
    async down(k) {
      await k.schema.alterTable('books', (t) => t.dropColumn('summary'));
    },
  },
};

export async function knexScenario(port: number, user: string, password: string, database: string): Promise<void> {
  const knex = knexLib({
    client: 'pg',
    connection: { host: '127.0.0.1', port, user, password, database },
    pool: { min: 1, max: 2 },
    migrations: {
      migrationSource: {
        getMigrations: () => Promise.resolve(Object.keys(migrations)),
        getMigrationName: (m: string) => m,
        getMigration: (m: string) => Promise.resolve(migrations[m]!),
      },
    },
  });
  try {
    assert.deepEqual(await knex.migrate.latest(), [1, ['20240101_init', '20240102_alter']]);
    assert.equal(await knex.schema.hasTable('books'), true);
    assert.deepEqual(await knex('authors').insert([{ name: 'Ann' }, { name: 'Bob' }]).returning(['id', 'name']), [{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }]);
    const [book] = await knex('books').insert({ author_id: 1, title: 'T1', price: '9.50', ref: '12345678-1234-5678-1234-567812345678', released: '2024-02-03' }).returning('*');
    assert.deepEqual({ ...book, released: (book.released as Date).toISOString().slice(0, 10) },
      { id: 1, author_id: 1, title: 'T1', price: '9.50', published: false, ref: '12345678-1234-5678-1234-567812345678', released: '2024-02-03', summary: null });
    assert.deepEqual(await knex('books').join('authors', 'authors.id', 'books.author_id').select('authors.name', 'books.title', 'books.price'), [{ name: 'Ann', title: 'T1', price: '9.50' }]);
    assert.deepEqual(await knex('authors').whereIn('id', [1, 2]).orderBy('id').pluck('name'), ['Ann', 'Bob']);
    assert.equal(await knex('books').where({ id: 1 }).update({ published: true }), 1);
    assert.deepEqual(await knex.transaction(async (trx) => {
      await trx('authors').insert({ name: 'Cy' });
      return trx('authors').count('* as n');
    }), [{ n: '3' }]);
    await assert.rejects(knex('authors').insert({ name: 'Ann' }), { code: '23505' });
    const info = await knex('books').columnInfo();
    assert.deepEqual(Object.keys(info), ['id', 'author_id', 'title', 'price', 'published', 'ref', 'released', 'summary']);
    assert.deepEqual(info['id'], { type: 'integer', maxLength: null, nullable: false, defaultValue: "nextval('books_id_seq'::regclass)" });
    assert.deepEqual(info['title'], { type: 'character varying', maxLength: 255, nullable: true, defaultValue: null });
    assert.deepEqual(info['published'], { type: 'boolean', maxLength: null, nullable: true, defaultValue: 'false' });
    assert.deepEqual(await knex.migrate.rollback(undefined, true), [1, ['20240102_alter', '20240101_init']]);
    assert.equal(await knex.schema.hasTable('books'), false);
  } finally {
    await knex.destroy();
  }
}
