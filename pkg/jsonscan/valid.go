package jsonscan

// Valid reports whether doc is one valid JSON value, exactly as
// encoding/json.Valid does (FuzzValid holds them to the same answers), in
// a single pass that is several times faster: `run list --all` checks every
// page it prints, and that check is on the path of every request.
func Valid(doc []byte) bool {
	// stack holds the open containers: '{' or '['. encoding/json refuses
	// documents nested deeper than 10,000.
	const maxDepth = 10000
	var stack []byte
	i := skipSpace(doc, 0)
	for {
		// A value starts at doc[i].
		if i >= len(doc) {
			return false
		}
		switch c := doc[i]; {
		case c == '{' || c == '[':
			if len(stack) == maxDepth {
				return false
			}
			stack = append(stack, c)
			i = skipSpace(doc, i+1)
			if i < len(doc) && doc[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i = validKey(doc, i); i < 0 {
					return false
				}
			}
			continue
		case c == '"':
			i = validString(doc, i)
		case c == '-' || (c >= '0' && c <= '9'):
			i = validNumber(doc, i)
		case c == 't':
			i = literal(doc, i, "true")
		case c == 'f':
			i = literal(doc, i, "false")
		case c == 'n':
			i = literal(doc, i, "null")
		default:
			return false
		}
		if i < 0 {
			return false
		}
		// After a value: a separator, the end of containers, or the end.
		for {
			i = skipSpace(doc, i)
			if len(stack) == 0 {
				return i == len(doc)
			}
			if i >= len(doc) {
				return false
			}
			top := stack[len(stack)-1]
			if doc[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if doc[i] != ',' {
				return false
			}
			i = skipSpace(doc, i+1)
			if top == '{' {
				if i = validKey(doc, i); i < 0 {
					return false
				}
			}
			break
		}
	}
}

// validKey checks a key and its colon at doc[i] and returns the index of
// the value after them, or -1.
func validKey(doc []byte, i int) int {
	if i >= len(doc) || doc[i] != '"' {
		return -1
	}
	if i = validString(doc, i); i < 0 {
		return -1
	}
	if i = skipSpace(doc, i); i >= len(doc) || doc[i] != ':' {
		return -1
	}
	return skipSpace(doc, i+1)
}

// validString checks the string whose quote is at doc[i] and returns the
// index past it, or -1. Like encoding/json it refuses control characters
// and unknown escapes, and lets bytes that are not UTF-8 through.
func validString(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(doc) {
				return -1
			}
			switch doc[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(doc) {
					return -1
				}
				for _, h := range doc[i+1 : i+5] {
					if !isHex(h) {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// validNumber checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at doc[i]
// and returns the index past it, or -1.
func validNumber(doc []byte, i int) int {
	digits := func(i int) (int, bool) {
		start := i
		for i < len(doc) && doc[i] >= '0' && doc[i] <= '9' {
			i++
		}
		return i, i > start
	}
	if doc[i] == '-' {
		i++
	}
	var ok bool
	switch {
	case i < len(doc) && doc[i] == '0':
		i++
	default:
		if i, ok = digits(i); !ok {
			return -1
		}
	}
	if i < len(doc) && doc[i] == '.' {
		if i, ok = digits(i + 1); !ok {
			return -1
		}
	}
	if i < len(doc) && (doc[i] == 'e' || doc[i] == 'E') {
		i++
		if i < len(doc) && (doc[i] == '+' || doc[i] == '-') {
			i++
		}
		if i, ok = digits(i); !ok {
			return -1
		}
	}
	return i
}

func literal(doc []byte, i int, word string) int {
	if len(doc)-i < len(word) || string(doc[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}
