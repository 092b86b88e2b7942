package catalogviews

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/types"
)

// fakeStatement is the eval.Context a catalog function is called with:
// the fixture's session, with reg* names read by RegIn.
type fakeStatement struct{ sess *fakeSession }

var _ Statement = fakeStatement{}

func (f fakeStatement) GoContext() context.Context  { return context.Background() }
func (f fakeStatement) CheckCancel() error          { return nil }
func (f fakeStatement) Location() *time.Location    { return time.UTC }
func (f fakeStatement) TransactionStart() time.Time { return time.Time{} }
func (f fakeStatement) StatementStart() time.Time   { return time.Time{} }
func (f fakeStatement) Params() []types.Value       { return nil }
func (f fakeStatement) FormatValue(t types.T, v types.Value) string {
	return types.FormatTextIn(t, v, time.UTC)
}
func (f fakeStatement) ParseRegValue(oid types.OID, text string) (types.Value, error) {
	return RegIn(f.sess, f.sess.cat, oid, text)
}
func (f fakeStatement) FormatRegValue(oid types.OID, v int64) string {
	return RegOut(f.sess, f.sess, f.sess.cat, oid, v)
}
func (f fakeStatement) CatalogViewSession() Session { return f.sess }

// show prints a function's answer, or its error's SQLSTATE and message.
func show(v types.Value, err error) string {
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) {
			return "ERROR " + pe.Code + ": " + pe.Message
		}
		return "ERROR " + err.Error()
	}
	if v == nil {
		return "NULL"
	}
	if a, ok := v.(types.ArrayValue); ok {
		parts := make([]string, len(a.Elems))
		for i, e := range a.Elems {
			parts[i] = fmt.Sprint(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprint(v)
}

// TestCatalogFunctionsReadTheirSession calls the registered functions with
// a statement over the fixture: what each answers depends on the session
// (search path, users, roles) and the statement's catalog.
func TestCatalogFunctionsReadTheirSession(t *testing.T) {
	sess := fixture(t)
	seqs := SerialSequences(sess.cat)
	if len(seqs) != 1 {
		t.Fatalf("fixture's sequences: %v", seqs)
	}
	seqOID := int64(seqs[0].OID)
	onPath := []string{"pg_catalog", "s"}
	cases := []struct {
		name       string
		searchPath []string // nil: the fixture's (pg_catalog, public)
		fn         string
		args       []types.Value
		want       string
	}{
		{"current_schema skips pg_catalog", nil, "current_schema", nil, "public"},
		{"current_schema skips a missing schema", []string{"nosuch", "s", "public"}, "current_schema", nil, "s"},
		{"current_schema of pg_catalog alone", []string{"pg_catalog"}, "current_schema", nil, "NULL"},
		{"current_schemas without implicit", []string{"pg_catalog", "nosuch", "s"}, "current_schemas", []types.Value{false}, "{s}"},
		{"current_schemas with implicit", []string{"pg_catalog", "nosuch", "s"}, "current_schemas", []types.Value{true}, "{pg_catalog,s}"},
		{"current_user is the role", nil, "current_user", nil, "alice"},
		{"session_user is the login", nil, "session_user", nil, "postgres"},
		{"pg_backend_pid", nil, "pg_backend_pid", nil, "42"},
		{"current_database", nil, "current_database", nil, "main"},
		{"table off the path is not visible", nil, "pg_table_is_visible", []types.Value{int64(20001)}, "false"},
		{"table on the path is visible", onPath, "pg_table_is_visible", []types.Value{int64(20001)}, "true"},
		{"serial default qualified off the path", nil, "pg_get_expr", []types.Value{"nextval('child_id_seq'::regclass)", int64(20010)},
			"nextval('s.child_id_seq'::regclass)"},
		{"serial default bare on the path", onPath, "pg_get_expr", []types.Value{"nextval('child_id_seq'::regclass)", int64(20010)},
			"nextval('child_id_seq'::regclass)"},
		{"other defaults as stored", nil, "pg_get_expr", []types.Value{"5", int64(20010)}, "5"},
		{"check constraint", nil, "pg_get_constraintdef", []types.Value{int64(20012)}, "CHECK ((qty > 0))"},
		{"schema comment", nil, "obj_description", []types.Value{int64(20000), "pg_namespace"}, "things"},
		{"column comment", nil, "col_description", []types.Value{int64(20010), int64(3)}, "how many"},
		{"format_type with typmod", nil, "format_type", []types.Value{int64(types.Varchar), int64(14)}, "character varying(10)"},
		{"serial sequence by name", onPath, "pg_get_serial_sequence", []types.Value{"child", "id"}, "s.child_id_seq"},
		{"serial sequence of a missing column", onPath, "pg_get_serial_sequence", []types.Value{"child", "nope"},
			`ERROR 42703: column "nope" of relation "child" does not exist`},
		{"to_regclass of a missing table", nil, "to_regclass", []types.Value{"nosuch"}, "NULL"},
		{"to_regclass qualified", nil, "to_regclass", []types.Value{"s.parent"}, "20001"},
		{"sequence's last value from the session", nil, "pg_sequence_last_value", []types.Value{seqOID}, "7"},
		{"a table is not a sequence", nil, "pg_sequence_last_value", []types.Value{int64(20001)}, `ERROR 42809: "s.parent" is not a sequence`},
		{"no rows in storage", nil, "pg_stat_get_live_tuples", []types.Value{int64(20010)}, "0"},
		{"nothing stored", nil, "pg_total_relation_size", []types.Value{int64(20010)}, "0"},
		{"a schema that is not temporary", nil, "pg_is_other_temp_schema", []types.Value{int64(20000)}, "false"},
		{"database privilege words", nil, "has_database_privilege", []types.Value{"main", "CONNECT, temp"}, "true"},
		{"a privilege the kind has not", nil, "has_database_privilege", []types.Value{"main", "select"},
			`ERROR 22023: unrecognized privilege type: "select"`},
		{"a sequence named by text must exist", nil, "has_sequence_privilege", []types.Value{"nosuch", "usage"},
			`ERROR 42P01: relation "nosuch" does not exist`},
		{"function privileges are held", nil, "has_function_privilege", []types.Value{int64(1), "execute"}, "true"},
		{"table privileges are the session's", nil, "has_table_privilege", []types.Value{"s.parent", "select"}, "true"},
		{"pg_size_pretty bytes", nil, "pg_size_pretty", []types.Value{int64(10239)}, "10239 bytes"},
		{"pg_size_pretty kB", nil, "pg_size_pretty", []types.Value{int64(10240)}, "10 kB"},
		{"pg_size_pretty rounds halves up", nil, "pg_size_pretty", []types.Value{int64(10752)}, "11 kB"},
		{"pg_size_pretty rounds negative halves down", nil, "pg_size_pretty", []types.Value{int64(-10752)}, "-11 kB"},
		{"pg_size_pretty negative MB", nil, "pg_size_pretty", []types.Value{int64(-10 * 1024 * 1024)}, "-10 MB"},
		{"pg_size_pretty MB", nil, "pg_size_pretty", []types.Value{int64(20 * 1024 * 1024)}, "20 MB"},
		{"pg_encoding_to_char", nil, "pg_encoding_to_char", []types.Value{int64(6)}, "UTF8"},
		{"pg_char_to_encoding folds", nil, "pg_char_to_encoding", []types.Value{"unicode"}, "6"},
		{"acldefault of a relation", nil, "acldefault", []types.Value{"r", int64(catalog.BootstrapRoleOID)}, "{%=arwdDxt/%}"},
		{"acldefault of an unknown kind", nil, "acldefault", []types.Value{"z", int64(catalog.BootstrapRoleOID)},
			"ERROR XX000: unrecognized object type abbreviation: z"},
	}
	owner := RoleName(sess, int64(catalog.BootstrapRoleOID))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, ok := builtins.Funcs[c.fn]
			if !ok {
				t.Fatalf("%s is not registered", c.fn)
			}
			s := *sess
			if c.searchPath != nil {
				s.searchPath = c.searchPath
			}
			got := show(f.Call(fakeStatement{&s}, c.args))
			want := strings.ReplaceAll(c.want, "%", owner)
			if got != want {
				t.Errorf("%s(%v) = %s, want %s", c.fn, c.args, got, want)
			}
		})
	}
}

