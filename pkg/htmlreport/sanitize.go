package htmlreport

import (
	"reflect"

	"github.com/testctl/testctl/pkg/termtext"
)

// sanitize removes escape sequences and control characters from every
// string of the page's data, in place: they are text already (the page
// never reads them as markup), but a console message coloured with
// "\x1b[31m" would otherwise show its escape as litter, and bidi
// overrides could disguise a URL. Line breaks and tabs stay.
func sanitize(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			sanitize(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() || f.Kind() != reflect.String {
				sanitize(f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			sanitize(v.Index(i))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(termtext.Sanitize(v.String()))
		}
	}
}
