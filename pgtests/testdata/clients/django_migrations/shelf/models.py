"""The models as the migrations leave them (migrate reads the migrations,
not these; they are here for the queries of cdcdb_django_migrate.py)."""

from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=200)

    class Meta:
        app_label = "shelf"


class Book(models.Model):
    title = models.CharField(max_length=100)
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
    editor = models.ForeignKey(Author, null=True, on_delete=models.SET_NULL, related_name="edited")
    pages = models.BigIntegerField()
    isbn = models.IntegerField(null=True)

    class Meta:
        app_label = "shelf"
