package sandbox

import (
	"fmt"
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
		if err != nil {
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
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("malformed query string near %q", pair)
		}
		if prev, ok := flat[key]; ok && prev != "" {
			val = prev + "," + val
		}
		flat[key] = val
	}
	for k, v := range flat {
		object[k] = v
	}
	return object, nil
}

// boolean reads an optional true/false member.
func (p params) boolean(name string) (value, set bool, err error) {
	v, ok := p[name]
	if !ok || v == "" {
		return false, false, nil
	}
	switch v {
	case "true":
		return true, true, nil
	case "false":
		return false, true, nil
	}
	return false, false, fmt.Errorf("%s must be true or false, not %q", name, v)
}

// integer reads an optional integer member within [lo, hi].
func (p params) integer(name string, def, lo, hi int) (int, error) {
	v, ok := p[name]
	if !ok || v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		if hi == math.MaxInt {
			return 0, fmt.Errorf("%s must be an integer of at least %d, not %q", name, lo, v)
		}
		return 0, fmt.Errorf("%s must be an integer from %d to %d, not %q", name, lo, hi, v)
	}
	return n, nil
}

// oneOf reads an optional member restricted to a set of values.
func (p params) oneOf(name, def string, allowed ...string) (string, error) {
	v, ok := p[name]
	if !ok || v == "" {
		return def, nil
	}
	if slices.Contains(allowed, v) {
		return v, nil
	}
	return "", fmt.Errorf("%s must be one of %s, not %q", name, strings.Join(allowed, ", "), v)
}

// page reads limit (1 to 100, 20 when absent) and offset, the paging of
// every list, once the parameters read before them are valid (err nil),
// and answers 400 for the first that is not. ok is false when it answered.
func (c *call) page(err error) (limit, offset int, ok bool) {
	if err == nil {
		limit, err = c.q.integer("limit", 20, 1, 100)
	}
	if err == nil {
		offset, err = c.q.integer("offset", 0, 0, math.MaxInt)
	}
	return limit, offset, !refuse(c.w, err)
}
