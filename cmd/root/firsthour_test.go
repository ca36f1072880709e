package root_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// `testctl help exit-codes` lists every code the program exits with, each
// with the whole of its meaning (8 is any local file or the sandbox's port,
// not only the config file).
func TestHelpExitCodesListsEveryCode(t *testing.T) {
	r := cmdtest.New(t).Run("help", "exit-codes").Expect(t, 0)
	text := strings.Join(strings.Fields(r.Stdout), " ")
	for _, c := range cmdutil.ExitCodes {
		meaning := strings.ReplaceAll(c.Meaning, "`", "")
		if !strings.Contains(text, fmt.Sprintf("%d %s", c.Code, meaning)) {
			t.Errorf("help exit-codes lacks %d %q:\n%s", c.Code, meaning, r.Stdout)
		}
	}
	cmdtest.Contains(t, "help exit-codes", r.Stdout, "143", "the sandbox could not listen")
}
