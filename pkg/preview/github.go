package preview

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/testctl/testctl/pkg/githubrest"
)

// deployment is one of GET /repos/{repo}/deployments.
type deployment struct {
	ID                    int64     `json:"id"`
	SHA                   string    `json:"sha"`
	Ref                   string    `json:"ref"`
	Environment           string    `json:"environment"`
	ProductionEnvironment bool      `json:"production_environment"`
	CreatedAt             time.Time `json:"created_at"`
}

// status is one of a deployment's statuses.
type status struct {
	State          string `json:"state"`
	EnvironmentURL string `json:"environment_url"`
	Description    string `json:"description"`
	LogURL         string `json:"log_url"`
}

func deployments(ctx context.Context, g *githubrest.Repo, sha, environment string) ([]deployment, error) {
	q := url.Values{"sha": {sha}, "per_page": {"100"}}
	if environment != "" {
		q.Set("environment", environment)
	}
	var out []deployment
	return out, g.Get(ctx, "/deployments", q, &out)
}

func statuses(ctx context.Context, g *githubrest.Repo, id int64) ([]status, error) {
	var out []status
	return out, g.Get(ctx, fmt.Sprintf("/deployments/%d/statuses", id), url.Values{"per_page": {"100"}}, &out)
}
