package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// manGlyphs are the characters of the help text that troff has names for
// on every device, the ASCII terminal's too; any other non-ASCII character
// becomes \[uXXXX], which an ASCII terminal cannot show (TestManPagesRender
// says which).
var manGlyphs = map[rune]string{
	'—': `\(em`, '–': `\(en`, '…': `.\|.\|.`, '·': `\(pc`, '→': `\(->`, '←': `\(<-`, '×': `\(mu`,
	'‘': `\(oq`, '’': `\(cq`, '“': `\(lq`, '”': `\(rq`,
}

// longWord is the length from which a word of running text gets places to
// break: troff breaks lines only at spaces, and a word longer than the
// line (a flag's syntax, app_ID[,env=env_ID][,url=URL]…) warns "cannot
// adjust line" and runs past the margin. Shorter words fit the text's
// width in a terminal of 60 columns.
const longWord = 40

// fixManPages rewrites the pages cobra's generator wrote in dir so that
// troff renders them without a warning: every character ASCII or named
// for troff, long words breakable (\: before each "[" and after each ",":
// a break without a hyphen), and the text set ragged right (.ad l), since
// a line made of one long word has no space to stretch to the margin.
func fixManPages(dir string) error {
	pages, err := filepath.Glob(filepath.Join(dir, "*.1"))
	if err != nil {
		return err
	}
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			return err
		}
		if err := os.WriteFile(page, []byte(fixManPage(string(data))), 0o644); err != nil {
			return fmt.Errorf("%s: %w", page, err)
		}
	}
	return nil
}

func fixManPage(page string) string {
	lines := strings.Split(page, "\n")
	fill := true // an example (.EX to .EE, .nf to .fi) is never filled, so never broken
	for i, line := range lines {
		switch {
		case line == ".EX" || line == ".nf":
			fill = false
		case line == ".EE" || line == ".fi":
			fill = true
		case strings.HasPrefix(line, ".TH "):
			line += "\n.ad l"
		case fill && !strings.HasPrefix(line, ".") && !strings.HasPrefix(line, "'"):
			line = breakLongWords(line)
		}
		lines[i] = troffChars(line)
	}
	return strings.Join(lines, "\n")
}

func troffChars(line string) string {
	var b strings.Builder
	for _, r := range line {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case manGlyphs[r] != "":
			b.WriteString(manGlyphs[r])
		default:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		}
	}
	return b.String()
}

// breakLongWords puts break points into the long words of a line of text,
// leaving its spaces (and so a tab or an indent) as they are.
func breakLongWords(line string) string {
	words := strings.Split(line, " ")
	for i, w := range words {
		if len(w) < longWord {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(w); j++ {
			c := w[j]
			if c == '[' && j > 0 && w[j-1] != '\\' {
				b.WriteString(`\:`)
			}
			b.WriteByte(c)
			if c == ',' && j+1 < len(w) {
				b.WriteString(`\:`)
			}
		}
		words[i] = b.String()
	}
	return strings.Join(words, " ")
}
