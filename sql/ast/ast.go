package ast

// Node is any syntax tree node.
type Node interface{ node() }

// Statement is a top-level statement.
type Statement interface {
	Node
	stmt()
}

// Expr is a scalar expression.
type Expr interface {
	Node
	expr()
	// Position is the 0-based byte offset of the expression's first token.
	Position() int
}

// ---------------------------------------------------------------- names

// QualifiedName is a possibly qualified object name: [catalog.][schema.]name.
type QualifiedName struct {
	Parts []string
	Pos   int
}

// Name is the last part.
func (q QualifiedName) Name() string {
	if len(q.Parts) == 0 {
		return ""
	}
	return q.Parts[len(q.Parts)-1]
}

// Schema is the part before the name, or "".
func (q QualifiedName) Schema() string {
	if len(q.Parts) < 2 {
		return ""
	}
	return q.Parts[len(q.Parts)-2]
}

// TypeName is a type as written. The SQL-standard keyword spellings are
// canonicalised to PostgreSQL's internal names, as its grammar does: INT and
// INTEGER are "int4", SMALLINT "int2", BIGINT "int8", REAL "float4", FLOAT
// and DOUBLE PRECISION "float8" (FLOAT(p) by p), DECIMAL/NUMERIC "numeric",
// BOOLEAN "bool", CHARACTER VARYING/VARCHAR "varchar", CHAR/CHARACTER
// "bpchar", BIT VARYING "varbit", TIMESTAMP [WITHOUT TIME ZONE] "timestamp",
// TIMESTAMP WITH TIME ZONE "timestamptz", TIME WITH TIME ZONE "timetz".
// Any other name (int4, text, jsonb, serial, "char", a user's type) is kept
// as written, lower-cased unless quoted. Schema is "pg_catalog" when written
// so.
type TypeName struct {
	Schema string
	Name   string
	// Args are the typmod arguments: varchar(10), numeric(10,2),
	// timestamp(3), interval(6). CHAR and BIT without a length get [1]
	// except in a typed constant (char 'abc'), as in PostgreSQL.
	Args      []int
	ArrayDims int // number of [] suffixes (or ARRAY)
	// IntervalFields is the field qualifier of an interval type, upper-case:
	// "DAY", "DAY TO SECOND", ...; the second precision, if any, is Args.
	IntervalFields string
	Pos            int
}

// ---------------------------------------------------------------- queries

// Select is a full query expression: WITH, a body, ORDER BY, LIMIT, OFFSET.
type Select struct {
	With    *With
	Body    SetExpr
	OrderBy []OrderItem
	Limit   Expr // nil when absent; LIMIT ALL is nil too
	Offset  Expr
	// WithTies is FETCH FIRST n ROWS WITH TIES: rows that sort equal to
	// the last of the n are returned too.
	WithTies bool
	// Locking is FOR UPDATE / FOR SHARE ... as written: the rows read
	// are locked to the end of the transaction (sql/selectlock.go).
	Locking string
	Pos     int
}

// With is a WITH clause.
type With struct {
	Recursive bool
	CTEs      []CTE
}

// CTE is one common table expression.
type CTE struct {
	Name    string
	Columns []string
	Query   Statement // *Select, or a data-modifying *Insert/*Update/*Delete
	Pos     int
}

// SetExpr is the body of a query: *SelectCore, *SetOp, *Values or a
// parenthesized *Select.
type SetExpr interface {
	Node
	setExpr()
}

// SelectCore is SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... WINDOW.
type SelectCore struct {
	Distinct   bool
	DistinctOn []Expr
	Targets    []Target
	From       []TableExpr
	Where      Expr
	// GroupBy is nil without GROUP BY. GROUP BY () (the empty grouping set,
	// one group of all rows even without aggregates) is a non-nil empty
	// list; () among other items adds nothing and is dropped. Items are
	// expressions or *GroupingSet.
	GroupBy []Expr
	Having  Expr
	Windows []NamedWindow
	Pos     int
}

// Target is one entry of a select list. Star is `*` (Table nil) or
// `table.*` (Table set); otherwise Expr with an optional alias.
type Target struct {
	Expr  Expr
	Alias string
	Star  bool
	Table *QualifiedName
	Pos   int
}

// SetOp is UNION / INTERSECT / EXCEPT.
type SetOp struct {
	Op    string // "UNION", "INTERSECT", "EXCEPT"
	All   bool
	Left  SetExpr
	Right SetExpr
	Pos   int
}

// Values is a VALUES list.
type Values struct {
	Rows [][]Expr
	Pos  int
}

// OrderItem is one ORDER BY entry.
type OrderItem struct {
	Expr Expr
	Desc bool
	// Nulls is "" (the default: NULLS LAST for ASC, FIRST for DESC),
	// "FIRST" or "LAST".
	Nulls string
	// Using is the operator of ORDER BY x USING <, or "".
	Using string
}

// NamedWindow is WINDOW w AS (...).
type NamedWindow struct {
	Name string
	Spec *WindowSpec
}

// ---------------------------------------------------------------- FROM

