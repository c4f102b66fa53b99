package l2

import (
	"reflect"
	"testing"
)

// TestSameContentSeesEveryField: a change of any field but the updated
// time is a change of content; a field added to Exchange and forgotten by
// sameContent fails here.
func TestSameContentSeesEveryField(t *testing.T) {
	base := Exchange{}
	v := reflect.ValueOf(&base).Elem()
	for i := 0; i < v.NumField(); i++ {
		changed := base
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Slice:
			// One element of the slice's own type, its first field set.
			e := reflect.New(f.Type().Elem()).Elem()
			if e.Kind() == reflect.Struct {
				e.Field(0).SetString("x")
			} else {
				e.SetString("x")
			}
			f.Set(reflect.Append(f, e))
		case reflect.Array:
			f.Index(0).SetInt(1)
		case reflect.Float64:
			f.SetFloat(0.5)
		case reflect.Int:
			f.SetInt(3)
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("field %s: kind %s not covered by this test", v.Type().Field(i).Name, f.Kind())
		}
		name := v.Type().Field(i).Name
		if got := sameContent(base, changed); got != (name == "Updated") {
			t.Errorf("a change of %s: sameContent = %v", name, got)
		}
	}
	if !sameContent(Exchange{Files: nil}, Exchange{Files: []string{}}) {
		t.Error("a nil list and an empty one differ")
	}
}
