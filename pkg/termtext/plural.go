package termtext

import "strconv"

// Plural counts n of what in English: "1 test case", "3 test cases".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