// TableExpr is an entry of a FROM list.
type TableExpr interface {
	Node
	tableExpr()
}

// Alias is AS name (col, ...).
type Alias struct {
	Name    string
	Columns []string
}

// TableRef is a named table, view or CTE, with its period clauses.
type TableRef struct {
	Name    QualifiedName
	Only    bool
	Periods []PeriodClause
	Alias   *Alias
	Pos     int
}

// PeriodAxis names which period a clause reads.
type PeriodAxis string

// The two axes. VALID_TIME is read as BUSINESS_TIME.
const (
	BusinessTime PeriodAxis = "BUSINESS_TIME"
	SystemTime   PeriodAxis = "SYSTEM_TIME"
)

// PeriodOp is the form of a period clause.
type PeriodOp string

// The forms of a period clause.
const (
	PeriodAsOf    PeriodOp = "AS OF"   // A
	PeriodFromTo  PeriodOp = "FROM TO" // [A, B)
	PeriodBetween PeriodOp = "BETWEEN" // [A, B]
	PeriodAll     PeriodOp = "ALL"
)

// PeriodClause is FOR BUSINESS_TIME ... or FOR SYSTEM_TIME ... after a table name.
type PeriodClause struct {
	Axis PeriodAxis
	Op   PeriodOp
	A, B Expr
	Pos  int
}

// SubqueryTable is (SELECT ...) AS alias, optionally LATERAL.
type SubqueryTable struct {
	Query   *Select
	Lateral bool
	Alias   *Alias
	Pos     int
}

// FuncTable is a set-returning function in FROM: generate_series(1, 3) AS g(n).
type FuncTable struct {
	Call           *FuncCall
	Lateral        bool
	WithOrdinality bool
	Alias          *Alias
	Pos            int
}

// JoinKind is the kind of a join.
type JoinKind string

// Join kinds.
const (
	JoinInner JoinKind = "INNER"
	JoinLeft  JoinKind = "LEFT"
	JoinRight JoinKind = "RIGHT"
	JoinFull  JoinKind = "FULL"
	JoinCross JoinKind = "CROSS"
)

// Join is a join of two table expressions.
type Join struct {
	Kind    JoinKind
	Natural bool
	Left    TableExpr
	Right   TableExpr
	On      Expr
	Using   []string
	Alias   *Alias // (a JOIN b) AS j
	Pos     int
}

// ---------------------------------------------------------------- DML

// Insert is INSERT INTO.
type Insert struct {
	With       *With
	Table      QualifiedName
	Alias      string
	Columns    []string
	ColumnPos  []int   // where each of Columns was written
	Source     *Select // nil means DEFAULT VALUES
	OnConflict *OnConflict
	Returning  []Target
	Pos        int
}

// OnConflict is ON CONFLICT [(cols) | ON CONSTRAINT name] DO NOTHING | DO UPDATE.
type OnConflict struct {
	Columns    []string
	Constraint string
	DoNothing  bool
	Set        []SetClause
	Where      Expr
}

// SetClause is col = expr in UPDATE or ON CONFLICT DO UPDATE. Value is a
// *Default for col = DEFAULT.
type SetClause struct {
	Column string
	Value  Expr
	Pos    int
}

// Update is UPDATE.
type Update struct {
	With      *With
	Table     QualifiedName
	Alias     string
	Set       []SetClause
	From      []TableExpr
	Where     Expr
	Returning []Target
	Pos       int
}

// Delete is DELETE FROM.
type Delete struct {
	With      *With
	Table     QualifiedName
	Alias     string
	Using     []TableExpr
	Where     Expr
	Returning []Target
	Pos       int
}

// Copy is COPY table [(cols)] FROM STDIN | TO STDOUT, or COPY (query) TO STDOUT.
type Copy struct {
	Table   *QualifiedName
	Columns []string
	Query   *Select
	From    bool // FROM STDIN; false is TO STDOUT
	// Options as given, names lower-cased: format, delimiter, null, header,
	// quote, escape, encoding, force_quote, force_not_null, freeze.
	Options map[string]string
	Pos     int
}

// Truncate is TRUNCATE [TABLE] t, ....
type Truncate struct {
	Tables          []QualifiedName
	Cascade         bool
	RestartIdentity bool // RESTART IDENTITY: reset the tables' sequences
	Pos             int
}

// ---------------------------------------------------------------- DDL

// CreateSchema is CREATE SCHEMA.
type CreateSchema struct {
	Name        string
	IfNotExists bool
	Pos         int
}

// CreateTable is CREATE TABLE, CREATE TABLE AS, or CREATE [OR REFRESH]
// STREAMING TABLE.
type CreateTable struct {
	Name        QualifiedName
	IfNotExists bool
	Temporary   bool
	Streaming   bool // CREATE [OR REFRESH] STREAMING TABLE
	OrRefresh   bool
	Columns     []ColumnDef
	Constraints []TableConstraint
	AsQuery     *Select // CREATE TABLE ... AS query
	WithNoData  bool
	Comment     string
	// Options are the storage parameters of WITH (name = value, ...),
	// names lower-cased, values as written ("true" for a bare name); nil
	// without WITH. PostgreSQL's (fillfactor, ...) may be ignored; cdcdb's
	// own (history_retention) are the same as ALTER TABLE ... SET (...).
	Options map[string]string
	// OnCommit is what ON COMMIT asks of a temporary table at the end of
	// each transaction: OnCommitDrop, OnCommitDeleteRows,
	// OnCommitPreserveRows (the default, written out), or "" (not written).
	OnCommit string
	Pos      int
}

