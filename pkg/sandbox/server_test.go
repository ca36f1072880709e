package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

func TestListenServesAndCloses(t *testing.T) {
	inst, err := Listen("127.0.0.1:0", Options{Latency: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(inst.BaseURL, "http://127.0.0.1:") || inst.LegacyBaseURL != inst.BaseURL+LegacyPrefix || inst.Server == nil {
		t.Fatalf("instance %+v", inst)
	}
	req, _ := http.NewRequest("POST", inst.BaseURL+"/v1/run", strings.NewReader(`{"testPlanShortId":"pln-passing_sandbox"}`))
	req.Header.Set("Authorization", "Bearer "+ProjectKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var started api.StartRunResponse
	if err := json.NewDecoder(resp.Body).Decode(&started); err != nil || !started.Success {
		t.Fatalf("start over TCP: %v %+v", err, started)
	}
	resp.Body.Close()

	// A request in flight during Close still gets its answer.
	done := make(chan int, 1)
	go func() {
		resp, err := http.Get(inst.BaseURL + "/v1/outbound-ips")
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	time.Sleep(30 * time.Millisecond)
	if err := inst.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if code := <-done; code != 200 {
		t.Errorf("in-flight request got %d", code)
	}
	if err := inst.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := http.Get(inst.BaseURL + "/v1/outbound-ips"); err == nil {
		t.Error("still serving after Close")
	}
	if _, err := Listen("256.0.0.1:0", Options{}); err == nil {
		t.Error("Listen on a bad address succeeded")
	}
}
