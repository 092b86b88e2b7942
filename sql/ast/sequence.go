package ast

// The statements a pg_dump script uses to recreate sequences and owners:
// CREATE SEQUENCE, ALTER SEQUENCE, and OWNER TO of tables, views,
// sequences and schemas.

// SequenceOptionKind names one option of CREATE or ALTER SEQUENCE.
type SequenceOptionKind string

// Sequence options. SeqOwnedBy is OWNED BY; the others are the words of
// PostgreSQL's SeqOptElem.
const (
	SeqAs        SequenceOptionKind = "as"
	SeqIncrement SequenceOptionKind = "increment"
	SeqMinValue  SequenceOptionKind = "minvalue"
	SeqMaxValue  SequenceOptionKind = "maxvalue"
	SeqStart     SequenceOptionKind = "start"
	SeqRestart   SequenceOptionKind = "restart"
	SeqCache     SequenceOptionKind = "cache"
	SeqCycle     SequenceOptionKind = "cycle"
	SeqOwnedBy   SequenceOptionKind = "owned by"
	// SeqName is SEQUENCE NAME n, which only the options of an identity
	// column take.
	SeqName SequenceOptionKind = "sequence name"
)

// SequenceOption is one option. Value holds the number when HasValue
// (NO MINVALUE, NO MAXVALUE and a bare RESTART have none); Cycle is false
// for NO CYCLE; Type is AS's; OwnedBy is OWNED BY's column (table parts
// then the column), nil for OWNED BY NONE; Name is SEQUENCE NAME's.
type SequenceOption struct {
	Kind     SequenceOptionKind
	Value    int64
	HasValue bool
	Cycle    bool
	Type     *TypeName
	OwnedBy  *QualifiedName
	Name     *QualifiedName
	Pos      int
}

// CreateSequence is CREATE [TEMP] SEQUENCE [IF NOT EXISTS] name options.
type CreateSequence struct {
	Name        QualifiedName
	IfNotExists bool
	Temporary   bool
	Options     []SequenceOption
	Pos         int
}

// AlterSequence is ALTER SEQUENCE [IF EXISTS] name options, or ... OWNER TO
// role (Owner set, no options).
type AlterSequence struct {
	Name     QualifiedName
	IfExists bool
	Options  []SequenceOption
	Owner    *OwnerTo
	Pos      int
}

// AlterSchemaOwner is ALTER SCHEMA name OWNER TO role.
type AlterSchemaOwner struct {
	Name  string
	Owner *OwnerTo
	Pos   int
}

// AddIdentity is ALTER [COLUMN] c ADD GENERATED { ALWAYS | BY DEFAULT } AS
// IDENTITY [( options )].
type AddIdentity struct {
	Column  string
	Always  bool
	Options []SequenceOption
	Pos     int
}

func (*CreateSequence) node()   {}
func (*AlterSequence) node()    {}
func (*AlterSchemaOwner) node() {}
func (*AddIdentity) node()      {}

func (*CreateSequence) stmt()   {}
func (*AlterSequence) stmt()    {}
func (*AlterSchemaOwner) stmt() {}

func (*AddIdentity) alterAction() {}
