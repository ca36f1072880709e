package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/jsonscan"
)

// ListWriter writes a list that arrives page by page (`--all`) as one
// document, without holding the list in memory where the format allows:
//
//   - JSON streams the service's own envelope, {"<key>": [item, …],
//     <meta…>}, item by item, indented exactly as Print would indent it.
//     Each item is its RawJSON when it has one (see RawDocument): the
//     service's bytes, unknown fields and key order kept.
//     If the listing fails half-way the document is left unterminated, so a
//     consumer fails loudly instead of taking a partial list as complete.
//   - Table, off a terminal, writes each page as it comes, the header once.
//     On a terminal it keeps the rows and renders one table at Close:
//     tablewriter needs every row to size the columns, and a person wants
//     them aligned across pages. A failed listing prints no table there.
//     Flat memory is a promise of the outputs scripts consume (JSON and
//     plain text), which stream; a table on a screen is as long as a person
//     will read.
//   - YAML and jq need the whole document (YAML to place the metadata, jq
//     because a filter may look at any part of it), so those write the same
//     JSON document into a buffer and convert or filter it at Close.
//
// Usage: lw := NewListWriter(ios, opts, "runs", headers, rowFn); call
// lw.Add(page.Runs...) per page; then lw.Close(map[string]any{"total": …}).
type ListWriter[T any] struct {
	opts  Options
	key   string
	row   func(*Table, T)
	table *Table
	out   *bufio.Writer // the JSON document: to stdout, or for YAML and jq to doc
	doc   *bytes.Buffer // YAML and jq only
	std   io.Writer     // stdout
	count int
	buf   bytes.Buffer // the metadata being written
	ibuf  []byte       // the item being written
	begun bool         // the opening of the document is written
	done  bool
	err   error
}

// NewListWriter prepares a list document for ios.Out. key names the array
// ("runs", "testCases"); headers and row are used only for the table
// format, where row adds one item's fields to t.
func NewListWriter[T any](ios *iostreams.IOStreams, o Options, key string, headers []string, row func(t *Table, item T)) *ListWriter[T] {
	l := &ListWriter[T]{opts: o, key: key, row: row, std: ios.Out}
	w := ios.Out
	switch {
	case !o.IsStructured():
		l.table = NewTable(ios, headers...)
	case o.format() != FormatJSON || o.JQ != "":
		l.doc = new(bytes.Buffer)
		w = l.doc
	}
	l.out = bufio.NewWriterSize(w, 64<<10)
	return l
}

// Table is the table the list is written as; nil for the structured
// formats.
func (l *ListWriter[T]) Table() *Table { return l.table }

// Count is the number of items added so far.
func (l *ListWriter[T]) Count() int { return l.count }

// Add writes (or, for YAML, jq and a table on a terminal, keeps) one page
// of items.
func (l *ListWriter[T]) Add(items ...T) error {
	if l.err != nil {
		return l.err
	}
	if l.done {
		return fmt.Errorf("output: Add after Close")
	}
	l.err = l.add(items)
	return l.err
}

func (l *ListWriter[T]) add(items []T) error {
	if l.table != nil {
		for _, it := range items {
			l.row(l.table, it)
			l.table.EndRow()
		}
		l.count += len(items)
		if l.table.tty {
			return nil // rendered at Close
		}
		return l.table.Render()
	}
	for i := range items {
		doc, err := document(&items[i]) // a pointer: boxing the item would copy it
		if err != nil {
			return err
		}
		// The item is valid JSON (an answer the client checked, or
		// encoded here), so it is laid out without json.Indent's
		// second validation: streaming is most of --all's work.
		l.ibuf = jsonscan.AppendIndent(l.ibuf[:0], doc, "    ", "  ")
		b := escapeUnsafeJSON(l.ibuf)
		l.beginJSON()
		if l.count > 0 {
			l.out.WriteByte(',')
		}
		l.out.WriteString("\n    ")
		l.out.Write(b)
		l.count++
	}
	return l.out.Flush()
}

func (l *ListWriter[T]) beginJSON() {
	if l.begun {
		return
	}
	key, _ := json.Marshal(l.key)
	l.out.WriteString("{\n  ")
	l.out.Write(key)
	l.out.WriteString(": [")
	l.begun = true
}

// Close finishes the document. meta ("total", "limit", "offset") follows the
// array with its keys sorted; an entry named like the array is ignored. In
// the table format meta is not printed.
func (l *ListWriter[T]) Close(meta map[string]any) error {
	if l.err != nil || l.done {
		return l.err
	}
	l.done = true
	l.err = l.close(meta)
	return l.err
}

func (l *ListWriter[T]) close(meta map[string]any) error {
	if l.table != nil {
		return l.table.Render() // on a terminal, the rows kept; off it, each page is written already
	}
	keys := slices.DeleteFunc(slices.Sorted(maps.Keys(meta)), func(k string) bool { return k == l.key })
	l.beginJSON()
	if l.count > 0 {
		l.out.WriteString("\n  ")
	}
	l.out.WriteByte(']')
	for _, k := range keys {
		kb, _ := json.Marshal(k)
		vb, err := marshalJSON(meta[k])
		if err == nil {
			vb, err = indentJSON(&l.buf, vb, "  ", "  ")
		}
		if err != nil {
			return err
		}
		l.out.WriteString(",\n  ")
		l.out.Write(kb)
		l.out.WriteString(": ")
		l.out.Write(vb)
	}
	l.out.WriteString("\n}\n")
	err := l.out.Flush()
	switch {
	case err != nil:
	case l.opts.JQ != "":
		err = runJQ(l.std, l.opts, l.doc.Bytes())
	case l.doc != nil:
		err = writeYAMLFromJSON(l.std, l.doc.Bytes())
	}
	return err
}
