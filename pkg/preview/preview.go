// Package preview finds the URL of a commit's preview on GitHub: the
// environment_url of its GitHub deployment (as Vercel, Netlify, Render and
// Cloudflare create them; never target_url, which is Vercel's dashboard),
// from a deployment_status event's payload or from the deployments API,
// waiting until the deployment succeeds. It reads GitHub with the job's
// token only.
package preview

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/githubrest"
	"github.com/testctl/testctl/pkg/termtext"
)

// Polling bounds: the first pause between two looks, and the longest.
const (
	firstPause = 5 * time.Second
	maxPause   = 30 * time.Second
	// heartbeat is how often an unchanged wait says it still waits.
	heartbeat = time.Minute
)

// Spec is --preview's value: github[:ENVIRONMENT].
type Spec struct {
	// Environment is matched exactly; "" takes the single non-production
	// environment the commit was deployed to.
	Environment string
}

// ParseSpec reads github[:ENVIRONMENT].
func ParseSpec(v string) (Spec, error) {
	host, env, _ := strings.Cut(v, ":")
	if host != "github" {
		return Spec{}, fmt.Errorf("%q: expected github or github:ENVIRONMENT (GitHub deployments are the previews testctl can find)", v)
	}
	return Spec{Environment: env}, nil
}

// Finder finds previews.
type Finder struct {
	Getenv    func(string) string
	Clock     clock.Clock
	Transport http.RoundTripper // nil: http.DefaultTransport
	// Progress gets a line (without its newline) when what the wait sees
	// changes.
	Progress func(line string)
}

// Found is the preview found.
type Found struct {
	URL         string // environment_url
	Environment string
	Deployment  int64
	SHA         string
}

// Find waits, until deadline, for the deployment of commit (or of the
// deployment_status event that started the job) to succeed, and returns
// its environment_url. repo is owner/name when GITHUB_REPOSITORY is not
// set. Errors carry their exit code: 7 for a deployment that failed or
// never succeeded in time, 4 when the token may not read deployments, 2
// when the environment to take is not clear.
func (f *Finder) Find(ctx context.Context, spec Spec, repo, commit string, deadline time.Time) (Found, error) {
	env := spec.Environment
	ev, err := readEvent(f.Getenv)
	if err != nil {
		return Found{}, exitcode.UsageErrorf("--preview: %v", err)
	}
	if ev != nil && (env == "" || env == ev.Deployment.Environment) {
		d, s := ev.Deployment, ev.Status
		if s.State == "success" && s.EnvironmentURL != "" {
			found := Found{URL: s.EnvironmentURL, Environment: d.Environment, Deployment: d.ID, SHA: d.SHA}
			f.say(fmt.Sprintf("preview: deployment %d of %s (from the deployment_status event) succeeded", d.ID, describe(d.Environment)))
			return found, nil
		}
		// Not yet a success: that deployment's environment is followed
		// through the API, so a replacement is seen too.
		env = d.Environment
	}
	if ev != nil {
		commit = ev.Deployment.SHA
	}
	if commit == "" {
		return Found{}, exitcode.UsageErrorf("--preview needs the commit whose deployment to look for: pass --codehost or --commit")
	}
	gh, err := githubrest.New(f.Getenv, cmp.Or(f.Getenv("GITHUB_REPOSITORY"), repo), f.Transport, f.Clock.Now)
	if err != nil {
		return Found{}, exitcode.UsageErrorf("--preview: %v", err)
	}
	w := &watch{Finder: f, gh: gh, commit: commit, env: env, start: f.Clock.Now(), deadline: deadline}
	return w.run(ctx)
}

// watch is one wait for a deployment to succeed.
type watch struct {
	*Finder
	gh              *githubrest.Repo
	commit, env     string
	start, deadline time.Time
	said            string
	saidAt          time.Time
}

func (w *watch) run(ctx context.Context) (Found, error) {
	last := "no deployment of the commit yet"
	for attempt := 1; ; attempt++ {
		found, state, err := w.look(ctx)
		if err := ctx.Err(); err != nil {
			return Found{}, err
		}
		pause := api.Backoff(attempt, firstPause, maxPause)
		var ae *githubrest.Error
		switch {
		case err == nil && state == "":
			return found, nil
		case err == nil:
			last = state
		case errors.As(err, &ae) && ae.RateLimited:
			last = "GitHub's rate limit"
			pause = max(ae.Wait, pause)
			if w.Clock.Now().Add(ae.Wait).After(w.deadline) {
				return Found{}, w.timedOut(fmt.Sprintf("GitHub's rate limit asks to wait %s, past the bound", ae.Wait.Round(time.Second)))
			}
		case errors.As(err, &ae) && (ae.Status == http.StatusUnauthorized || ae.Status == http.StatusForbidden || ae.Status == http.StatusNotFound):
			return Found{}, w.refused(ae)
		case errors.As(err, &ae) && ae.Status >= 500, !errors.As(err, &ae) && exitcode.Of(err) == exitcode.Failed:
			last = "GitHub failed: " + err.Error() // tried again within the bound
		case errors.As(err, &ae):
			return Found{}, &exitcode.Error{Code: exitcode.Usage, Err: fmt.Errorf("--preview: GitHub refused to list the deployments of commit %s (%s)", short(w.commit), ae)}
		default:
			return Found{}, err
		}
		w.sayOnce(fmt.Sprintf("preview: waiting for %s: %s (%s of %s)", w.what(), last,
			w.Clock.Now().Sub(w.start).Round(time.Second), w.deadline.Sub(w.start).Round(time.Second)))
		if w.Clock.Now().Add(pause).After(w.deadline) {
			return Found{}, w.timedOut(last)
		}
		if err := w.Clock.Sleep(ctx, pause); err != nil {
			return Found{}, err
		}
	}
}

