package api

// The two list answers give each item its own bytes as well as the page's,
// so that `--all -o json` can stream the service's items page after page.
// The page is decoded as usual; the items' bytes are then found by a plain
// scan of the (already validated) document, which costs a fraction of
// decoding the items a second time.

// SetRawJSON keeps the page's document and each run's.
func (l *RunList) SetRawJSON(b []byte) {
	l.Raw.SetRawJSON(b)
	if items := arrayMember(l.Raw.RawJSON(), "runs"); len(items) == len(l.Runs) {
		for i := range l.Runs {
			l.Runs[i].SetRawJSON(items[i])
		}
	}
}

// SetRawJSON keeps the page's document and each test case's.
func (l *TestCaseList) SetRawJSON(b []byte) {
	l.Raw.SetRawJSON(b)
	if items := arrayMember(l.Raw.RawJSON(), "testCases"); len(items) == len(l.TestCases) {
		for i := range l.TestCases {
			l.TestCases[i].SetRawJSON(items[i])
		}
	}
}

// arrayMember returns the elements of the array that is member key of the
// top-level object doc (the last one, as encoding/json decodes a repeated
// key), or nil. doc must be valid JSON. A key written with escapes is not
// recognised: its items then have no bytes of their own and are printed by
// encoding them (see Raw).
func arrayMember(doc []byte, key string) [][]byte {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return nil
	}
	var found [][]byte
	for i = skipSpace(doc, i+1); i < len(doc) && doc[i] == '"'; {
		end := skipString(doc, i)
		name := doc[i+1 : end-1]
		i = skipSpace(doc, skipSpace(doc, end)+1) // past the colon
		if i < len(doc) && doc[i] == '[' && string(name) == key {
			found, i = arrayElements(doc, i)
		} else {
			i = skipValue(doc, i)
		}
		if i = skipSpace(doc, i); i < len(doc) && doc[i] == ',' {
			i = skipSpace(doc, i+1)
		}
	}
	return found
}

// arrayElements splits the array at doc[i] into its elements and returns
// the index past it.
func arrayElements(doc []byte, i int) ([][]byte, int) {
	out := [][]byte{}
	for i = skipSpace(doc, i+1); i < len(doc) && doc[i] != ']'; {
		start := i
		i = skipValue(doc, i)
		out = append(out, doc[start:i])
		if i = skipSpace(doc, i); i < len(doc) && doc[i] == ',' {
			i = skipSpace(doc, i+1)
		}
	}
	return out, i + 1
}

// skipValue returns the index past the value at doc[i].
func skipValue(doc []byte, i int) int {
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for ; i < len(doc); i++ {
			switch doc[i] {
			case '"':
				i = skipString(doc, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(doc) && doc[i] != ',' && doc[i] != '}' && doc[i] != ']' && !isSpace(doc[i]) {
		i++ // a number, true, false or null
	}
	return i
}

// skipString returns the index past the string whose opening quote is at
// doc[i].
func skipString(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && isSpace(doc[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
