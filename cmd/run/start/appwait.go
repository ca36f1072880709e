package start

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/appready"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/preview"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/termtext"
)

// defaultPreviewWait bounds --preview when --wait-for-app is not given.
const defaultPreviewWait = 10 * time.Minute

// AppWait is --wait-for-app and --preview: what is waited for before the
// start, so that a run never tests a preview that is not there yet.
type AppWait struct {
	WaitForApp time.Duration
	Preview    string
	preview    *preview.Spec
	// previewApp is the index in Applications of the --app entry the
	// preview's URL goes to.
	previewApp int
}

func addAppWaitFlags(fs *pflag.FlagSet, w *AppWait) {
	fs.DurationVar(&w.WaitForApp, "wait-for-app", 0, "before starting, wait up to `DURATION` until each url= of --app or --applications answers 2xx twice in a row (exit 7, nothing started, if not)")
	fs.StringVar(&w.Preview, "preview", "", "test the preview of the commit: `github[:ENVIRONMENT]` takes the environment_url of its GitHub deployment for the one --app without url= (waited for, up to --wait-for-app, default 10m)")
}

// appWaitHelp is the paragraph of the help about them.
const appWaitHelp = `Previews: --wait-for-app DURATION asks each url= of --app or --applications
(GET, without the API key, redirects followed within its origin) until it
answers 2xx twice in a row; a redirect to another origin (a protection's login
page) or a 401/403 is not ready. Not ready within DURATION: exit 7, nothing
started. --preview github[:ENVIRONMENT] takes the URL of the one --app entry
without url= from the commit's GitHub deployment (its environment_url): the
deployment of a deployment_status event, or the newest deployment of the commit
--codehost uses to ENVIRONMENT (without it, the one non-production
environment), waited for until it succeeds, then until it is ready; bounded by
--wait-for-app (default 10m); it reads GitHub with GITHUB_TOKEN (permission
deployments: read). The query values of application URLs (a bypass token) are
shown as *** everywhere, and masked under GitHub Actions. --dry-run waits too.`

// validateAppWait checks the flags against --app; an --applications file
// is checked once read (urls).
func validateAppWait(o *Options, changed func(string) bool) error {
	w := &o.AppWait
	if changed("wait-for-app") && w.WaitForApp <= 0 {
		return exitcode.FlagErrorf("--wait-for-app %s: give a positive duration, like 5m", w.WaitForApp)
	}
	if changed("preview") {
		spec, err := preview.ParseSpec(w.Preview)
		if err != nil {
			return exitcode.FlagErrorf("--preview %v", err)
		}
		w.preview = &spec
		if o.ApplicationsFile != "" {
			return exitcode.FlagErrorf("--preview takes the URL of an --app APP entry: give the application with --app, not --applications")
		}
		var bare []int
		for i, a := range o.Applications {
			if a.Environment == nil || a.Environment.URL == "" {
				bare = append(bare, i)
			}
		}
		if len(bare) != 1 {
			return exitcode.FlagErrorf("--preview needs exactly one --app APP without url= (the application the preview is of), not %d", len(bare))
		}
		w.previewApp = bare[0]
		if !changed("wait-for-app") {
			w.WaitForApp = defaultPreviewWait
		}
		return nil
	}
	if w.WaitForApp > 0 && o.ApplicationsFile == "" && len(urls(o.Applications)) == 0 {
		return exitcode.FlagErrorf("--wait-for-app needs an application URL to wait for: a url= in --app or --applications (or --preview)")
	}
	return nil
}

