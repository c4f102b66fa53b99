// Package wordmark finds marks that open a word: "error" in "error:" and
// "an error", not in "terror". The refiner picks a failed command's error
// line by such marks, and recall tells a quoted error from a phrase by
// them.
package wordmark

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Opens reports whether one of marks, lower case, occurs in text at the
// start of a word, case aside.
func Opens(text string, marks []string) bool {
	lower := strings.ToLower(text)
	for _, m := range marks {
		for at := 0; ; {
			i := strings.Index(lower[at:], m)
			if i < 0 {
				break
			}
			if i += at; i == 0 || !wordBefore(lower[:i]) {
				return true
			}
			at = i + 1
		}
	}
	return false
}

// wordBefore reports whether text ends in a character of a word: a
// letter, a digit or an underscore ("“error" opens a word; "überfail"
// does not).
func wordBefore(text string) bool {
	r, _ := utf8.DecodeLastRuneInString(text)
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
