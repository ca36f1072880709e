package logs

import (
	"fmt"
	"io"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
)

// BenchmarkNetworkTable10k renders 10,000 network log entries, the most a
// person would page through. Off a terminal (plain) the rows are written by
// output.Table itself; on a terminal (tty) they go through tablewriter,
// which the CLI contract requires and which costs most of the time: see
// docs/benchmarks.md.
func BenchmarkNetworkTable10k(b *testing.B) {
	entries := make([]api.NetworkEntry, 10_000)
	for i := range entries {
		ms, code := int32(20+i%900), int32(200)
		e := api.NetworkEntry{Method: "GET", StatusCode: code, DurationMs: &ms,
			URL: fmt.Sprintf("https://staging.example.com/api/v2/catalogue/items/%d?expand=prices,stock", i)}
		if i%25 == 0 {
			e.StatusCode, e.IsError, e.ErrorText = 503, true, "upstream connect error"
		}
		entries[i] = e
	}
	for _, tty := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "tty"}[tty], func(b *testing.B) {
			ios, _, _, _ := iostreams.Test()
			ios.Out = io.Discard
			ios.SetStdoutTTY(tty)
			ios.SetTerminalWidth(120)
			b.ReportAllocs()
			for b.Loop() {
				if err := networkTable(ios, ios.Styles(), entries).Render(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
