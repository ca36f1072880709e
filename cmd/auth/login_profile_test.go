package auth_test

import (
	"os"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A profile made by `auth login --profile p2 --base-url URL` reaches the
// service the key was checked against, with no other setting.
func TestLoginStoresTheServiceItWasCheckedAgainst(t *testing.T) {
	e := cmdtest.New(t)
	base := e.Getenv("TESTCTL_BASE_URL")
	for _, k := range []string{"TESTCTL_BASE_URL", "TESTCTL_LEGACY_BASE_URL", "TESTCTL_API_KEY"} {
		e.Setenv(k, "")
	}
	r := e.RunWith(cmdtest.RunOptions{Stdin: sandbox.ProjectKey + "\n"},
		"auth", "login", "--profile", "p2", "--base-url", base, "--project", "proj-demo_sandbox").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "Logged in", "OS keyring", `account "p2"`, `base_url and project stored in profile "p2"`)
	if strings.Contains(r.Stderr, "is not in") {
		t.Errorf("warned about the profile it was creating:\n%s", r.Stderr)
	}
	data, err := os.ReadFile(e.Getenv("TESTCTL_CONFIG"))
	if err != nil {
		t.Fatal(err)
	}
	cmdtest.Contains(t, "config file", string(data), "p2:", "base_url: "+base, "project: proj-demo_sandbox")

	r = e.Run("auth", "status", "--profile", "p2").Expect(t, 0)
	cmdtest.Contains(t, "status", r.Stdout, base+" (from profile)", "proj-demo_sandbox")
	if strings.Contains(r.Stderr, "warning") {
		t.Errorf("stderr: %s", r.Stderr)
	}
	// The same service's run list, with nothing but the profile.
	r = e.Run("run", "list", "--profile", "p2", "-o", "json")
	if r.Code != 0 {
		t.Fatalf("run list --profile p2: exit %d\n%s", r.Code, r.Stderr)
	}
}

func TestLoginWithoutServiceFlagsStoresOnlyTheKey(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	e.RunWith(cmdtest.RunOptions{Stdin: sandbox.ProjectKey + "\n"}, "auth", "login").Expect(t, 0)
	data, _ := os.ReadFile(e.Getenv("TESTCTL_CONFIG"))
	if strings.Contains(string(data), "base_url") {
		t.Errorf("a base URL from the environment was stored:\n%s", data)
	}
}

func TestLoginRejectsABadProjectFlagBeforeReadingTheKey(t *testing.T) {
	e := cmdtest.New(t)
	r := e.RunWith(cmdtest.RunOptions{Stdin: sandbox.ProjectKey + "\n"}, "auth", "login", "--no-verify", "--project", "shop").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "invalid --project")
	if _, err := os.Stat(e.Getenv("TESTCTL_CONFIG")); !os.IsNotExist(err) {
		t.Error("the config was written")
	}
}

// The settings a login under --profile suggests next carry that profile:
// pasted, they change the profile just logged in, not the default one.
func TestHintsAfterALoginUnderAProfileNameIt(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.RunWith(cmdtest.RunOptions{Stdin: sandbox.OrgKey + "\n"}, "auth", "login", "--profile", "org").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "`testctl config set project proj_… --profile org`")
	e.Setenv("TESTCTL_BASE_URL", "")
	r = e.Run("run", "list", "--profile", "org").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, `testctl config set base_url https://… --profile org (saved in profile "org")`)
}
