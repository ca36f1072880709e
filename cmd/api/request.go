package api

import (
	"encoding/json"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/testctl/testctl/pkg/exitcode"
)

// normalizePath accepts "/v1/…", "v1/…" or a full URL on the configured
// host, and returns the path and any query it carried. Anything else is
// refused: the key must never be sent to a host the user did not configure,
// and a path outside /v1 is not part of the service.
func normalizePath(raw, baseURL string) (string, url.Values, error) {
	bad := func(why string) error {
		return exitcode.FlagErrorf("%q is not a service path: %s (like /v1/applications or v1/outbound-ips)", raw, why)
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", nil, bad("it contains spaces or control characters")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", nil, bad(err.Error())
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return "", nil, bad("it has a #fragment")
	}
	if u.Scheme != "" || u.Host != "" {
		base, err := url.Parse(baseURL)
		if err != nil || !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) {
			return "", nil, bad("absolute URLs must be on the configured base URL " + baseURL + "; give the path only")
		}
		if u.User != nil {
			return "", nil, bad("it carries credentials")
		}
	}
	p := "/" + strings.TrimPrefix(u.EscapedPath(), "/")
	decoded, why := decodePath(p)
	if why != "" {
		return "", nil, bad(why)
	}
	// Cleaning before the prefix check keeps /v1/../admin out; cleaning the
	// decoded path keeps /v1/%2e%2e/admin out too, which a server or a
	// proxy may decode before it resolves the dot segments.
	if clean := path.Clean(decoded); clean != decoded && clean+"/" != decoded {
		return "", nil, bad("it contains . or .. segments or repeated slashes")
	}
	if !strings.HasPrefix(p, "/v1/") {
		return "", nil, bad("it must start with /v1/")
	}
	return p, u.Query(), nil
}

// decodePath is an escaped path with each segment's percent-encoding
// decoded, or why it cannot be sent: a segment holding an encoded / or \
// (%2F, %5C), which a server may read as two segments, or an encoded
// control character.
func decodePath(escaped string) (string, string) {
	segs := strings.Split(escaped, "/")
	for i, seg := range segs {
		dec, err := url.PathUnescape(seg)
		switch {
		case err != nil:
			return "", err.Error()
		case strings.ContainsAny(dec, `/\`):
			return "", `a segment holds an encoded / or \ (%2F, %5C)`
		case strings.ContainsFunc(dec, func(r rune) bool { return r < ' ' || r == 0x7f }):
			return "", "it contains encoded control characters"
		}
		segs[i] = dec
	}
	return strings.Join(segs, "/"), ""
}

// field is one -f key=value or --raw-field key=value.
type field struct {
	key   string
	value any
}

// parseField splits key=value; typed fields turn true, false, null and
// numbers into JSON values, as `gh api -F` does, and keep the rest strings.
func parseField(flag, kv string, typed bool) (field, error) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k == "" {
		return field{}, exitcode.FlagErrorf("%s %q must be key=value", flag, kv)
	}
	if !typed {
		return field{k, v}, nil
	}
	switch v {
	case "true", "false":
		return field{k, v == "true"}, nil
	case "null":
		return field{k, nil}, nil
	}
	if isJSONNumber(v) {
		return field{k, json.Number(v)}, nil
	}
	return field{k, v}, nil
}

// isJSONNumber accepts exactly JSON's number grammar, so "0x10", "1_000",
// "+1" or "01" stay strings; json.Number keeps every digit as written.
func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || ('0' <= s[0] && s[0] <= '9')) {
		return false
	}
	return json.Valid([]byte(s))
}

// queryValue is how a field reads in a query string; null reads as empty.
func queryValue(v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return x.String()
	case string:
		return x
	}
	return ""
}
