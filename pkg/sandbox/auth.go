package sandbox

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// Keys of the sandbox organization. They are documentation, not secrets.
const (
	ProjectKey     = "sandbox-project-key"   // project-scoped, project ProjectShortID
	OrgKey         = "sandbox-org-key"       // organization-scoped: projectShortId required
	SuspendedKey   = "sandbox-suspended-key" // every authenticated call answers 403
	LimitKey       = "sandbox-limit-key"     // like ProjectKey, but starting a run answers 402
	ProjectShortID = "proj-demo_sandbox"
	ProjectUUID    = "5a4db000-0000-4000-8000-0000000000e0" // the project's id on the legacy address
	LegacyPrefix   = "/legacy"                              // legacy base URL = base URL + LegacyPrefix
)

const (
	msgSuspended = "Invalid token or organization suspended"
	msgLimit     = "Organization has reached usage limit"
)

// sandboxKeys are the keys the sandbox knows; any other token is invalid.
var sandboxKeys = []string{ProjectKey, OrgKey, SuspendedKey, LimitKey}

// bearer extracts the token of an "Authorization: Bearer" header.
func bearer(r *http.Request) (token string, present bool) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return "", false
	}
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(tok), true
}

// call is one authenticated request being handled.
type call struct {
	w   http.ResponseWriter
	r   *http.Request
	key string // one of sandboxKeys once authed lets the handler run
	q   params
	now float64 // sandbox seconds, read once so one answer is consistent
}

func (c *call) fail(status int, format string, args ...any) { writeError(c.w, status, format, args...) }

// scope says how an operation resolves projectShortId (see project).
type scope int

const (
	inProject scope = iota // an organization-scoped key must name the project
	inOrg                  // optional even for an organization-scoped key
	inBody                 // the handler resolves it with the body's, once decoded
)

// authed checks the key, parses the query object and, unless the body may
// name it, resolves the project before h runs.
func (s *Server) authed(sc scope, h func(*call)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, present := bearer(r)
		c := &call{w: w, r: r, key: token, now: s.now()}
		err := keyError(c.key, "invalid API key")
		switch {
		case !present:
			err = errorf(http.StatusUnauthorized, "missing API key: send the header Authorization: Bearer <key>")
		case token == "":
			err = errorf(http.StatusUnauthorized, "malformed Authorization header: expected Bearer <key>")
		}
		if err == nil {
			c.q, err = parseQuery(r.URL.RawQuery)
		}
		if err == nil && sc != inBody {
			err = c.project("", sc == inProject)
		}
		if !refuse(w, err) {
			h(c)
		}
	}
}

// project applies the scope rules of service-api.md section 5 to the
// projectShortId of the query (or fromBody). A project-scoped key may omit
// it; naming another, well-formed project is 403 (the key is valid but not
// allowed there). An organization-scoped key must name it (400 otherwise)
// when required; operations that infer the project from the key even for
// an organization-scoped key (POST /v1/test-cases, the tunnels) do not
// require it: the sandbox organization has exactly one project, so that
// one is meant. An unknown project is 404. A malformed id is always 400.
// It returns the error when the call must stop.
func (c *call) project(fromBody string, required bool) error {
	id := c.q["projectShortId"]
	if id != "" && fromBody != "" && id != fromBody {
		return errorf(http.StatusBadRequest, "projectShortId differs between the query (%q) and the body (%q)", id, fromBody)
	}
	id = cmp.Or(id, fromBody)
	switch {
	case id == "" && required && c.key == OrgKey:
		return errorf(http.StatusBadRequest, "projectShortId is required with an organization-scoped API key: pass projectShortId=%s in the query or the body", ProjectShortID)
	case id == "" || id == ProjectShortID:
		return nil
	case !projectIDPattern().MatchString(id):
		return errorf(http.StatusBadRequest, "projectShortId %q is not a project short id (proj_<id> or proj-<slug>_<id>)", id)
	case c.key == OrgKey:
		return errorf(http.StatusNotFound, "project %s not found", id)
	}
	return errorf(http.StatusForbidden, "this API key is scoped to project %s and cannot be used for project %s", ProjectShortID, id)
}

// keyError refuses a key the service does not take: an unknown key (401,
// saying invalid) or a suspended organization's (403).
func keyError(token, invalid string) error {
	switch {
	case !slices.Contains(sandboxKeys, token):
		return errorf(http.StatusUnauthorized, "%s", invalid)
	case token == SuspendedKey:
		return errorf(http.StatusForbidden, msgSuspended)
	}
	return nil
}
