package evidence

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/testctl/testctl/pkg/api"
)

// Named tells the entries of a test case's evidence that its evaluation
// names: the service's own verdict usually says what went wrong ("POST
// /api/payments returned 502 and the console shows an uncaught TypeError"),
// and the entries it points at come before every other. A request is named
// by its path, a value of its query ("the request for page 17" names
// ?q=shoe&page=17), its failed status, or the kind of its failure ("timed
// out" names net::ERR_TIMED_OUT); a console message by its opening words
// (those before its first colon: "Uncaught TypeError") or an error type it
// carries ("TypeError"); a request's error text by that text.
type Named struct {
	text string // the evaluation (title and reasoning), lower case
}

// NamedBy is what t's evaluation names.
func NamedBy(t Target) Named {
	return Named{text: strings.ToLower(t.ResultTitle + "\n" + t.EvaluationThought)}
}

// Network reports whether the evaluation names the request.
func (n Named) Network(e api.NetworkEntry) bool {
	return n.request(e.URL, e.StatusCode) || n.phrase(e.ErrorText) || n.failure(e.ErrorText)
}

// APICall reports whether the evaluation names the API call.
func (n Named) APICall(e api.APICallEntry) bool {
	code := int32(0)
	if e.StatusCode != nil {
		code = *e.StatusCode
	}
	return n.request(e.URL, code)
}

// Console reports whether the evaluation names the console message.
func (n Named) Console(e api.ConsoleEntry) bool {
	msg := strings.ToLower(strings.TrimSpace(e.Message))
	if n.text == "\n" || msg == "" {
		return false
	}
	if head, _, ok := strings.Cut(msg, ":"); ok && n.phrase(head) {
		return true
	}
	for _, w := range strings.FieldsFunc(msg, notWordChar) {
		if len(w) > len("error") && strings.HasSuffix(w, "error") && n.word(w) {
			return true
		}
	}
	return false
}

// request: the path (not "/" alone), a value of the query, or a failed
// status as a word.
func (n Named) request(raw string, code int32) bool {
	if u, err := url.Parse(raw); err == nil {
		if len(u.Path) > 1 && n.path(strings.ToLower(u.Path)) {
			return true
		}
		for key, values := range u.Query() {
			for _, v := range values {
				if n.queryValue(strings.ToLower(key), strings.ToLower(v)) {
					return true
				}
			}
		}
	}
	return code >= 400 && n.word(strconv.Itoa(int(code)))
}

// queryValue: a number beside its key ("page 17", "page=17"), as a bare
// number says little; another value of a few characters as a word.
func (n Named) queryValue(key, v string) bool {
	if _, err := strconv.Atoi(v); err == nil {
		return key != "" && (n.word(key+" "+v) || n.word(key+"="+v))
	}
	return len(v) >= 4 && !strings.ContainsFunc(v, unicode.IsSpace) && n.word(v)
}

// failure: the kind of a browser's network failure, in words:
// net::ERR_TIMED_OUT is "timed out" (or "timeout"), ERR_NAME_NOT_RESOLVED
// "name not resolved". A kind of one word (ERR_FAILED, ERR_ABORTED) says
// too little to name a request.
func (n Named) failure(errorText string) bool {
	kind, ok := strings.CutPrefix(strings.TrimSpace(errorText), "net::ERR_")
	if !ok || !strings.Contains(kind, "_") {
		return false
	}
	words := strings.ToLower(strings.ReplaceAll(kind, "_", " "))
	return n.phrase(words) || words == "timed out" && n.word("timeout")
}

// path: p in the text, not as the start of a longer path.
func (n Named) path(p string) bool {
	for i := 0; ; {
		j := strings.Index(n.text[i:], p)
		if j < 0 {
			return false
		}
		end := i + j + len(p)
		if end == len(n.text) || !continuesPath(n.text[end:]) {
			return true
		}
		i = end
	}
}

// phrase: a phrase of at least a few characters in the text.
func (n Named) phrase(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return len(s) >= 6 && strings.Contains(n.text, s)
}

// word: w in the text with no letter or digit on either side.
func (n Named) word(w string) bool {
	for i := 0; ; {
		j := strings.Index(n.text[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || notWordChar(rune(n.text[start-1]))) && (end == len(n.text) || notWordChar(rune(n.text[end]))) {
			return true
		}
		i = end
	}
}

func notWordChar(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }

// continuesPath reports whether rest, what follows a path in the text,
// makes it a longer one: "/api/payments/3" or "/api/payments.json", not
// "/api/payments." at the end of a sentence.
func continuesPath(rest string) bool {
	r := rune(rest[0])
	if r == '.' {
		return len(rest) > 1 && !notWordChar(rune(rest[1]))
	}
	return !notWordChar(r) || strings.ContainsRune("/-%~", r)
}
