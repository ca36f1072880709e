package start

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/appready"
	"github.com/testctl/testctl/pkg/ciretry"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/runwait"
)

var (
	planPattern       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pln(-.+_.+|_.+)$`) })
	notifyTypePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`) })
)

// notificationNone suppresses every notification of a run.
const notificationNone = "none"

// validate checks everything the command line alone can tell, before any
// file is read or request sent, and parses --app and --notify into opts.
// changed reports whether a flag was given; baseURL, asked only with
// --wait, is the service the wait flags are checked against.
func validate(ctx context.Context, o *Options, changed func(string) bool, baseURL func() (string, error)) error {
	if err := validateTarget(o); err != nil {
		return err
	}
	o.triggerGiven = changed("trigger")
	if o.triggerGiven {
		o.Trigger = strings.ToUpper(strings.TrimSpace(o.Trigger))
		if o.Trigger != api.TriggerAPI && o.Trigger != api.TriggerCodehost {
			return exitcode.FlagErrorf("invalid --trigger %q: valid values are %s, %s", o.Trigger, api.TriggerAPI, api.TriggerCodehost)
		}
	} else if o.Codehost {
		o.Trigger = api.TriggerCodehost
	}
	// Without --codehost nothing is detected, so the rule can be checked now.
	if o.Trigger == api.TriggerCodehost && !o.Codehost {
		if missing := o.Meta.MissingFlags(); len(missing) > 0 {
			return exitcode.FlagErrorf("--trigger CODEHOST needs %s (or --codehost to detect them)", strings.Join(missing, ", "))
		}
	}
	if o.CIRetry = strings.ToLower(strings.TrimSpace(o.CIRetry)); !slices.Contains(ciretry.Modes, o.CIRetry) {
		return exitcode.FlagErrorf("invalid --ci-retry %q: valid values are %s", o.CIRetry, strings.Join(ciretry.Modes, ", "))
	}
	if err := validateApplications(o); err != nil {
		return err
	}
	if err := validateAppWait(o, changed); err != nil {
		return err
	}
	if err := validateNotifications(o); err != nil {
		return err
	}
	if err := runwait.ValidateDryRun(o.DryRun, o.Quiet, o.Wait); err != nil {
		return err
	}
	return o.WaitOptions.ValidateWith(ctx, baseURL, o.Wait, changed)
}

func validateTarget(o *Options) error {
	switch {
	case len(o.Plans) > 0 && len(o.TestCaseIDs) > 0:
		return exitcode.FlagErrorf("--plan and --test-case cannot be combined: a run starts from a plan or from test cases")
	case len(o.Plans) == 0 && len(o.TestCaseIDs) == 0:
		return exitcode.FlagErrorf("pass --plan PLN or --test-case ID: a run needs a test plan or test cases")
	}
	for i, plan := range o.Plans {
		if !planPattern().MatchString(plan) {
			return exitcode.FlagErrorf("--plan %q is not a test plan short id: expected pln_<id> or pln-<slug>_<id>", plan)
		}
		// Two runs of one plan in one step would race on the same
		// environment and report the same suite twice: surely a typo.
		if slices.Contains(o.Plans[:i], plan) {
			return exitcode.FlagErrorf("--plan %s is given twice: each plan starts one run", plan)
		}
	}
	for i, id := range o.TestCaseIDs {
		o.TestCaseIDs[i] = strings.TrimSpace(id)
		if o.TestCaseIDs[i] == "" || strings.ContainsAny(o.TestCaseIDs[i], " \t\r\n") {
			return exitcode.FlagErrorf("--test-case %q is not a test case id", id)
		}
	}
	return nil
}

func validateApplications(o *Options) error {
	if len(o.AppSpecs) > 0 && o.ApplicationsFile != "" {
		return exitcode.FlagErrorf("--app and --applications cannot be combined: put every entry in one of them")
	}
	if o.ApplicationsFile == "-" && o.ParametersFile == "-" {
		return exitcode.FlagErrorf("--applications and --parameters cannot both read standard input (-)")
	}
	o.Applications = nil
	for _, spec := range o.AppSpecs {
		app, err := ParseAppSpec(spec)
		if err != nil {
			return exitcode.FlagErrorf("--app %q: %v", appready.Redact(spec), err)
		}
		if slices.ContainsFunc(o.Applications, func(a api.RunApplication) bool { return a.ApplicationShortID == app.ApplicationShortID }) {
			return exitcode.FlagErrorf("--app: application %s is given twice", app.ApplicationShortID)
		}
		o.Applications = append(o.Applications, app)
	}
	return nil
}

func validateNotifications(o *Options) error {
	if o.NoNotify && len(o.Notify) > 0 {
		return exitcode.FlagErrorf("--notify and --no-notify cannot be combined")
	}
	o.Notifications = nil
	if o.NoNotify {
		o.Notifications = []api.Notification{{Type: notificationNone}}
		return nil
	}
	for _, v := range o.Notify {
		n, err := parseNotify(v)
		if err != nil {
			return err
		}
		if n.Type == notificationNone && len(o.Notify) > 1 {
			return exitcode.FlagErrorf("--notify none suppresses every notification and cannot be combined with others")
		}
		o.Notifications = append(o.Notifications, n)
	}
	return nil
}

// parseNotify reads TYPE[:CHANNEL]. The service's list of types is not
// published beyond the chat kind and none, so any word is passed on and the
// service judges it.
func parseNotify(v string) (api.Notification, error) {
	typ, channel, hasChannel := strings.Cut(v, ":")
	typ, channel = strings.TrimSpace(typ), strings.TrimSpace(channel)
	switch {
	case !notifyTypePattern().MatchString(typ):
		return api.Notification{}, exitcode.FlagErrorf("--notify %q: expected TYPE[:CHANNEL], like slack:#qa or email", v)
	case hasChannel && channel == "":
		return api.Notification{}, exitcode.FlagErrorf("--notify %q: empty channel after ':'", v)
	case strings.EqualFold(typ, notificationNone):
		if hasChannel {
			return api.Notification{}, exitcode.FlagErrorf("--notify %q: none takes no channel (or use --no-notify)", v)
		}
		return api.Notification{Type: notificationNone}, nil
	}
	enabled := true
	return api.Notification{Type: typ, Channel: channel, Enabled: &enabled}, nil
}
