package sql

import (
	"reflect"
	"slices"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// Indexes on expressions and partial indexes (CREATE [UNIQUE] INDEX ... ON
// t (lower(name)) [WHERE pred]), which pg_dump writes as any schema has
// them. They are catalog.ExprIndex values, apart from the plain-column
// indexes: the planner never reads one (a query is answered the same
// without it), and a UNIQUE one is enforced on every write through the
// table's writer (rowwrite.go calls addExprIndexEntries and
// removeExprIndexEntries), as PostgreSQL enforces it. Their expressions
// are kept as text naming columns, so those columns may not be renamed or
// dropped while the index exists (0A000).
//
// As in PostgreSQL, the expressions must be immutable: functions with no
// immutable form in pg_proc (now(), random(), nextval(), ...) and casts
// between a date or time type and another type, which read TimeZone or
// DateStyle, are refused (42P17), as are subqueries and aggregates.

// isExprIndex reports whether CREATE INDEX needs an ExprIndex: a key that
// is not a plain column, or a WHERE.
func isExprIndex(st *ast.CreateIndex) bool {
	if st.Where != nil {
		return true
	}
	for _, item := range st.Columns {
		if ref, ok := item.Expr.(*ast.ColumnRef); !ok || len(ref.Parts) != 1 {
			return true
		}
	}
	return false
}

// boundExprIndex is a unique ExprIndex with its keys and predicate bound
// over the table's stored tuple.
type boundExprIndex struct {
	ix   *catalog.ExprIndex
	keys []eval.Expr // nil entry: the key is column ix.Keys[i].Attnum
	pred eval.Expr   // nil: every row
}

// bindExprIndexes binds t's unique expression and partial indexes, the
// ones writes must keep.
func (pc *planCtx) bindExprIndexes(t *catalog.Table) ([]boundExprIndex, error) {
	var out []boundExprIndex
	for i := range t.ExprIndexes {
		ix := &t.ExprIndexes[i]
		if !ix.Unique {
			continue
		}
		b, err := pc.bindExprIndex(t, ix)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func (pc *planCtx) bindExprIndex(t *catalog.Table, ix *catalog.ExprIndex) (boundExprIndex, error) {
	sc := newScope(nil)
	sc.add(tupleRel(t))
	b := pc.binder(sc)
	out := boundExprIndex{ix: ix, keys: make([]eval.Expr, len(ix.Keys))}
	for i, k := range ix.Keys {
		if k.Expr == "" {
			continue
		}
		e, err := parse.ParseExpr(k.Expr)
		if err != nil {
			return out, pgerror.New(pgerror.DataCorrupted, "expression of index \"%s\" is unreadable: %v", ix.Name, err)
		}
		if out.keys[i], err = b.bind(e); err != nil {
			return out, err
		}
	}
	if ix.Predicate != "" {
		e, err := parse.ParseExpr(ix.Predicate)
		if err != nil {
			return out, pgerror.New(pgerror.DataCorrupted, "predicate of index \"%s\" is unreadable: %v", ix.Name, err)
		}
		if out.pred, err = b.bindCondition(e, "WHERE"); err != nil {
			return out, err
		}
	}
	return out, nil
}

// key is the index entry's key for a tuple; ok is false when the row is
// not in the index: its predicate does not hold, or a key is NULL (which
// PostgreSQL's unique indexes do not compare equal to anything).
func (bi *boundExprIndex) key(x *execCtx, tuple []types.Value) (key []byte, vals []types.Value, ok bool, err error) {
	env := &eval.Env{Row: tuple, X: x}
	if bi.pred != nil {
		r, err := bi.pred.Eval(env)
		if err != nil || r != true {
			return nil, nil, false, err
		}
	}
	vals = make([]types.Value, len(bi.ix.Keys))
	for i, k := range bi.ix.Keys {
		var v types.Value
		if bi.keys[i] == nil {
			v = tuple[k.Attnum-1]
		} else if v, err = bi.keys[i].Eval(env); err != nil {
			return nil, nil, false, err
		}
		if v == nil {
			return nil, nil, false, nil
		}
		vals[i] = v
		if k.Desc {
			key, err = rowcodec.AppendKeyDesc(key, v)
		} else {
			key, err = rowcodec.AppendKey(key, v)
		}
		if err != nil {
			return nil, nil, false, err
		}
	}
	return key, vals, true, nil
}

// keyText is the index's keys as PostgreSQL's messages print them.
func (bi *boundExprIndex) keyText(t *catalog.Table) string {
	parts := make([]string, len(bi.ix.Keys))
	for i, k := range bi.ix.Keys {
		if k.Expr != "" {
			parts[i] = k.Expr
		} else if c := t.ColumnByAttnum(k.Attnum); c != nil {
			parts[i] = c.Name
		}
	}
	return strings.Join(parts, ", ")
}

func (bi *boundExprIndex) valuesText(x *execCtx, t *catalog.Table, vals []types.Value) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		typ := types.Of(types.Text)
		if bi.keys[i] != nil {
			typ = bi.keys[i].Type()
		} else if c := t.ColumnByAttnum(bi.ix.Keys[i].Attnum); c != nil {
			typ = c.Type
		}
		parts[i] = x.sess.formatValue(x, typ, v)
	}
	return strings.Join(parts, ", ")
}

// addExprIndexEntries adds a new row's entries to the table's unique
// expression and partial indexes, refusing a duplicate with 23505.
func (w *tableWriter) addExprIndexEntries(x *execCtx, rowKey []byte, tuple []types.Value) error {
	for i := range w.exprIndexes {
		bi := &w.exprIndexes[i]
		key, vals, ok, err := bi.key(x, tuple)
		if err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		sp := x.tx.st.Space(catalog.IndexSpace(bi.ix.OID))
		if sp == nil {
			return pgerror.New(pgerror.DataCorrupted, "storage for index \"%s\" is missing", bi.ix.Name)
		}
		if sp.Get(key) != nil {
			e := pgerror.New(pgerror.UniqueViolation, "duplicate key value violates unique constraint \"%s\"", bi.ix.Name).
				WithDetail("Key (%s)=(%s) already exists.", bi.keyText(w.table), bi.valuesText(x, w.table, vals))
			e.Table, e.Constraint = w.table.Name, bi.ix.Name
			if w.schema != nil {
				e.Schema = w.schema.Name
			}
			return e
		}
		if err := sp.Put(key, rowKey); err != nil {
			return err
		}
	}
	return nil
}

// removeExprIndexEntries removes a row's entries.
func (w *tableWriter) removeExprIndexEntries(x *execCtx, tuple []types.Value) error {
	for i := range w.exprIndexes {
		bi := &w.exprIndexes[i]
		key, _, ok, err := bi.key(x, tuple)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if sp := x.tx.st.Space(catalog.IndexSpace(bi.ix.OID)); sp != nil {
			if err := sp.Delete(key); err != nil {
				return err
			}
		}
	}
	return nil
}

// createExprIndex is CREATE INDEX for an index on expressions or with a
// WHERE: it checks and stores the definition and, for a UNIQUE one,
// builds its entries from the table's rows.
func (x *execCtx) createExprIndex(pc *planCtx, t *catalog.Table, st *ast.CreateIndex) error {
	if t.Kind != catalog.KindTable || t.Source != 0 {
		return pgerror.New(pgerror.FeatureNotSupported, "indexes on expressions or with WHERE are supported on plain tables only")
	}
	cat := x.tx.catalog()
	ix := catalog.ExprIndex{Name: st.Name, Unique: st.Unique}
	uses := map[int16]bool{}
	var nameParts []string
	for _, item := range st.Columns {
		if item.Nulls != "" || item.Using != "" {
			return pgerror.New(pgerror.FeatureNotSupported, "NULLS FIRST/LAST and USING in index keys are not supported")
		}
		if ref, ok := item.Expr.(*ast.ColumnRef); ok && len(ref.Parts) == 1 {
			col, ok := t.Column(ref.Parts[0])
			if !ok {
				return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", ref.Parts[0])
			}
			ix.Keys = append(ix.Keys, catalog.ExprIndexKey{Attnum: col.Attnum, Desc: item.Desc})
			uses[col.Attnum] = true
			nameParts = append(nameParts, col.Name)
			continue
		}
		if err := pc.checkIndexExpr(t, item.Expr, uses, "index expressions"); err != nil {
			return err
		}
		ix.Keys = append(ix.Keys, catalog.ExprIndexKey{Expr: deparseExpr(item.Expr), Desc: item.Desc})
		nameParts = append(nameParts, indexExprName(item.Expr))
	}
	if st.Where != nil {
		if err := pc.checkIndexExpr(t, st.Where, uses, "index predicates"); err != nil {
			return err
		}
		ix.Predicate = deparseExpr(st.Where)
	}
	for a := range uses {
		ix.Uses = append(ix.Uses, a)
	}
	slices.Sort(ix.Uses)
	if err := checkIndexKeyCount(len(ix.Keys)); err != nil {
		return err
	}
	if ix.Name == "" {
		suffix := "_idx"
		if st.Unique {
			suffix = "_key"
		}
		base := truncateIdent(t.Name + "_" + joinNames(nameParts) + suffix)
		ix.Name = base
		for i := 1; relationNameTaken(cat, t.Schema, ix.Name); i++ {
			ix.Name = truncateIdent(base + itoa(i))
		}
	} else if relationNameTaken(cat, t.Schema, ix.Name) {
		if st.IfNotExists {
			x.notice("relation \"%s\" already exists, skipping", ix.Name)
			return nil
		}
		return pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", ix.Name)
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	if ix.OID, err = ed.NewOID(); err != nil {
		return err
	}
	c := t.Clone()
	c.ExprIndexes = append(c.ExprIndexes, ix)
	if ix.Unique {
		if err := x.buildExprIndex(pc, c, &c.ExprIndexes[len(c.ExprIndexes)-1]); err != nil {
			return err
		}
	}
	return ed.PutTable(c)
}

// buildExprIndex makes a unique ExprIndex's space and fills it from the
// table's rows (23505 for a key two rows share).
func (x *execCtx) buildExprIndex(pc *planCtx, t *catalog.Table, ix *catalog.ExprIndex) error {
	bi, err := pc.bindExprIndex(t, ix)
	if err != nil {
		return err
	}
	space := catalog.IndexSpace(ix.OID)
	if x.tx.st.Space(space) != nil {
		if err := x.tx.st.DropSpace(space); err != nil {
			return err
		}
	}
	sp, err := x.tx.st.CreateSpace(space)
	if err != nil {
		return err
	}
	cur := x.tx.st.Space(catalog.DataSpace(t.OID)).Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		key, vals, ok, err := bi.key(x, storedTuple(t, tuple))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if sp.Get(key) != nil {
			e := pgerror.New(pgerror.UniqueViolation, "could not create unique index \"%s\"", ix.Name).
				WithDetail("Key (%s)=(%s) is duplicated.", bi.keyText(t), bi.valuesText(x, t, vals))
			e.Table, e.Constraint = t.Name, ix.Name
			return e
		}
		if err := sp.Put(key, append([]byte(nil), k...)); err != nil {
			return err
		}
	}
	return nil
}

// checkIndexExpr binds an index key or predicate over t to check it (its
// columns exist, its types resolve) and holds it to PostgreSQL's rules for
// index expressions; uses gathers the columns it reads.
func (pc *planCtx) checkIndexExpr(t *catalog.Table, e ast.Expr, uses map[int16]bool, what string) error {
	if containsAggregate(e) {
		return pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in %s", what).WithPosition(e.Position() + 1)
	}
	sc := newScope(nil)
	sc.add(tupleRel(t))
	b := pc.binder(sc)
	var problem error
	astNodesIn(reflect.ValueOf(e), func(n any) {
		if problem != nil {
			return
		}
		switch n := n.(type) {
		case *ast.Subquery, *ast.Exists, *ast.Select:
			problem = pgerror.New(pgerror.FeatureNotSupported, "cannot use subquery in %s", strings.TrimSuffix(what, "s"))
		case *ast.ColumnRef:
			if c, ok := t.Column(n.Parts[len(n.Parts)-1]); ok {
				uses[c.Attnum] = true
			}
		case *ast.FuncCall:
			if !hasImmutableForm(n.Name.Name()) {
				problem = mustBeImmutable(what)
			}
		case *ast.Cast:
			from, err := b.bind(n.X)
			if err != nil {
				problem = err
				return
			}
			to, err := pc.resolveType(&n.Type)
			if err != nil {
				problem = err
				return
			}
			if f, g := from.Type().OID, to.OID; f != g && (isDateTimeType(f) || isDateTimeType(g)) && f != types.Unknown {
				problem = mustBeImmutable(what)
			}
		}
	})
	if problem != nil {
		return problem
	}
	if what == "index predicates" {
		_, err := b.bindCondition(e, "WHERE")
		return err
	}
	_, err := b.bind(e)
	return err
}

func mustBeImmutable(what string) error {
	if what == "index predicates" {
		return pgerror.New(pgerror.InvalidObjectDefinition, "functions in index predicate must be marked IMMUTABLE")
	}
	return pgerror.New(pgerror.InvalidObjectDefinition, "functions in index expression must be marked IMMUTABLE")
}

// isDateTimeType reports the types whose conversions to and from others
// read TimeZone or DateStyle.
func isDateTimeType(t types.OID) bool {
	switch t {
	case types.Date, types.Time, types.Timestamp, types.Timestamptz, types.Interval, timetzOID:
		return true
	}
	return false
}

// hasImmutableForm reports whether PostgreSQL's pg_proc has an immutable
// function of the name. A name it lacks (cdcdb's own functions) does not
// count: cdcdb has no user-defined functions, and its own read state.
func hasImmutableForm(name string) bool {
	rows, err := catalogviews.StaticRows("pg_proc")
	if err != nil {
		return false
	}
	b := catalogviews.CatalogRowBuilder("pg_proc")
	for _, r := range rows {
		if r[b.Col("proname")] == name && r[b.Col("provolatile")] == "i" {
			return true
		}
	}
	return false
}

// indexExprName is the part of a default index name an expression gives:
// its function's name, or "expr", as PostgreSQL's FigureIndexColname.
func indexExprName(e ast.Expr) string {
	for {
		switch n := e.(type) {
		case *ast.FuncCall:
			return n.Name.Name()
		case *ast.Cast:
			e = n.X
			continue
		}
		return "expr"
	}
}

// astNodesIn calls fn for every node of a syntax tree.
func astNodesIn(v reflect.Value, fn func(any)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer && v.CanInterface() {
			fn(v.Interface())
		}
		astNodesIn(v.Elem(), fn)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				astNodesIn(v.Field(i), fn)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			astNodesIn(v.Index(i), fn)
		}
	}
}

