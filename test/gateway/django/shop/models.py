# The models of the Django check: a foreign key, unique and indexed columns, a many-to-many, one
# field of each common type, and a partial unique constraint and a functional index.
from django.db import models
from django.db.models.functions import Lower


class Category(models.Model):
    name = models.CharField(max_length=50, unique=True)
    slug = models.CharField(max_length=50, db_index=True)

    def __str__(self):
        return self.name


class Tag(models.Model):
    label = models.CharField(max_length=30, unique=True)


class Product(models.Model):
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name='products')
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    stock = models.IntegerField(default=0)
    added = models.DateTimeField()
    active = models.BooleanField(default=True)
    price = models.DecimalField(max_digits=8, decimal_places=2)
    attributes = models.JSONField(default=dict)
    tags = models.ManyToManyField(Tag, related_name='products')

    class Meta:
        indexes = [models.Index(fields=['name', 'stock'], name='shop_product_name_stock')]


class Account(models.Model):
    email = models.CharField(max_length=100)
    name = models.CharField(max_length=50)
    deleted = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(Lower('email'), name='shop_account_email_lower')]
        constraints = [models.UniqueConstraint(fields=['name'], condition=models.Q(deleted=False), name='shop_account_live_name')]