// TestRelationSizeCountsStoredBytes stores rows and index entries and
// checks what each size function counts of them.
func TestRelationSizeCountsStoredBytes(t *testing.T) {
	sess := fixture(t)
	put := func(space, key, value string) {
		t.Helper()
		sp := sess.tx.Space(space)
		if sp == nil {
			var err error
			if sp, err = sess.tx.CreateSpace(space); err != nil {
				t.Fatal(err)
			}
		}
		if err := sp.Put([]byte(key), []byte(value)); err != nil {
			t.Fatal(err)
		}
	}
	put(catalog.DataSpace(20010), "k1", "value1")    // 8 bytes
	put(catalog.DataSpace(20010), "k2", "v2")        // 4
	put(catalog.HistorySpace(20010), "h", "history") // 8
	put(catalog.IndexSpace(20014), "ix", "1")        // 3
	for _, c := range []struct {
		fn   string
		oid  int64
		want int64
	}{
		{"pg_relation_size", 20010, 12},
		{"pg_table_size", 20010, 20},
		{"pg_indexes_size", 20010, 3},
		{"pg_total_relation_size", 20010, 23},
		{"pg_relation_size", 20014, 3}, // the index itself
		{"pg_total_relation_size", 20001, 0},
		{"pg_stat_get_live_tuples", 20010, 2},
		{"pg_database_size", int64(DatabaseOID), 23},
	} {
		got, err := builtins.Funcs[c.fn].Call(fakeStatement{sess}, []types.Value{c.oid})
		if err != nil || got != c.want {
			t.Errorf("%s(%d) = %v, %v; want %d", c.fn, c.oid, got, err, c.want)
		}
	}
	if _, err := builtins.Funcs["pg_database_size"].Call(fakeStatement{sess}, []types.Value{"other"}); pgerror.CodeOf(err) != "3D000" {
		t.Errorf("pg_database_size('other'): %v, want 3D000", err)
	}
}

