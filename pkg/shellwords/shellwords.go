// Package shellwords goes between a line and its words as a POSIX shell
// reads them, both ways: Quote and Word make the words of the command lines
// testctl prints for the user to paste (WaitCommand, the way to resume), and
// Split reads a line into words as a shell splits a simple command: blanks
// separate words;
// single quotes keep everything up to the next single quote; double quotes
// keep everything but a backslash before $, `, ", \ or a newline; a
// backslash outside quotes keeps the next character (a backslash-newline
// joins lines). Nothing is expanded or run: $VAR, $(…), `…`, globs, ~ and
// the operators ; | & < > ( ) are characters of a word like any other, and
// # starts no comment. It is what a CI input of "more arguments" needs,
// where the text comes from a workflow file and must never become a
// command; the shell-splitting modules of the Go ecosystem either expand
// variables and backquotes on request or stop at an operator, so this one
// is written out (some 80 lines).
package shellwords

import (
	"fmt"
	"strings"
)

// Error is a line that no shell would split: a quote never closed.
type Error struct {
	Quote  rune // '\'' or '"'
	Offset int  // of the opening quote, in bytes from the line's start
}

func (e *Error) Error() string {
	name := "single"
	if e.Quote == '"' {
		name = "double"
	}
	return fmt.Sprintf("the %s quote at character %d is never closed: close it, or escape it with a backslash", name, e.Offset+1)
}

// Split returns the words of line. A line of blanks has none; an empty
// pair of quotes, single or double, is an empty word.
func Split(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false // a word has begun, maybe empty ("")
	end := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			end()
		case c == '\\':
			switch {
			case i+1 == len(line):
				w.WriteByte(c) // a shell keeps a backslash that ends its input
				inWord = true
			case line[i+1] == '\n':
				i++ // a line continued: nothing
			default:
				i++
				w.WriteByte(line[i])
				inWord = true
			}
		case c == '\'':
			closing := strings.IndexByte(line[i+1:], '\'')
			if closing < 0 {
				return nil, &Error{Quote: '\'', Offset: i}
			}
			w.WriteString(line[i+1 : i+1+closing])
			i += 1 + closing
			inWord = true
		case c == '"':
			n, err := doubleQuoted(&w, line, i)
			if err != nil {
				return nil, err
			}
			i = n
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, nil
}

// doubleQuoted writes the text of the double-quoted string that opens at
// line[open] and returns the index of its closing quote.
func doubleQuoted(w *strings.Builder, line string, open int) (int, error) {
	for i := open + 1; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"':
			return i, nil
		case c == '\\' && i+1 < len(line) && strings.IndexByte("$`\"\\\n", line[i+1]) >= 0:
			i++
			if line[i] != '\n' {
				w.WriteByte(line[i])
			}
		default:
			w.WriteByte(c)
		}
	}
	return 0, &Error{Quote: '"', Offset: open}
}
