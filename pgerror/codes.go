package pgerror

// SQLSTATE codes cdcdb raises, named as in PostgreSQL's errcodes.txt.
const (
	SuccessfulCompletion = "00000"
	Warning              = "01000"
	// The warnings of a GRANT or REVOKE that changed nothing.
	WarningPrivilegeNotGranted = "01007"
	WarningPrivilegeNotRevoked = "01006"

	ConnectionException = "08000"
	ConnectionFailure   = "08006"
	// SQLClientUnableToEstablishConnection: a server cdcdb connects to
	// (a source's upstream) could not be reached.
	SQLClientUnableToEstablishConnection = "08001"
	ProtocolViolation                    = "08P01"
	// TransactionResolutionUnknown is what PostgreSQL's clients report when
	// the connection is lost during COMMIT; cdcdb answers it to a commit
	// whose log record may or may not have reached the disk.
	TransactionResolutionUnknown = "08007"

	FeatureNotSupported = "0A000"

	CardinalityViolation = "21000"

	DataException                 = "22000"
	StringDataRightTruncation     = "22001"
	NumericValueOutOfRange        = "22003"
	NullValueNotAllowed           = "22004"
	InvalidDatetimeFormat         = "22007"
	DatetimeFieldOverflow         = "22008"
	InvalidTimeZoneDisplacement   = "22009"
	InvalidParameterValue         = "22023"
	ArraySubscriptError           = "2202E"
	CharacterNotInRepertoire      = "22021"
	DivisionByZero                = "22012"
	SubstringError                = "22011"
	InvalidEscapeSequence         = "22025"
	InvalidRegularExpression      = "2201B"
	InvalidRowCountInLimit        = "2201W"
	InvalidRowCountInResultOffset = "2201X"
	InvalidTextRepresentation     = "22P02"
	InvalidBinaryRepresentation   = "22P03"
	BadCopyFileFormat             = "22P04"
	UntranslatableCharacter       = "22P05"
	InvalidJSONText               = "22032"
	InvalidArgumentForNtile       = "22014"
	InvalidArgumentForNthValue    = "22016"
	InvalidPrecedingOrFollowing   = "22013"
	InvalidUseOfEscapeCharacter   = "2200C"
	InvalidArgumentForLog         = "2201E"
	InvalidArgumentForPower       = "2201F"
	InvalidArgumentForWidthBucket = "2201G"

	IntegrityConstraintViolation = "23000"
	NotNullViolation             = "23502"
	ForeignKeyViolation          = "23503"
	UniqueViolation              = "23505"
	CheckViolation               = "23514"

	InvalidTransactionState         = "25000"
	ActiveSQLTransaction            = "25001"
	NoActiveSQLTransaction          = "25P01"
	InFailedSQLTransaction          = "25P02"
	InvalidSavepointSpecification   = "3B001"
	IdleInTransactionSessionTimeout = "25P03"
	ReadOnlySQLTransaction          = "25006"

	SerializationFailure = "40001"
	DeadlockDetected     = "40P01"

	InvalidAuthorizationSpecification = "28000"
	InvalidPassword                   = "28P01"

	InvalidCursorName       = "34000"
	InvalidSQLStatementName = "26000"

	SyntaxErrorOrAccessRuleViolation = "42000"
	SyntaxError                      = "42601"
	InsufficientPrivilege            = "42501"
	GroupingError                    = "42803"
	WindowingError                   = "42P20"
	InvalidRecursion                 = "42P19"
	InvalidForeignKey                = "42830"
	InvalidName                      = "42602"
	NameTooLong                      = "42622"
	ReservedName                     = "42939"
	DatatypeMismatch                 = "42804"
	IndeterminateDatatype            = "42P18"
	WrongObjectType                  = "42809"
	UndefinedColumn                  = "42703"
	UndefinedFunction                = "42883"
	UndefinedTable                   = "42P01"
	UndefinedParameter               = "42P02"
	UndefinedObject                  = "42704"
	UndefinedSchema                  = "3F000"
	DuplicateColumn                  = "42701"
	DuplicateDatabase                = "42P04"
	DuplicateFunction                = "42723"
	DuplicatePreparedStatement       = "42P05"
	DuplicateSchema                  = "42P06"
	DuplicateTable                   = "42P07"
	DuplicateAlias                   = "42712"
	DuplicateObject                  = "42710"
	AmbiguousColumn                  = "42702"
	AmbiguousFunction                = "42725"
	AmbiguousParameter               = "42P08"
	InvalidColumnDefinition          = "42611"
	InvalidTableDefinition           = "42P16"
	InvalidObjectDefinition          = "42P17"
	UndefinedPreparedStatement       = "26000"
	CannotCoerce                     = "42846"
	InvalidColumnReference           = "42P10"

	ProgramLimitExceeded = "54000"
	StatementTooComplex  = "54001"
	TooManyColumns       = "54011"
	TooManyArguments     = "54023"

	ObjectNotInPrerequisiteState = "55000"
	ObjectInUse                  = "55006"
	CantChangeRuntimeParam       = "55P02"
	LockNotAvailable             = "55P03"

	OperatorIntervention = "57000"
	QueryCanceled        = "57014"
	AdminShutdown        = "57P01"

	DependentObjectsStillExist = "2BP01"
	InvalidGrantOperation      = "0LP01"

	TooManyConnections         = "53300"
	OutOfMemory                = "53200"
	ConfigurationLimitExceeded = "53400"
	DiskFull                   = "53100"

	// SystemError is class 58 (an error external to PostgreSQL itself);
	// IOError is its I/O error, as PostgreSQL reports a failed write.
	SystemError = "58000"
	IOError     = "58030"
	// UndefinedFile and DuplicateFile are what PostgreSQL reports for a
	// file a command names that does not exist, or exists already.
	UndefinedFile = "58P01"
	DuplicateFile = "58P02"

	InternalError = "XX000"
	DataCorrupted = "XX001"
)