// ON COMMIT actions of CreateTable.
const (
	OnCommitDrop         = "DROP"
	OnCommitDeleteRows   = "DELETE ROWS"
	OnCommitPreserveRows = "PRESERVE ROWS"
)

// ColumnDef is one column of CREATE TABLE or ALTER TABLE ADD COLUMN.
type ColumnDef struct {
	Name       string
	Type       TypeName
	NotNull    bool
	Null       bool
	PrimaryKey bool
	// PrimaryKeyPos is where an unnamed PRIMARY KEY was written.
	PrimaryKeyPos int
	Unique        bool
	Default       Expr
	Check         Expr
	References    *ForeignKeyRef
	Collate       string
	Constraints   []TableConstraint // named column constraints, in order
	// Identity is GENERATED { ALWAYS | BY DEFAULT } AS IDENTITY [(...)],
	// nil for a column without it (sequence.go).
	Identity *AddIdentity
	Pos      int
}

// ConstraintKind is the kind of a table constraint.
type ConstraintKind string

// Constraint kinds.
const (
	ConstraintPrimaryKey ConstraintKind = "PRIMARY KEY"
	ConstraintUnique     ConstraintKind = "UNIQUE"
	ConstraintCheck      ConstraintKind = "CHECK"
	ConstraintForeignKey ConstraintKind = "FOREIGN KEY"
	ConstraintNotNull    ConstraintKind = "NOT NULL"
)

// TableConstraint is a constraint at table level (or a named column one).
type TableConstraint struct {
	Name    string
	Kind    ConstraintKind
	Columns []string
	Check   Expr
	Ref     *ForeignKeyRef
	Pos     int
}

// ForeignKeyRef is REFERENCES t (cols) [ON DELETE ...] [ON UPDATE ...].
type ForeignKeyRef struct {
	Table    QualifiedName
	Columns  []string
	OnDelete string // "", "CASCADE", "SET NULL", "SET DEFAULT", "RESTRICT", "NO ACTION"
	OnUpdate string
	// Deferrable and InitiallyDeferred: [NOT] DEFERRABLE [INITIALLY
	// DEFERRED | IMMEDIATE] after the constraint.
	Deferrable        bool
	InitiallyDeferred bool
}

// ObjectKind names what DROP, COMMENT and the like act on.
type ObjectKind string

// Object kinds.
const (
	ObjectTable          ObjectKind = "TABLE"
	ObjectStreamingTable ObjectKind = "STREAMING TABLE"
	ObjectSchema         ObjectKind = "SCHEMA"
	ObjectView           ObjectKind = "VIEW"
	ObjectIndex          ObjectKind = "INDEX"
	ObjectFlow           ObjectKind = "FLOW"
	ObjectSequence       ObjectKind = "SEQUENCE"
	ObjectColumn         ObjectKind = "COLUMN"
	ObjectSource         ObjectKind = "SOURCE"
	ObjectConnection     ObjectKind = "CONNECTION"
)

// Drop is DROP TABLE | SCHEMA | VIEW | INDEX | FLOW ...
type Drop struct {
	Kind     ObjectKind
	Names    []QualifiedName
	IfExists bool
	Cascade  bool
	Pos      int
}

// CreateIndex is CREATE [UNIQUE] INDEX.
type CreateIndex struct {
	Name        string
	Table       QualifiedName
	Unique      bool
	IfNotExists bool
	Using       string
	Columns     []OrderItem // Expr is a *ColumnRef for a plain column
	Where       Expr
	Pos         int
}

// CreateView is CREATE [OR REPLACE] VIEW.
type CreateView struct {
	Name      QualifiedName
	OrReplace bool
	Columns   []string
	Query     *Select
	// Text is the view's query as the user wrote it, for pg_views.
	Text string
	Pos  int
}

// AlterTable is ALTER TABLE with one or more actions.
type AlterTable struct {
	Name     QualifiedName
	IfExists bool
	Actions  []AlterAction
	Pos      int
}

// AlterAction is one action of ALTER TABLE.
type AlterAction interface {
	Node
	alterAction()
}

// AddColumn is ADD [COLUMN] [IF NOT EXISTS] def.
type AddColumn struct {
	Column      ColumnDef
	IfNotExists bool
}

// DropColumn is DROP [COLUMN] [IF EXISTS] name [CASCADE].
type DropColumn struct {
	Name     string
	IfExists bool
	Cascade  bool
}

// RenameColumn is RENAME [COLUMN] old TO new.
type RenameColumn struct{ Old, New string }

// RenameTable is RENAME TO new.
type RenameTable struct{ New string }

