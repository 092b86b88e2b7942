package wire

// connBackend is a conn seen as the Backend the SQL layer may act on from
// another session (pg_cancel_backend, pg_terminate_backend). Both calls come
// from another goroutine, so they go through conn.mu like a CancelRequest and
// Shutdown do.
type connBackend conn

// Cancel cancels the running statement, as a CancelRequest would.
func (b *connBackend) Cancel() { (*conn)(b).cancelRunning() }

// Terminate asks the connection to end with FATAL 57P01, as Shutdown asks
// every connection: an idle one is woken at once, and a busy one has its
// statement cancelled, whose error then ends the connection
// (statementError).
func (b *connBackend) Terminate() {
	c := (*conn)(b)
	c.requestShutdown()
	c.cancelRunning()
}
