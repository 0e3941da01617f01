# The Django check run by test/gateway/django.test.ts against a fresh, empty database (the Pesto
# gateway, or PostgreSQL 15 to prove the expectations): migrate twice, makemigrations --check, ORM
# reads and writes, transaction.atomic with a rollback, and inspectdb, whose output is written to the
# file named by the first argument (the test compares it with PostgreSQL's, inspectdb.expected).
# Every step asserts the values Django must get back; the last line printed is "django check ok".
import datetime
import decimal
import io
import os
import sys

os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'settings')
import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import IntegrityError, connection, transaction  # noqa: E402
from django.db.models.functions import Lower  # noqa: E402
from shop.models import Account, Category, Product, Tag  # noqa: E402


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out, no_color=True)
    return out.getvalue()


def expect(what, got, want):
    if got != want:
        raise AssertionError(f'{what}: got {got!r}, want {want!r}')


first = run('migrate', '--noinput')
expect('first migrate applies shop', '  Applying shop.0001_initial... OK' in first, True)
expect('first migrate applies shop 0002', '  Applying shop.0002_account... OK' in first, True)
expect('first migrate applies auth', '  Applying auth.0012_alter_user_first_name_max_length... OK' in first, True)
expect('second migrate', run('migrate', '--noinput').strip().splitlines()[-1], '  No migrations to apply.')
try:
    expect('makemigrations --check', run('makemigrations', '--check', '--dry-run').strip(), 'No changes detected')
except SystemExit as e:
    raise AssertionError(f'makemigrations --check exited {e.code}')
print('migrations ok')

# The constraints Django made, as the catalog shows them.
with connection.cursor() as c:
    c.execute("SELECT conname, contype, condeferrable, condeferred FROM pg_constraint WHERE conrelid = 'shop_product'::regclass ORDER BY conname")
    expect('shop_product constraints', [r[1:] for r in c.fetchall()], [('f', True, True), ('p', False, False)])

when = datetime.datetime(2024, 5, 17, 10, 30, 15, 250000, tzinfo=datetime.timezone.utc)
books = Category.objects.create(name='Books', slug='books')
games = Category.objects.create(name='Games', slug='games')
red, blue = Tag.objects.create(label='red'), Tag.objects.create(label='blue')
p1 = Product.objects.create(category=books, name='Dune', description='A novel', stock=3, added=when,
                            price=decimal.Decimal('12.50'), attributes={'pages': 412, 'tags': ['sf', 'classic']})
p2 = Product.objects.create(category=games, name='Chess', stock=0, added=when, active=False,
                            price=decimal.Decimal('30.00'), attributes={'players': 2})
p1.tags.add(red, blue)
p2.tags.add(red)

got = Product.objects.get(pk=p1.pk)
expect('read back', (got.name, got.description, got.stock, got.added, got.active, got.price, got.attributes),
       ('Dune', 'A novel', 3, when, True, decimal.Decimal('12.50'), {'pages': 412, 'tags': ['sf', 'classic']}))
expect('filter', list(Product.objects.filter(stock__gt=0, active=True).values_list('name', flat=True)), ['Dune'])
expect('filter json', list(Product.objects.filter(attributes__players=2).values_list('name', flat=True)), ['Chess'])
expect('icontains', list(Product.objects.filter(name__icontains='ches').values_list('name', flat=True)), ['Chess'])
expect('m2m', sorted(t.label for t in p1.tags.all()), ['blue', 'red'])
expect('m2m reverse', list(red.products.order_by('name').values_list('name', flat=True)), ['Chess', 'Dune'])
with_cat = list(Product.objects.select_related('category').order_by('name'))
expect('select_related', [(p.name, p.category.name) for p in with_cat], [('Chess', 'Games'), ('Dune', 'Books')])
expect('update', Product.objects.filter(category=books).update(stock=5), 1)
expect('updated', Product.objects.get(pk=p1.pk).stock, 5)
expect('aggregate', Product.objects.filter(active=True).count(), 1)

