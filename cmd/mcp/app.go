package mcp

import (
	"context"
	_ "embed"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP App of run_report (the MCP Apps extension, 2026-01-26): a host
// that supports it shows run_report's structured result inline, rendered as
// the HTML report renders runs (the verdict, each run's tally, its test
// cases and the story of those that did not pass). The page is
// self-contained: no network, service text only ever set as text.
const (
	reportAppURI  = "ui://testctl/run-report.html"
	reportAppMIME = "text/html;profile=mcp-app"
)

//go:embed app/run-report.html
var reportApp string

// reportAppMeta is the _meta of run_report that names its app, in the
// current form and the one older hosts read.
func reportAppMeta() mcp.Meta {
	return mcp.Meta{"ui": map[string]any{"resourceUri": reportAppURI}, "ui/resourceUri": reportAppURI}
}

// addApp registers the app's page as a resource.
func (s *server) addApp(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{URI: reportAppURI, Name: "run-report-app", Title: "testctl run report", MIMEType: reportAppMIME,
		Description: "The MCP App that shows run_report's result inline: the verdict, each run's test cases and their stories."},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: reportAppURI, MIMEType: reportAppMIME, Text: reportApp}},
				Cacheable: mcp.Cacheable{CacheScope: "public", TTLMs: int(finishedTTL.Milliseconds())}}, nil
		})
}
