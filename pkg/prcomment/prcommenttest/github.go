package prcommenttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

func (s *Server) gitHub(w http.ResponseWriter, r *http.Request) {
	authorized := r.Header.Get("Authorization") == "Bearer "+s.token
	if r.URL.Path == "/graphql" && r.Method == http.MethodPost {
		s.gitHubGraphQL(w, r, authorized)
		return
	}
	if !s.begin(w, r, authorized, "") {
		return
	}
	thread := fmt.Sprintf("/repos/octo/app/issues/%d/comments", s.Number)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == thread:
		page, more := s.page(r)
		out := []map[string]any{}
		for _, c := range page {
			out = append(out, s.restView(c))
		}
		if more {
			next := *r.URL
			q := next.Query()
			p, _ := strconv.Atoi(q.Get("page"))
			q.Set("page", strconv.Itoa(max(p, 1)+1))
			next.RawQuery = q.Encode()
			w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, s.URL, next.RequestURI()))
		}
		answer(w, http.StatusOK, out)
	case r.Method == http.MethodPost && r.URL.Path == thread:
		body, ok := readBody(r)
		if !ok || len([]rune(body)) > 65536 {
			answer(w, http.StatusUnprocessableEntity, map[string]string{"message": "Validation Failed"})
			return
		}
		s.Add(Comment{User: s.self(), Body: body})
		all := s.Comments()
		answer(w, http.StatusCreated, s.restView(all[len(all)-1]))
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/octo/app/issues/comments/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/repos/octo/app/issues/comments/"), 10, 64)
		body, ok := readBody(r)
		if !ok || len([]rune(body)) > 65536 {
			answer(w, http.StatusUnprocessableEntity, map[string]string{"message": "Validation Failed"})
			return
		}
		c, ok := s.edit(id, body)
		if !ok {
			answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		answer(w, http.StatusOK, s.restView(c))
	default:
		answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	}
}

func (s *Server) commentURL(id int64) string {
	return fmt.Sprintf("https://github.example/octo/app/pull/%d#issuecomment-%d", s.Number, id)
}

// restView is a comment as REST gives it: a bot's login ends in "[bot]".
func (s *Server) restView(c Comment) map[string]any {
	kind := "User"
	if strings.HasSuffix(c.User, "[bot]") {
		kind = "Bot"
	}
	return map[string]any{"id": c.ID, "body": c.Body, "user": map[string]string{"login": c.User, "type": kind},
		"html_url": s.commentURL(c.ID)}
}

// nodeID is a comment's GraphQL id.
func nodeID(id int64) string { return "IC_" + strconv.FormatInt(id, 10) }

