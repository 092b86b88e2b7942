"""Drives cdcdb through Django 3.2's ORM (Debian's python3-django, with
psycopg2) (argv: host, port): nested transaction.atomic blocks, which
Django runs as savepoints, the inner one failing on a duplicate key and
rolled back to its savepoint while the outer block commits; an explicit
savepoint rolled back by hand. Prints "DJANGO OK" or fails with the
reason."""

import sys

import django
from django.conf import settings

HOST, PORT = sys.argv[1], sys.argv[2]

settings.configure(
    DATABASES={
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": "main",
            "USER": "cdcdb",
            "HOST": HOST,
            "PORT": PORT,
        }
    },
    INSTALLED_APPS=[],
    USE_TZ=True,
)
django.setup()

from django.db import IntegrityError, connection, models, transaction  # noqa: E402


class Account(models.Model):
    owner = models.TextField()

    class Meta:
        app_label = "cdcdb_test"
        db_table = "accounts"


def check(ok, what):
    if not ok:
        raise SystemExit("check failed: " + what)


with connection.cursor() as cur:
    cur.execute("CREATE TABLE accounts (id int PRIMARY KEY, owner text NOT NULL)")

with transaction.atomic():
    Account.objects.create(id=1, owner="ana")
    try:
        with transaction.atomic():
            Account.objects.create(id=2, owner="bo")
            Account.objects.create(id=1, owner="duplicate")
        check(False, "the duplicate key was accepted")
    except IntegrityError:
        pass
    # The outer block goes on after its inner one rolled back.
    with transaction.atomic():
        Account.objects.create(id=3, owner="cy")
        with transaction.atomic():
            Account.objects.create(id=4, owner="di")
    sid = transaction.savepoint()
    Account.objects.create(id=5, owner="ed")
    transaction.savepoint_rollback(sid)
    sid = transaction.savepoint()
    Account.objects.create(id=6, owner="flo")
    transaction.savepoint_commit(sid)

got = [(a.id, a.owner) for a in Account.objects.order_by("id")]
check(got == [(1, "ana"), (3, "cy"), (4, "di"), (6, "flo")], "accounts after commit: %r" % (got,))

# An atomic block whose exception escapes rolls everything back.
try:
    with transaction.atomic():
        Account.objects.create(id=7, owner="gus")
        with transaction.atomic():
            Account.objects.create(id=8, owner="hal")
        raise RuntimeError("give up")
except RuntimeError:
    pass
check(Account.objects.count() == 4, "rows after a failed outer block: %d" % Account.objects.count())
print("DJANGO OK")
