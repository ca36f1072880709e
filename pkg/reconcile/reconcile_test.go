package reconcile

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/exitcode"
)

// service is a scripted service for one write: what the list shows, what
// each send does to it, and when a created item becomes visible.
type service struct {
	clk     *clock.Fake
	listed  []Found[string] // visible before the request
	sends   int
	onSend  []func(s *service) error // one per send
	pending []pendingItem            // created, visible later
	listErr error
}

type pendingItem struct {
	f       Found[string]
	visible time.Time
}

func (s *service) create(id string, after time.Duration) {
	now := s.clk.Now()
	s.pending = append(s.pending, pendingItem{Found[string]{ID: id, CreatedAt: now, Value: id}, now.Add(after)})
}

func (s *service) write() Write[string] {
	return Write[string]{Noun: "run", Request: "POST /v1/run", TakeUp: waitRun,
		Send: func(context.Context) (string, error) {
			s.sends++
			if err := s.onSend[s.sends-1](s); err != nil {
				return "", err
			}
			return "created", nil
		},
		Find: func(context.Context) ([]Found[string], error) {
			if s.listErr != nil {
				return nil, s.listErr
			}
			out := append([]Found[string](nil), s.listed...)
			for _, p := range s.pending {
				if !s.clk.Now().Before(p.visible) {
					out = append([]Found[string]{p.f}, out...)
				}
			}
			return out, nil
		}}
}

var (
	lost502  = &api.HTTPError{StatusCode: 502, Method: "POST", Path: "/v1/run"}
	refused  = &api.HTTPError{StatusCode: 400, Method: "POST", Path: "/v1/run", Message: "bad plan"}
	start    = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	carryOut = func(id string, visibleAfter time.Duration) func(*service) error {
		return func(s *service) error { s.create(id, visibleAfter); return lost502 }
	}
)

func succeed(*service) error  { return nil }
func lostOnly(*service) error { return lost502 }

func newService(old ...string) (*service, Reconciler, *strings.Builder) {
	clk := clock.NewFake(start)
	s := &service{clk: clk}
	for i, id := range old {
		s.listed = append(s.listed, Found[string]{ID: id, CreatedAt: start.Add(-time.Duration(i+1) * time.Minute), Value: id})
	}
	var notes strings.Builder
	return s, Reconciler{Clock: clk, Delay: 30 * time.Second, Notices: &notes, Debug: &notes}, &notes
}

func TestAnsweredWriteIsSentOnce(t *testing.T) {
	s, r, notes := newService("r-old")
	s.onSend = []func(*service) error{succeed}
	v, err := Do(context.Background(), r, s.write())
	if err != nil || v != "created" || s.sends != 1 || strings.Contains(notes.String(), "lost") {
		t.Errorf("got %q %v after %d sends\n%s", v, err, s.sends, notes)
	}
}

func TestRefusedWriteIsNotReconciled(t *testing.T) {
	s, r, _ := newService()
	s.onSend = []func(*service) error{func(*service) error { return refused }}
	if _, err := Do(context.Background(), r, s.write()); !errors.Is(err, refused) || s.sends != 1 {
		t.Errorf("%v after %d sends", err, s.sends)
	}
}

// The run the lost request created is adopted once it shows, even a while
// after the answer was lost, and the request is not sent again.
func TestLostAnswerAdoptsWhatItCreated(t *testing.T) {
	s, r, notes := newService("r-old")
	s.onSend = []func(*service) error{carryOut("r-new", 12*time.Second)}
	v, err := Do(context.Background(), r, s.write())
	if err != nil || v != "r-new" || s.sends != 1 {
		t.Fatalf("got %q %v after %d sends\n%s", v, err, s.sends, notes)
	}
	if !strings.Contains(notes.String(), "the answer was lost, but run r-new was created: using it") {
		t.Errorf("notices:\n%s", notes)
	}
	if waited := s.clk.Now().Sub(start); waited < 12*time.Second || waited >= 30*time.Second {
		t.Errorf("adopted after %s, want as soon as it showed", waited)
	}
}

// Nothing new within the delay: the request was not carried out, and is
// sent once more.
func TestLostAnswerResendsAfterTheDelay(t *testing.T) {
	s, r, notes := newService("r-old")
	s.onSend = []func(*service) error{lostOnly, succeed}
	v, err := Do(context.Background(), r, s.write())
	if err != nil || v != "created" || s.sends != 2 {
		t.Fatalf("got %q %v after %d sends\n%s", v, err, s.sends, notes)
	}
	if waited := s.clk.Now().Sub(start); waited < 30*time.Second {
		t.Errorf("sent again after %s, before the 30s delay", waited)
	}
	if !strings.Contains(notes.String(), "no run appeared within 30s: sending POST /v1/run once more") {
		t.Errorf("notices:\n%s", notes)
	}
}

