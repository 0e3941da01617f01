# The models of the Django check: a foreign key, unique and indexed columns, a many-to-many, and one
# field of each common type.
from django.db import models


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
