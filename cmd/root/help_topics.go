package root

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// helpTopics are pages of `testctl help TOPIC` that are not commands.
var helpTopics = []struct{ name, short, long string }{
	{"environment", "Environment variables that testctl reads", `Settings resolve, highest first: flag > environment > the active profile of
the config file > default. The API key comes last from the OS keyring, where
'testctl auth login' keeps it; with TESTCTL_API_KEY or --api-key set, the
keyring is never asked.

TESTCTL_API_KEY          API key, sent as "Authorization: Bearer …" (--api-key).
                         Prefer this or 'testctl auth login' over the flag: flags
                         end up in shell history and process lists.
TESTCTL_BASE_URL         service base URL without /v1 (--base-url)
TESTCTL_LEGACY_BASE_URL  base URL of the deprecated legacy address (--legacy-base-url)
TESTCTL_PROJECT          project short id, proj_<id> or proj-<slug>_<id>
                         (--project, -p); required with organization-scoped
                         keys
TESTCTL_PROFILE          profile of the config file to use (--profile)
TESTCTL_CONFIG           config file (--config-file); default
                         $XDG_CONFIG_HOME/testctl/config.yaml, else
                         ~/.config/testctl/config.yaml
TESTCTL_OUTPUT           output format: table, json or yaml (--output, -o)
TESTCTL_DEBUG=1          log every HTTP attempt to stderr, key redacted (--debug)
NO_COLOR                 any value turns colour off (--no-color)
XDG_CONFIG_HOME          base directory of the default config file
DBUS_SESSION_BUS_ADDRESS on Linux, the D-Bus session where the keyring (the
                         Secret Service) answers; unset, the keyring is not
                         used and 'auth login' stores the key in the config file
TESTCTL_EXIT_CODE_FILE   a file that gets the exit code when testctl ends, for
                         a CI step that execs testctl
TESTCTL_VERDICT_FILE     a file that gets what the exit code means in a word
                         (passed, failed, timeout, …; started without a wait)

With --codehost, 'run start' reads the commit's metadata from the variables of
GitHub Actions, GitLab CI, Bitbucket Pipelines, CircleCI, Azure Pipelines,
Jenkins and Buildkite, and falls back to the local git repository. In GitHub
Actions (GITHUB_ACTIONS=true), 'run wait' also writes GITHUB_STEP_SUMMARY and
GITHUB_OUTPUT (with exit-code and verdict, as run start, report and rerun do).

With --comment, the pull request comment is written with GITHUB_TOKEN (to
GITHUB_API_URL, for the pull request of GITHUB_EVENT_PATH) under GitHub
Actions, and with TESTCTL_GITLAB_TOKEN (to CI_API_V4_URL, for
CI_MERGE_REQUEST_IID) under GitLab CI. TESTCTL_COMMENT_KEY tells apart the
comments of a matrix's legs, which share a job; TESTCTL_COMMENT_TIMEOUT
bounds the writing of the comment (10s).`},
	// The table is the one README.md and docs/ are generated from.
	{"exit-codes", "Exit codes and what they mean", cmdutil.ExitCodesText(76)},
}

func addHelpTopics(root *cobra.Command) {
	for _, topic := range helpTopics {
		// Without a Run function cobra lists these under "Additional help
		// topics" and `testctl help TOPIC` prints the text.
		root.AddCommand(&cobra.Command{Use: topic.name, Short: topic.short, Long: topic.long})
	}
}