// Sent once more, at most: a second lost answer with nothing to show for
// it ends the command.
func TestLostTwiceEndsWithExit6(t *testing.T) {
	s, r, notes := newService()
	s.onSend = []func(*service) error{lostOnly, lostOnly}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 || s.sends != 2 || !strings.Contains(err.Error(), "failed twice") {
		t.Errorf("%v (exit %d) after %d sends\n%s", err, exitcode.Of(err), s.sends, notes)
	}
}

// A second lost answer still adopts what either request created.
func TestResentAndLostAgainAdopts(t *testing.T) {
	s, r, _ := newService()
	s.onSend = []func(*service) error{lostOnly, carryOut("r-2", 0)}
	if v, err := Do(context.Background(), r, s.write()); v != "r-2" || err != nil || s.sends != 2 {
		t.Errorf("got %q %v after %d sends", v, err, s.sends)
	}
}

func TestSeveralCandidatesExit6NamingEach(t *testing.T) {
	s, r, _ := newService("r-old")
	s.onSend = []func(*service) error{func(s *service) error {
		s.create("r-mine", 0)
		s.create("r-another-job", 0)
		return lost502
	}}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 || s.sends != 1 {
		t.Fatalf("%v (exit %d) after %d sends", err, exitcode.Of(err), s.sends)
	}
	for _, want := range []string{"r-mine", "r-another-job", "none was adopted"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "r-old") {
		t.Errorf("names a run that existed before: %v", err)
	}
}

// A matching run that existed before the request is never adopted: not one
// the list showed before it, nor one that only showed later but was created
// before the newest run seen, or long before the request on any clock.
func TestOlderMatchIsNeverAdopted(t *testing.T) {
	for name, older := range map[string]func(s *service){
		"listed before": func(s *service) {},
		"created before the newest seen": func(s *service) {
			s.pending = append(s.pending, pendingItem{Found[string]{ID: "r-late", CreatedAt: start.Add(-90 * time.Second), Value: "r-late"}, start})
		},
		"created long before the request": func(s *service) {
			s.listed = nil
			s.pending = append(s.pending, pendingItem{Found[string]{ID: "r-late", CreatedAt: start.Add(-time.Hour), Value: "r-late"}, start})
		},
	} {
		t.Run(name, func(t *testing.T) {
			s, r, notes := newService("r-old")
			older(s)
			s.onSend = []func(*service) error{lostOnly, succeed}
			v, err := Do(context.Background(), r, s.write())
			if err != nil || v != "created" || s.sends != 2 {
				t.Errorf("got %q %v after %d sends\n%s", v, err, s.sends, notes)
			}
		})
	}
}

// A run whose creation time the service's clock puts a little before ours
// (skew) is still the request's when it was not there before.
func TestSkewedClockStillAdopts(t *testing.T) {
	s, r, _ := newService()
	s.onSend = []func(*service) error{func(s *service) error {
		s.pending = append(s.pending, pendingItem{Found[string]{ID: "r-new", CreatedAt: start.Add(-2 * time.Minute), Value: "r-new"}, start})
		return lost502
	}}
	if v, err := Do(context.Background(), r, s.write()); v != "r-new" || err != nil {
		t.Errorf("got %q %v", v, err)
	}
}

// When the list cannot be read, nothing can be told: no resend, exit 6.
func TestUnreadableListNeverResends(t *testing.T) {
	s, r, _ := newService()
	s.onSend = []func(*service) error{func(s *service) error {
		s.listErr = &api.HTTPError{StatusCode: 503, Method: "GET", Path: "/v1/run"}
		return lost502
	}}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 || s.sends != 1 || !strings.Contains(err.Error(), "cannot be told") {
		t.Errorf("%v after %d sends", err, s.sends)
	}
}

func TestInterruptedLookEnds(t *testing.T) {
	s, r, _ := newService()
	ctx, cancel := context.WithCancel(context.Background())
	s.onSend = []func(*service) error{func(*service) error { cancel(); return lost502 }}
	if _, err := Do(ctx, r, s.write()); !errors.Is(err, context.Canceled) || s.sends != 1 {
		t.Errorf("%v after %d sends", err, s.sends)
	}
}

