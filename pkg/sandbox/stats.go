package sandbox

import (
	"maps"
	"net/http"
)

// Stats counts what the sandbox saw, so end-to-end tests can assert, for
// example, that a retried request did not start a run twice.
type Stats struct {
	// Requests counts arrivals by route ("POST /v1/run"), including those
	// that were then failed by fault injection. Unknown paths count as
	// "METHOD /".
	Requests map[string]int `json:"requests"`
	// RunsStarted counts runs actually created: by POST /v1/run and by
	// reruns, whether or not their answer then reached the client.
	RunsStarted int `json:"runsStarted"`
	// Reruns counts the runs of RunsStarted that a rerun created.
	Reruns int `json:"reruns"`
	// TestCasesCreated counts accepted POST /v1/test-cases.
	TestCasesCreated int `json:"testCasesCreated"`
	// FaultsInjected counts requests failed on purpose, both ways. Faults
	// splits those failed before they were handled by kind: "500", "502",
	// "503", "429" and "drop". LostAnswers splits the writes carried out
	// whose answer was then lost: "500" and "drop" (LostAnswer500,
	// LostAnswerDrop); each created the run or test case counted above.
	FaultsInjected int            `json:"faultsInjected"`
	Faults         map[string]int `json:"faults"`
	LostAnswers    map[string]int `json:"lostAnswers"`
}

// Stats returns a copy of the counters.
func (s *Server) Stats() Stats {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	out := s.stats
	out.Requests = maps.Clone(s.stats.Requests)
	out.Faults = maps.Clone(s.stats.Faults)
	out.LostAnswers = maps.Clone(s.stats.LostAnswers)
	return out
}

func (s *Server) count(route string) {
	s.statsMu.Lock()
	s.stats.Requests[route]++
	s.statsMu.Unlock()
}

func (s *Server) countWith(f func(*Stats)) {
	s.statsMu.Lock()
	f(&s.stats)
	s.statsMu.Unlock()
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Stats())
}