// AddConstraint is ADD [CONSTRAINT name] ....
type AddConstraint struct{ Constraint TableConstraint }

// DropConstraint is DROP CONSTRAINT [IF EXISTS] name [CASCADE].
type DropConstraint struct {
	Name     string
	IfExists bool
	Cascade  bool
}

// AlterColumn is ALTER [COLUMN] c SET DEFAULT e | DROP DEFAULT | SET NOT NULL
// | DROP NOT NULL | [SET DATA] TYPE t [USING e].
type AlterColumn struct {
	Column      string
	SetDefault  Expr
	DropDefault bool
	SetNotNull  bool
	DropNotNull bool
	Type        *TypeName
	Using       Expr // TYPE t USING e: how to compute the new value; nil if absent
}

// SetTableOptions is SET ( name = value, ... ), e.g. history_retention.
type SetTableOptions struct {
	Options map[string]string
}

// CommentOn is COMMENT ON TABLE | COLUMN | SCHEMA ... IS 'text' | NULL.
type CommentOn struct {
	Kind    ObjectKind
	Name    QualifiedName // for COLUMN: table parts then the column
	Comment *string
	Pos     int
}

// ---------------------------------------------------------------- AUTO CDC

// CreateFlow is CREATE FLOW name AS AUTO CDC [ONCE] INTO ..., or the older
// APPLY CHANGES INTO spelling (then Name is the target's name: the flow
// takes its target's name, and a leading LIVE. is dropped from Target and
// Source).
type CreateFlow struct {
	Name    string
	Comment string
	Once    bool
	Target  QualifiedName
	Source  QualifiedName
	// Feed is set when the source is a table's change feed,
	// stream(cdcdb.table_changes('t', start)); Source is then empty.
	Feed              *ChangeFeedSource
	Keys              []string
	IgnoreNullUpdates *ColumnSelection // nil when absent; All with no Except = every non-key column
	DeleteWhen        Expr
	TruncateWhen      Expr
	SequenceBy        []Expr // one expression, or the fields of STRUCT(...)
	SequenceIsStruct  bool
	SystemSequenceBy  Expr
	Columns           *ColumnSelection
	StoredAs          string // "SCD TYPE 1" (default), "SCD TYPE 2", "BITEMPORAL"
	TrackHistory      *ColumnSelection
	ColumnsToUpdate   string
	// Snapshot marks AUTO CDC FROM SNAPSHOT (spec §7). SnapshotQuery is
	// FROM SNAPSHOT (query), nil for FROM SNAPSHOT table (then Source names
	// the table); VersionQuery is WITH VERSION (query), VersionBy is
	// VERSION BY expr, TriggerOnUpdate is TRIGGER ON UPDATE.
	Snapshot        bool
	SnapshotQuery   *Select
	VersionQuery    *Select
	VersionBy       Expr
	TriggerOnUpdate bool
	// Text is the whole statement as written, kept in the catalog.
	Text string
	// Clauses records the position of each clause by its canonical name, so
	// later checks can point at one: "INTO", "FROM", "KEYS", "IGNORE NULL
	// UPDATES", "APPLY AS DELETE WHEN", "APPLY AS TRUNCATE WHEN", "SEQUENCE
	// BY", "SYSTEM SEQUENCE BY", "COLUMNS", "STORED AS", "TRACK HISTORY ON",
	// "COLUMNS TO UPDATE", and for snapshot flows "WITH VERSION", "VERSION
	// BY", "TRIGGER ON UPDATE".
	Clauses map[string]int
	Pos     int
}

// CreateConnection is CREATE CONNECTION name TO POSTGRES (option value,
// ...): where and how to reach an external system.
type CreateConnection struct {
	Name    string
	Kind    string // the system's word, lower case: "postgres"
	Options []SourceOption
	Pos     int
}

// SourceOption is one option of CREATE CONNECTION or CREATE SOURCE: its
// words (SSL MODE is two), upper case and joined by a space, and its value,
// a string or an integer constant as written.
type SourceOption struct {
	Name     string
	Value    string
	IsNumber bool
	Pos      int // the option's first word
	ValuePos int
}

// CreateSource is CREATE SOURCE name FROM POSTGRES CONNECTION conn
// (option value, ...) FOR TABLES (schema.table [AS name], ...).
type CreateSource struct {
	Name       string
	Kind       string // "postgres"
	Connection string
	Options    []SourceOption
	Tables     []SourceTable
	Pos        int
}

// SourceTable is one upstream table of CREATE SOURCE and the name of the
// source table it becomes ("" As: the upstream table's name).
type SourceTable struct {
	Upstream QualifiedName
	As       string
}

// ChangeFeedSource is a flow source read as a change feed: a call of the
// change feed function (Func, cdcdb.table_changes) with its arguments.
type ChangeFeedSource struct {
	Func QualifiedName
	Args []Expr
	Pos  int
}

// ColumnSelection is ( col, ... ) or * EXCEPT ( col, ... ).
type ColumnSelection struct {
	All     bool     // * EXCEPT (...) or the bare form of IGNORE NULL UPDATES
	Columns []string // the listed columns (or the excepted ones when All)
}