try:
    with transaction.atomic():
        Product.objects.filter(pk=p1.pk).update(stock=99)
        Category.objects.create(name='Toys', slug='toys')
        raise RuntimeError('roll back')
except RuntimeError:
    pass
expect('atomic rolled back', (Product.objects.get(pk=p1.pk).stock, Category.objects.filter(name='Toys').count()), (5, 0))
with transaction.atomic():
    Tag.objects.create(label='green')
    try:
        with transaction.atomic():
            Tag.objects.create(label='red')
    except IntegrityError:
        pass
expect('savepoint after unique violation', sorted(Tag.objects.values_list('label', flat=True)), ['blue', 'green', 'red'])

# The foreign key is DEFERRABLE INITIALLY DEFERRED: a missing category fails at COMMIT.
try:
    with transaction.atomic():
        Product.objects.create(category_id=999, name='Ghost', added=when, price=decimal.Decimal('1.00'))
    raise AssertionError('a product of a missing category committed')
except IntegrityError as e:
    expect('deferred violation', 'violates foreign key constraint' in str(e), True)
expect('no ghost', Product.objects.filter(name='Ghost').count(), 0)

expect('delete cascades (in Django)', Category.objects.filter(name='Games').delete()[0], 3)
expect('left', list(Product.objects.values_list('name', flat=True)), ['Dune'])
print('orm ok')

# Migration 0002: a partial unique constraint (UniqueConstraint(condition=Q(...))) and a functional index
# (Index(Lower(...))), as the catalog and Django's introspection see them, and enforced.
with connection.cursor() as c:
    c.execute("SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
              " WHERE i.indrelid = 'shop_account'::regclass ORDER BY 1")
    expect('shop_account indexes', c.fetchall(), [
        ('shop_account_email_lower', 'CREATE INDEX shop_account_email_lower ON public.shop_account USING btree (lower((email)::text))'),
        ('shop_account_live_name', 'CREATE UNIQUE INDEX shop_account_live_name ON public.shop_account USING btree (name) WHERE (NOT deleted)'),
        ('shop_account_pkey', 'CREATE UNIQUE INDEX shop_account_pkey ON public.shop_account USING btree (id)'),
    ])
    found = connection.introspection.get_constraints(c, 'shop_account')
    expect('introspected index', {k: found['shop_account_email_lower'][k] for k in ('columns', 'unique', 'index', 'definition')},
           {'columns': [], 'unique': False, 'index': True,
            'definition': 'CREATE INDEX shop_account_email_lower ON public.shop_account USING btree (lower((email)::text))'})
    expect('introspected constraint', {k: found['shop_account_live_name'][k] for k in ('columns', 'unique', 'index')},
           {'columns': ['name'], 'unique': True, 'index': True})
Account.objects.create(email='Ann@Example.com', name='ann')
Account.objects.create(email='old@example.com', name='ann', deleted=True)
try:
    with transaction.atomic():
        Account.objects.create(email='ann2@example.com', name='ann')
    raise AssertionError('a second live account named ann committed')
except IntegrityError as e:
    expect('partial unique violation', 'shop_account_live_name' in str(e), True)
expect('lower lookup', list(Account.objects.annotate(e=Lower('email')).filter(e='ann@example.com').values_list('name', 'deleted')), [('ann', False)])
expect('retire', Account.objects.filter(name='ann', deleted=False).update(deleted=True), 1)
Account.objects.create(email='ann3@example.com', name='ann')
expect('accounts', sorted(Account.objects.values_list('email', 'deleted')),
       [('Ann@Example.com', True), ('ann3@example.com', False), ('old@example.com', True)])
print('constraints ok')

with open(sys.argv[1], 'w') as f:
    call_command('inspectdb', 'shop_category', 'shop_product', 'shop_tag', 'shop_product_tags', stdout=f, no_color=True)
print('django check ok')
