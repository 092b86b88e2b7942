package sql

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/source"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// This file runs the statements that follow an external PostgreSQL (spec
// §8): CREATE CONNECTION, CREATE SOURCE, DROP SOURCE and DROP CONNECTION.
// The following itself is package source's; sourcesink.go writes what it
// receives into the source tables, and sourcerun.go keeps the followers
// running.

// Source table columns after the upstream ones (spec §8).
const (
	sourceColumnOp       = "_op"
	sourceColumnLSN      = "_lsn"
	sourceColumnCommitTS = "_commit_ts"
)

// describeTimeout bounds how long CREATE SOURCE waits for upstream to
// answer before it reports it unreachable.
const describeTimeout = 20 * time.Second

func (pc *planCtx) compileSourceStatement(stmt ast.Statement) (*compiled, error) {
	switch st := stmt.(type) {
	case *ast.CreateConnection:
		return &compiled{access: accessWrite, run: createConnectionStatement{st}}, nil
	case *ast.CreateSource:
		// CREATE SOURCE and DROP SOURCE talk to upstream and start or stop
		// a follower: they commit on their own, outside any block.
		return &compiled{access: accessNone, commitsOnItsOwn: true, run: createSourceStatement{st}}, nil
	case *ast.Drop:
		if st.Kind == ast.ObjectSource {
			return &compiled{access: accessNone, commitsOnItsOwn: true, run: dropSourceStatement{st}}, nil
		}
		return &compiled{access: accessWrite, run: dropConnectionStatement{st}}, nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "statement %T is not supported", stmt)
}

// connectionOptions are CREATE CONNECTION's options, by their words.
var connectionOptions = map[string]bool{"HOST": true, "PORT": true, "USER": true, "PASSWORD": true, "DATABASE": true, "SSL MODE": true}

// createConnection runs CREATE CONNECTION: it checks the options, and
// stores them, password included. It does not connect: a connection may be
// made before its server is up.
func (x *execCtx) createConnection(st *ast.CreateConnection) error {
	cat := x.tx.catalog()
	if !x.sess.isSuperuser(cat) {
		// A connection holds a password to another system.
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to create connection \"%s\"", st.Name)
	}
	if _, exists := cat.Connection(st.Name); exists {
		return pgerror.New(pgerror.DuplicateObject, "connection \"%s\" already exists", st.Name)
	}
	values, err := sourceOptionValues(st.Options, connectionOptions, "connection")
	if err != nil {
		return err
	}
	c := &catalog.Connection{Name: st.Name, Kind: catalog.ConnectionPostgres, CreatedAt: x.now.UnixMicro()}
	for name, o := range values {
		if name == "PORT" {
			if !o.IsNumber {
				return pgerror.New(pgerror.InvalidParameterValue, "connection PORT must be an integer").WithPosition(o.ValuePos + 1)
			}
			continue
		}
		if o.IsNumber {
			return pgerror.New(pgerror.InvalidParameterValue, "connection %s must be a string", name).WithPosition(o.ValuePos + 1)
		}
	}
	c.Host, c.User, c.Database = values["HOST"].Value, values["USER"].Value, values["DATABASE"].Value
	c.Password = values["PASSWORD"].Value
	if o, ok := values["PORT"]; ok {
		port, err := strconv.Atoi(o.Value)
		if err != nil || port < 1 || port > 65535 {
			return pgerror.New(pgerror.InvalidParameterValue, "connection PORT %s is out of range", o.Value).WithPosition(o.ValuePos + 1)
		}
		c.Port = port
	}
	if o, ok := values["SSL MODE"]; ok {
		mode, err := source.ParseSSLMode(o.Value)
		if err != nil {
			return pgerror.As(err).WithPosition(o.ValuePos + 1)
		}
		c.SSLMode = string(mode)
	}
	for _, required := range []string{"HOST", "USER", "DATABASE"} {
		if _, ok := values[required]; !ok {
			return pgerror.New(pgerror.InvalidParameterValue, "connection option %s is required", required).WithPosition(st.Pos + 1)
		}
	}
	// The rest of what a follower checks without connecting.
	probe := source.Config{Name: st.Name, Connection: sourceConnection(c), Publication: "-", Tables: []source.TableRef{{Table: "-"}}}
	if err := probe.Validate(); err != nil {
		return err
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	if c.OID, err = ed.NewOID(); err != nil {
		return err
	}
	return ed.PutConnection(c)
}