// RefreshStreamingTable is REFRESH STREAMING TABLE t [FULL].
type RefreshStreamingTable struct {
	Name QualifiedName
	Full bool
	Pos  int
}

// ---------------------------------------------------------------- session

// TxKind is the kind of a transaction control statement.
type TxKind string

// Transaction statements.
const (
	TxBegin      TxKind = "BEGIN"
	TxCommit     TxKind = "COMMIT"
	TxRollback   TxKind = "ROLLBACK"
	TxSavepoint  TxKind = "SAVEPOINT"
	TxRelease    TxKind = "RELEASE"
	TxRollbackTo TxKind = "ROLLBACK TO"
)

// TxMode is one transaction mode of BEGIN, START TRANSACTION, SET
// TRANSACTION or SET SESSION CHARACTERISTICS AS TRANSACTION, in its
// canonical upper-case text (which SET's Values carry as string literals).
type TxMode string

// The transaction modes.
const (
	ModeReadUncommitted TxMode = "ISOLATION LEVEL READ UNCOMMITTED"
	ModeReadCommitted   TxMode = "ISOLATION LEVEL READ COMMITTED"
	ModeRepeatableRead  TxMode = "ISOLATION LEVEL REPEATABLE READ"
	ModeSerializable    TxMode = "ISOLATION LEVEL SERIALIZABLE"
	ModeReadOnly        TxMode = "READ ONLY"
	ModeReadWrite       TxMode = "READ WRITE"
	ModeDeferrable      TxMode = "DEFERRABLE"
	ModeNotDeferrable   TxMode = "NOT DEFERRABLE"
)

// Transaction is BEGIN / START TRANSACTION / COMMIT / END / ROLLBACK /
// ABORT / SAVEPOINT / RELEASE / ROLLBACK TO.
type Transaction struct {
	Kind      TxKind
	Savepoint string
	// Modes are the transaction modes BEGIN or START TRANSACTION gave.
	Modes []TxMode
	// Verb is the word the user wrote (BEGIN, START, END, ABORT ...), for the
	// command tag.
	Verb string
	Pos  int
}

// Set is SET [SESSION|LOCAL] name = value | TO value | TIME ZONE ..., and
// SET TRANSACTION / SET SESSION CHARACTERISTICS (Name "transaction", Values
// the modes as string literals such as "ISOLATION LEVEL SERIALIZABLE" and
// "READ ONLY"; Local is true for SET TRANSACTION, which applies to the
// current transaction only). Words and strings in Values are LitString
// literals; numbers are numeric literals. SET TIME ZONE is Name "timezone",
// SET NAMES "client_encoding", SET SCHEMA "search_path".
type Set struct {
	Name    string // lower-cased; "timezone" for SET TIME ZONE
	Values  []Expr // nil with Default
	Default bool   // SET x TO DEFAULT / RESET x
	Local   bool
	Pos     int
}

// Show is SHOW name | SHOW ALL.
type Show struct {
	Name string
	Pos  int
}

// Reset is RESET name | RESET ALL.
type Reset struct {
	Name string // "all" for RESET ALL
	Pos  int
}

// Listen is LISTEN channel.
type Listen struct {
	Channel string
	Pos     int
}

// Unlisten is UNLISTEN channel | UNLISTEN *.
type Unlisten struct {
	Channel string // "" for UNLISTEN *
	Pos     int
}

// Notify is NOTIFY channel [, 'payload'].
type Notify struct {
	Channel string
	Payload string
	Pos     int
}

// Discard is DISCARD ALL | PLANS | SEQUENCES | TEMP.
type Discard struct {
	What string
	Pos  int
}

// LockTable is LOCK [TABLE] name [, ...] [IN mode MODE] [NOWAIT]; Mode
// is the lock mode's words in upper case, ACCESS EXCLUSIVE when omitted.
type LockTable struct {
	Tables []QualifiedName
	Mode   string
	NoWait bool
	Pos    int
}

// Deallocate is DEALLOCATE [PREPARE] name | ALL.
type Deallocate struct {
	Name string // "" for ALL
	Pos  int
}

// Explain is EXPLAIN [ANALYZE] [VERBOSE] statement or EXPLAIN (options)
// statement.
type Explain struct {
	Analyze bool
	Verbose bool
	// Options are all options given, names lower-cased, values as written
	// ("true" for a bare option): analyze, verbose, costs, format, ...
	Options map[string]string
	Stmt    Statement
	Pos     int
}

// ---------------------------------------------------------------- expressions

// LiteralKind is the lexical kind of a constant.
type LiteralKind int

// Literal kinds.
const (
	LitNull      LiteralKind = iota
	LitBool                  // Value "true" or "false"
	LitInteger               // an integer that fits int64
	LitNumeric               // a decimal or integer too large for int64: numeric
	LitString                // '...' of type unknown until context decides
	LitBitString             // B'0101' / X'1F': Value is "b0101" / "x1F", the form bit_in reads
)

