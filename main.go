// Command testctl is the command-line client of the test run orchestration service.
package main

import (
	"os"

	"github.com/testctl/testctl/cmd/root"
)

func main() {
	os.Exit(root.Main())
}
