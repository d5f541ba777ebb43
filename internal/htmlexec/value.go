package htmlexec

import (
	"reflect"
	"sync/atomic"
)

// This file evaluates values as text/template's exec.go does, for the
// cases this package compiles; a case it leaves out, and every case where
// text/template reports an error, makes the evaluation fail (ok false),
// and html/template runs the page.

// A field is one name of a field chain (.A.B), with the way to it in the
// last type it was looked up in: looked up once, by the first page of a
// type, not at each page as reflect.Value.FieldByName does.
type field struct {
	name string
	last atomic.Pointer[fieldWay]
}

// fieldWay is how a field name is reached in a type: index for a field,
// nil when text/template would call a method or fail.
type fieldWay struct {
	typ   reflect.Type
	addr  bool // the receiver is addressable, and so has *T's methods
	index []int
}

// of is the field of recv, as text/template's evalField finds it
// (without arguments).
func (f *field) of(recv reflect.Value) (reflect.Value, bool) {
	if !recv.IsValid() {
		// Nil data, or a missing map key: the zero value.
		return reflect.Value{}, true
	}
	r, isNil := indirectValue(recv)
	if isNil {
		return reflect.Value{}, false
	}
	t, addr := r.Type(), r.CanAddr()
	w := f.last.Load()
	if w == nil || w.typ != t || w.addr != addr {
		w = findField(t, addr, f.name)
		f.last.Store(w)
	}
	switch len(w.index) {
	case 0:
		return reflect.Value{}, false
	case 1:
		return r.Field(w.index[0]), true
	}
	v, err := r.FieldByIndexErr(w.index)
	return v, err == nil
}

// findField is the way to the field name in a value of type t, which is
// neither a pointer nor an interface.
func findField(t reflect.Type, addr bool, name string) *fieldWay {
	w := &fieldWay{typ: t, addr: addr}
	mt := t
	if addr {
		mt = reflect.PointerTo(t)
	}
	if _, ok := mt.MethodByName(name); ok {
		return w // a method call
	}
	if t.Kind() != reflect.Struct {
		return w // a map's key, or an error
	}
	if sf, ok := t.FieldByName(name); ok && sf.IsExported() {
		w.index = sf.Index
	}
	return w
}

// indirectValue is text/template's indirect: v through pointers and
// interfaces, and whether it stopped at a nil one.
func indirectValue(v reflect.Value) (reflect.Value, bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, false
}

// indirectInterface is text/template's: the value inside an interface,
// or the zero Value for a nil one.
func indirectInterface(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface {
		return v
	}
	if v.IsNil() {
		return reflect.Value{}
	}
	return v.Elem()
}

// isTrue is text/template's truth of if and with.
func isTrue(val reflect.Value) (truth, ok bool) {
	if !val.IsValid() {
		return false, true
	}
	switch val.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		truth = val.Len() > 0
	case reflect.Bool:
		truth = val.Bool()
	case reflect.Complex64, reflect.Complex128:
		truth = val.Complex() != 0
	case reflect.Chan, reflect.Func, reflect.Pointer, reflect.UnsafePointer, reflect.Interface:
		truth = !val.IsNil()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		truth = val.Int() != 0
	case reflect.Float32, reflect.Float64:
		truth = val.Float() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		truth = val.Uint() != 0
	case reflect.Struct:
		truth = true
	default:
		return
	}
	return truth, true
}

// A builtin is one of text/template's functions, on its arguments'
// values: ok false where text/template's would return an error.
type builtin struct {
	// nargs is how many arguments it takes; minimum, when variadic.
	nargs    int
	variadic bool
	call     func(args []reflect.Value) (reflect.Value, bool)
}

// builtins are the functions of text/template this package runs: those
// the built-in templates call, and not.
var builtins = map[string]builtin{
	"len": {nargs: 1, call: func(args []reflect.Value) (reflect.Value, bool) {
		item, isNil := indirectValue(args[0])
		if isNil {
			return reflect.Value{}, false
		}
		switch item.Kind() {
		case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String:
			return reflect.ValueOf(item.Len()), true
		}
		return reflect.Value{}, false
	}},
	"not": {nargs: 1, call: func(args []reflect.Value) (reflect.Value, bool) {
		t, _ := isTrue(indirectInterface(args[0]))
		return reflect.ValueOf(!t), true
	}},
	"eq": {nargs: 2, variadic: true, call: func(args []reflect.Value) (reflect.Value, bool) {
		eq, ok := equal(args[0], args[1:])
		return reflect.ValueOf(eq), ok
	}},
	"ne": {nargs: 2, call: func(args []reflect.Value) (reflect.Value, bool) {
		eq, ok := equal(args[0], args[1:])
		return reflect.ValueOf(!eq), ok
	}},
}

// kind is text/template's basic kind of a compared value.
type kind int

const (
	invalidKind kind = iota
	boolKind
	complexKind
	intKind
	floatKind
	stringKind
	uintKind
)

func basicKind(v reflect.Value) kind {
	switch v.Kind() {
	case reflect.Bool:
		return boolKind
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intKind
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintKind
	case reflect.Float32, reflect.Float64:
		return floatKind
	case reflect.Complex64, reflect.Complex128:
		return complexKind
	case reflect.String:
		return stringKind
	}
	return invalidKind
}

// equal is text/template's eq for values of basic kinds (and a missing
// value against one): a comparison of others (pointers, structs, nil) is
// left to text/template, ok false.
func equal(arg1 reflect.Value, arg2 []reflect.Value) (eq, ok bool) {
	arg1 = indirectInterface(arg1)
	k1 := basicKind(arg1)
	for _, arg := range arg2 {
		arg = indirectInterface(arg)
		k2 := basicKind(arg)
		truth := false
		if k1 != k2 {
			switch {
			case k1 == intKind && k2 == uintKind:
				truth = arg1.Int() >= 0 && uint64(arg1.Int()) == arg.Uint()
			case k1 == uintKind && k2 == intKind:
				truth = arg.Int() >= 0 && arg1.Uint() == uint64(arg.Int())
			default:
				if arg1.IsValid() && arg.IsValid() {
					return false, false // incompatible types
				}
			}
		} else {
			switch k1 {
			case boolKind:
				truth = arg1.Bool() == arg.Bool()
			case complexKind:
				truth = arg1.Complex() == arg.Complex()
			case floatKind:
				truth = arg1.Float() == arg.Float()
			case intKind:
				truth = arg1.Int() == arg.Int()
			case stringKind:
				truth = arg1.String() == arg.String()
			case uintKind:
				truth = arg1.Uint() == arg.Uint()
			default:
				return false, false
			}
		}
		if truth {
			return true, true
		}
	}
	return false, true
}