// Literal is a constant as written.
type Literal struct {
	Kind  LiteralKind
	Value string // the text of the constant, escapes resolved for strings
	Pos   int
}

// ColumnRef is a (possibly qualified) column reference: c, t.c, s.t.c. In
// an expression (not a select list, where it is a Target with Star),
// t.* is a ColumnRef whose last part is "*", as in count(t.*).
type ColumnRef struct {
	Parts []string
	// Quoted is true when the last part was written in double quotes. Inside
	// a flow definition such a name that is not a source column is read as a
	// string literal (spec: the double-quoted string rule).
	Quoted bool
	Pos    int
}

// Param is $n (Index is n, 1-based).
type Param struct {
	Index int
	Pos   int
}

// Unary is a prefix operator: "-", "+", "NOT", "~", "@", "|/".
type Unary struct {
	Op  string
	X   Expr
	Pos int
}

// Binary is an infix operator. Op is upper-case for word operators ("AND",
// "OR", "IS DISTINCT FROM", "IS NOT DISTINCT FROM") and as written for
// symbolic ones ("+", "||", "=", "<>" (also for !=), "~", "~*", "!~", "!~*",
// "->", "->>", "#>", "#>>", "@>", "<@", "&&", "^", ...). OPERATOR(schema.op)
// is read as op.
type Binary struct {
	Op   string
	L, R Expr
	Pos  int
	// OpPos is where the operator was written, which is where PostgreSQL
	// points its errors about an operator ("operator does not exist").
	OpPos int
}

// Like is x [NOT] LIKE | ILIKE | SIMILAR TO pattern [ESCAPE e].
type Like struct {
	X, Pattern Expr
	Escape     Expr
	Not        bool
	ILike      bool
	Similar    bool
	Pos        int
	OpPos      int // where [NOT] LIKE / ILIKE / SIMILAR was written
}

// GroupingSet is ROLLUP (...), CUBE (...) or GROUPING SETS (...) in GROUP
// BY. It is an Expr only so that it can sit among GROUP BY's items; it is
// never evaluated.
type GroupingSet struct {
	Kind  string // GroupingRollup, GroupingCube or GroupingSets
	Elems []GroupingElem
	Pos   int
}

// Kinds of GroupingSet.
const (
	GroupingRollup = "ROLLUP"
	GroupingCube   = "CUBE"
	GroupingSets   = "GROUPING SETS"
)

// GroupingElem is one element of a GroupingSet: a list of expressions (one
// written bare, several or none in parentheses), or, inside GROUPING SETS,
// a nested ROLLUP, CUBE or GROUPING SETS.
type GroupingElem struct {
	Exprs []Expr
	Set   *GroupingSet
}

// IsNull is x IS [NOT] NULL (also ISNULL / NOTNULL).
type IsNull struct {
	X   Expr
	Not bool
	Pos int
}

// IsBool is x IS [NOT] TRUE | FALSE | UNKNOWN.
type IsBool struct {
	X     Expr
	Not   bool
	Value string // "TRUE", "FALSE", "UNKNOWN"
	Pos   int
}

// Between is x [NOT] BETWEEN [SYMMETRIC] lo AND hi.
type Between struct {
	X, Lo, Hi Expr
	Not       bool
	Symmetric bool
	Pos       int
	OpPos     int // where [NOT] BETWEEN was written
}

// In is x [NOT] IN (list) or x [NOT] IN (subquery).
type In struct {
	X     Expr
	List  []Expr
	Query *Select
	Not   bool
	Pos   int
	OpPos int // where [NOT] IN was written
}

// Exists is EXISTS (subquery).
type Exists struct {
	Query *Select
	Pos   int
}

// Subquery is a scalar subquery (SELECT ...).
type Subquery struct {
	Query *Select
	Pos   int
}

// AnyAll is x op ANY|SOME|ALL (array expression or subquery). For
// x [NOT] LIKE | ILIKE ANY (...) Op is the operator LIKE stands for: "~~",
// "!~~", "~~*" or "!~~*".
type AnyAll struct {
	Op    string
	X     Expr
	All   bool
	Array Expr    // set for ANY(array)
	Query *Select // set for ANY(subquery)
	Pos   int
	OpPos int // where the operator was written
}

// FuncCall is a function or aggregate call, maybe a window function.
type FuncCall struct {
	Name        QualifiedName // lower-cased unless quoted; Schema may be pg_catalog
	Args        []Expr
	Star        bool // count(*)
	Distinct    bool
	Variadic    bool        // VARIADIC before the last argument
	OrderBy     []OrderItem // aggregate ORDER BY, or WITHIN GROUP (ORDER BY ...)
	WithinGroup bool
	Filter      Expr
	Over        *WindowSpec
	Pos         int
}

// WindowSpec is OVER (...) or OVER name.
type WindowSpec struct {
	Ref         string // OVER name, or the base window in (name ...)
	RefPos      int    // where Ref was written
	PartitionBy []Expr
	OrderBy     []OrderItem
	Frame       *Frame
}

