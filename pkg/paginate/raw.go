package paginate

import (
	"context"

	"github.com/testctl/testctl/pkg/api"
)

// Raw is the list for output that prints the service's documents (-o json,
// yaml, --jq): its items are the service's bytes, never decoded, which is
// what keeps `run list --all -o json` close to the cost of fetching the
// pages. key names the array ("runs"), noun the records.
func Raw(key, noun string, fetch func(ctx context.Context, limit, offset int) (*api.RawList, error)) List[api.RawItem] {
	return List[api.RawItem]{
		Key: key, Noun: noun,
		ID: func(it api.RawItem) string { return it.ID },
		Fetch: func(ctx context.Context, limit, offset int) (*Page[api.RawItem], error) {
			l, err := fetch(ctx, limit, offset)
			if err != nil {
				return nil, err
			}
			return &Page[api.RawItem]{Items: l.Items, Total: l.Total, Doc: l}, nil
		},
	}
}
