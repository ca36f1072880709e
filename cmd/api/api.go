// Package api implements `testctl api`: a raw request to the service, for
// the operations it publishes without shapes, in the manner of `gh api`.
package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/userfile"
)

// methods are the HTTP methods -X takes, in the order completion offers them.
var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead}

// Options are the inputs of `api`.
type Options struct {
	Path      string
	Method    string // after defaulting: GET, or POST with fields or input
	Fields    []string
	RawFields []string
	InputFile string
	Include   bool

	// Built by parse, before anything is sent.
	Query url.Values
	Body  []byte // nil: no body
}

// NewCmdAPI builds `api PATH`.
func NewCmdAPI(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Make a raw request to the service",
		Long: `Send a request to the service and print the response body, for operations
testctl has no command for (applications and their environments, the badge, …).
The commands (run, testcase, logs, tunnel) check their input, retry safely and
never start a run twice: prefer them where they exist.

PATH starts with /v1/ (or v1/); a full URL must be on the configured base URL.
The API key is sent when one is configured, and not needed for the public
endpoints (/v1/outbound-ips, /v1/badge.svg).

  -f key=value     a field with true, false, null and numbers typed as JSON
  --raw-field k=v  a field that is always a string
  --input FILE     a raw JSON body (at most 16 MiB) from FILE, or standard
                   input with -

Fields go in the query string of GET, HEAD and DELETE requests, and make up
a JSON object body otherwise (in the query string too when --input gives the
body). The method is GET, or POST when fields or --input are given; -X
overrides it.

The body is printed as received; JSON is indented on a terminal. --jq filters
JSON. An answer other than 2xx prints its body on stderr and exits with the
contract's code (2 for 400, 4 for 401/403, 5 for 404, 6 for 5xx).`,
		Example: `  testctl api /v1/applications
  testctl api /v1/applications/app_x1y2/environments --jq '.environments[].shortId'

  # Query parameters on a GET
  testctl api -X GET /v1/run -f limit=5 -f status=COMPLETED

  # Fields as a JSON body: the request ` + "`testctl run rerun r7k2p9 --failed-only`" + ` sends
  testctl api /v1/run/r7k2p9 -f failedOnly=true

  # A body from a file or standard input
  echo '{"failedOnly": true}' | testctl api /v1/run/r7k2p9 --input -

  # Public endpoints need no key
  testctl api /v1/outbound-ips`,
		Args: cmdutil.ExactArgs(1, "a path", "testctl api /v1/applications"),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			return opts.parse(cmd, f.IOStreams.In)
		},
		RunE: cmdutil.RunE(f, opts, runF, apiRun),
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Method, "method", "X", "", "HTTP method (default GET, or POST with fields or --input)")
	fl.StringArrayVarP(&opts.Fields, "field", "f", nil, "a `key=value` field, with true/false/null/numbers typed (repeatable)")
	fl.StringArrayVar(&opts.RawFields, "raw-field", nil, "a `key=value` field sent as a string (repeatable)")
	fl.StringVar(&opts.InputFile, "input", "", "read the JSON body from `FILE` (- for standard input)")
	fl.BoolVarP(&opts.Include, "include", "i", false, "print the response status and headers on stderr")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions(methods, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// parse checks the flags and builds the query and body, reading --input -
// from stdin.
func (o *Options) parse(cmd *cobra.Command, stdin io.Reader) error {
	if o.InputFile != "" {
		body, err := readInput(cmd.Context(), stdin, o.InputFile)
		if err != nil {
			return err
		}
		o.Body = body
	}
	var fields []field
	for i, kv := range slices.Concat(o.Fields, o.RawFields) {
		flag, typed := "-f/--field", true
		if i >= len(o.Fields) {
			flag, typed = "--raw-field", false
		}
		fd, err := parseField(flag, kv, typed)
		if err != nil {
			return err
		}
		fields = append(fields, fd)
	}
	o.Method = strings.ToUpper(strings.TrimSpace(o.Method))
	switch {
	case !cmd.Flags().Changed("method") && (len(fields) > 0 || o.Body != nil):
		o.Method = http.MethodPost
	case !cmd.Flags().Changed("method"):
		o.Method = http.MethodGet
	}
	if !slices.Contains(methods, o.Method) {
		return exitcode.FlagErrorf("-X %q: use GET, POST, PUT, PATCH, DELETE or HEAD", o.Method)
	}
	inQuery := o.Method == http.MethodGet || o.Method == http.MethodHead || o.Method == http.MethodDelete
	if inQuery && o.Body != nil {
		return exitcode.FlagErrorf("--input sends a body, which a %s request does not take; use -X POST, PUT or PATCH", o.Method)
	}
	o.Query = url.Values{}
	if inQuery || o.Body != nil {
		for _, fd := range fields {
			o.Query.Add(fd.key, queryValue(fd.value))
		}
		return nil
	}
	if len(fields) > 0 {
		obj := map[string]any{}
		for _, fd := range fields {
			obj[fd.key] = fd.value // a repeated key: the last one wins
		}
		body, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		o.Body = body
	}
	return nil
}

// maxInputBytes bounds --input: far more than any body the service takes,
// and a mistyped path to a build artifact fails fast instead of filling
// memory. A larger input is refused whole, never cut: a cut JSON document
// can still be a valid one, with a different meaning.
const maxInputBytes = 16 << 20

// readInput reads --input and makes sure it is one JSON document: the
// service decodes bodies strictly, and a 400 after the fact says less.
func readInput(ctx context.Context, stdin io.Reader, name string) ([]byte, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = userfile.ReadStream(ctx, stdin, maxInputBytes)
	} else {
		data, err = userfile.Read(ctx, name, userfile.Rule{Max: maxInputBytes})
	}
	if _, ok := errors.AsType[*userfile.TooLargeError](err); ok {
		return nil, exitcode.FlagErrorf("--input %s is larger than %d MiB, the most testctl sends; nothing was sent", name, maxInputBytes>>20)
	}
	if err != nil && ctx.Err() != nil {
		return nil, err // the signal's code, not a usage error
	}
	if err != nil {
		return nil, exitcode.FlagErrorf("--input: %v", err)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, exitcode.FlagErrorf("--input %s is empty; give a JSON body", name)
	}
	if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
		return nil, exitcode.FlagErrorf("--input %s is not valid JSON: %v", name, err)
	}
	return data, nil
}
