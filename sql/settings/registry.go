package settings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"cdcdb/pgerror"
)

// Def describes one run-time parameter (GUC).
type Def struct {
	// Name is the canonical spelling SHOW and ParameterStatus use.
	Name    string
	Default string
	// Report marks the parameters PostgreSQL 15 reports to the client in
	// ParameterStatus, at startup and whenever they change.
	Report bool
	// Context is when the parameter may change (pg_settings' context):
	// SET changes those of ContextUser and ContextSuperuser only.
	Context Context
	// Transaction parameters show and set the current transaction's modes
	// (transaction_isolation, transaction_read_only,
	// transaction_deferrable): the session holds their value, not a
	// setting, so they take no server-wide default and RESET ALL leaves
	// them alone.
	Transaction bool
	// Unit is the base unit of an integer parameter that carries one
	// (UnitMs, UnitKB): SET takes a number of it or a number with another
	// unit of its kind, within Min..Max of it, and SHOW shows the value in
	// the largest unit that holds it whole, as PostgreSQL does.
	Unit string
	// Integer parameters, with a unit or without, take whole numbers
	// within Min..Max (a fraction is rounded to the nearest).
	Integer  bool
	Min, Max int64
	// Normalize validates a new value and returns its canonical form; nil
	// takes any value as it is. It is given the parameter's canonical name
	// for its errors.
	Normalize func(name, v string) (string, error)
	// Desc is the short description SHOW ALL and pg_settings show.
	Desc string
}

var registry = map[string]*Def{}

// Define adds a parameter to the registry. Two definitions of one name
// are a programming error, found at start-up.
func Define(d *Def) {
	ln := strings.ToLower(d.Name)
	if _, dup := registry[ln]; dup {
		panic(fmt.Sprintf("settings: parameter %q defined twice", d.Name))
	}
	registry[ln] = d
}

// Lookup finds a parameter by its name in lower case.
func Lookup(ln string) (*Def, bool) {
	d, ok := registry[ln]
	return d, ok
}

// All returns every parameter keyed by its lower-case name. The map is the
// registry's own: callers must not change it.
func All() map[string]*Def { return registry }

