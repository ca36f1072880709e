package prcommenttest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// userID is GitLab's id of a note's author: its own, or the one the
// server gave its username (the first seen is 101, then 102, …).
func (s *Server) userID(c Comment) int64 {
	if c.UserID != 0 {
		return c.UserID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idOf(c.User)
}

// idOf needs s.mu.
func (s *Server) idOf(username string) int64 {
	id, ok := s.ids[username]
	if !ok {
		id = int64(101 + len(s.ids))
		s.ids[username] = id
	}
	return id
}

func (s *Server) gitLab(w http.ResponseWriter, r *http.Request) {
	if !s.begin(w, r, r.Header.Get("PRIVATE-TOKEN") == s.token, "") {
		return
	}
	notes := fmt.Sprintf("/api/v4/projects/42/merge_requests/%d/notes", s.Number)
	view := func(c Comment) map[string]any {
		return map[string]any{"id": c.ID, "body": c.Body, "system": c.System,
			"author": map[string]any{"id": s.userID(c), "username": c.User}}
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/v4/user":
		s.mu.Lock()
		noIdentity, login := s.noIdentity, s.login
		id := s.idOf(login)
		s.mu.Unlock()
		if noIdentity {
			answer(w, http.StatusForbidden, map[string]string{"error": "insufficient_scope",
				"error_description": "The request requires higher privileges than provided by the access token."})
			return
		}
		answer(w, http.StatusOK, map[string]any{"id": id, "username": login, "bot": strings.Contains(login, "_bot")})
	case r.Method == http.MethodGet && r.URL.Path == notes:
		page, more := s.page(r)
		out := []map[string]any{}
		for _, c := range page {
			out = append(out, view(c))
		}
		if more {
			p, _ := strconv.Atoi(r.URL.Query().Get("page"))
			w.Header().Set("X-Next-Page", strconv.Itoa(max(p, 1)+1))
		}
		answer(w, http.StatusOK, out)
	case r.Method == http.MethodPost && r.URL.Path == notes:
		body, ok := readBody(r)
		if !ok {
			answer(w, http.StatusBadRequest, map[string]string{"error": "body is missing"})
			return
		}
		s.Add(Comment{User: s.self(), Body: body})
		all := s.Comments()
		answer(w, http.StatusCreated, view(all[len(all)-1]))
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, notes+"/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, notes+"/"), 10, 64)
		body, ok := readBody(r)
		if !ok {
			answer(w, http.StatusBadRequest, map[string]string{"error": "body is missing"})
			return
		}
		c, ok := s.edit(id, body)
		if !ok {
			answer(w, http.StatusNotFound, map[string]string{"message": "404 Not found"})
			return
		}
		answer(w, http.StatusOK, view(c))
	default:
		answer(w, http.StatusNotFound, map[string]string{"message": "404 Not found"})
	}
}
