package sandbox

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestTunnelStatus(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	for _, tc := range []struct {
		runner, status string
		conns, hosts   int
	}{
		{"runner-healthy", "healthy", 4, 2},
		{"runner-degraded", "degraded", 2, 1},
		{"runner-inactive", "inactive", 0, 0},
		{"runner-warming", "inactive", 0, 0},
	} {
		rec := send(t, s, "GET", "/v1/remote-tunnels/"+tc.runner+"/status", ProjectKey, nil)
		st := decode[api.TunnelStatus](t, rec, http.StatusOK)
		if st.Status != tc.status || st.Connections != tc.conns || len(st.Hostnames) != tc.hosts ||
			st.Status != api.TunnelHealthFor(st.Connections) || st.Hostnames == nil {
			t.Errorf("%s: %s", tc.runner, rec.Body)
		}
		for _, h := range st.Hostnames {
			if h.LocalPort == 0 || h.URL == "" {
				t.Errorf("%s: hostname %+v", tc.runner, h)
			}
		}
	}

	rec := send(t, s, "GET", "/v1/remote-tunnels/runner-nostatus/status", ProjectKey, nil)
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := raw["status"]; ok || string(raw["connections"]) != "5" || raw["hostnames"] == nil {
		t.Errorf("runner-nostatus: %s", rec.Body)
	}

	warming := func() string {
		return decode[api.TunnelStatus](t, send(t, s, "GET", "/v1/remote-tunnels/runner-warming/status", ProjectKey, nil), 200).Status
	}
	advance(fake, 10)
	if st := warming(); st != "degraded" {
		t.Errorf("warming at 10 s: %s", st)
	}
	advance(fake, 10)
	if st := warming(); st != "healthy" {
		t.Errorf("warming at 20 s: %s", st)
	}
	wantError(t, send(t, s, "GET", "/v1/remote-tunnels/runner-nope/status", ProjectKey, nil), 404, "runner-nope")
	wantError(t, send(t, s, "GET", "/v1/remote-tunnels/runner-healthy/status?projectShortId=proj-x_y", ProjectKey, nil), 403)
}