// Frame is ROWS | RANGE | GROUPS BETWEEN start AND end.
type Frame struct {
	Mode    string // "ROWS", "RANGE", "GROUPS"
	Start   FrameBound
	End     FrameBound // Kind "" when only a start was given
	Exclude string     // "", "CURRENT ROW", "GROUP", "TIES", "NO OTHERS"
}

// FrameBound is one end of a frame.
type FrameBound struct {
	Kind   string // "UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW", "FOLLOWING", "UNBOUNDED FOLLOWING"
	Offset Expr
}

// Cast is CAST(x AS t), x::t, or a typed literal such as DATE '2020-01-01'
// or INTERVAL '1 day' (then X is the string *Literal).
type Cast struct {
	X    Expr
	Type TypeName
	// Syntax says how it was written: "::", "CAST", "literal".
	Syntax string
	// IntervalFields is the qualifier of INTERVAL '...' DAY TO SECOND, if any
	// (the same as Type.IntervalFields).
	IntervalFields string
	Pos            int
	// OpPos is where PostgreSQL points errors about the cast: the :: for
	// x::t, the CAST or type keyword otherwise. Errors about the value of
	// a typed constant point at the string, X's Pos.
	OpPos int
}

// Case is CASE [operand] WHEN ... THEN ... [ELSE ...] END.
type Case struct {
	Operand Expr
	Whens   []When
	Else    Expr
	Pos     int
}

// When is one WHEN cond THEN result.
type When struct {
	Cond, Result Expr
}

// ArrayExpr is ARRAY[a, b, ...] (Elems may themselves be *ArrayExpr for
// multi-dimensional arrays).
type ArrayExpr struct {
	Elems []Expr
	Pos   int
}

// ArraySubquery is ARRAY(SELECT ...).
type ArraySubquery struct {
	Query *Select
	Pos   int
}

// Subscript is x[i] or x[lo:hi].
type Subscript struct {
	X     Expr
	Index Expr // for x[i]; nil for a slice
	Lo    Expr // for x[lo:hi]; either may be nil
	Hi    Expr
	Slice bool
	Pos   int
}

// FieldAccess is (x).field or (x).*.
type FieldAccess struct {
	X     Expr
	Field string // "*" for (x).*
	Pos   int
}

// Collate is x COLLATE name.
type Collate struct {
	X         Expr
	Collation QualifiedName
	Pos       int
	OpPos     int // where COLLATE was written
}

// RowExpr is ROW(a, b) or (a, b).
type RowExpr struct {
	Elems    []Expr
	Explicit bool // written with ROW
	Pos      int
}

// Default is DEFAULT in VALUES or SET.
type Default struct{ Pos int }

// SpecialFunc is a SQL-standard function written without parentheses or
// with keyword syntax, kept apart so output column names match PostgreSQL:
// CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME, LOCALTIMESTAMP,
// CURRENT_USER, SESSION_USER, USER, CURRENT_ROLE, CURRENT_CATALOG,
// CURRENT_SCHEMA; and EXTRACT(field FROM x), POSITION(a IN b),
// SUBSTRING(x FROM a FOR b), TRIM([LEADING|TRAILING|BOTH] [c] FROM x),
// OVERLAY(...) are turned into ordinary *FuncCall nodes by the parser.
type SpecialFunc struct {
	Name string // upper-case, as listed above
	Args []Expr // CURRENT_TIMESTAMP(3) precision
	Pos  int
}

// ---------------------------------------------------------------- markers

func (*Select) node()                {}
func (*SelectCore) node()            {}
func (*SetOp) node()                 {}
func (*Values) node()                {}
func (*TableRef) node()              {}
func (*SubqueryTable) node()         {}
func (*FuncTable) node()             {}
func (*Join) node()                  {}
func (*Insert) node()                {}
func (*Update) node()                {}
func (*Delete) node()                {}
func (*Copy) node()                  {}
func (*Truncate) node()              {}
func (*CreateSchema) node()          {}
func (*CreateTable) node()           {}
func (*Drop) node()                  {}
func (*CreateIndex) node()           {}
func (*CreateView) node()            {}
func (*AlterTable) node()            {}
func (*AddColumn) node()             {}
func (*DropColumn) node()            {}
func (*RenameColumn) node()          {}
func (*RenameTable) node()           {}
func (*AddConstraint) node()         {}
func (*DropConstraint) node()        {}
func (*AlterColumn) node()           {}
func (*SetTableOptions) node()       {}
func (*CommentOn) node()             {}
func (*CreateFlow) node()            {}
func (*CreateConnection) node()      {}
func (*CreateSource) node()          {}
func (*RefreshStreamingTable) node() {}
func (*Transaction) node()           {}
func (*Set) node()                   {}
func (*Show) node()                  {}
func (*Reset) node()                 {}
func (*Discard) node()               {}
func (*LockTable) node()             {}
func (*Listen) node()                {}
func (*Unlisten) node()              {}
func (*Notify) node()                {}
func (*Deallocate) node()            {}
func (*Explain) node()               {}
func (*Literal) node()               {}
func (*ColumnRef) node()             {}
func (*Param) node()                 {}
func (*Unary) node()                 {}
func (*Binary) node()                {}
func (*Like) node()                  {}
func (*GroupingSet) node()           {}
func (*IsNull) node()                {}
func (*IsBool) node()                {}
func (*Between) node()               {}
func (*In) node()                    {}
func (*Exists) node()                {}
func (*Subquery) node()              {}
func (*AnyAll) node()                {}
func (*FuncCall) node()              {}
func (*Cast) node()                  {}
func (*Case) node()                  {}
func (*ArrayExpr) node()             {}
func (*ArraySubquery) node()         {}
func (*Subscript) node()             {}
func (*FieldAccess) node()           {}
func (*Collate) node()               {}
func (*RowExpr) node()               {}
func (*Default) node()               {}
func (*SpecialFunc) node()           {}

