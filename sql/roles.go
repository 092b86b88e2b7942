package sql

import (
	"context"
	"fmt"
	"strings"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/storage"
	"cdcdb/types"
	"cdcdb/wire"
)

// This file owns roles and table privileges: CREATE/ALTER/DROP ROLE,
// GRANT/REVOKE on tables, who may log in (Engine.LoginRole, for wire), and
// the checks every read and write path makes (checkTablePrivilege,
// checkOwner), which ask package acl who holds what and refuse with
// PostgreSQL's 42501 errors. A session acts as the role named by its user. Plans are
// cached per user and per catalog generation, and GRANT, REVOKE and role
// changes make a new generation, so a plan-time check is never stale.

// LoginRole implements wire.RoleDirectory: what the committed catalog says
// of the role a client logs in as.
func (e *Engine) LoginRole(name string) (wire.LoginRole, error) {
	var out wire.LoginRole
	err := e.db.View(func(tx *storage.Tx) error {
		cat, err := e.catalogFor(tx, true)
		if err != nil {
			return err
		}
		r, ok := cat.Role(name)
		if !ok {
			return nil
		}
		out.Exists, out.CanLogin, out.Superuser = true, r.Login, r.Superuser
		if r.Password != "" {
			out.Verifiers = append([]string{r.Password}, r.OtherVerifiers...)
		}
		return nil
	})
	return out, err
}

// SetBootstrapPassword gives the bootstrap superuser password when it has
// none yet (the first start with a password): later starts leave the one
// stored, which ALTER ROLE may have changed.
func (e *Engine) SetBootstrapPassword(password string) error {
	if password == "" {
		return nil
	}
	s := &Session{engine: e, user: catalog.BootstrapRoleName, settings: map[string]string{}}
	t, err := e.beginTxn(context.Background(), s, true)
	if err != nil {
		return err
	}
	r, ok := t.catalog().RoleByOID(catalog.BootstrapRoleOID)
	if !ok || r.Password != "" {
		t.rollback()
		return nil
	}
	ed, err := t.edit()
	if err != nil {
		t.rollback()
		return err
	}
	changed := *r
	setRolePassword(&changed, password)
	if err := ed.PutRole(&changed); err != nil {
		t.rollback()
		return err
	}
	return t.commit()
}

// setRolePassword stores password's verifiers in r (never the password),
// or a verifier given as the password as it is, as PostgreSQL does.
func setRolePassword(r *catalog.Role, password string) {
	r.OtherVerifiers = nil
	switch {
	case password == "":
		r.Password = ""
	case wire.IsSCRAMVerifier(password):
		r.Password = password
	default:
		v := wire.SCRAMVerifiers(password)
		r.Password, r.OtherVerifiers = v[0], v[1:]
	}
}

// sessionRole is the role the session acts as; ok is false when the role
// was dropped (or never existed, for an in-process session under another
// name), and such a session may do nothing that needs a privilege.
func (s *Session) sessionRole(cat *catalog.Snapshot) (*catalog.Role, bool) {
	return cat.Role(s.currentRoleName())
}

// isSuperuser reports whether the session's role is a superuser.
func (s *Session) isSuperuser(cat *catalog.Snapshot) bool {
	r, ok := s.sessionRole(cat)
	return ok && r.Superuser
}

