"""SQLAlchemy 1.4 (psycopg2 dialect) against a PostgreSQL server: MetaData.create_all twice (the second
a no-op through has_table), an ORM session's add, commit, query, update and delete, and reflection with
inspect() and MetaData.reflect(). Prints what it reflected as one JSON document, which the test compares
with what PostgreSQL 15 reflects for the same schema.

Usage: sqlalchemy_check.py PORT USER PASSWORD DATABASE PREFIX (tables are named PREFIX_parent, ...)."""
import json
import os
import sys

from sqlalchemy import (CheckConstraint, Column, ForeignKey, Identity, Index, Integer, MetaData, Numeric,
                        Sequence, String, Table, Text, create_engine, event, inspect, select, text)
from sqlalchemy.orm import Session, registry

port, user, password, database, prefix = sys.argv[1:6]
engine = create_engine(f'postgresql+psycopg2://{user}:{password}@127.0.0.1:{port}/{database}', future=True)
created = []
@event.listens_for(engine, 'before_cursor_execute')
def _log(conn, cursor, statement, parameters, context, executemany):
    if os.environ.get('SQLALCHEMY_CHECK_LOG'):
        print(statement, parameters, file=sys.stderr)
    if statement.lstrip().upper().startswith('CREATE'):
        created.append(statement.split('(')[0].strip())

P = f'{prefix}_parent'
C = f'{prefix}_child'
V = f'{prefix}_view'
S = f'{prefix}_seq'
meta = MetaData()
parent = Table(P, meta,
               Column('id', Integer, primary_key=True),
               Column('name', String(50), nullable=False, unique=True),
               Column('score', Numeric(8, 2), server_default=text('0')))
child = Table(C, meta,
              Column('id', Integer, Identity(), primary_key=True),
              Column('parent_id', Integer, ForeignKey(f'{P}.id', ondelete='CASCADE'), nullable=False),
              Column('qty', Integer, CheckConstraint('qty > 0', name=f'{prefix}_qty_positive')),
              Column('note', Text, server_default='none'),
              Column('code', Integer, Sequence(S)),
              Index(f'{prefix}_child_parent_note', 'parent_id', 'note', unique=True),
              Index(f'{prefix}_child_qty', 'qty'))

meta.create_all(engine)
first = list(created)
meta.create_all(engine)
second = created[len(first):]
with engine.begin() as conn:
    conn.execute(text(f'CREATE VIEW {V} AS SELECT c.id, p.name, c.qty FROM {C} c JOIN {P} p ON p.id = c.parent_id'))

mapper = registry()
class Parent:
    pass
class Child:
    pass
mapper.map_imperatively(Parent, parent)
mapper.map_imperatively(Child, child)

orm = {}
with Session(engine) as s:
    a = Parent(); a.name = 'ann'; a.score = 1.5
    b = Parent(); b.name = 'bob'
    s.add_all([a, b])
    s.commit()
    orm['parent_ids'] = [a.id, b.id]
    for q in (3, 4):
        c = Child(); c.parent_id = a.id; c.qty = q; c.note = f'n{q}'
        s.add(c)
    c = Child(); c.parent_id = b.id; c.qty = 5
    s.add(c)
    s.commit()
    rows = s.execute(select(Child).order_by(Child.id)).scalars().all()
    orm['children'] = [[r.id, r.parent_id, r.qty, r.note, r.code] for r in rows]
    rows[0].qty = 30
    s.commit()
    s.delete(b)
    s.commit()
    orm['after'] = [[r.id, r.qty, r.note] for r in s.execute(select(Child).order_by(Child.id)).scalars().all()]
    orm['parents'] = [[p.name, str(p.score)] for p in s.execute(select(Parent).order_by(Parent.id)).scalars().all()]

def typed(col):
    out = dict(col)
    out['type'] = repr(col['type'])
    if 'identity' in out:
        out['identity'] = {k: out['identity'][k] for k in ('start', 'increment', 'always') if k in out['identity']}
    return out

insp = inspect(engine)
mine = lambda names: sorted(n for n in names if n.startswith(prefix))
reflected = {
    # The indexes of a table are created in no fixed order.
    'create_all': {'first': sorted(first), 'second': second},
    'orm': orm,
    'tables': mine(insp.get_table_names()),
    'views': mine(insp.get_view_names()),
    'sequences': mine(insp.get_sequence_names()),
    'columns': {t: [typed(c) for c in insp.get_columns(t)] for t in (P, C, V)},
    'pk': {t: insp.get_pk_constraint(t) for t in (P, C)},
    'fks': {t: insp.get_foreign_keys(t) for t in (P, C)},
    'indexes': {t: sorted(insp.get_indexes(t), key=lambda i: i['name']) for t in (P, C)},
    'uniques': {t: insp.get_unique_constraints(t) for t in (P, C)},
    'checks': {t: insp.get_check_constraints(t) for t in (P, C)},
}
meta2 = MetaData()
meta2.reflect(engine, only=[P, C, V], views=True)
reflected['reflect'] = {
    name: {
        'columns': [[c.name, repr(c.type), c.nullable, c.primary_key, c.server_default is not None] for c in t.columns],
        'fks': sorted([fk.parent.name, fk.target_fullname, fk.ondelete] for fk in t.foreign_keys),
        'indexes': sorted([i.name, i.unique, [c.name for c in i.columns]] for i in t.indexes),
        'constraints': sorted([type(k).__name__, k.name] for k in t.constraints if k.name is not None),
    } for name, t in sorted(meta2.tables.items())
}
with engine.begin() as conn:
    conn.execute(text(f'DROP VIEW {V}'))
meta.drop_all(engine)
reflected['dropped'] = mine(inspect(engine).get_table_names())
print(json.dumps(reflected, indent=1, sort_keys=True, default=str))
