package endpoint

import (
	"encoding"
	"fmt"
	"reflect"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
)

// binder knows, per request type, which fields come from the path, the query string and the
// headers (`header:"x-signature"`, a string: a caller's signature, say) and whether any comes from
// the body. It is built once per endpoint, at mount time.
type binder struct {
	path, query, header []field
	body                bool
}

type field struct {
	index []int
	name  string
}

func binderFor[Req any]() binder {
	t := reflect.TypeFor[Req]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("endpoint: request type %s is not a struct", t))
	}
	var b binder
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		if (f.Tag.Get("path") != "" || f.Tag.Get("query") != "") && !bindable(f.Type) {
			panic(fmt.Sprintf("endpoint: %s.%s: cannot bind a URL value into %s", t, f.Name, f.Type))
		}
		if f.Tag.Get("header") != "" && f.Type.Kind() != reflect.String {
			panic(fmt.Sprintf("endpoint: %s.%s: a header binds into a string, not %s", t, f.Name, f.Type))
		}
		switch {
		case f.Tag.Get("path") != "":
			b.path = append(b.path, field{f.Index, f.Tag.Get("path")})
		case f.Tag.Get("query") != "":
			b.query = append(b.query, field{f.Index, f.Tag.Get("query")})
		case f.Tag.Get("header") != "":
			b.header = append(b.header, field{f.Index, f.Tag.Get("header")})
		case f.Tag.Get("json") != "-":
			b.body = true
		}
	}
	return b
}

// bind fills req: the body first, then the path, query and header fields, so a body can never set
// what the URL names (an id in the body does not override the one the permission was checked on).
func (b binder) bind(c *gin.Context, req any) error {
	if b.body {
		if err := decodeBody(c, req); err != nil {
			return err
		}
	}
	v := reflect.ValueOf(req).Elem()
	for _, f := range b.path {
		if err := set(v.FieldByIndex(f.index), c.Param(f.name)); err != nil {
			return apierror.BadRequest("invalid_id")
		}
	}
	for _, f := range b.query {
		raw, ok := c.GetQuery(f.name)
		dst := v.FieldByIndex(f.index)
		dst.SetZero()
		if !ok || raw == "" {
			continue
		}
		if err := set(dst, raw); err != nil {
			return apierror.Validation(map[string]string{f.name: "wrong_type"})
		}
	}
	for _, f := range b.header {
		v.FieldByIndex(f.index).SetString(c.GetHeader(f.name))
	}
	return nil
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// set parses raw into dst: text unmarshalers (uuid.UUID, time.Time), strings, integers, booleans,
// and pointers to those (nil when absent).
func set(dst reflect.Value, raw string) error {
	if dst.Kind() == reflect.Pointer {
		p := reflect.New(dst.Type().Elem())
		if err := set(p.Elem(), raw); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	if reflect.PointerTo(dst.Type()).Implements(textUnmarshaler) {
		return dst.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(raw))
	}
	switch dst.Kind() {
	case reflect.String:
		dst.SetString(raw)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(raw, 10, dst.Type().Bits())
		if err != nil {
			return err
		}
		dst.SetInt(n)
	case reflect.Bool:
		ok, err := strconv.ParseBool(raw)
		if err != nil {
			return err
		}
		dst.SetBool(ok)
	}
	return nil
}

// bindable is checked when an endpoint is mounted, so an unsupported field fails at start-up.
func bindable(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Bool:
		return true
	}
	return false
}
