package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/testctl/testctl/pkg/jsonscan"
)

// RawList is a page of a list as the service sent it, its items split but
// not decoded: for output that prints the service's documents (-o json,
// yaml, --jq) and reads no field but each item's id. Decoding 100,000 runs
// only to print their bytes again would double what `run list --all -o
// json` costs.
type RawList struct {
	Raw
	Items []RawItem
	Total int
}

// RawItem is one item of a RawList.
type RawItem struct {
	Raw
	ID string // its id field, to tell a record repeated across pages
}

// ListRunsRaw is ListRuns for output that prints the service's documents.
func (c *Client) ListRunsRaw(ctx context.Context, opts ListRunsOptions) (*RawList, error) {
	return c.getRawList(ctx, "/v1/run", opts.query(c), "runs", "shortId")
}

// ListTestCasesRaw is ListTestCases for output that prints the service's
// documents.
func (c *Client) ListTestCasesRaw(ctx context.Context, opts ListTestCasesOptions) (*RawList, error) {
	return c.getRawList(ctx, "/v1/test-cases", opts.query(c), "testCases", "id")
}

// getRawList reads one page of a list: key names its array, id the field
// that names an item. The answer is checked to be one JSON object whose
// key, when present, is an array, as decoding it would.
func (c *Client) getRawList(ctx context.Context, path string, q url.Values, key, id string) (*RawList, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet, base: c.BaseURL, path: path, query: q, retryOn: retryGET})
	if err != nil {
		return nil, err
	}
	bad := func(err error) error {
		return &DecodeError{Method: http.MethodGet, Path: pathWithQuery(path, q), Status: resp.StatusCode,
			Excerpt: excerpt(resp.Body), Err: err}
	}
	body := bytes.TrimSpace(resp.Body)
	switch {
	case len(body) == 0:
		return nil, bad(errors.New("empty body"))
	case !jsonscan.Valid(body):
		return nil, bad(errors.New("invalid JSON"))
	case body[0] != '{':
		return nil, bad(errors.New("expected a JSON object"))
	}
	l := &RawList{}
	l.SetRawJSON(body)
	m := jsonscan.Members(body, "total", key)
	if v := m[0]; v != nil {
		if l.Total, err = strconv.Atoi(string(v)); err != nil {
			return nil, bad(errors.New("total is not an integer"))
		}
	}
	arr := m[1]
	if arr == nil || string(arr) == "null" {
		return l, nil
	}
	if arr[0] != '[' {
		return nil, bad(errors.New(key + " is not an array"))
	}
	items := jsonscan.Elements(arr)
	l.Items = make([]RawItem, len(items))
	for i, b := range items {
		l.Items[i].SetRawJSON(b)
		l.Items[i].ID = stringMember(b, id)
	}
	return l, nil
}

// stringMember is the string value of member key of the object doc, or "".
func stringMember(doc []byte, key string) string {
	v := jsonscan.Member(doc, key)
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}
