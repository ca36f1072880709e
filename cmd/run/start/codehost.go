package start

import (
	"fmt"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/codehost"
	"github.com/testctl/testctl/pkg/exitcode"
)

// codehostNote is what --codehost found, and the fields of the CODEHOST
// trigger it did not find in CI (fellBack), for which the start falls
// back to the API trigger.
type codehostNote struct {
	codehost.Detection
	fellBack []string // flags, like --commit-message
}

// fieldNames are the words for the fields behind MissingFlags' flags.
var fieldNames = map[string]string{"--actor": "actor", "--branch": "branch", "--commit": "commit",
	"--commit-message": "commit message", "--repository": "repository"}

// missingFields names the fields of flags: "branch or commit message".
func missingFields(flags []string) string {
	words := make([]string, len(flags))
	for i, f := range flags {
		words[i] = fieldNames[f]
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// where says where --codehost looked: the CI service, the event that
// started the pipeline, whether there was a checkout.
func (n codehostNote) where() string {
	var parts []string
	parts = append(parts, n.CI)
	if n.CI == "" {
		parts[0] = "the CI environment"
	}
	if n.Event != "" {
		parts = append(parts, n.Event+" event")
	}
	if n.NoCheckout {
		parts = append(parts, "no git checkout")
	}
	return strings.Join(parts, ", ")
}

// fallbackWarning is the warning of a start that fell back to the API
// trigger: a title (the annotation's) and what was missing, where it was
// looked for, and the flag (and CI input) that passes it.
func (n codehostNote) fallbackWarning() (title, msg string) {
	title = "testctl: run started with trigger " + api.TriggerAPI + ", not " + api.TriggerCodehost
	msg = fmt.Sprintf("--codehost found no %s (%s), which the %s trigger requires: the run starts with trigger %s and the metadata found. "+
		"To send it, pass %s", missingFields(n.fellBack), n.where(), api.TriggerCodehost, api.TriggerAPI, strings.Join(n.fellBack, ", "))
	switch n.CI {
	case "GitHub Actions":
		msg += " (with the testctl action: in its args input)"
	case "GitLab CI":
		msg += " (with the testctl component: in its args input)"
	}
	if n.NoCheckout {
		msg += ", or check out the repository before this step"
	}
	return title, msg + "."
}

// codehostRefused is the usage error of a --codehost start without the
// CODEHOST trigger's fields outside CI, or with --trigger CODEHOST given:
// asked for, the trigger is not changed behind the user's back.
func codehostRefused(d codehost.Detection, triggerGiven bool, missing []string) error {
	where := "the CI environment (" + codehost.CIProviders + ") or local git"
	if d.NoCheckout {
		where += " (no repository here)"
	}
	instead := "drop --codehost"
	if triggerGiven {
		instead = "pass --trigger " + api.TriggerAPI
	}
	return exitcode.FlagErrorf("the %s trigger needs %s: not found in %s; pass them explicitly, or %s to start with trigger %s",
		api.TriggerCodehost, strings.Join(missing, ", "), where, instead, api.TriggerAPI)
}
