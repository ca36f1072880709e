// Package agentenv tells from the environment whether testctl runs under a
// coding agent, whose shell may be a pseudo-terminal that no person watches:
// there testctl behaves as off a terminal (docs/agents.md, "Agent mode").
package agentenv

import "fmt"

// Override decides when set: 1 is agent mode, 0 is not.
const Override = "TESTCTL_AGENT"

// Names are the variables that coding agents set in their shells: a closed
// list, each counted when set to a value other than "", "0" or "false".
var Names = []string{"CLAUDECODE", "CURSOR_AGENT", "GEMINI_CLI", "OPENCODE", "AGENT"}

// Detect reports whether the environment lookup reads names a coding agent;
// an Override other than 0 or 1 is an error.
func Detect(lookup func(string) (string, bool)) (bool, error) {
	switch v, _ := lookup(Override); v {
	case "1":
		return true, nil
	case "0":
		return false, nil
	case "":
	default:
		return false, fmt.Errorf("%s=%q: want 1 (behave as under a coding agent: no terminal, no prompt) or 0", Override, v)
	}
	for _, name := range Names {
		if v, _ := lookup(name); v != "" && v != "0" && v != "false" {
			return true, nil
		}
	}
	return false, nil
}