// gitHubGraphQL answers the two GraphQL documents prcomment sends, told
// apart by their text as a fake may: the query of the viewer and a page
// of the pull request's comments with viewerDidAuthor (GraphQL's logins
// lack REST's "[bot]"), and the updateIssueComment mutation. A failure is
// GraphQL's: HTTP 200 with errors.
func (s *Server) gitHubGraphQL(w http.ResponseWriter, r *http.Request, authorized bool) {
	data, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var in struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	if err := json.Unmarshal(data, &in); err != nil || in.Query == "" {
		answer(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	mutation := strings.HasPrefix(strings.TrimSpace(in.Query), "mutation")
	what := " query"
	if mutation {
		id, _ := in.Variables["id"].(string)
		what = " mutation updateIssueComment " + id
	}
	if !s.begin(w, r, authorized, what) {
		return
	}
	s.mu.Lock()
	readOnly, noIdentity, login := s.readOnly, s.noIdentity, s.login
	s.mu.Unlock()
	if mutation {
		s.updateIssueComment(w, in.Variables, in.Query, readOnly)
		return
	}
	out := map[string]any{}
	var errs []map[string]any
	if strings.Contains(in.Query, "viewer") {
		if noIdentity {
			out["viewer"] = nil
			errs = append(errs, gqlError("FORBIDDEN", "Resource not accessible by integration", "viewer"))
		} else {
			out["viewer"] = map[string]string{"login": strings.TrimSuffix(login, "[bot]")}
		}
	}
	if strings.Contains(in.Query, "pullRequest") {
		owner, _ := in.Variables["owner"].(string)
		name, _ := in.Variables["name"].(string)
		number, _ := in.Variables["number"].(float64)
		if owner != "octo" || name != "app" || int(number) != s.Number {
			out["repository"] = nil
			errs = append(errs, gqlError("NOT_FOUND", fmt.Sprintf("Could not resolve to a PullRequest with the number of %v.", in.Variables["number"]), "repository"))
		} else {
			out["repository"] = map[string]any{"pullRequest": map[string]any{"comments": s.gqlComments(in.Variables, login, noIdentity)}}
		}
	}
	doc := map[string]any{"data": out}
	if len(errs) > 0 {
		doc["errors"] = errs
	}
	answer(w, http.StatusOK, doc)
}

func gqlError(kind, message string, path ...string) map[string]any {
	return map[string]any{"type": kind, "message": message, "path": path}
}

// gqlComments is a page of comments(first:, after:), oldest first; the
// cursor is the offset after which the page starts.
func (s *Server) gqlComments(vars map[string]any, login string, noIdentity bool) map[string]any {
	first, _ := vars["first"].(float64)
	per := min(max(int(first), 1), 100)
	if _, ok := vars["first"]; !ok {
		per = 100
	}
	from := 0
	if after, _ := vars["after"].(string); after != "" {
		from, _ = strconv.Atoi(strings.TrimPrefix(after, "cursor:"))
	}
	all := s.Comments()
	from = min(max(from, 0), len(all))
	to := min(from+per, len(all))
	nodes := []map[string]any{}
	for _, c := range all[from:to] {
		var mine any = c.User == login
		if noIdentity {
			mine = nil
		}
		nodes = append(nodes, map[string]any{"id": nodeID(c.ID), "body": c.Body, "url": s.commentURL(c.ID),
			"viewerDidAuthor": mine, "author": map[string]string{"login": strings.TrimSuffix(c.User, "[bot]")}})
	}
	return map[string]any{"nodes": nodes, "pageInfo": map[string]any{"hasNextPage": to < len(all), "endCursor": "cursor:" + strconv.Itoa(to)}}
}

func (s *Server) updateIssueComment(w http.ResponseWriter, vars map[string]any, query string, readOnly bool) {
	id, _ := vars["id"].(string)
	body, ok := vars["body"].(string)
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "IC_"), 10, 64)
	switch {
	case !strings.Contains(query, "updateIssueComment"):
		answer(w, http.StatusOK, map[string]any{"errors": []any{gqlError("UNKNOWN", "this fake knows updateIssueComment only")}})
	case readOnly:
		answer(w, http.StatusOK, map[string]any{"data": map[string]any{"updateIssueComment": nil},
			"errors": []any{gqlError("FORBIDDEN", "Resource not accessible by integration", "updateIssueComment")}})
	case !ok || len([]rune(body)) > 65536:
		answer(w, http.StatusOK, map[string]any{"errors": []any{gqlError("UNPROCESSABLE", "Body is too long (maximum is 65536 characters)", "updateIssueComment")}})
	default:
		c, found := Comment{}, false
		if err == nil && strings.HasPrefix(id, "IC_") {
			c, found = s.edit(n, body)
		}
		if !found {
			answer(w, http.StatusOK, map[string]any{"data": map[string]any{"updateIssueComment": nil},
				"errors": []any{gqlError("NOT_FOUND", fmt.Sprintf("Could not resolve to a node with the global id of '%s'", id), "updateIssueComment")}})
			return
		}
		answer(w, http.StatusOK, map[string]any{"data": map[string]any{"updateIssueComment": map[string]any{
			"issueComment": map[string]any{"id": nodeID(c.ID), "url": s.commentURL(c.ID)}}}})
	}
}
