package sandbox

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// params are the members of a request's query object. The service's clients
// send them as flat keys (?testCases=all&issues=true); its published OpenAPI
// file describes one non-exploded object parameter (?query=testCases,all,
// issues,true). Both are accepted; a flat key wins over the same member in
// query=. A repeated flat key is joined with commas (labels=a&labels=b is
// labels=a,b).
type params map[string]string

func parseQuery(raw string) (params, error) {
	flat := params{}
	object := params{}
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		val, errV := url.QueryUnescape(v)
		if err != nil || errV != nil && key != "query" {
			return nil, fmt.Errorf("malformed query string near %q", pair)
		}
		if key == "query" {
			// Split before unescaping so a member value may hold an
			// escaped comma (%2C).
			parts := strings.Split(v, ",")
			if len(parts)%2 != 0 {
				return nil, fmt.Errorf("query must be key,value pairs (query=testCases,all,issues,true); got %d items", len(parts))
			}
			for i := 0; i < len(parts); i += 2 {
				mk, err1 := url.QueryUnescape(parts[i])
				mv, err2 := url.QueryUnescape(parts[i+1])
				if err1 != nil || err2 != nil || mk == "" {
					return nil, fmt.Errorf("malformed query object member near %q", parts[i])
				}
				object[mk] = mv
			}
			continue
		}
		if prev, ok := flat[key]; ok && prev != "" {
			val = prev + "," + val
		}
		flat[key] = val
	}
	maps.Copy(object, flat)
	return object, nil
}

// The readers below take the error of the members read before: once it is
// set they return the default, and the first member that is not valid sets
// it, so a handler reads them all and answers the first error once.

// boolean reads an optional true/false member.
func (p params) boolean(err *error, name string) (value, set bool) {
	v := p[name]
	switch {
	case *err != nil || v == "":
		return false, false
	case v != "true" && v != "false":
		*err = fmt.Errorf("%s must be true or false, not %q", name, v)
		return false, false
	}
	return v == "true", true
}

// integer reads an optional integer member within [lo, hi].
func (p params) integer(err *error, name string, def, lo, hi int) int {
	v := p[name]
	if *err != nil || v == "" {
		return def
	}
	n, e := strconv.Atoi(v)
	switch {
	case e == nil && n >= lo && n <= hi:
		return n
	case hi == math.MaxInt:
		*err = fmt.Errorf("%s must be an integer of at least %d, not %q", name, lo, v)
	default:
		*err = fmt.Errorf("%s must be an integer from %d to %d, not %q", name, lo, hi, v)
	}
	return def
}

// oneOf reads an optional member restricted to a set of values.
func (p params) oneOf(err *error, name, def string, allowed ...string) string {
	v := p[name]
	switch {
	case *err != nil || v == "":
		return def
	case !slices.Contains(allowed, v):
		*err = fmt.Errorf("%s must be one of %s, not %q", name, strings.Join(allowed, ", "), v)
	}
	return v
}

// page reads limit (1 to 100, 20 when absent) and offset, the paging of
// every list, after the members that gave err, and answers 400 for the
// first that is not valid. ok is false when it answered.
func (c *call) page(err error) (limit, offset int, ok bool) {
	limit = c.q.integer(&err, "limit", 20, 1, 100)
	offset = c.q.integer(&err, "offset", 0, 0, math.MaxInt)
	return limit, offset, !refuse(c.w, err)
}
