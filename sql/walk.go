package sql

import (
	"fmt"
	"reflect"
	"strings"

	"cdcdb/sql/ast"
)

// walkExpr calls fn for e and every expression inside it, depth first,
// without entering subqueries (their aggregates and columns belong to their
// own query level). fn returns false to skip a node's children.
func walkExpr(e ast.Node, fn func(ast.Node) bool) {
	if e == nil || reflect.ValueOf(e).IsNil() {
		return
	}
	if !fn(e) {
		return
	}
	walkValue(reflect.ValueOf(e), fn)
}

var selectType = reflect.TypeOf(&ast.Select{})

func walkValue(v reflect.Value, fn func(ast.Node) bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		walkValue(v.Elem(), fn)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			walkField(v.Field(i), fn)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkField(v.Index(i), fn)
		}
	}
}

func walkField(f reflect.Value, fn func(ast.Node) bool) {
	if !f.CanInterface() {
		return
	}
	if f.Type() == selectType {
		return
	}
	if f.Kind() == reflect.Interface || f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return
		}
		if n, ok := f.Interface().(ast.Node); ok {
			if _, isSel := n.(*ast.Select); isSel {
				return
			}
			walkExpr(n, fn)
			return
		}
	}
	walkValue(f, fn)
}

// containsAggregate reports whether e calls an aggregate function at this
// query level (window calls with OVER do not count).
func containsAggregate(e ast.Node) bool {
	found := false
	walkExpr(e, func(n ast.Node) bool {
		if fc, ok := n.(*ast.FuncCall); ok && fc.Over == nil && isAggregateName(fc.Name.Name()) {
			found = true
			return false
		}
		return !found
	})
	return found
}

// fingerprint renders an expression canonically, ignoring positions, so
// that GROUP BY expressions can be matched with select-list ones.
func fingerprint(e ast.Node) string {
	var sb strings.Builder
	fingerprintValue(&sb, reflect.ValueOf(e))
	return sb.String()
}

func fingerprintValue(sb *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			sb.WriteString("nil")
			return
		}
		if v.Kind() == reflect.Pointer {
			sb.WriteString(v.Type().Elem().Name())
		}
		fingerprintValue(sb, v.Elem())
	case reflect.Struct:
		sb.WriteByte('{')
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			if strings.HasSuffix(name, "Pos") || name == "Quoted" {
				continue
			}
			sb.WriteString(name)
			sb.WriteByte(':')
			fingerprintValue(sb, v.Field(i))
			sb.WriteByte(',')
		}
		sb.WriteByte('}')
	case reflect.Slice:
		sb.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			fingerprintValue(sb, v.Index(i))
			sb.WriteByte(',')
		}
		sb.WriteByte(']')
	case reflect.Map:
		fmt.Fprintf(sb, "%v", v.Interface())
	default:
		fmt.Fprintf(sb, "%q", fmt.Sprint(v.Interface()))
	}
}