// timetzOID is time with time zone's type OID.
const timetzOID types.OID = 1266

// dropExprIndex is DROP INDEX of an ExprIndex; done is false when no table
// has one of the name.
func (x *execCtx) dropExprIndex(name ast.QualifiedName) (done bool, err error) {
	for _, t := range x.tx.catalog().Tables() {
		for i, ix := range t.ExprIndexes {
			if ix.Name != name.Name() {
				continue
			}
			if err := x.checkOwner(t); err != nil {
				return true, err
			}
			c := t.Clone()
			c.ExprIndexes = append(c.ExprIndexes[:i:i], t.ExprIndexes[i+1:]...)
			if x.tx.st.Space(catalog.IndexSpace(ix.OID)) != nil {
				if err := x.tx.st.DropSpace(catalog.IndexSpace(ix.OID)); err != nil {
					return true, err
				}
			}
			ed, err := x.tx.edit()
			if err != nil {
				return true, err
			}
			return true, ed.PutTable(c)
		}
	}
	return false, nil
}

// clearExprIndexes empties a truncated table's unique expression indexes.
func (x *execCtx) clearExprIndexes(t *catalog.Table) error {
	for _, ix := range t.ExprIndexes {
		if !ix.Unique {
			continue
		}
		if x.tx.st.Space(catalog.IndexSpace(ix.OID)) != nil {
			if err := x.tx.st.DropSpace(catalog.IndexSpace(ix.OID)); err != nil {
				return err
			}
		}
		if _, err := x.tx.st.CreateSpace(catalog.IndexSpace(ix.OID)); err != nil {
			return err
		}
	}
	return nil
}