// prepareApps runs before anything is sent: it masks the query values of
// the application URLs under GitHub Actions, finds the preview's URL, and
// waits until every URL is ready. Its error (exit 2, 4 or 7) is said on
// the workflow run's page as any refused start. The context it returns
// hides the URLs' query values in every answer of the service (the
// evidence of a tested page quotes them).
func (o *Options) prepareApps(ctx context.Context, f *cmdutil.Factory, req *api.StartRunRequest) (context.Context, error) {
	err := o.AppWait.prepare(ctx, f, req)
	if err != nil {
		err = cmdutil.SignalError(ctx, err)
		ios := f.IOStreams
		for _, problem := range report.WriteStartRefused(f.Getenv, ios.WorkflowCommands(), "run start", err) {
			fmt.Fprintf(ios.ErrOut, "error: GitHub Actions: %s\n", termtext.Sanitize(problem))
		}
		return ctx, err
	}
	return api.WithConcealed(ctx, appready.Replacements(urls(req.Applications))...), nil
}

func (w *AppWait) prepare(ctx context.Context, f *cmdutil.Factory, req *api.StartRunRequest) error {
	mask(f, urls(req.Applications))
	if w.WaitForApp <= 0 {
		return nil
	}
	ios := f.IOStreams
	say := func(line string) { fmt.Fprintln(ios.ErrOut, termtext.SanitizeLine(line)) }
	deadline := f.Clock.Now().Add(w.WaitForApp)
	if w.preview != nil {
		finder := &preview.Finder{Getenv: f.Getenv, Clock: f.Clock, Progress: say}
		found, err := finder.Find(ctx, *w.preview, req.Repository, req.CommitHash, deadline)
		if err != nil {
			return err
		}
		if err := checkPreviewURL(found.URL); err != nil {
			return err
		}
		mask(f, []string{found.URL})
		apps := slices.Clone(req.Applications)
		env := api.RunEnvironment{}
		if apps[w.previewApp].Environment != nil {
			env = *apps[w.previewApp].Environment
		}
		env.URL = found.URL
		apps[w.previewApp].Environment = &env
		req.Applications = apps
		say(fmt.Sprintf("preview: %s is %s's URL (environment %s)", appready.Redact(found.URL), apps[w.previewApp].ApplicationShortID, found.Environment))
	}
	targets := urls(req.Applications)
	if len(targets) == 0 {
		return exitcode.UsageErrorf("--wait-for-app needs an application URL to wait for: the entries of --applications have no url")
	}
	waiter := &appready.Waiter{Clock: f.Clock, Progress: say}
	return waiter.Wait(ctx, targets, deadline)
}

// checkPreviewURL refuses an environment_url that is not an http(s) URL
// before the service does.
func checkPreviewURL(u string) error {
	app := api.RunApplication{ApplicationShortID: "app_preview", Environment: &api.RunEnvironment{URL: u}}
	if err := ValidateApplication(app); err != nil {
		return &exitcode.Error{Code: exitcode.Timeout, Err: fmt.Errorf("--preview: the deployment's environment_url: %v; nothing was started", err)}
	}
	return nil
}

// urls are the applications' URLs, in order, each once.
func urls(apps []api.RunApplication) []string {
	var out []string
	for _, a := range apps {
		if a.Environment != nil && a.Environment.URL != "" && !slices.Contains(out, a.Environment.URL) {
			out = append(out, a.Environment.URL)
		}
	}
	return out
}

// mask asks GitHub Actions to mask the query values of the URLs in the
// log (values too short to be secret, like true, excepted: masking them
// would hide every one in the log).
func mask(f *cmdutil.Factory, us []string) {
	if f.Getenv("GITHUB_ACTIONS") != "true" {
		return
	}
	for _, u := range us {
		for _, s := range appready.Secrets(u) {
			// The runner unescapes a command's value: a literal % is %25.
			s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
			fmt.Fprintf(f.IOStreams.WorkflowCommands(), "::add-mask::%s\n", s)
		}
	}
}

// concealed is req as --dry-run shows it: the query values of its
// application URLs hidden.
func concealed(req api.StartRunRequest) api.StartRunRequest {
	apps := slices.Clone(req.Applications)
	for i, a := range apps {
		if a.Environment != nil && a.Environment.URL != "" {
			env := *a.Environment
			env.URL = appready.Redact(env.URL)
			apps[i].Environment = &env
		}
	}
	req.Applications = apps
	return req
}
