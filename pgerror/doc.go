// Package pgerror is the one place where errors get their PostgreSQL SQLSTATE.
//
// Every layer that refuses something a client asked for returns an *Error built
// here, so the wire layer can send the client PostgreSQL's own code, message,
// detail, hint and position without knowing where the error came from. Errors
// that are not *Error (a bug, an I/O failure) reach the client as XX000.
//
// This package imports nothing of cdcdb's and must stay that way: it sits under
// every other package.
package pgerror