// dropExprIndexSpaces drops a dropped table's expression index spaces.
func (x *execCtx) dropExprIndexSpaces(t *catalog.Table) error {
	for _, ix := range t.ExprIndexes {
		if x.tx.st.Space(catalog.IndexSpace(ix.OID)) != nil {
			if err := x.tx.st.DropSpace(catalog.IndexSpace(ix.OID)); err != nil {
				return err
			}
		}
	}
	return nil
}

// recheckExprIndexesOn is ALTER COLUMN TYPE's part for the expression and
// partial indexes of t that read column attnum, as PostgreSQL rebuilds
// them: their expressions must still bind and be immutable over the new
// type, and a unique one's entries, computed from the old values, are
// built again from the converted rows (23505 if they now collide).
func (x *execCtx) recheckExprIndexesOn(pc *planCtx, t *catalog.Table, attnum int16) error {
	for i := range t.ExprIndexes {
		ix := &t.ExprIndexes[i]
		if !slices.Contains(ix.Uses, attnum) {
			continue
		}
		type indexText struct{ text, what string }
		var texts []indexText
		for _, k := range ix.Keys {
			if k.Expr != "" {
				texts = append(texts, indexText{k.Expr, "index expressions"})
			}
		}
		if ix.Predicate != "" {
			texts = append(texts, indexText{ix.Predicate, "index predicates"})
		}
		for _, it := range texts {
			text, what := it.text, it.what
			e, err := parse.ParseExpr(text)
			if err != nil {
				return pgerror.New(pgerror.DataCorrupted, "expression of index \"%s\" is unreadable: %v", ix.Name, err)
			}
			// Positions would point into the index's text, not the statement.
			if err := pc.checkIndexExpr(t, e, map[int16]bool{}, what); err != nil {
				return withoutPosition(err) // ddl_alter_type.go
			}
		}
		if ix.Unique {
			if err := x.buildExprIndex(pc, t, ix); err != nil {
				return err
			}
		}
	}
	return nil
}

