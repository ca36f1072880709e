package appready

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// Hidden is what a query parameter's value is shown as.
const Hidden = "***"

// minMasked is the shortest value masked in a GitHub Actions log: masking
// "true" or "1" would hide every one of them in the log.
const minMasked = 8

// Redact is an application URL as every output shows it: the value of
// each query parameter is Hidden (its name kept), as a protection-bypass
// token travels there. Text that is not a URL with a query is returned as
// it is, but for what follows a '?'.
func Redact(raw string) string {
	base, query, ok := strings.Cut(raw, "?")
	if !ok {
		return raw
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	parts := strings.Split(query, "&")
	for i, p := range parts {
		if name, _, ok := strings.Cut(p, "="); ok {
			parts[i] = name + "=" + Hidden
		}
	}
	out := base + "?" + strings.Join(parts, "&")
	if hasFragment {
		out += "#" + fragment
	}
	return out
}

// Secrets are the values of raw's query parameters, as given and decoded,
// that are long enough to be masked in a GitHub Actions log.
func Secrets(raw string) []string {
	_, query, ok := strings.Cut(raw, "?")
	if !ok {
		return nil
	}
	query, _, _ = strings.Cut(query, "#")
	var out []string
	for p := range strings.SplitSeq(query, "&") {
		_, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		forms := []string{v}
		if dec, err := url.QueryUnescape(v); err == nil {
			forms = append(forms, dec)
		}
		for _, f := range forms {
			if len(f) >= minMasked && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// Replacements are old, new pairs (for strings.NewReplacer) that turn each
// URL of urls with a query into its redacted form, as text and as JSON
// quotes it (Go escapes '&', JavaScript escapes '/' in some encoders), and
// each secret of Secrets into Hidden: for the answers of a service that
// echoes them.
func Replacements(urls []string) []string {
	var pairs []string
	add := func(old, new string) {
		for i := 0; i < len(pairs); i += 2 {
			if pairs[i] == old {
				return
			}
		}
		pairs = append(pairs, old, new)
	}
	for _, u := range urls {
		red := Redact(u)
		if red == u {
			continue
		}
		add(u, red)
		qu, _ := json.Marshal(u)
		qr, _ := json.Marshal(red)
		inJSON, redJSON := string(qu[1:len(qu)-1]), string(qr[1:len(qr)-1])
		add(inJSON, redJSON)
		add(strings.ReplaceAll(inJSON, "/", `\/`), strings.ReplaceAll(redJSON, "/", `\/`))
	}
	for _, u := range urls {
		for _, s := range Secrets(u) {
			add(s, Hidden)
		}
	}
	return pairs
}
