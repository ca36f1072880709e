package sandbox

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/testctl/testctl/pkg/api"
)

// Remote tunnel fixtures. runner-nostatus omits the status field, as a
// client must be ready for (service-notes.md): the status is derived from
// connections. runner-warming comes up over the first 20 s of sandbox time
// (inactive, then degraded from 10 s, healthy from 20 s) so that waiting
// for a healthy tunnel can be rehearsed.
type tunnel struct {
	id         string
	ports      []int
	omitStatus bool
	conns      []int // connections from 0 s, 10 s, 20 s… of sandbox time on
}

var tunnels = []tunnel{
	{id: "runner-healthy", ports: []int{3000, 8080}, conns: []int{4}},
	{id: "runner-degraded", ports: []int{3000}, conns: []int{2}},
	{id: "runner-inactive", conns: []int{0}},
	{id: "runner-nostatus", ports: []int{5173}, omitStatus: true, conns: []int{5}},
	{id: "runner-warming", ports: []int{4200}, conns: []int{0, 2, 4}},
}

func (t *tunnel) connsAt(now float64) int { return t.conns[min(max(int(now/10), 0), len(t.conns)-1)] }

func (t *tunnel) status(now float64) api.TunnelStatus {
	n := t.connsAt(now)
	out := api.TunnelStatus{Status: api.TunnelHealthFor(n), Connections: n, Hostnames: []api.TunnelHostname{}}
	if n > 0 {
		for _, p := range t.ports {
			out.Hostnames = append(out.Hostnames, api.TunnelHostname{LocalPort: p,
				URL: "https://" + t.id + "-" + strconv.Itoa(p) + ".tunnel.sandbox.testctl.invalid"})
		}
	}
	return out
}

// handleTunnelStatus is GET /v1/remote-tunnels/{runnerId}/status. Runners
// belong to the organization, so projectShortId is optional even for an
// organization-scoped key; when given it must be allowed for the key.
func (s *Server) handleTunnelStatus(c *call) {
	id := c.r.PathValue("runnerId")
	i := slices.IndexFunc(tunnels, func(t tunnel) bool { return t.id == id })
	if i < 0 {
		c.fail(http.StatusNotFound, "remote tunnel %s not found", id)
		return
	}
	t := &tunnels[i]
	st := t.status(c.now)
	if t.omitStatus {
		writeJSON(c.w, http.StatusOK, map[string]any{"connections": st.Connections, "hostnames": st.Hostnames})
		return
	}
	writeJSON(c.w, http.StatusOK, st)
}

// handleListTunnels is GET /v1/remote-tunnels, published without a shape.
func (s *Server) handleListTunnels(c *call) {
	type item struct {
		RunnerID    string `json:"runnerId"`
		Connections int    `json:"connections"`
	}
	var items []item
	for _, t := range tunnels {
		items = append(items, item{t.id, t.connsAt(c.now)})
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"tunnels": items})
}
