package api

import (
	"bytes"
	"context"
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
	resp, err := c.do(ctx, request{method: http.MethodGet, base: c.BaseURL, path: path, query: q})
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
	page := jsonscan.ReadPage(body, key, id)
	if page.NotArray {
		return nil, bad(errors.New(key + " is not an array"))
	}
	l := &RawList{Items: make([]RawItem, len(page.Items))}
	l.SetRawJSON(body)
	if page.Total != nil {
		if l.Total, err = strconv.Atoi(string(page.Total)); err != nil {
			return nil, bad(errors.New("total is not an integer"))
		}
	}
	for i, b := range page.Items {
		l.Items[i].SetRawJSON(b)
		l.Items[i].ID = page.IDs[i]
	}
	return l, nil
}
