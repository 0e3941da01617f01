exports.up = (pgm) => { pgm.addColumn('pgm_users', { name: { type: 'text' } }); };
exports.down = (pgm) => { pgm.dropColumn('pgm_users', 'name'); };