// permissionDenied is PostgreSQL's aclcheck_error for a relation.
func permissionDenied(t *catalog.Table) *pgerror.Error {
	kind := "table"
	if t.Kind == catalog.KindView {
		kind = "view"
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied for %s %s", kind, t.Name)
}

// mustBeOwner is PostgreSQL's aclcheck_error for ACLCHECK_NOT_OWNER.
func mustBeOwner(t *catalog.Table) *pgerror.Error {
	kind := "table"
	switch t.Kind {
	case catalog.KindView:
		kind = "view"
	case catalog.KindStreaming:
		kind = "streaming table"
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "must be owner of %s %s", kind, t.Name)
}

// checkTablePrivilege refuses with 42501 unless the session may do each
// of privs on t. Views' own queries run with their owner's rights, so
// tables read inside a view are checked against the view's owner, at once
// (a REVOKE makes a new catalog generation, so no plan outlives it), and
// flows' own plans never call it (a flow writes with its owner's rights).
func (pc *planCtx) checkTablePrivilege(t *catalog.Table, privs ...catalog.Privilege) error {
	if pc.inView > 0 {
		return pc.checkViewOwnerPrivilege(t, privs)
	}
	if pc.deferPrivileges {
		for _, p := range privs {
			pc.required = append(pc.required, privilegeNeed{table: t, privilege: p})
		}
		return nil
	}
	if !pc.checkPrivileges {
		return nil
	}
	r, ok := pc.sess.sessionRole(pc.cat)
	if ok {
		if err := checkSchemaUsage(pc.cat, r, t); err != nil {
			return err
		}
	}
	for _, p := range privs {
		if !ok || !acl.HasTablePrivilege(pc.cat, r, t, p) {
			return permissionDenied(t)
		}
	}
	return nil
}

// checkOwner refuses with 42501 unless the session's role owns t or is a
// superuser: DDL on a table is its owner's.
func (x *execCtx) checkOwner(t *catalog.Table) error {
	cat := x.tx.catalog()
	r, ok := x.sess.sessionRole(cat)
	if ok {
		if err := checkSchemaUsage(cat, r, t); err != nil {
			return err
		}
	}
	if ok && acl.ActsAsOwner(cat, r, acl.TableOwner(t)) {
		return nil
	}
	return mustBeOwner(t)
}

// currentRoleOID is the OID of the session's role, for ownership of what
// it creates; the bootstrap superuser when the role is gone.
func (s *Session) currentRoleOID(cat *catalog.Snapshot) catalog.OID {
	if r, ok := s.sessionRole(cat); ok {
		return r.OID
	}
	return catalog.BootstrapRoleOID
}

// compileRoleStatement plans CREATE/ALTER/DROP ROLE, GRANT and REVOKE.
func (pc *planCtx) compileRoleStatement(stmt ast.Statement) (*compiled, error) {
	switch st := stmt.(type) {
	case *ast.CreateRole:
		return &compiled{access: accessWrite, run: createRoleStatement{st}}, nil
	case *ast.AlterRole:
		return &compiled{access: accessWrite, run: alterRoleStatement{st}}, nil
	case *ast.DropRole:
		return &compiled{access: accessWrite, run: dropRoleStatement{st}}, nil
	case *ast.GrantPrivileges:
		return &compiled{access: accessWrite, run: grantStatement{st}}, nil
	case *ast.AlterDefaultPrivileges:
		return &compiled{access: accessWrite, run: alterDefaultPrivilegesStatement{st}}, nil
	case *ast.GrantRoles:
		return &compiled{access: accessWrite, run: grantRolesStatement{st}}, nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "statement %T is not supported", stmt)
}

// roleAttributes are the role options a statement set, after checking.
type roleAttributes struct {
	superuser, login, inherit, createRole *bool
	password                              *string
}

// readRoleOptions checks CREATE/ALTER ROLE's options: those cdcdb builds
// are taken, the NO forms of those it does not build are accepted (they
// say what every role here is), the rest are refused by name.
func readRoleOptions(opts []ast.RoleOption) (roleAttributes, []string, error) {
	var a roleAttributes
	var notices []string
	seen := map[string]bool{}
	flag := func(dst **bool, v bool) {
		*dst = &v
	}
	for _, o := range opts {
		key := strings.TrimPrefix(o.Name, "NO")
		if o.Name == "NOINHERIT" || o.Name == "INHERIT" {
			key = "INHERIT"
		}
		if seen[key] {
			return a, nil, pgerror.New(pgerror.SyntaxError, "conflicting or redundant options").WithPosition(o.Pos + 1)
		}
		seen[key] = true
		switch o.Name {
		case "SUPERUSER", "NOSUPERUSER":
			flag(&a.superuser, o.Name == "SUPERUSER")
		case "LOGIN", "NOLOGIN":
			flag(&a.login, o.Name == "LOGIN")
		case "INHERIT", "NOINHERIT":
			flag(&a.inherit, o.Name == "INHERIT")
		case "CREATEROLE", "NOCREATEROLE":
			flag(&a.createRole, o.Name == "CREATEROLE")
		case "PASSWORD":
			v := o.Value
			if !o.Null && v == "" {
				notices = append(notices, "empty string is not a valid password, clearing password")
			}
			a.password = &v
		case "NOCREATEDB", "NOREPLICATION", "NOBYPASSRLS":
		default:
			return a, nil, pgerror.New(pgerror.FeatureNotSupported, "role option %s is not supported", o.Name).WithPosition(o.Pos + 1)
		}
	}
	return a, notices, nil
}

func (a roleAttributes) applyTo(r *catalog.Role) {
	if a.superuser != nil {
		r.Superuser = *a.superuser
	}
	if a.login != nil {
		r.Login = *a.login
	}
	if a.inherit != nil {
		r.NoInherit = !*a.inherit
	}
	if a.createRole != nil {
		r.CreateRole = *a.createRole
	}
	if a.password != nil {
		setRolePassword(r, *a.password)
	}
}

// requireCreateRole refuses a role statement to a role that is neither
// a superuser nor holds CREATEROLE.
func (x *execCtx) requireCreateRole(message string) error {
	if r, ok := x.sess.sessionRole(x.tx.catalog()); ok && acl.HasCreateRole(r) {
		return nil
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "%s", message)
}

func checkNewRoleName(name string) error {
	if strings.HasPrefix(name, "pg_") {
		return &pgerror.Error{Code: pgerror.ReservedName, Message: fmt.Sprintf("role name \"%s\" is reserved", name),
			Detail: "Role names starting with \"pg_\" are reserved."}
	}
	if name == "public" || name == "none" {
		return &pgerror.Error{Code: pgerror.ReservedName, Message: fmt.Sprintf("role name \"%s\" is reserved", name)}
	}
	return nil
}

func (x *execCtx) createRole(st *ast.CreateRole) error {
	attrs, notices, err := readRoleOptions(st.Options)
	if err != nil {
		return err
	}
	if attrs.superuser != nil && *attrs.superuser && !x.sess.isSuperuser(x.tx.catalog()) {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be superuser to create superusers")
	}
	if err := x.requireCreateRole("permission denied to create role"); err != nil {
		return err
	}
	if err := checkNewRoleName(st.Name); err != nil {
		return err
	}
	cat := x.tx.catalog()
	if _, exists := cat.Role(st.Name); exists {
		return pgerror.New(pgerror.DuplicateObject, "role \"%s\" already exists", st.Name)
	}
	for _, n := range notices {
		x.notice("%s", n)
	}
	r := &catalog.Role{Name: st.Name, Login: st.User}
	attrs.applyTo(r)
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	if r.OID, err = ed.NewOID(); err != nil {
		return err
	}
	return ed.PutRole(r)
}

func (x *execCtx) alterRole(st *ast.AlterRole) error {
	cat := x.tx.catalog()
	old, ok := cat.Role(st.Name)
	if !ok {
		return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", st.Name)
	}
	attrs, notices, err := readRoleOptions(st.Options)
	if err != nil {
		return err
	}
	self, _ := x.sess.sessionRole(cat)
	switch {
	case self != nil && self.Superuser:
	case old.Superuser || attrs.superuser != nil:
		return pgerror.New(pgerror.InsufficientPrivilege, "must be superuser to alter superuser roles or change superuser attribute")
	case self != nil && self.CreateRole:
		// CREATEROLE alters any role but superusers, as in PostgreSQL 15.
	default:
		// A role may change its own password, and nothing else.
		if self == nil || self.OID != old.OID || attrs.superuser != nil || attrs.login != nil || attrs.inherit != nil || attrs.createRole != nil {
			return pgerror.New(pgerror.InsufficientPrivilege, "permission denied")
		}
	}
	if old.Bootstrap && attrs.superuser != nil && !*attrs.superuser {
		return &pgerror.Error{Code: pgerror.InsufficientPrivilege, Message: "permission denied",
			Detail: "The bootstrap user must have the SUPERUSER attribute."}
	}
	for _, n := range notices {
		x.notice("%s", n)
	}
	r := *old
	attrs.applyTo(&r)
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	return ed.PutRole(&r)
}

func (x *execCtx) dropRoles(st *ast.DropRole) error {
	if err := x.requireCreateRole("permission denied to drop role"); err != nil {
		return err
	}
	for _, name := range st.Names {
		cat := x.tx.catalog()
		r, ok := cat.Role(name)
		if !ok {
			if st.IfExists {
				x.notice("role \"%s\" does not exist, skipping", name)
				continue
			}
			return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
		}
		// PostgreSQL's order of refusals.
		switch {
		case name == x.sess.currentRoleName():
			return pgerror.New(pgerror.ObjectInUse, "current user cannot be dropped")
		case name == x.sess.user:
			return pgerror.New(pgerror.ObjectInUse, "session user cannot be dropped")
		case r.Superuser && !x.sess.isSuperuser(cat):
			return pgerror.New(pgerror.InsufficientPrivilege, "must be superuser to drop superusers")
		case r.Bootstrap:
			return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop role %s because it is required by the database system", name)
		}
		if deps := acl.Dependents(cat, r.OID); len(deps) > 0 {
			return &pgerror.Error{Code: pgerror.DependentObjectsStillExist,
				Message: fmt.Sprintf("role \"%s\" cannot be dropped because some objects depend on it", name),
				Detail:  strings.Join(deps, "\n")}
		}
		ed, err := x.tx.edit()
		if err != nil {
			return err
		}
		if err := ed.DropRole(r.OID); err != nil {
			return err
		}
		if err := x.dropMembershipsIn(r.OID); err != nil {
			return err
		}
	}
	return nil
}

// grantPrivileges runs GRANT and REVOKE on tables.
func (x *execCtx) grantPrivileges(st *ast.GrantPrivileges) error {
	if len(st.OnSchemas) > 0 {
		return x.grantSchemaPrivileges(st) // schemaprivs.go
	}
	privs, err := tablePrivilegesNamed(st.Privileges)
	if err != nil {
		return err
	}
	cat := x.tx.catalog()
	grantees, err := granteeOIDs(cat, st.Grantees)
	if err != nil {
		return err
	}
	var tables []*catalog.Table
	pc := x.planCtx()
	for _, q := range st.Tables {
		t, _, err := pc.lookupRelation(q)
		if err != nil {
			return err
		}
		tables = append(tables, t)
	}
	for _, name := range st.Schemas {
		sc, ok := cat.Schema(name)
		if !ok {
			return pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", name)
		}
		for _, t := range cat.Tables() {
			if t.Schema == sc.OID {
				tables = append(tables, t)
			}
		}
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	for _, t := range tables {
		if granted, err := x.checkOwnerToGrant(t); err != nil {
			return err
		} else if !granted {
			if st.Revoke {
				x.warning(pgerror.WarningPrivilegeNotRevoked, "no privileges could be revoked for \"%s\"", t.Name)
			} else {
				x.warning(pgerror.WarningPrivilegeNotGranted, "no privileges were granted for \"%s\"", t.Name)
			}
			continue
		}
		c := t.Clone()
		c.ACL = acl.ChangeTableACL(c, grantees, privs, !st.Revoke)
		if err := ed.PutTable(c); err != nil {
			return err
		}
	}
	return nil
}

// checkOwnerToGrant says whether the session may GRANT and REVOKE on a
// table: as its owner or a superuser (cdcdb has no WITH GRANT OPTION). As
// in PostgreSQL, a role holding some privilege on it gets a warning and
// changes nothing (granted false); one holding none is refused.
func (x *execCtx) checkOwnerToGrant(t *catalog.Table) (granted bool, err error) {
	cat := x.tx.catalog()
	r, ok := x.sess.sessionRole(cat)
	if ok && acl.ActsAsOwner(cat, r, acl.TableOwner(t)) {
		return true, nil
	}
	if ok {
		for _, p := range catalog.TablePrivileges {
			if acl.HasTablePrivilege(cat, r, t, p) {
				return false, nil
			}
		}
	}
	return false, permissionDenied(t)
}

// tablePrivilegesNamed maps GRANT's privilege words to privileges.
func tablePrivilegesNamed(words []string) ([]catalog.Privilege, error) {
	var out []catalog.Privilege
	for _, w := range words {
		switch p, ok := acl.TablePrivilegeNamed(w); {
		case w == "ALL":
			out = append(out, catalog.AllTablePrivileges...)
		case p == catalog.PrivReferences || p == catalog.PrivTrigger:
			return nil, pgerror.New(pgerror.FeatureNotSupported, "privilege %s is not supported", w)
		case ok:
			out = append(out, p)
		default:
			return nil, pgerror.New(pgerror.InvalidGrantOperation, "invalid privilege type %s for relation", w)
		}
	}
	return out, nil
}

// aclText is an ACL as PostgreSQL prints aclitem[] (acl.Text). Nil for a
// table never granted on.
func aclText(cat *catalog.Snapshot, t *catalog.Table) types.Value {
	if t.ACL == nil {
		return nil
	}
	a := types.ArrayValue{Elem: types.Aclitem, Elems: make([]types.Value, len(t.ACL))}
	for i, text := range acl.Text(cat, t.ACL) {
		a.Elems[i] = text
	}
	return a
}

// requireTablePrivilege is checkTablePrivilege for statements that find
// their tables as they execute (TRUNCATE, CREATE FLOW).
func (x *execCtx) requireTablePrivilege(t *catalog.Table, p catalog.Privilege) error {
	cat := x.tx.catalog()
	r, ok := x.sess.sessionRole(cat)
	if ok {
		if err := checkSchemaUsage(cat, r, t); err != nil {
			return err
		}
	}
	if ok && acl.HasTablePrivilege(cat, r, t, p) {
		return nil
	}
	return permissionDenied(t)
}

// checkFlowRights refuses CREATE FLOW unless its creator may read what
// the flow reads and owns its target: the flow then writes the target
// with its owner's rights, whoever writes its source.
func (x *execCtx) checkFlowRights(d *flowDefinition) error {
	if d.source != nil {
		if err := x.requireTablePrivilege(d.source, catalog.PrivSelect); err != nil {
			return err
		}
	}
	cat := x.tx.catalog()
	for _, oid := range d.reads {
		if t, ok := cat.TableByOID(oid); ok {
			if err := x.requireTablePrivilege(t, catalog.PrivSelect); err != nil {
				return err
			}
		}
	}
	return x.checkOwner(d.target)
}

// hasTablePrivilegeCall is has_table_privilege([role,] table, privileges):
// whether the role (the session's when not given) holds any of the
// privileges listed on a table of the catalog. A system relation is
// readable by everyone and written by no one.
func hasTablePrivilegeCall(x *execCtx, a []types.Value) (types.Value, error) {
	cat := x.catalogOf()
	role, ok := x.sess.sessionRole(cat)
	if len(a) == 3 {
		switch v := a[0].(type) {
		case string:
			if role, ok = cat.Role(v); !ok {
				return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", v)
			}
		case int64:
			// A role OID that is not one: PostgreSQL answers NULL.
			if role, ok = cat.RoleByOID(uint32(v)); !ok {
				return nil, nil
			}
		}
	}
	var oid int64
	switch v := a[len(a)-2].(type) {
	case string:
		o, err := x.sess.parseRegValue(x, types.Regclass, v)
		if err != nil {
			return nil, err
		}
		oid = o.(int64)
	case int64:
		oid = v
	}
	t, isTable := cat.TableByOID(uint32(oid))
	for _, w := range strings.Split(a[len(a)-1].(string), ",") {
		w = strings.ToLower(strings.TrimSpace(w))
		w = strings.TrimSpace(strings.TrimSuffix(w, "with grant option"))
		if !isTable {
			if w == "select" {
				return true, nil
			}
			continue
		}
		if !ok {
			continue
		}
		p, known := acl.TablePrivilegeNamed(w)
		if !known {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized privilege type: \"%s\"", w)
		}
		if acl.HasTablePrivilege(cat, role, t, p) {
			return true, nil
		}
	}
	return false, nil
}

// warning sends a WARNING with code to the client of the running statement.
func (x *execCtx) warning(code, format string, args ...any) {
	if x.out != nil {
		x.out.notice("WARNING", code, format, args...)
	}
}

// privilegeNeed is one privilege a planned statement needs: privilege on
// table, or (table nil) being a superuser, refused with denied.
type privilegeNeed struct {
	table     *catalog.Table
	privilege catalog.Privilege
	denied    string
}

// requireSuperuser is checkTablePrivilege for what only a superuser reads
// (pg_authid, pg_shadow).
func (pc *planCtx) requireSuperuser(denied string) error {
	switch {
	case pc.deferPrivileges:
		pc.required = append(pc.required, privilegeNeed{denied: denied})
	case pc.checkPrivileges && !pc.sess.isSuperuser(pc.cat):
		return pgerror.New(pgerror.InsufficientPrivilege, "%s", denied)
	}
	return nil
}

// checkRequired checks a statement's privileges as it executes, against
// the catalog it runs on (its plan was made on the same one).
func (s *Session) checkRequired(cat *catalog.Snapshot, needs []privilegeNeed) error {
	if len(needs) == 0 {
		return nil
	}
	r, ok := s.sessionRole(cat)
	if ok && r.Superuser {
		return nil
	}
	for _, n := range needs {
		switch {
		case n.table == nil:
			return pgerror.New(pgerror.InsufficientPrivilege, "%s", n.denied)
		case !ok:
			return permissionDenied(n.table)
		case checkSchemaUsage(cat, r, n.table) != nil:
			return checkSchemaUsage(cat, r, n.table)
		case !acl.HasTablePrivilege(cat, r, n.table, n.privilege):
			return permissionDenied(n.table)
		}
	}
	return nil
}

// checkWritePrivilege checks the privilege to write a statement's target
// table at once, even for a statement whose reads are checked as it
// executes: cdcdb refuses some writes while planning (a flow's source is
// append-only, a streaming table is the flows'), and a role without the
// privilege must hear that it lacks it, not why the write would fail.
func (pc *planCtx) checkWritePrivilege(t *catalog.Table, p catalog.Privilege) error {
	if pc.inView > 0 || !pc.checkPrivileges && !pc.deferPrivileges {
		return nil
	}
	r, ok := pc.sess.sessionRole(pc.cat)
	if ok {
		if err := checkSchemaUsage(pc.cat, r, t); err != nil {
			return err
		}
	}
	if !ok || !acl.HasTablePrivilege(pc.cat, r, t, p) {
		return permissionDenied(t)
	}
	return nil
}

// compileRoleSwitch plans SET ROLE (checked, then set as the parameter
// it is) and SET SESSION AUTHORIZATION, which cdcdb does not switch:
// switching to the role the session already is, or back (DEFAULT), does
// nothing and is accepted; any other role is refused rather than ignored. A nil plan means "plan it as the
// parameter it also is" (SET SESSION AUTHORIZATION to oneself).
func (pc *planCtx) compileRoleSwitch(st *ast.Set, value string) (*compiled, error) {
	if st.Name == "role" {
		// The "role" parameter (rolemembers.go), once allowed.
		return nil, pc.checkSetRole(value)
	}
	if st.Default || value == pc.sess.user || st.Name == "role" && strings.EqualFold(value, "none") {
		if st.Name == "session_authorization" {
			return nil, nil
		}
		return &compiled{access: accessNone, run: roleUnchangedStatement{st, value}}, nil
	}
	what := "SET ROLE"
	if st.Name == "session_authorization" {
		what = "SET SESSION AUTHORIZATION"
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "%s to another role is not supported", what)
}

// isTablePrivileges is information_schema.table_privileges (all is set)
// or role_table_grants: one row per privilege of each ACL item (the
// owner's implicit one for a table never granted on). table_privileges
// shows the grants the current role made or received, or PUBLIC
// received, and a superuser every grant; role_table_grants those the
// current role made or received. System catalogs are left out.
func isTablePrivileges(all bool) func(x *execCtx, b *catalogviews.RowBuilder) ([]eval.Row, error) {
	return func(x *execCtx, b *catalogviews.RowBuilder) ([]eval.Row, error) {
		cat := x.catalogOf()
		me, ok := x.sess.sessionRole(cat)
		if !ok {
			return nil, nil
		}
		var rows []eval.Row
		for _, t := range cat.Tables() {
			sc, ok := cat.SchemaByOID(t.Schema)
			if !ok {
				continue
			}
			owner := acl.TableOwner(t)
			for _, item := range acl.TableACL(t) {
				visible := item.Grantor == me.OID || item.Grantee == me.OID
				if all {
					visible = visible || item.Grantee == 0 || me.Superuser
				}
				if !visible {
					continue
				}
				grantee := "PUBLIC"
				if item.Grantee != 0 {
					grantee = catalogviews.RoleName(x.catalogViews(), int64(item.Grantee))
				}
				for i := 0; i < len(item.Privileges); i++ {
					p := acl.PrivilegeType(item.Privileges[i])
					rows = append(rows, b.Make("grantor", catalogviews.RoleName(x.catalogViews(), int64(item.Grantor)), "grantee", grantee,
						"table_catalog", "main", "table_schema", sc.Name, "table_name", t.Name, "privilege_type", p,
						"is_grantable", catalogviews.YesNo(item.Grantee == owner), "with_hierarchy", catalogviews.YesNo(p == "SELECT")))
				}
			}
		}
		return rows, nil
	}
}

// holdsAnyTablePrivilege reports whether the session's role holds one of
// privs on t.
func (s *Session) holdsAnyTablePrivilege(cat *catalog.Snapshot, t *catalog.Table, privs ...catalog.Privilege) bool {
	r, ok := s.sessionRole(cat)
	return ok && acl.HasAnyTablePrivilege(cat, r, t, privs...)
}

// maySignal refuses pg_cancel_backend and pg_terminate_backend of another
// role's session as PostgreSQL 15 does: a superuser's only to a
// superuser, another role's only to a superuser. (cdcdb has no
// pg_signal_backend, and does not yet let a role signal the sessions of
// a role whose privileges it holds, as PostgreSQL's has_privs_of_role
// check does.)
func (s *Session) maySignal(cat *catalog.Snapshot, target string, terminate bool) error {
	me, ok := s.sessionRole(cat)
	if ok && me.Superuser || target == s.user {
		return nil
	}
	if r, found := cat.Role(target); found && r.Superuser {
		if terminate {
			return pgerror.New(pgerror.InsufficientPrivilege, "must be a superuser to terminate superuser process")
		}
		return pgerror.New(pgerror.InsufficientPrivilege, "must be a superuser to cancel superuser query")
	}
	if terminate {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be a member of the role whose process is being terminated or member of pg_signal_backend")
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "must be a member of the role whose query is being canceled or member of pg_signal_backend")
}