// TestCatalogSetFunctions checks the set-returning catalog functions'
// rows and the columns pg_proc gives them.
func TestCatalogSetFunctions(t *testing.T) {
	sess := fixture(t)
	gen := func(name string, args ...types.Value) string {
		t.Helper()
		rows, err := builtins.SetFuncs[name].Gen(fakeStatement{sess}, args)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return fmt.Sprint(rows)
	}
	opts := types.ArrayValue{Elem: types.Text, Elems: []types.Value{"a=1", "b", nil, "c=x=y"}}
	if got, want := gen("pg_options_to_table", opts), "[[a 1] [b <nil>] [c x=y]]"; got != want {
		t.Errorf("pg_options_to_table = %s, want %s", got, want)
	}
	arr := types.ArrayValue{Elem: types.Int2, Elems: []types.Value{int64(3), int64(1)}}
	if got, want := gen("_pg_expandarray", arr), "[[3 1] [1 2]]"; got != want {
		t.Errorf("_pg_expandarray = %s, want %s", got, want)
	}
	if got := gen("pg_partition_ancestors", int64(20001)); got != "[]" {
		t.Errorf("pg_partition_ancestors = %s, want no rows", got)
	}
	if got := gen("pg_get_keywords"); !strings.Contains(got, "[select R true reserved can be bare label]") {
		t.Errorf("pg_get_keywords has no reserved select: %.200s", got)
	}
	var names []string
	for _, c := range ProcOutColumns("pg_get_keywords") {
		names = append(names, fmt.Sprintf("%s %d", c.Name, c.T.OID))
	}
	if got, want := strings.Join(names, ", "), fmt.Sprintf("word %d, catcode %d, barelabel %d, catdesc %d, baredesc %d", types.Text, types.Char, types.Bool, types.Text, types.Text); got != want {
		t.Errorf("pg_get_keywords' columns: %s, want %s", got, want)
	}
}