// Names lists every parameter's canonical name, sorted as SHOW ALL and
// pg_settings list them.
func Names() []string {
	var names []string
	for _, d := range registry {
		names = append(names, d.Name)
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names
}

// Check validates a value that SET gives the parameter and returns its
// canonical form: 55P02 for a parameter its context keeps from SET, 22023
// for a bad value (or the normalizer's own error).
func (d *Def) Check(value string) (string, error) {
	if !d.Context.Settable() {
		return "", d.CannotChange()
	}
	if d.Integer {
		return d.checkQuantity(value)
	}
	if d.Normalize == nil {
		return value, nil
	}
	return d.Normalize(d.Name, value)
}

// Context is when a parameter may change, as PostgreSQL's GucContext.
type Context int8

const (
	// ContextUser: any session may SET it.
	ContextUser Context = iota
	// ContextSuperuser: a superuser may SET it.
	ContextSuperuser
	// ContextBackend: set at connection start only.
	ContextBackend
	// ContextSighup: set in the server's configuration only.
	ContextSighup
	// ContextPostmaster: set at server start only.
	ContextPostmaster
	// ContextInternal: never set; it describes the build or the server.
	ContextInternal
)

// String is the context as pg_settings shows it.
func (c Context) String() string {
	switch c {
	case ContextSuperuser:
		return "superuser"
	case ContextBackend:
		return "backend"
	case ContextSighup:
		return "sighup"
	case ContextPostmaster:
		return "postmaster"
	case ContextInternal:
		return "internal"
	}
	return "user"
}

// Settable reports whether SET may change a parameter of the context.
func (c Context) Settable() bool { return c == ContextUser || c == ContextSuperuser }

// CannotChange is PostgreSQL's error (55P02) for a SET or RESET that the
// parameter's context does not allow.
func (d *Def) CannotChange() error {
	name := d.Name
	switch d.Context {
	case ContextBackend:
		return pgerror.New(pgerror.CantChangeRuntimeParam, "parameter \"%s\" cannot be set after connection start", name)
	case ContextSighup:
		return pgerror.New(pgerror.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed now", name)
	case ContextPostmaster:
		return pgerror.New(pgerror.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed without restarting the server", name)
	}
	return pgerror.New(pgerror.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", name)
}

// Unrecognized is PostgreSQL's error for a parameter name it does not know.
func Unrecognized(name string) error {
	return pgerror.New(pgerror.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
}

func init() {
	for _, d := range []*Def{
		{Name: "application_name", Default: "", Report: true, Desc: "Sets the application name to be reported in statistics and logs."},
		{Name: "client_encoding", Default: "UTF8", Report: true, Normalize: normalizeEncoding, Desc: "Sets the client's character set encoding."},
		{Name: "DateStyle", Default: "ISO, MDY", Report: true, Normalize: normalizeDateStyle, Desc: "Sets the display format for date and time values."},
		{Name: "default_transaction_read_only", Default: "off", Report: true, Normalize: NormalizeBool, Desc: "Sets the default read-only status of new transactions."},
		{Name: "in_hot_standby", Default: "off", Report: true, Context: ContextInternal, Desc: "Shows whether hot standby is currently active."},
		{Name: "integer_datetimes", Default: "on", Report: true, Context: ContextInternal, Desc: "Shows whether datetimes are integer based."},
		{Name: "IntervalStyle", Default: "postgres", Report: true, Normalize: OneOf("postgres"), Desc: "Sets the display format for interval values."},
		{Name: "is_superuser", Default: "on", Report: true, Context: ContextInternal, Desc: "Shows whether the current user is a superuser."},
		{Name: "server_encoding", Default: "UTF8", Report: true, Context: ContextInternal, Desc: "Shows the server (database) character set encoding."},
		{Name: "session_authorization", Default: "", Report: true, Desc: "Sets the session user name."},
		{Name: "standard_conforming_strings", Default: "on", Report: true, Normalize: onlyOn, Desc: "Causes '...' strings to treat backslashes literally."},
		{Name: "TimeZone", Default: "UTC", Report: true, Normalize: normalizeTimeZone, Desc: "Sets the time zone for displaying and interpreting time stamps."},
		{Name: "search_path", Default: `"$user", public`, Normalize: normalizeSearchPath, Desc: "Sets the schema search order for names that are not schema-qualified."},
		{Name: "statement_timeout", Default: "0", Unit: UnitMs, Integer: true, Max: math.MaxInt32, Desc: "Sets the maximum allowed duration of any statement."},
		{Name: "lock_timeout", Default: "0", Unit: UnitMs, Integer: true, Max: math.MaxInt32, Desc: "Sets the maximum allowed duration of any wait for a lock."},
		{Name: "idle_in_transaction_session_timeout", Default: "0", Unit: UnitMs, Integer: true, Max: math.MaxInt32, Desc: "Sets the maximum allowed idle time between queries, when in a transaction."},
		{Name: "extra_float_digits", Default: "1", Integer: true, Min: -15, Max: 3, Desc: "Sets the number of digits displayed for floating-point values."},
		{Name: "client_min_messages", Default: "notice", Normalize: OneOf("debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"), Desc: "Sets the message levels that are sent to the client."},
		{Name: "transaction_isolation", Default: "read committed", Transaction: true, Normalize: normalizeIsolation, Desc: "Sets the current transaction's isolation level."},
		{Name: "default_transaction_isolation", Default: "read committed", Normalize: normalizeIsolation, Desc: "Sets the transaction isolation level of each new transaction."},
		{Name: "transaction_read_only", Default: "off", Transaction: true, Normalize: NormalizeBool, Desc: "Sets the current transaction's read-only status."},
		{Name: "transaction_deferrable", Default: "off", Transaction: true, Normalize: NormalizeBool, Desc: "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures."},
		{Name: "default_transaction_deferrable", Default: "off", Normalize: NormalizeBool, Desc: "Sets the default deferrable status of new transactions."},
		{Name: "max_identifier_length", Default: "63", Context: ContextInternal, Desc: "Shows the maximum identifier length."},
		{Name: "bytea_output", Default: "hex", Normalize: OneOf("hex"), Desc: "Sets the output format for bytea."},
		{Name: "synchronous_commit", Default: "on", Normalize: OneOf("on", "off", "local", "remote_write", "remote_apply"), Desc: "Sets the current transaction's synchronization level."},
		{Name: "row_security", Default: "on", Normalize: NormalizeBool, Desc: "Enable row security."},
		// cdcdb never synchronizes scans (each starts at its table's
		// first key), which both values allow: pg_dump sets it off.
		{Name: "synchronize_seqscans", Default: "on", Normalize: NormalizeBool, Desc: "Enable synchronized sequential scans."},
		{Name: "work_mem", Default: "4MB", Unit: UnitKB, Integer: true, Min: 64, Max: math.MaxInt32, Desc: "Sets the maximum memory to be used for query workspaces."},
		{Name: "max_connections", Default: "100", Context: ContextPostmaster, Desc: "Sets the maximum number of concurrent connections."},
		{Name: "lc_collate", Default: "C", Context: ContextInternal, Desc: "Shows the collation order locale."},
		{Name: "lc_ctype", Default: "C", Context: ContextInternal, Desc: "Shows the character classification and case conversion locale."},
		{Name: "lc_messages", Default: "C", Context: ContextSuperuser, Desc: "Sets the language in which messages are displayed."},
		{Name: "lc_monetary", Default: "C", Desc: "Sets the locale for formatting monetary amounts."},
		{Name: "lc_numeric", Default: "C", Desc: "Sets the locale for formatting numbers."},
		{Name: "lc_time", Default: "C", Desc: "Sets the locale for formatting date and time values."},
		{Name: "block_size", Default: "8192", Context: ContextInternal, Desc: "Shows the size of a disk block."},
	} {
		Define(d)
	}
}