// refuseExprIndexColumn refuses to rename or drop a column an expression
// or partial index reads (its text names the column).
func refuseExprIndexColumn(t *catalog.Table, col *catalog.Column, verb string) error {
	for _, ix := range t.ExprIndexes {
		if slices.Contains(ix.Uses, col.Attnum) {
			return pgerror.New(pgerror.FeatureNotSupported, "cannot %s column \"%s\" of table \"%s\": index \"%s\" uses it", verb, col.Name, t.Name, ix.Name).
				WithHint("Drop the index first, and create it again after.")
		}
	}
	return nil
}

// conflictingExprIndexRow is the storage key of the row a unique
// expression or partial index already holds for tuple's key, nil when
// none: ON CONFLICT DO NOTHING without a target skips those conflicts too.
func (w *tableWriter) conflictingExprIndexRow(x *execCtx, tuple []types.Value) ([]byte, error) {
	for i := range w.exprIndexes {
		bi := &w.exprIndexes[i]
		key, _, ok, err := bi.key(x, tuple)
		if err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		if sp := x.tx.st.Space(catalog.IndexSpace(bi.ix.OID)); sp != nil {
			if v := sp.Get(key); v != nil {
				return append([]byte(nil), v...), nil
			}
		}
	}
	return nil, nil
}
