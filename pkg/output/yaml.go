package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/testctl/testctl/pkg/termtext"
)

// writeYAMLFromJSON builds a yaml.Node tree from the tokens of the JSON
// document b, so that YAML shows the same field names as JSON (the
// service's) in the same order; a map would sort them.
func writeYAMLFromJSON(w io.Writer, b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	node, err := yamlNode(dec)
	if err != nil {
		return fmt.Errorf("converting to YAML: %w", err)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return fmt.Errorf("encoding YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encoding YAML: %w", err)
	}
	// Bidi overrides are written as \u escapes. yaml.v3 escapes C0 and C1
	// controls but counts these as printable, and a terminal would let them
	// reorder the text around them. Every scalar holding one is double
	// quoted (see scalar), where \uXXXX means the same character. yaml.v3
	// writes UTF-8 only, so escapeRunes finds no other byte to escape.
	_, err = w.Write(escapeRunes(buf.Bytes(), `\u%04X`, termtext.IsBidiControl))
	return err
}

// yamlNode reads one JSON value from dec. Scalars carry explicit tags so the
// encoder quotes strings that would otherwise read as numbers or booleans.
func yamlNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if t == '{' {
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
		}
		for dec.More() {
			if n.Kind == yaml.MappingNode {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, scalar("!!str", key.(string)))
			}
			child, err := yamlNode(dec)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, child)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return scalar("!!str", t), nil
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return scalar("!!int", t.String()), nil
		}
		return scalar("!!float", t.String()), nil
	case bool:
		return scalar("!!bool", strconv.FormatBool(t)), nil
	}
	return scalar("!!null", "null"), nil // json.Decoder has no other token
}

func scalar(tag, value string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
	if strings.ContainsFunc(value, termtext.IsBidiControl) {
		n.Style = yaml.DoubleQuotedStyle // so that writeYAMLFromJSON may escape them
	}
	return n
}
