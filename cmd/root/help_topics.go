package root

import "github.com/spf13/cobra"

// helpTopics are pages of `testctl help TOPIC` that are not commands.
var helpTopics = []struct{ name, short, long string }{
	{"environment", "Environment variables that testctl reads", `Settings resolve, highest first: flag > environment > the active profile of
the config file > default.

TESTCTL_API_KEY          API key, sent as "Authorization: Bearer …" (--api-key).
                         Prefer this or 'testctl auth login' over the flag: flags
                         end up in shell history and process lists.
TESTCTL_BASE_URL         service base URL without /v1 (--base-url)
TESTCTL_LEGACY_BASE_URL  base URL of the deprecated legacy address (--legacy-base-url)
TESTCTL_PROJECT          project short id, proj_… (--project, -p); required with
                         organization-scoped keys
TESTCTL_PROFILE          profile of the config file to use (--profile)
TESTCTL_CONFIG           config file (--config-file); default
                         $XDG_CONFIG_HOME/testctl/config.yaml, else
                         ~/.config/testctl/config.yaml
TESTCTL_OUTPUT           output format: table, json or yaml (--output, -o)
TESTCTL_DEBUG=1          log every HTTP attempt to stderr, key redacted (--debug)
NO_COLOR                 any value turns colour off (--no-color)
XDG_CONFIG_HOME          base directory of the default config file
TESTCTL_EXIT_CODE_FILE   a file that gets the exit code when testctl ends, for
                         a CI step that execs testctl (the GitHub Action does)

With --codehost, 'run start' reads the commit's metadata from the variables of
GitHub Actions, GitLab CI, Bitbucket Pipelines, CircleCI, Azure Pipelines,
Jenkins and Buildkite, and falls back to the local git repository. In GitHub
Actions (GITHUB_ACTIONS=true), 'run wait' also writes GITHUB_STEP_SUMMARY and
GITHUB_OUTPUT.`},
	{"exit-codes", "Exit codes and what they mean", `0    success; a run ended COMPLETED with PASSED (SKIPPED too, with a
     warning, unless --fail-on-skipped)
1    a run ended COMPLETED with FAILED (or SKIPPED with --fail-on-skipped);
     a tunnel did not reach --wait-until
2    usage or invalid input: bad flags, client-side validation, or the
     service's 400; nothing was started
3    a run ended ERROR or CANCELLED
4    authentication or authorization failed (401, 403)
5    not found (404)
6    the service or the network failed: 5xx or 429 after retries, 402,
     connection errors, an unreadable response
7    --timeout passed while a run was still in progress (the run goes on;
     the message says how to resume)
8    a local failure: the config file could not be read or written
130  interrupted by Ctrl-C (the run goes on; the message says how to resume)

Waiting on several runs exits with the largest of their codes.`},
}

func addHelpTopics(root *cobra.Command) {
	for _, topic := range helpTopics {
		// Without a Run function cobra lists these under "Additional help
		// topics" and `testctl help TOPIC` prints the text.
		root.AddCommand(&cobra.Command{Use: topic.name, Short: topic.short, Long: topic.long})
	}
}
