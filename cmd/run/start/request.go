package start

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/codehost"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/idcheck"
	"github.com/testctl/testctl/pkg/iostreams"
)

// buildRequest assembles the start-run body (without the plan: see
// requests): it reads the JSON files,
// detects code-host metadata and enforces the CODEHOST rule, all before
// anything is sent. note says what --codehost found, for stderr.
func buildRequest(ctx context.Context, f *cmdutil.Factory, o *Options) (req api.StartRunRequest, note codehostNote, err error) {
	req = api.StartRunRequest{
		Trigger: o.Trigger, TestCaseIDs: o.TestCaseIDs,
		Applications: o.Applications, Notifications: o.Notifications,
	}
	if o.ApplicationsFile != "" {
		if req.Applications, err = readApplications(ctx, f.IOStreams, o.ApplicationsFile); err != nil {
			return req, note, err
		}
	}
	if o.ParametersFile != "" {
		if req.Parameters, err = readParameters(ctx, f.IOStreams, o.ParametersFile); err != nil {
			return req, note, err
		}
	}
	meta := o.Meta
	if o.Codehost {
		git := o.Git
		if git == nil {
			git = codehost.RunGit
		}
		note.Detection = codehost.Resolve(ctx, f.LookupEnv, git, o.Meta)
		meta = note.Meta
	}
	if req.Trigger == api.TriggerCodehost {
		if missing := meta.MissingFlags(); len(missing) > 0 {
			// In CI a start is what the pipeline is for: metadata the CI
			// does not give (a tag, a schedule, no checkout) must not stop
			// it. What was found is sent, with the trigger the service
			// accepts without the rest, and a warning says what to pass.
			// --trigger CODEHOST given, or a developer's terminal, is a
			// request for CODEHOST: refused, naming the flags.
			if o.Codehost && note.InCI && !o.triggerGiven {
				req.Trigger, note.fellBack = api.TriggerAPI, missing
			} else {
				return req, note, codehostRefused(note.Detection, o.triggerGiven, missing)
			}
		}
	}
	req.Actor, req.Branch, req.CommitHash = meta.Actor, meta.Branch, meta.Commit
	req.CommitMessage, req.Repository = meta.CommitMessage, meta.Repository
	return req, note, nil
}

// readApplications reads a JSON array of applications entries, checking
// each one as --app would.
func readApplications(ctx context.Context, ios *iostreams.IOStreams, path string) ([]api.RunApplication, error) {
	src, err := readSource(ctx, ios, "applications", path)
	if err != nil {
		return nil, err
	}
	dec, err := src.stream(json.Delim('['), `a JSON array of applications entries, like [{"applicationShortId": "app_…"}]`)
	if err != nil {
		return nil, err
	}
	apps := []api.RunApplication{}
	for i := 0; dec.More(); i++ {
		raw, at, err := src.next(dec)
		if err != nil {
			return nil, err
		}
		var app api.RunApplication
		if err := src.decodeAt(raw, at, &app); err != nil {
			return nil, err
		}
		if err := ValidateApplication(app); err != nil {
			return nil, src.errorf(at, "entry %d: %v", i, err)
		}
		if slices.ContainsFunc(apps, func(a api.RunApplication) bool { return a.ApplicationShortID == app.ApplicationShortID }) {
			return nil, src.errorf(at, "entry %d: application %s is given twice", i, app.ApplicationShortID)
		}
		apps = append(apps, app)
	}
	if len(apps) == 0 {
		return nil, exitcode.FlagErrorf("--applications %s: the array is empty; drop the flag to use the project's applications", src.name)
	}
	return apps, nil
}

// readParameters reads the parameters object. Its members' inner shapes are
// not published, so they pass through as they are (numbers keep every
// digit); only the two members the service knows are accepted, so that a
// misspelt one is not silently ignored.
func readParameters(ctx context.Context, ios *iostreams.IOStreams, path string) (*api.RunParameters, error) {
	src, err := readSource(ctx, ios, "parameters", path)
	if err != nil {
		return nil, err
	}
	dec, err := src.stream(json.Delim('{'), `a JSON object with "configs" and/or "configsByEnvironment"`)
	if err != nil {
		return nil, err
	}
	var params api.RunParameters
	seen := map[string]bool{}
	for dec.More() {
		keyAt := src.skipBlank(dec.InputOffset())
		tok, _ := dec.Token() // a key: the syntax is checked
		key, _ := tok.(string)
		if key != "configs" && key != "configsByEnvironment" {
			return nil, src.errorf(keyAt, "unknown member %q: only configs and configsByEnvironment are allowed", key)
		}
		if seen[key] {
			return nil, src.errorf(keyAt, "member %q appears twice", key)
		}
		seen[key] = true
		raw, at, err := src.next(dec)
		if err != nil {
			return nil, err
		}
		if raw[0] != '{' && string(raw) != "null" {
			return nil, src.errorf(at, "%s must be an object", key)
		}
		var m map[string]any
		if err := src.decodeAt(raw, at, &m); err != nil {
			return nil, err
		}
		if key == "configs" {
			params.Configs = m
			continue
		}
		for envID := range m {
			if !idcheck.IsUUID(envID) {
				return nil, src.errorf(at, "configsByEnvironment: key %q is not an environment UUID", envID)
			}
		}
		params.ConfigsByEnvironment = m
	}
	if len(params.Configs) == 0 && len(params.ConfigsByEnvironment) == 0 {
		return nil, nil
	}
	return &params, nil
}
