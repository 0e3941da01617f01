exports.up = (pgm) => {
  pgm.createTable('pgm_users', { id: 'id', email: { type: 'varchar(200)', notNull: true, unique: true }, created_at: { type: 'timestamp', notNull: true, default: pgm.func('current_timestamp') } });
  pgm.createTable('pgm_posts', { id: 'id', user_id: { type: 'integer', notNull: true, references: '"pgm_users"', onDelete: 'cascade' }, body: { type: 'text', notNull: true } });
  pgm.createIndex('pgm_posts', 'user_id');
};
exports.down = (pgm) => { pgm.dropTable('pgm_posts'); pgm.dropTable('pgm_users'); };