func (*Select) stmt()                {}
func (*Insert) stmt()                {}
func (*Update) stmt()                {}
func (*Delete) stmt()                {}
func (*Copy) stmt()                  {}
func (*Truncate) stmt()              {}
func (*CreateSchema) stmt()          {}
func (*CreateTable) stmt()           {}
func (*Drop) stmt()                  {}
func (*CreateIndex) stmt()           {}
func (*CreateView) stmt()            {}
func (*AlterTable) stmt()            {}
func (*CommentOn) stmt()             {}
func (*CreateFlow) stmt()            {}
func (*CreateConnection) stmt()      {}
func (*CreateSource) stmt()          {}
func (*RefreshStreamingTable) stmt() {}
func (*Transaction) stmt()           {}
func (*Set) stmt()                   {}
func (*Show) stmt()                  {}
func (*Reset) stmt()                 {}
func (*Discard) stmt()               {}
func (*LockTable) stmt()             {}
func (*Listen) stmt()                {}
func (*Unlisten) stmt()              {}
func (*Notify) stmt()                {}
func (*Deallocate) stmt()            {}
func (*Explain) stmt()               {}

func (*SelectCore) setExpr() {}
func (*SetOp) setExpr()      {}
func (*Values) setExpr()     {}
func (*Select) setExpr()     {}

func (*TableRef) tableExpr()      {}
func (*SubqueryTable) tableExpr() {}
func (*FuncTable) tableExpr()     {}
func (*Join) tableExpr()          {}

func (*AddColumn) alterAction()       {}
func (*DropColumn) alterAction()      {}
func (*RenameColumn) alterAction()    {}
func (*RenameTable) alterAction()     {}
func (*AddConstraint) alterAction()   {}
func (*DropConstraint) alterAction()  {}
func (*AlterColumn) alterAction()     {}
func (*SetTableOptions) alterAction() {}

func (e *Literal) expr()       {}
func (e *ColumnRef) expr()     {}
func (e *Param) expr()         {}
func (e *Unary) expr()         {}
func (e *Binary) expr()        {}
func (e *Like) expr()          {}
func (e *GroupingSet) expr()   {}
func (e *IsNull) expr()        {}
func (e *IsBool) expr()        {}
func (e *Between) expr()       {}
func (e *In) expr()            {}
func (e *Exists) expr()        {}
func (e *Subquery) expr()      {}
func (e *AnyAll) expr()        {}
func (e *FuncCall) expr()      {}
func (e *Cast) expr()          {}
func (e *Case) expr()          {}
func (e *ArrayExpr) expr()     {}
func (e *ArraySubquery) expr() {}
func (e *Subscript) expr()     {}
func (e *FieldAccess) expr()   {}
func (e *Collate) expr()       {}
func (e *RowExpr) expr()       {}
func (e *Default) expr()       {}
func (e *SpecialFunc) expr()   {}

func (e *Literal) Position() int       { return e.Pos }
func (e *ColumnRef) Position() int     { return e.Pos }
func (e *Param) Position() int         { return e.Pos }
func (e *Unary) Position() int         { return e.Pos }
func (e *Binary) Position() int        { return e.Pos }
func (e *Like) Position() int          { return e.Pos }
func (e *GroupingSet) Position() int   { return e.Pos }
func (e *IsNull) Position() int        { return e.Pos }
func (e *IsBool) Position() int        { return e.Pos }
func (e *Between) Position() int       { return e.Pos }
func (e *In) Position() int            { return e.Pos }
func (e *Exists) Position() int        { return e.Pos }
func (e *Subquery) Position() int      { return e.Pos }
func (e *AnyAll) Position() int        { return e.Pos }
func (e *FuncCall) Position() int      { return e.Pos }
func (e *Cast) Position() int          { return e.Pos }
func (e *Case) Position() int          { return e.Pos }
func (e *ArrayExpr) Position() int     { return e.Pos }
func (e *ArraySubquery) Position() int { return e.Pos }
func (e *Subscript) Position() int     { return e.Pos }
func (e *FieldAccess) Position() int   { return e.Pos }
func (e *Collate) Position() int       { return e.Pos }
func (e *RowExpr) Position() int       { return e.Pos }
func (e *Default) Position() int       { return e.Pos }
func (e *SpecialFunc) Position() int   { return e.Pos }
