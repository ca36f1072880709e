package preview

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/testctl/testctl/pkg/userfile"
)

// maxEvent bounds the read of the event payload.
const maxEvent = 64 << 20

// event is what a deployment_status event's payload says of the
// deployment and of its new status.
type event struct {
	Deployment deployment `json:"deployment"`
	Status     status     `json:"deployment_status"`
}

// readEvent reads the payload of a deployment_status event; nil under any
// other event.
func readEvent(getenv func(string) string) (*event, error) {
	if getenv("GITHUB_EVENT_NAME") != "deployment_status" {
		return nil, nil
	}
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return nil, fmt.Errorf("a deployment_status event without its payload (GITHUB_EVENT_PATH is not set)")
	}
	data, err := userfile.Read(context.Background(), path, userfile.Rule{Max: maxEvent, Regular: true})
	if err != nil {
		return nil, fmt.Errorf("reading the deployment_status event (GITHUB_EVENT_PATH): %v", err)
	}
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, fmt.Errorf("the deployment_status event (GITHUB_EVENT_PATH) is unreadable: %v", err)
	}
	if ev.Deployment.SHA == "" {
		return nil, fmt.Errorf("the deployment_status event (GITHUB_EVENT_PATH) names no deployment.sha")
	}
	return &ev, nil
}
