package prcomment

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// graphQLStatus is the HTTP status a GraphQL error's type stands for, so
// that a refusal is explained as the REST one is.
var graphQLStatus = map[string]int{"FORBIDDEN": http.StatusForbidden, "NOT_FOUND": http.StatusNotFound}

// graphQLBase is where GitHub's GraphQL endpoint (/graphql) is, beside
// the REST API at rest: api.github.com/graphql, and GitHub Enterprise
// Server's {server}/api/graphql beside its {server}/api/v3.
func graphQLBase(rest string) string {
	rest = strings.TrimRight(rest, "/")
	if server, ok := strings.CutSuffix(rest, "/api/v3"); ok {
		return server + "/api"
	}
	return rest
}

// query sends one GraphQL document to a (based at graphQLBase) and decodes
// its data into out. GraphQL says a failure with HTTP 200 and errors: the
// first becomes an *httpError, and partial data is never used.
func (a *restAPI) query(ctx context.Context, doc string, vars map[string]any, out any) error {
	var answer struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := a.do(ctx, http.MethodPost, "/graphql", nil, map[string]any{"query": doc, "variables": vars}, &answer); err != nil {
		return err
	}
	if len(answer.Errors) > 0 {
		e := answer.Errors[0]
		return &httpError{status: graphQLStatus[e.Type], graphQL: cmp.Or(oneLine(e.Type), "error"), message: a.redact(oneLine(e.Message))}
	}
	if len(answer.Data) == 0 || string(answer.Data) == "null" {
		return errors.New("GraphQL answered without data")
	}
	if err := json.Unmarshal(answer.Data, out); err != nil {
		return fmt.Errorf("POST /graphql: unreadable answer: %v", err)
	}
	return nil
}