// look reads the newest deployment of the environment and its statuses
// once: state "" with the preview when it succeeded, else what it waits
// for; an error for a deployment that failed, an environment that is not
// clear, or a request that failed.
func (w *watch) look(ctx context.Context) (Found, string, error) {
	all, err := deployments(ctx, w.gh, w.commit, w.env)
	if err != nil {
		return Found{}, "", err
	}
	env := w.env
	if env == "" {
		var envs []string
		for _, d := range all {
			if !production(d) && !slices.Contains(envs, d.Environment) {
				envs = append(envs, d.Environment)
			}
		}
		switch len(envs) {
		case 0:
			return Found{}, "no preview deployment of the commit yet", nil
		case 1:
			env = envs[0]
		default:
			slices.Sort(envs)
			return Found{}, "", exitcode.UsageErrorf("--preview: commit %s was deployed to %d environments (%s): name one, like --preview github:%s",
				short(w.commit), len(envs), termtext.SanitizeLine(strings.Join(envs, ", ")), termtext.SanitizeLine(envs[0]))
		}
	}
	var newest *deployment
	for i, d := range all {
		if d.Environment == env && (newest == nil || d.CreatedAt.After(newest.CreatedAt) ||
			(d.CreatedAt.Equal(newest.CreatedAt) && d.ID > newest.ID)) {
			newest = &all[i]
		}
	}
	if newest == nil {
		return Found{}, fmt.Sprintf("no deployment of the commit to %s yet", describe(env)), nil
	}
	statuses, err := statuses(ctx, w.gh, newest.ID)
	if err != nil {
		return Found{}, "", err
	}
	// Newest first; inactive only says a later deployment replaced this
	// one, which the next look finds.
	var s *status
	for i := range statuses {
		if statuses[i].State != "inactive" {
			s = &statuses[i]
			break
		}
	}
	name := fmt.Sprintf("deployment %d of %s", newest.ID, describe(env))
	switch {
	case s == nil:
		return Found{}, name + " has no status yet", nil
	case s.State == "success" && s.EnvironmentURL != "":
		w.say(fmt.Sprintf("preview: %s succeeded", name))
		return Found{URL: s.EnvironmentURL, Environment: env, Deployment: newest.ID, SHA: newest.SHA}, "", nil
	case s.State == "success":
		return Found{}, "", &exitcode.Error{Code: exitcode.Timeout, Err: fmt.Errorf(
			"--preview: %s succeeded without an environment_url: there is no preview URL to test; nothing was started", name)}
	case s.State == "failure" || s.State == "error":
		why := ""
		if d := termtext.SanitizeLine(s.Description); d != "" {
			why = " (" + d + ")"
		}
		return Found{}, "", &exitcode.Error{Code: exitcode.Timeout, Err: fmt.Errorf(
			"--preview: %s ended in %s%s: nothing was started", name, s.State, why)}
	}
	return Found{}, fmt.Sprintf("%s is %s", name, termtext.SanitizeLine(s.State)), nil
}

// production tells a production deployment, which a preview is not.
func production(d deployment) bool {
	return d.ProductionEnvironment || strings.EqualFold(d.Environment, "production")
}

func (w *watch) what() string {
	if w.env == "" {
		return "the preview deployment of commit " + short(w.commit)
	}
	return fmt.Sprintf("the deployment of commit %s to %s", short(w.commit), describe(w.env))
}

func (w *watch) timedOut(last string) error {
	return &exitcode.Error{Code: exitcode.Timeout, Err: fmt.Errorf(
		"--preview: %s did not succeed within %s (last: %s): nothing was started; raise --wait-for-app if it needs longer",
		w.what(), w.deadline.Sub(w.start).Round(time.Second), last)}
}

func (w *watch) refused(ae *githubrest.Error) error {
	fix := "give the job `permissions: deployments: read` and the step `env: GITHUB_TOKEN: ${{ github.token }}`"
	if !w.gh.HasToken() {
		fix = "GITHUB_TOKEN is not set: " + fix
	}
	return &exitcode.Error{Code: exitcode.Auth, Err: fmt.Errorf(
		"--preview: GitHub refused to list the deployments of %s (%s): the token needs the permission deployments: read; %s",
		w.gh.Repository(), ae, fix)}
}

// sayOnce says line when what it says changed, or a heartbeat after a
// minute of the same, so a long build never looks like a hang.
func (w *watch) sayOnce(line string) {
	key, _, _ := strings.Cut(line, " (")
	if now := w.Clock.Now(); key != w.said || now.Sub(w.saidAt) >= heartbeat {
		w.said, w.saidAt = key, now
		w.say(line)
	}
}

func (f *Finder) say(line string) {
	if f.Progress != nil {
		f.Progress(termtext.SanitizeLine(line))
	}
}

func describe(env string) string { return "environment " + termtext.SanitizeLine(env) }

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
