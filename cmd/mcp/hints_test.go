package mcp_test

import (
	"context"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// The tools that only read say so, and that asking twice changes nothing.
func TestReadToolsAreIdempotent(t *testing.T) {
	a := connect(t, cmdtest.New(t), true) // --read-only: the reading tools only
	list, err := a.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || !tool.Annotations.IdempotentHint {
			t.Errorf("%s: annotations %+v, want readOnlyHint and idempotentHint", tool.Name, tool.Annotations)
		}
	}
}
