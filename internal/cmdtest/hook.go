package cmdtest

import "net/http"

// Hook puts a proxy in front of the sandbox, and the settings' base URL on
// it, that calls hook with each request before the sandbox answers it: a
// test acts at a known point of a command (a signal while the start's POST
// is in flight, a file removed while the run goes on) without a sleep.
func (e *Env) Hook(hook func(r *http.Request)) {
	e.t.Helper()
	next := e.Sandbox.Server
	e.proxy(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hook(r)
		next.ServeHTTP(w, r)
	}))
}