// sourceOptionValues checks options against the known ones: an unknown
// option or one given twice is refused, never ignored.
func sourceOptionValues(opts []ast.SourceOption, known map[string]bool, what string) (map[string]ast.SourceOption, error) {
	values := map[string]ast.SourceOption{}
	for _, o := range opts {
		if !known[o.Name] {
			return nil, pgerror.New(pgerror.SyntaxError, "unrecognized %s option \"%s\"", what, o.Name).WithPosition(o.Pos + 1)
		}
		if _, dup := values[o.Name]; dup {
			return nil, pgerror.New(pgerror.SyntaxError, "conflicting or redundant options").WithPosition(o.Pos + 1)
		}
		values[o.Name] = o
	}
	return values, nil
}

// sourceConnection is what a follower needs of a connection.
func sourceConnection(c *catalog.Connection) source.Connection {
	return source.Connection{Host: c.Host, Port: c.Port, User: c.User, Password: c.Password, Database: c.Database, SSLMode: source.SSLMode(c.SSLMode)}
}

// refuseInTransactionBlock refuses a statement that commits on its own
// inside a transaction block, as PostgreSQL refuses CREATE SUBSCRIPTION
// there, and in a read-only session.
func (x *execCtx) refuseInTransactionBlock(statement string) error {
	if b := x.sess.block; b != nil && (!b.implicit || b.multiStatement || b.tx != nil) {
		return pgerror.New(pgerror.ActiveSQLTransaction, "%s cannot run inside a transaction block", statement)
	}
	if b := x.sess.block; b != nil && b.modes.readOnly {
		return pgerror.New(pgerror.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", statement)
	}
	return nil
}

// sourceOptions are CREATE SOURCE's options.
var sourceOptions = map[string]bool{"PUBLICATION": true, "SLOT": true}

// createSource runs CREATE SOURCE: it asks upstream for the tables (so that
// a wrong setting is this statement's error), creates the source and its
// tables in a transaction of its own, and once that committed starts the
// follower, which takes the snapshot and then streams.
func (x *execCtx) createSource(st *ast.CreateSource) error {
	if err := x.refuseInTransactionBlock("CREATE SOURCE"); err != nil {
		return err
	}
	e := x.sess.engine
	cat := e.catalogSnapshot()
	conn, ok := cat.Connection(st.Connection)
	if !ok {
		return pgerror.New(pgerror.UndefinedObject, "connection \"%s\" does not exist", st.Connection)
	}
	values, err := sourceOptionValues(st.Options, sourceOptions, "source")
	if err != nil {
		return err
	}
	for name, o := range values {
		if o.IsNumber {
			return pgerror.New(pgerror.InvalidParameterValue, "source option %s must be a string", name).WithPosition(o.ValuePos + 1)
		}
	}
	if _, ok := values["PUBLICATION"]; !ok {
		return pgerror.New(pgerror.InvalidParameterValue, "source option PUBLICATION is required").WithPosition(st.Pos + 1)
	}
	cfg := source.Config{Name: st.Name, Connection: sourceConnection(conn), Publication: values["PUBLICATION"].Value, Slot: values["SLOT"].Value}
	for _, t := range st.Tables {
		ref := source.TableRef{Table: t.Upstream.Name(), As: t.As}
		if len(t.Upstream.Parts) == 2 {
			ref.Schema = t.Upstream.Parts[0]
		}
		cfg.Tables = append(cfg.Tables, ref)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	// Cheap checks before asking upstream; they are made again below,
	// in the transaction.
	if _, exists := cat.Source(st.Name); exists {
		return pgerror.New(pgerror.DuplicateObject, "source \"%s\" already exists", st.Name)
	}
	ctx, cancel := context.WithTimeout(x.ctx, describeTimeout)
	defer cancel()
	upstream, err := source.Describe(ctx, cfg)
	if err != nil {
		if x.ctx.Err() != nil {
			return cancelError(x.ctx)
		}
		return err
	}

	tx, err := e.beginTxn(x.ctx, x.sess, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	wx := internalExecCtx(x.ctx, x.sess, tx)
	pc := wx.planCtx()
	if _, exists := pc.cat.Source(st.Name); exists {
		return pgerror.New(pgerror.DuplicateObject, "source \"%s\" already exists", st.Name)
	}
	if conn, ok = pc.cat.Connection(st.Connection); !ok {
		return pgerror.New(pgerror.UndefinedObject, "connection \"%s\" does not exist", st.Connection)
	}
	// The tables go where an unqualified CREATE TABLE would put them: the
	// first schema of search_path that exists.
	schema, err := pc.creationSchema(ast.QualifiedName{Parts: []string{st.Name}, Pos: st.Pos})
	if err != nil {
		return err
	}
	if !x.sess.isSuperuser(pc.cat) {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied for schema %s", schema.Name)
	}
	ed, err := tx.edit()
	if err != nil {
		return err
	}
	src := &catalog.Source{Name: st.Name, Connection: conn.OID, Publication: cfg.Publication, Slot: cfg.Slot, CreatedAt: x.now.UnixMicro()}
	if src.OID, err = ed.NewOID(); err != nil {
		return err
	}
	for _, ut := range upstream {
		t, err := wx.newSourceTable(pc, schema, src, ut)
		if err != nil {
			return err
		}
		src.Tables = append(src.Tables, catalog.SourceTable{UpstreamSchema: ut.Upstream.Schema, UpstreamName: ut.Upstream.Name, Table: t.OID})
	}
	if err := ed.PutSource(src); err != nil {
		return err
	}
	if err := tx.commit(); err != nil {
		return err
	}
	e.sources.start(src.OID)
	return nil
}

// newSourceTable creates the table an upstream table becomes: its columns,
// then _op, _lsn and _commit_ts.
func (x *execCtx) newSourceTable(pc *planCtx, schema *catalog.Schema, src *catalog.Source, ut source.Table) (*catalog.Table, error) {
	if _, exists := pc.cat.Table(schema.OID, ut.Name); exists {
		return nil, pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", ut.Name).
			WithHint("Name the source table with AS in FOR TABLES.")
	}
	ed, err := x.tx.edit()
	if err != nil {
		return nil, err
	}
	oid, err := ed.NewOID()
	if err != nil {
		return nil, err
	}
	rowType, err := ed.NewOID()
	if err != nil {
		return nil, err
	}
	t := &catalog.Table{OID: oid, Schema: schema.OID, Name: ut.Name, Kind: catalog.KindTable, NextAttnum: 1, RowType: rowType, Source: src.OID,
		Owner:   x.sess.currentRoleOID(x.tx.catalog()),
		Comment: fmt.Sprintf("changes of upstream table %s, followed by source %s", ut.Upstream, src.Name)}
	add := func(name string, typ types.T) error {
		if _, dup := t.Column(name); dup {
			return pgerror.New(pgerror.DuplicateColumn, "upstream table %s has a column named \"%s\", which source tables use for themselves", ut.Upstream, name)
		}
		t.Columns = append(t.Columns, catalog.Column{Name: name, Type: typ, Attnum: t.NextAttnum})
		t.NextAttnum++
		return nil
	}
	for _, c := range ut.Columns {
		if err := add(c.Name, sourceColumnType(c)); err != nil {
			return nil, err
		}
	}
	for _, c := range []struct {
		name string
		t    types.T
	}{{sourceColumnOp, eval.TextT()}, {sourceColumnLSN, eval.Int8T()}, {sourceColumnCommitTS, types.Of(types.Timestamptz)}} {
		if err := add(c.name, c.t); err != nil {
			return nil, err
		}
	}
	return t, x.storeNewTable(t)
}

// sourceColumnType is the cdcdb type of an upstream column: the same type
// (PostgreSQL's built-in types have the same OIDs and modifiers in cdcdb),
// or text for a type cdcdb does not have (an enum, a domain, an extension's
// type), whose values then keep upstream's spelling.
func sourceColumnType(c source.Column) types.T {
	if c.TypeOID < catalog.FirstUserOID {
		if _, ok := types.Lookup(types.OID(c.TypeOID)); ok {
			return types.T{OID: types.OID(c.TypeOID), Typmod: c.TypeMod}
		}
	}
	return eval.TextT()
}

// dropSources runs DROP SOURCE: for each source, it stops the follower,
// drops the replication slot the source made (a slot named in CREATE
// SOURCE that existed is the user's and stays), then drops the source and
// its tables. A slot that cannot be dropped (upstream unreachable) fails
// the statement, and the source keeps following: a slot left behind would
// hold WAL upstream for ever.
func (x *execCtx) dropSources(st *ast.Drop) error {
	if err := x.refuseInTransactionBlock("DROP SOURCE"); err != nil {
		return err
	}
	e := x.sess.engine
	if !x.sess.isSuperuser(e.catalogSnapshot()) {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to drop a source")
	}
	for _, name := range st.Names {
		src, ok := e.catalogSnapshot().Source(name.Name())
		if !ok {
			if st.IfExists {
				x.notice("source \"%s\" does not exist, skipping", name.Name())
				continue
			}
			return pgerror.New(pgerror.UndefinedObject, "source \"%s\" does not exist", name.Name())
		}
		if err := x.dropSource(src, st.Cascade); err != nil {
			return err
		}
	}
	return nil
}

func (x *execCtx) dropSource(src *catalog.Source, cascade bool) error {
	e := x.sess.engine
	// The flows first: refusing after the slot is gone would leave a
	// source that cannot resume.
	cat := e.catalogSnapshot()
	if !cascade {
		for _, st := range src.Tables {
			if flows := cat.FlowsFrom(st.Table); len(flows) > 0 {
				t, _ := cat.TableByOID(st.Table)
				return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop source %s because other objects depend on it", src.Name).
					WithDetail("flow %s depends on table %s", flows[0].Name, t.Name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
		}
	}
	if err := e.sources.drop(x.ctx, src.OID); err != nil {
		if x.ctx.Err() != nil {
			return cancelError(x.ctx)
		}
		e.sources.start(src.OID)
		return pgerror.New(pgerror.SQLClientUnableToEstablishConnection, "could not drop the replication slot of source \"%s\": %s", src.Name, pgerror.As(err).Message).
			WithHint("The source goes on following; drop it again once upstream can be reached.")
	}
	if err := x.removeSource(src, cascade); err != nil {
		// The slot is gone: the follower, started again, says so in
		// cdcdb.sources (state failed) until the source is dropped.
		e.sources.start(src.OID)
		return err
	}
	return nil
}

// removeSource drops a source whose follower is stopped, and its tables,
// in a transaction of its own.
func (x *execCtx) removeSource(src *catalog.Source, cascade bool) error {
	e := x.sess.engine
	tx, err := e.beginTxn(x.ctx, x.sess, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	wx := internalExecCtx(x.ctx, x.sess, tx)
	wx.out = x.out
	pc := wx.planCtx()
	src, ok := pc.cat.SourceByOID(src.OID)
	if !ok {
		return nil // dropped meanwhile by another session
	}
	// The source goes first: a table of a source that exists is not
	// for DROP TABLE (see refuseSourceTableChange).
	ed, err := tx.edit()
	if err != nil {
		return err
	}
	if err := ed.DropSource(src.OID); err != nil {
		return err
	}
	pc.cat = tx.catalog()
	for _, st := range src.Tables {
		t, ok := tx.catalog().TableByOID(st.Table)
		if !ok {
			continue
		}
		if err := wx.dropRelation(pc, ast.QualifiedName{Parts: []string{mustSchemaName(pc.cat, t.Schema), t.Name}},
			&ast.Drop{Kind: ast.ObjectTable, Cascade: cascade}); err != nil {
			return err
		}
		pc.cat = tx.catalog()
	}
	return tx.commit()
}

func mustSchemaName(cat *catalog.Snapshot, oid catalog.OID) string {
	if sc, ok := cat.SchemaByOID(oid); ok {
		return sc.Name
	}
	return ""
}

// dropConnections runs DROP CONNECTION, refused while a source uses the
// connection.
func (x *execCtx) dropConnections(st *ast.Drop) error {
	if !x.sess.isSuperuser(x.tx.catalog()) {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to drop a connection")
	}
	for _, name := range st.Names {
		cat := x.tx.catalog()
		c, ok := cat.Connection(name.Name())
		if !ok {
			if st.IfExists {
				x.notice("connection \"%s\" does not exist, skipping", name.Name())
				continue
			}
			return pgerror.New(pgerror.UndefinedObject, "connection \"%s\" does not exist", name.Name())
		}
		if users := cat.SourcesUsing(c.OID); len(users) > 0 {
			return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop connection %s because other objects depend on it", c.Name).
				WithDetail("source %s depends on connection %s", users[0].Name, c.Name).
				WithHint("Drop the source first.")
		}
		ed, err := x.tx.edit()
		if err != nil {
			return err
		}
		if err := ed.DropConnection(c.OID); err != nil {
			return err
		}
	}
	return nil
}

// refuseSourceTableChange refuses what would make a source table differ
// from what its follower wrote: only the follower writes it, and only DROP
// SOURCE drops it.
func refuseSourceTableChange(cat *catalog.Snapshot, t *catalog.Table, verb string) *pgerror.Error {
	if t.Source == 0 {
		return nil
	}
	src, ok := cat.SourceByOID(t.Source)
	if !ok {
		return nil // its source is being dropped
	}
	return pgerror.New(pgerror.WrongObjectType, "cannot %s table \"%s\" because source \"%s\" writes it", verb, t.Name, src.Name).
		WithHint("A source table holds what its upstream table did; use DROP SOURCE %s to remove it.", src.Name)
}
