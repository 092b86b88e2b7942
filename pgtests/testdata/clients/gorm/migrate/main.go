// Command migrate drives a schema migration through GORM's AutoMigrate and
// its Migrator (gorm.io/gorm with its pgx-based PostgreSQL driver), then
// database/sql and sqlx over pgx's stdlib: tables made from one version of
// the models, rows written, and AutoMigrate of the next version, which
// widens a varchar, turns an integer into a bigint and a varchar into a
// bigint (ALTER COLUMN ... TYPE ... USING) and adds a column; what the
// Migrator reads back from the catalog; INSERT ... RETURNING with
// parameters and sqlx struct scans. Args: a connection URL. Prints a
// transcript that the test compares between cdcdb and PostgreSQL 15, then
// "GORM MIGRATE OK", or exits non-zero with the reason.
package main

import (
	"fmt"
	"os"
	"sort"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

type Owner struct {
	ID   uint `gorm:"primaryKey"`
	Name string
}

// ItemV1 and ItemV2 are two versions of one model, table items.
type ItemV1 struct {
	ID      uint   `gorm:"primaryKey"`
	Name    string `gorm:"size:50;not null"`
	Qty     int32
	Code    string `gorm:"size:20;index"`
	OwnerID uint
	Owner   Owner
}

func (ItemV1) TableName() string { return "items" }

type ItemV2 struct {
	ID      uint   `gorm:"primaryKey"`
	Name    string `gorm:"size:200;not null"`
	Qty     int64
	Code    int64 `gorm:"index"`
	Note    *string
	OwnerID uint
	Owner   Owner
}

func (ItemV2) TableName() string { return "items" }

func must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(1)
	}
}

func showColumns(db *gorm.DB, title string) {
	fmt.Println("--", title)
	cols, err := db.Migrator().ColumnTypes("items")
	must(err, "ColumnTypes")
	for _, c := range cols {
		length, hasLength := c.Length()
		nullable, _ := c.Nullable()
		pk, _ := c.PrimaryKey()
		unique, _ := c.Unique()
		def, hasDefault := c.DefaultValue()
		fmt.Printf("column %s %s length=%d/%v nullable=%v pk=%v unique=%v default=%q/%v\n",
			c.Name(), c.DatabaseTypeName(), length, hasLength, nullable, pk, unique, def, hasDefault)
	}
	indexes, err := db.Migrator().GetIndexes("items")
	must(err, "GetIndexes")
	var names []string
	for _, ix := range indexes {
		u, _ := ix.Unique()
		names = append(names, fmt.Sprintf("%s%v unique=%v", ix.Name(), ix.Columns(), u))
	}
	sort.Strings(names)
	fmt.Println("indexes", names)
	fmt.Println("has fk", db.Migrator().HasConstraint(&ItemV2{}, "Owner"), "has index", db.Migrator().HasIndex(&ItemV2{}, "Code"))
}

type itemRow struct {
	ID    int64   `db:"id"`
	Name  string  `db:"name"`
	Qty   int64   `db:"qty"`
	Code  int64   `db:"code"`
	Note  *string `db:"note"`
	Owner int64   `db:"owner_id"`
}

func main() {
	url := os.Args[1]
	db, err := gorm.Open(postgres.Open(url), &gorm.Config{Logger: logger.Discard})
	must(err, "open")
	must(db.AutoMigrate(&Owner{}, &ItemV1{}), "AutoMigrate v1")
	showColumns(db, "v1")
	must(db.Create(&Owner{ID: 1, Name: "ana"}).Error, "owner")
	must(db.Create(&[]ItemV1{{Name: "bolt", Qty: 10, Code: "4711", OwnerID: 1}, {Name: "nut", Qty: 20, Code: "0815", OwnerID: 1}}).Error, "items v1")

	must(db.AutoMigrate(&ItemV2{}), "AutoMigrate v2")
	showColumns(db, "v2")
	var items []ItemV2
	must(db.Order("id").Find(&items).Error, "read v2")
	for _, it := range items {
		fmt.Printf("item %d %s %d %d %v\n", it.ID, it.Name, it.Qty, it.Code, it.Note)
	}
	long := "a name longer than the fifty characters the first version of the model allowed"
	must(db.Create(&ItemV2{Name: long, Qty: 1 << 40, Code: 1 << 40, OwnerID: 1}).Error, "item v2")
	// AutoMigrate again changes nothing.
	must(db.AutoMigrate(&ItemV2{}), "AutoMigrate v2 again")

	// database/sql and sqlx over pgx's stdlib.
	x, err := sqlx.Connect("pgx", url)
	must(err, "sqlx connect")
	defer x.Close()
	var id int64
	var name string
	must(x.QueryRow("INSERT INTO items (name, qty, code, owner_id) VALUES ($1, $2, $3, $4) RETURNING id, name", "washer", 5, 42, 1).Scan(&id, &name), "INSERT RETURNING")
	fmt.Println("returning", id, name)
	rows, err := x.NamedQuery("INSERT INTO items (name, qty, code, note, owner_id) VALUES (:name, :qty, :code, :note, :owner_id) RETURNING *",
		map[string]any{"name": "screw", "qty": 7, "code": 43, "note": "m4", "owner_id": 1})
	must(err, "NamedQuery")
	for rows.Next() {
		var r itemRow
		must(rows.StructScan(&r), "StructScan")
		fmt.Printf("named %d %s %d %d %s %d\n", r.ID, r.Name, r.Qty, r.Code, *r.Note, r.Owner)
	}
	must(rows.Err(), "NamedQuery rows")
	var got []itemRow
	must(x.Select(&got, "SELECT id, name, qty, code, note, owner_id FROM items WHERE qty >= $1 ORDER BY id", 5), "Select")
	for _, r := range got {
		fmt.Printf("select %d %s %d %d %v %d\n", r.ID, r.Name, r.Qty, r.Code, r.Note != nil, r.Owner)
	}
	var one itemRow
	must(x.Get(&one, "SELECT * FROM items WHERE code = $1", 4711), "Get")
	fmt.Println("get", one.ID, one.Name)
	fmt.Println("GORM MIGRATE OK")
}
