package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	apiclient "github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

func apiRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	out, err := f.Output()
	if err != nil {
		return err
	}
	// The public client sends the key when there is one and needs none for
	// the public endpoints; an operation that wants one answers 401 (exit 4).
	client, err := f.PublicAPIClient()
	if err != nil {
		return err
	}
	if client.APIKey == "" { // then the key `auth login` kept in the OS keyring, if any
		cfg, err := f.Config()
		if err != nil {
			return err
		}
		if client.APIKey, _, err = cfg.APIKey(); err != nil {
			return err
		}
	}
	path, query, err := normalizePath(opts.Path, client.BaseURL)
	if err != nil {
		return err
	}
	for k, vs := range opts.Query {
		query[k] = append(query[k], vs...)
	}
	resp, err := client.Raw(ctx, opts.Method, path, query, opts.Body)
	ios := f.IOStreams
	if resp != nil && opts.Include {
		printHeaders(ios, resp)
	}
	if he, ok := errors.AsType[*apiclient.HTTPError](err); ok && resp != nil {
		return failure(ios, he, resp.Body)
	}
	if err != nil {
		return err
	}
	return printBody(ios, out, resp.Body)
}

// failure shows the service's answer on stderr, where a script's error
// output collects it, and ends with the contract's code for the status.
func failure(ios *iostreams.IOStreams, he *apiclient.HTTPError, body []byte) error {
	if len(body) > 0 {
		text := termtext.Sanitize(string(body))
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		fmt.Fprint(ios.ErrOut, text)
	}
	msg := fmt.Sprintf("%s %s: HTTP %d %s", he.Method, he.Path, he.StatusCode, http.StatusText(he.StatusCode))
	if he.Hint != "" {
		msg += "\n" + he.Hint
	}
	return &exitcode.Error{Code: he.ExitCode(), Err: errors.New(strings.TrimSpace(msg))}
}

// printBody writes a successful answer. JSON is re-indented (and unsafe
// characters escaped) on a terminal, with -o json or yaml, and filtered
// with --jq; otherwise the bytes are passed through as received, so a
// script can save an SVG badge or pipe JSON on unchanged. Non-JSON text on
// a terminal is sanitised: it could hold escape sequences.
func printBody(ios *iostreams.IOStreams, out output.Options, body []byte) error {
	isJSON := len(bytes.TrimSpace(body)) > 0 && json.Valid(body)
	structured := out.JQ != "" || out.Format == output.FormatJSON || out.Format == output.FormatYAML
	if structured || (isJSON && ios.IsStdoutTTY()) {
		if !isJSON {
			if len(body) == 0 && out.JQ == "" {
				return nil
			}
			return errors.New("the response is not JSON, so it cannot be shown with --jq or -o json/yaml")
		}
		if !structured {
			out = output.Options{Format: output.FormatJSON}
		}
		// As a RawMessage the document keeps the service's key order and
		// every digit of its numbers.
		return output.Print(ios.Out, out, json.RawMessage(body))
	}
	if ios.IsStdoutTTY() {
		text := termtext.Sanitize(string(body))
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		_, err := fmt.Fprint(ios.Out, text)
		return err
	}
	_, err := ios.Out.Write(body)
	return err
}

// printHeaders is --include: the status line and headers, sorted, on
// stderr so that stdout stays the body.
func printHeaders(ios *iostreams.IOStreams, resp *apiclient.Response) {
	st := ios.ErrStyles()
	fmt.Fprintf(ios.ErrOut, "%s\n", st.Bold(fmt.Sprintf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))))
	for _, n := range slices.Sorted(maps.Keys(resp.Header)) {
		for _, v := range resp.Header[n] {
			fmt.Fprintf(ios.ErrOut, "%s: %s\n", st.Muted(termtext.SanitizeLine(n)), termtext.SanitizeLine(v))
		}
	}
	fmt.Fprintln(ios.ErrOut)
}
