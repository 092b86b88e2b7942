"""Runs Django 3.2's migrate (Debian's python3-django, with psycopg2) on the
app in django_migrations/ (argv: host, port, database): tables made with a
DEFERRABLE INITIALLY DEFERRED foreign key, then a migration that changes
column types (varchar(50) to varchar(200), integer to bigint, varchar to
integer with USING) on rows already there and adds a foreign key column;
writes through the ORM that need the deferred check (a book before its
author; an author that never comes); inspectdb; the migration undone and
done again. Prints what a test compares between cdcdb and PostgreSQL 15,
then "DJANGO MIGRATE OK"."""

import io
import os
import sys

import django
from django.conf import settings

HOST, PORT, DB = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "django_migrations"))

settings.configure(
    DATABASES={"default": {"ENGINE": "django.db.backends.postgresql", "NAME": DB, "USER": "cdcdb", "HOST": HOST, "PORT": PORT}},
    INSTALLED_APPS=["shelf"],
    USE_TZ=True,
)
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import IntegrityError, connection, transaction  # noqa: E402
from shelf.models import Author, Book  # noqa: E402


def migrate(*args):
    call_command("migrate", "shelf", *args, verbosity=0)


def query(sql):
    with connection.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


def show(title):
    print("--", title)
    for row in query(
        "SELECT table_name, column_name, data_type, character_maximum_length, is_nullable "
        "FROM information_schema.columns WHERE table_name LIKE 'shelf%' ORDER BY table_name, ordinal_position"
    ):
        print("column", row)
    for row in query(
        "SELECT c.conrelid::regclass::text, c.contype, c.condeferrable, c.condeferred, pg_get_constraintdef(c.oid) "
        "FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
        "WHERE t.relname LIKE 'shelf%' ORDER BY 1, 2, 5"
    ):
        print("constraint", row)
    for row in query("SELECT id, title, author_id, pages, isbn FROM shelf_book ORDER BY id"):
        print("book", row)


migrate("0001")
with connection.cursor() as cur:
    cur.execute("INSERT INTO shelf_author (name) VALUES ('Ursula'), ('Italo')")
    cur.execute(
        "INSERT INTO shelf_book (title, pages, isbn, author_id) "
        "SELECT 'Book ' || a.id, 100 * a.id, (9780 + a.id)::text, a.id FROM shelf_author a"
    )
show("after 0001")
migrate()
show("after 0002")

# A book written before its author, in one transaction: the deferred
# foreign key is checked at commit, when the author is there.
with transaction.atomic():
    Book.objects.create(id=50, title="Early", author_id=77, pages=1)
    Author.objects.create(id=77, name="Late")
# An author that never comes: the commit fails, and nothing stays.
try:
    with transaction.atomic():
        Book.objects.create(id=51, title="Orphan", author_id=78, pages=1)
    print("orphan committed")
except IntegrityError as e:
    print("orphan refused at commit:", e.__cause__.pgcode)
print("books", Book.objects.count(), "orphans", Book.objects.filter(id=51).count())
print("editor", Book.objects.filter(editor__isnull=True).count())

out = io.StringIO()
call_command("inspectdb", "shelf_author", "shelf_book", stdout=out)
print("-- inspectdb")
print(out.getvalue())

migrate("0001")
show("undone to 0001")
migrate()
show("done again")
print("DJANGO MIGRATE OK")