// Without the list of what existed before, a lost answer cannot be
// reconciled: the request is sent (it may well be answered), but not twice.
func TestUnreadableBaselineSendsButNeverResends(t *testing.T) {
	s, r, _ := newService()
	s.listErr = &api.HTTPError{StatusCode: 403, Method: "GET", Path: "/v1/run"}
	s.onSend = []func(*service) error{succeed}
	if v, err := Do(context.Background(), r, s.write()); v != "created" || err != nil {
		t.Errorf("got %q %v", v, err)
	}
	s, r, _ = newService()
	s.listErr = &api.HTTPError{StatusCode: 403, Method: "GET", Path: "/v1/run"}
	s.onSend = []func(*service) error{carryOut("r-new", 0)}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 || s.sends != 1 || !strings.Contains(err.Error(), "cannot be told") {
		t.Errorf("%v after %d sends", err, s.sends)
	}
}

// A new match the list cannot tell from another job's is named with the
// command that takes it up, never adopted, and the request is not sent
// again.
func TestUnsureMatchIsNamedNotAdopted(t *testing.T) {
	s, r, notes := newService("r-old")
	r.WaitArgs = []string{"--profile", "ci"}
	s.onSend = []func(*service) error{func(s *service) error {
		s.create("r-new", 0)
		s.pending[0].f.Unsure = "its environment"
		return lost502
	}, succeed}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 || s.sends != 1 {
		t.Fatalf("%v (exit %d) after %d sends\n%s", err, exitcode.Of(err), s.sends, notes)
	}
	for _, want := range []string{"run r-new was created since; it was not adopted, as the list of runs cannot show its environment",
		"testctl --profile ci run wait r-new"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// Beside a match the list cannot tell from another job's, a sure one is not
// adopted either: both are named, each with its run wait line.
func TestSureAndUnsureMatchesAreNamed(t *testing.T) {
	s, r, _ := newService()
	s.onSend = []func(*service) error{func(s *service) error {
		s.create("r-sure", 0)
		s.create("r-unsure", 0)
		s.pending[1].f.Unsure = "whether its 40 tests are the 1 test case asked for and their dependencies"
		return lost502
	}}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 || s.sends != 1 {
		t.Fatalf("%v (exit %d) after %d sends", err, exitcode.Of(err), s.sends)
	}
	for _, want := range []string{"2 runs created since could be the one it created; none was adopted",
		"r-unsure (the list cannot show whether its 40 tests", "testctl run wait r-sure", "testctl run wait r-unsure"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// The run wait line that takes up a named run quotes the id the service
// gave it, as it is pasted into a shell.
func TestNamedRunIsQuotedForTheShell(t *testing.T) {
	s, r, _ := newService()
	s.onSend = []func(*service) error{func(s *service) error {
		s.create("r2;rm -rf ~", 0)
		s.pending[0].f.Unsure = "its environment"
		return lost502
	}}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 {
		t.Fatalf("%v (exit %d)", err, exitcode.Of(err))
	}
	if !strings.Contains(err.Error(), "\n  testctl run wait 'r2;rm -rf ~'\n") {
		t.Errorf("the run wait line does not quote the id:\n%v", err)
	}
}

// A new match listed without an id cannot be adopted, named or waited on;
// it may be the request's, so the request is not sent again either: exit
// 6, saying where to look.
func TestMatchWithoutIDIsNeitherAdoptedNorSentAgain(t *testing.T) {
	s, r, notes := newService("r-old")
	r.WaitArgs = []string{"--profile", "ci"}
	s.onSend = []func(*service) error{carryOut("", 3*time.Second), succeed}
	w := s.write()
	w.Where = func() []string { return []string{"run", "list", "--plan", "pln_a"} }
	v, err := Do(context.Background(), r, w)
	if exitcode.Of(err) != 6 || v != "" || s.sends != 1 {
		t.Fatalf("got %q %v (exit %d) after %d sends\n%s", v, err, exitcode.Of(err), s.sends, notes)
	}
	for _, want := range []string{"a run was created since that the list of runs shows without an id (created 2026-11-21T09:00:00Z): it was not adopted",
		"POST /v1/run was not sent again", "\nLook for it with:\n  testctl --profile ci run list --plan pln_a"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(notes.String(), "using it") {
		t.Errorf("adopted it:\n%s", notes)
	}
}

// Beside another new match, one without an id is named as such; none is
// adopted and nothing is sent again.
func TestMatchWithoutIDBesideAnotherIsNamed(t *testing.T) {
	s, r, _ := newService()
	s.onSend = []func(*service) error{func(s *service) error {
		s.create("r-new", 0)
		s.create("", 0)
		return lost502
	}, succeed}
	_, err := Do(context.Background(), r, s.write())
	if exitcode.Of(err) != 6 || s.sends != 1 {
		t.Fatalf("%v (exit %d) after %d sends", err, exitcode.Of(err), s.sends)
	}
	for _, want := range []string{"2 runs created since could be the one it created; none was adopted", "\n  r-new (created", "\n  (listed without an id) (created"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// Runs listed without an id (nor a creation time) before the request are
// counted, as nothing else tells them apart: they never stand for a new one
// (the request is sent once more when nothing else appears), nor hide one.
func TestMatchesWithoutIDThatExistedBefore(t *testing.T) {
	for name, tc := range map[string]struct {
		send  func(*service) error
		sends int
		exit  int
	}{
		"nothing new": {lostOnly, 2, 0},
		"a new one": {func(s *service) error {
			s.pending = append(s.pending, pendingItem{Found[string]{}, start})
			return lost502
		}, 1, 6},
	} {
		s, r, notes := newService("r-old")
		s.listed = append(s.listed, Found[string]{}, Found[string]{})
		s.onSend = []func(*service) error{tc.send, succeed}
		_, err := Do(context.Background(), r, s.write())
		if exitcode.Of(err) != tc.exit || s.sends != tc.sends {
			t.Errorf("%s: %v (exit %d) after %d sends\n%s", name, err, exitcode.Of(err), s.sends, notes)
		}
	}
}

// A match of a write that has no command to take it up (a test case) is
// named with the command that lists it, once, beside its id.
func TestUnsureMatchWithoutTakeUpIsNamedWhereItIsListed(t *testing.T) {
	for name, tc := range map[string]struct {
		ids  []string
		want []string
	}{
		"one": {[]string{"tc-new"}, []string{"test case tc-new was created since; it was not adopted, as the list of test cases cannot show its goal.",
			"\nIf it is this job's, use test case tc-new; it is listed by:\n  testctl --profile ci testcase list --app app_a\n"}},
		"two": {[]string{"tc-1", "tc-2"}, []string{"\n  tc-1 (the list cannot show its goal)\n", "\n  tc-2 (the list cannot show its goal)\n",
			"\nIf one of them is this job's, use it; they are listed by:\n  testctl --profile ci testcase list --app app_a\n"}},
	} {
		s, r, _ := newService()
		r.WaitArgs = []string{"--profile", "ci"}
		s.onSend = []func(*service) error{func(s *service) error {
			for i, id := range tc.ids {
				s.create(id, 0)
				s.pending[i].f.Unsure = "its goal"
			}
			return lost502
		}}
		w := s.write()
		w.Noun, w.Request, w.TakeUp = "test case", "POST /v1/test-cases", nil
		w.Where = func() []string { return []string{"testcase", "list", "--app", "app_a"} }
		_, err := Do(context.Background(), r, w)
		if exitcode.Of(err) != 6 || s.sends != 1 {
			t.Fatalf("%s: %v (exit %d) after %d sends", name, err, exitcode.Of(err), s.sends)
		}
		for _, want := range tc.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error lacks %q: %v", name, want, err)
			}
		}
		if strings.Contains(err.Error(), "run wait") || strings.Count(err.Error(), "testcase list") != 1 {
			t.Errorf("%s: not one testcase list line:\n%v", name, err)
		}
	}
}

// The message that names a match says how many times the request was sent:
// once, or twice when the match showed after it was sent once more.
func TestNamedMatchSaysHowOftenTheRequestWasSent(t *testing.T) {
	unsureNew := func(s *service) error {
		s.create("r-new", 0)
		s.pending[0].f.Unsure = "its environment"
		return lost502
	}
	for name, tc := range map[string]struct {
		sends     []func(*service) error
		want, not string
	}{
		"once":  {[]func(*service) error{unsureNew}, "\nOtherwise send the request again: it was sent only once.", "twice"},
		"twice": {[]func(*service) error{lostOnly, unsureNew}, "\nOtherwise send the request again: it was sent twice, and no run appeared within 30s of the first.", "only once"},
	} {
		s, r, notes := newService()
		s.onSend = tc.sends
		_, err := Do(context.Background(), r, s.write())
		if exitcode.Of(err) != 6 || s.sends != len(tc.sends) {
			t.Fatalf("%s: %v (exit %d) after %d sends\n%s", name, err, exitcode.Of(err), s.sends, notes)
		}
		if msg := err.Error(); !strings.HasSuffix(msg, tc.want) || strings.Contains(msg, tc.not) {
			t.Errorf("%s: the message does not end with %q:\n%s", name, tc.want, msg)
		}
	}
}
