// Command gorm drives cdcdb through GORM (gorm.io/gorm with its pgx-based
// PostgreSQL driver): nested db.Transaction calls, which GORM runs as
// savepoints, one of them failing and rolled back to its savepoint while
// the outer transaction commits; SavePoint and RollbackTo by hand.
// Args: a connection URL. Prints "GORM OK" or exits non-zero with the
// reason.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

type Account struct {
	ID    int `gorm:"primaryKey;autoIncrement:false"`
	Owner string
}

func check(ok bool, format string, args ...any) {
	if !ok {
		fmt.Fprintf(os.Stderr, "check failed: "+format+"\n", args...)
		os.Exit(1)
	}
}

func owners(db *gorm.DB) string {
	var accounts []Account
	if err := db.Order("id").Find(&accounts).Error; err != nil {
		fmt.Fprintln(os.Stderr, "reading accounts:", err)
		os.Exit(1)
	}
	var out []string
	for _, a := range accounts {
		out = append(out, fmt.Sprintf("%d%s", a.ID, a.Owner))
	}
	return strings.Join(out, ",")
}

func main() {
	db, err := gorm.Open(postgres.Open(os.Args[1]), &gorm.Config{Logger: logger.Discard})
	check(err == nil, "open: %v", err)
	check(db.Exec("CREATE TABLE accounts (id int PRIMARY KEY, owner text NOT NULL)").Error == nil, "create table")

	errInner := errors.New("inner block gives up")
	err = db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&Account{ID: 1, Owner: "ana"}).Error; err != nil {
			return err
		}
		// A nested transaction that returns an error: GORM rolls back to
		// its savepoint, and the outer one goes on.
		err := tx.Transaction(func(tx2 *gorm.DB) error {
			if err := tx2.Create(&Account{ID: 2, Owner: "bo"}).Error; err != nil {
				return err
			}
			return errInner
		})
		if !errors.Is(err, errInner) {
			return fmt.Errorf("nested transaction returned %v", err)
		}
		// One whose statement fails in the server (a duplicate key).
		err = tx.Transaction(func(tx2 *gorm.DB) error {
			return tx2.Create(&Account{ID: 1, Owner: "duplicate"}).Error
		})
		if err == nil || !strings.Contains(err.Error(), "23505") {
			return fmt.Errorf("duplicate insert in a nested transaction returned %v", err)
		}
		// Two levels that succeed.
		if err := tx.Transaction(func(tx2 *gorm.DB) error {
			if err := tx2.Create(&Account{ID: 3, Owner: "cy"}).Error; err != nil {
				return err
			}
			return tx2.Transaction(func(tx3 *gorm.DB) error {
				return tx3.Create(&Account{ID: 4, Owner: "di"}).Error
			})
		}); err != nil {
			return err
		}
		// SavePoint and RollbackTo by hand.
		tx.SavePoint("by_hand")
		tx.Create(&Account{ID: 5, Owner: "ed"})
		tx.RollbackTo("by_hand")
		return tx.Error
	})
	check(err == nil, "outer transaction: %v", err)
	got := owners(db)
	check(got == "1ana,3cy,4di", "accounts after commit: %s", got)
	fmt.Println("GORM OK")
}
