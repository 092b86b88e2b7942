"""Drives SQLAlchemy 1.4 (Debian's python3-sqlalchemy, with psycopg2)
(argv: host, port, database): metadata.create_all of tables with a
DEFERRABLE INITIALLY DEFERRED foreign key and a non-native Enum (a CHECK
constraint), rows written through the ORM, a column type change with
USING issued as DDL as a migration would, the reflection the inspector
does (columns, primary key, foreign keys with their timing, indexes,
unique and check constraints), and ORM writes that need the deferred
check. Prints a transcript that the test compares between cdcdb and
PostgreSQL 15, then "SQLALCHEMY OK"."""

import sys

from sqlalchemy import (CheckConstraint, Column, Enum, ForeignKey, Index, Integer, MetaData, String, Table,
                        create_engine, inspect, select, text)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

HOST, PORT, DB = sys.argv[1], sys.argv[2], sys.argv[3]
engine = create_engine("postgresql+psycopg2://cdcdb@/%s?host=%s&port=%s" % (DB, HOST, PORT), future=True)

meta = MetaData()
shops = Table("shops", meta, Column("id", Integer, primary_key=True), Column("name", String(40), nullable=False, unique=True))
orders = Table(
    "orders", meta,
    Column("id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.id", deferrable=True, initially="DEFERRED", ondelete="CASCADE"), nullable=False),
    Column("ref", String(12)),
    Column("state", Enum("open", "paid", name="order_state", native_enum=False, create_constraint=True), nullable=False),
    Column("amount", Integer, CheckConstraint("amount >= 0", name="amount_positive")),
)
Index("orders_shop_state", orders.c.shop_id, orders.c.state)
meta.create_all(engine)


def show(title):
    print("--", title)
    insp = inspect(engine)
    for c in insp.get_columns("orders"):
        print("column", c["name"], c["type"], c["nullable"], c["default"])
    print("pk", insp.get_pk_constraint("orders"))
    for fk in insp.get_foreign_keys("orders"):
        print("fk", fk["name"], fk["constrained_columns"], fk["referred_table"], fk["referred_columns"], sorted(fk["options"].items()))
    for ix in sorted(insp.get_indexes("orders"), key=lambda i: i["name"]):
        print("index", ix["name"], ix["column_names"], ix["unique"])
    for u in insp.get_unique_constraints("shops"):
        print("unique", u["name"], u["column_names"])
    for ck in sorted(insp.get_check_constraints("orders"), key=lambda c: c["name"]):
        print("check", ck["name"], ck["sqltext"])
    with engine.connect() as conn:
        for row in conn.execute(select(orders).order_by(orders.c.id)):
            print("order", tuple(row))


with Session(engine) as s, s.begin():
    # An order before its shop: the deferred foreign key waits for commit.
    s.execute(orders.insert(), [{"id": 1, "shop_id": 7, "ref": "0042", "state": "open", "amount": 5},
                                {"id": 2, "shop_id": 7, "ref": "0043", "state": "paid", "amount": 7}])
    s.execute(shops.insert(), {"id": 7, "name": "corner"})
show("created")

with engine.begin() as conn:
    conn.execute(text('ALTER TABLE orders ALTER COLUMN ref TYPE integer USING ref::integer'))
    conn.execute(text('ALTER TABLE orders ALTER COLUMN amount TYPE bigint'))
show("altered")

for values, what in (({"id": 3, "shop_id": 8, "state": "open", "amount": 1}, "missing shop"),
                     ({"id": 4, "shop_id": 7, "state": "lost", "amount": 1}, "bad state"),
                     ({"id": 5, "shop_id": 7, "state": "open", "amount": -1}, "negative amount")):
    try:
        with Session(engine) as s, s.begin():
            s.execute(orders.insert(), values)
        print(what, "accepted")
    except IntegrityError as e:
        print(what, "refused:", e.orig.pgcode)
with engine.begin() as conn:
    conn.execute(shops.delete().where(shops.c.id == 7))
show("shop deleted")
print("SQLALCHEMY OK")
