package catalogviews

import "cdcdb/sql/eval"

// Statement is the eval.Context of a statement that may call the catalog
// functions registered here: package sql's running statement, which gives
// the Session the functions read.
type Statement interface {
	eval.Context
	// CatalogViewSession is the statement as the catalog functions see
	// it.
	CatalogViewSession() Session
}

// sessionOf is the Session of the statement a catalog function runs in:
// package sql evaluates every expression inside a Statement.
func sessionOf(ec eval.Context) Session {
	return ec.(Statement).CatalogViewSession()
}
