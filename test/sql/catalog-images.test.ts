// The catalog image (sql/catalog-image.ts, decision 0077) over every catalog the SQL corpus makes: each
// test/sql/*.slt file runs on a fresh single-node engine, and after every statement that changed the
// catalog its definitions are written as an image, read back, and must equal the engine's, field for
// field (and read back as one image again). The replicated catalog's compaction writes these images.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { decodeCatalogImage, encodeCatalogImage } from '../../sql/catalog-image.ts';
import { Engine } from '../../sql/engine.ts';
import { corpusFiles, loadScript } from './slt-files.ts';

for (const file of corpusFiles()) {
  const { script } = loadScript(file);
  void test(`${script.name}: every catalog it makes reads back from its image`, async () => {
    const engine = await Engine.create();
    const session = engine.session();
    let version = engine.catalog.version;
    let images = 0;
    for (const r of script.records) {
      if (r.kind !== 'statement' && r.kind !== 'query') continue;
      if (r.conditions.some((c) => (c.kind === 'skipif' ? c.label === 'pesto' : c.label !== 'pesto'))) continue;
      await Promise.resolve(session.execute(r.sql));
      if (engine.catalog.version === version) continue;
      version = engine.catalog.version;
      const before = engine.catalog.snapshot();
      const text = JSON.stringify(encodeCatalogImage(before));
      const read = decodeCatalogImage(JSON.parse(text));
      assert.deepEqual(read, before, `${script.name}:${r.line}: the catalog read back from its image differs`);
      assert.equal(JSON.stringify(encodeCatalogImage(read)), text, `${script.name}:${r.line}: the image of the catalog read back differs`);
      images++;
    }
    assert.ok(images > 0 || !script.records.some((r) => r.kind === 'statement' && /^\s*create\b/i.test(r.sql)), 'a file that creates something made no image');
  });
}
