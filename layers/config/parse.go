package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// config.yaml is read by the parser below, not by a YAML library. The file
// is tiny (ten settings, two levels) and every hook reads it, while a
// general YAML package is initialised by every process that links it:
// go.yaml.in/yaml/v3 costs each memkeep process ~0.12 ms before main runs
// (GODEBUG=inittrace=1, median of 20), whether or not a config.yaml
// exists: 4% of PostToolUse's 3 ms budget.
//
// The parser reads the YAML that a settings file like this is written in:
// block mappings nested by indentation, plain scalars, 'single' and
// "double" quoted strings, comments, blank lines, a leading "---" and a
// byte-order mark; numbers are decimal, without leading zeros. Anything
// else (flow collections {…} and […], sequences, anchors and aliases,
// tags, block scalars, values continued on the next line, quoted keys, a
// second document) is an error that names the line and says what to write
// instead: never a silent misreading. A file it accepts, it reads exactly
// as go.yaml.in/yaml/v3 does (the tests hold it to that on generated files
// and by fuzzing): a null value (~, null or nothing) leaves the default,
// and a repeated key is an error.

// setting is one key of config.yaml and where its value goes.
type setting struct {
	key string
	set func(c *Config, v scalar) error
}

// section is a group of settings; the top level is the section "".
type section struct {
	name     string
	settings []setting
}

// sections lists every setting. It is a list of constants, laid out as
// static data: a map would be built by every process at start-up.
var sections = []section{
	{"", []setting{
		{"commit", func(c *Config, v scalar) error { return v.str(&c.Commit) }},
		{"evaluator", func(c *Config, v scalar) error { return v.str(&c.Evaluator) }},
		{"scan", func(c *Config, v scalar) error { return v.str(&c.Scan) }},
	}},
	{"stop", []setting{
		{"enforce", func(c *Config, v scalar) error { return v.str(&c.Stop.Enforce) }},
		{"block_budget", func(c *Config, v scalar) error { return v.int(&c.Stop.BlockBudget) }},
		{"min_edits", func(c *Config, v scalar) error { return v.int(&c.Stop.MinEdits) }},
		{"min_tool_uses", func(c *Config, v scalar) error { return v.int(&c.Stop.MinToolUses) }},
	}},
	{"context", []setting{
		{"budget", func(c *Config, v scalar) error { return v.int(&c.Context.Budget) }},
		{"hot_hours", func(c *Config, v scalar) error { return v.int(&c.Context.HotHours) }},
	}},
	{"recall", []setting{
		{"threshold", func(c *Config, v scalar) error { return v.float(&c.Recall.Threshold) }},
		{"max", func(c *Config, v scalar) error { return v.int(&c.Recall.Max) }},
		{"budget", func(c *Config, v scalar) error { return v.int(&c.Recall.Budget) }},
	}},
}

// sectionNamed finds a section (the top level: ""), or nil.
func sectionNamed(name string) *section {
	for i := range sections {
		if sections[i].name == name {
			return &sections[i]
		}
	}
	return nil
}

// sectionList names the sections, as they open: "stop:, context:, recall:".
func sectionList() string {
	var names []string
	for _, s := range sections[1:] {
		names = append(names, s.name+":")
	}
	return strings.Join(names, ", ")
}

// known names the settings a section (the top level: "") takes.
func known(open string) string {
	var names []string
	if s := sectionNamed(open); s != nil {
		for _, st := range s.settings {
			names = append(names, st.key)
		}
	}
	if open == "" {
		return "the top level takes " + strings.Join(append(names, sectionList()), ", ")
	}
	return open + " takes " + strings.Join(names, ", ")
}

// isSection reports whether a top-level key opens a section.
func isSection(key string) bool { return key != "" && sectionNamed(key) != nil }

// lookup finds a setting of a section.
func lookup(sectionName, key string) (setting, bool) {
	if s := sectionNamed(sectionName); s != nil {
		for _, st := range s.settings {
			if st.key == key {
				return st, true
			}
		}
	}
	return setting{}, false
}

// scalar is a value as written: its text and whether it was quoted.
type scalar struct {
	text   string
	quoted bool
}

// null reports a YAML null, which leaves a setting as it was.
func (v scalar) null() bool {
	if v.quoted {
		return false
	}
	switch v.text {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

func (v scalar) str(dst *string) error {
	if !v.null() {
		*dst = v.text
	}
	return nil
}

func (v scalar) int(dst *int) error {
	if v.null() {
		return nil
	}
	n, err := strconv.Atoi(v.text) // an optionally signed run of decimal digits
	if v.quoted || err != nil {
		return fmt.Errorf("%q is not a whole number (write it in decimal digits, unquoted)", v.text)
	}
	if leadingZero(v.text) {
		return fmt.Errorf("%q: write the number without leading zeros", v.text)
	}
	*dst = n
	return nil
}

func (v scalar) float(dst *float64) error {
	if v.null() {
		return nil
	}
	f, err := strconv.ParseFloat(v.text, 64)
	if v.quoted || err != nil || !isDecimal(v.text) {
		return fmt.Errorf("%q is not a number (write it like 0.35, unquoted)", v.text)
	}
	if leadingZero(v.text) {
		return fmt.Errorf("%q: write the number without leading zeros", v.text)
	}
	*dst = f
	return nil
}

// leadingZero reports a number whose digits start with a 0 that another
// digit follows. YAML reads those in ways of its own (010 is octal 8 to
// yaml.v3, 0009007199270000001 a float that rounds), so they are refused
// rather than read two ways.
func leadingZero(s string) bool {
	d := strings.TrimLeft(s, "+-")
	return len(d) > 1 && d[0] == '0' && '0' <= d[1] && d[1] <= '9'
}

// isDecimal reports a number written as an optional sign, digits with an
// optional fraction, and an optional exponent: what YAML and strconv read
// alike (strconv also takes inf, nan, hex and underscores; YAML reads
// those otherwise or not at all).
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		from := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - from
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// lineError is a problem at a line of the file.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// parse reads config.yaml's bytes into c.
func parse(b []byte, c *Config) error {
	if !utf8.Valid(b) {
		return errors.New("the file is not UTF-8 text")
	}
	if line, r, ok := unprintable(b); ok {
		return &lineError{line, fmt.Sprintf("the character %U cannot appear in YAML; remove it", r)}
	}
	var (
		lines   = strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n")
		open    string // the open section, "" at the top level
		indent  = -1   // the indentation of the open section's settings, -1 before its first
		seen    = map[string]bool{}
		content bool // a setting was read
		started bool // the document began with ---
		errs    []error
	)
	for i := 0; i < len(lines); i++ {
		fail := func(format string, a ...any) error {
			return errors.Join(append(errs, &lineError{i + 1, fmt.Sprintf(format, a...)})...)
		}
		line := strings.TrimSuffix(lines[i], "\r")
		body := strings.TrimLeft(line, " ")
		n := len(line) - len(body) // indentation
		if strings.HasPrefix(body, "\t") {
			return fail("a tab indents this line; YAML indents with spaces only")
		}
		if blank(body) {
			continue
		}
		if n == 0 && (marker(body, "---") || marker(body, "...")) {
			// One document: a leading --- is all the markup it may have.
			if content || started || marker(body, "...") {
				return fail("config.yaml holds one set of settings; remove this line (%s) and what follows it", body[:3])
			}
			started = true
			if !blank(body[3:]) {
				return fail("write the settings on the lines after ---")
			}
			continue
		}
		if n == 0 && body[0] == '%' {
			return fail("directives (%%…) are not supported in config.yaml; remove the line")
		}
		key, raw, problem := splitKey(body)
		if problem != "" {
			return fail("%s", problem)
		}
		v, problem := parseValue(raw)
		if problem != "" {
			return fail("%s", problem)
		}
		content = true
		path := key
		switch {
		case n == 0:
			open, indent = "", -1
		case open == "":
			return fail("%q is indented, but no section (%s) opens above it", key, sectionList())
		case indent < 0:
			indent = n
			path = open + "." + key
		case n != indent:
			return fail("%s.%s is indented by %d spaces, the settings above it by %d; indent every setting of a section alike", open, key, n, indent)
		default:
			path = open + "." + key
		}
		if seen[path] {
			return fail("%s is set twice; keep one", path)
		}
		seen[path] = true
		if n == 0 && isSection(key) {
			if !v.null() {
				return fail("%s: takes settings nested under it, one per line and indented; %s", key, known(key))
			}
			open = key
			continue
		}
		if next, isKey := nextIndent(lines[i+1:]); next > n && !isKey {
			return fail("%s: the value continues on the next line; write it on one line, or quote it", path)
		}
		s, ok := lookup(open, key) // open is "" at the top level
		if !ok {
			errs = append(errs, &lineError{i + 1, fmt.Sprintf("unknown setting %q; %s", path, known(open))})
			continue
		}
		if err := s.set(c, v); err != nil {
			errs = append(errs, &lineError{i + 1, fmt.Sprintf("%s: %v", path, err)})
		}
	}
	return errors.Join(errs...)
}

// unprintable finds the first character YAML does not allow in a file
// (outside its printable set: controls but tab and line breaks), or one
// that would break a line where this parser does not split: a lone CR,
// NEL (U+0085), U+2028 and U+2029.
func unprintable(b []byte) (line int, r rune, found bool) {
	line = 1
	for i, r := range string(b) {
		switch {
		case r == '\n':
			line++
		case r == '\r' && (i+1 == len(b) || b[i+1] != '\n'):
			return line, r, true // a line break this parser does not split at
		case r == '\t' || r == '\r':
		case r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfffe || r == 0xffff:
			return line, r, true
		}
	}
	return 0, 0, false
}

// blank reports a line that holds only white space and a comment.
func blank(s string) bool {
	s = strings.TrimLeft(s, " \t")
	return s == "" || s[0] == '#'
}

// marker reports a document marker line: --- or ... alone or before white
// space.
func marker(body, m string) bool {
	return strings.HasPrefix(body, m) && (len(body) == 3 || body[3] == ' ' || body[3] == '\t')
}

// nextIndent is the indentation of the first of lines that holds more
// than white space and a comment, or -1, and whether that line reads as a
// setting of its own (it is then judged on its own).
func nextIndent(lines []string) (indent int, isKey bool) {
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		body := strings.TrimLeft(l, " ")
		if !blank(body) {
			_, _, problem := splitKey(body)
			return len(l) - len(body), problem == ""
		}
	}
	return -1, false
}

// splitKey splits "key: value" into its key and the value as written, or
// says what is wrong with the line.
func splitKey(body string) (key, value, problem string) {
	switch body[0] {
	case '-':
		if len(body) == 1 || body[1] == ' ' {
			return "", "", "lists (- …) are not supported in config.yaml; every setting takes one value"
		}
	case '"', '\'':
		return "", "", "write the setting's name without quotes"
	case '{', '[':
		return "", "", "flow style ({…} or […]) is not supported in config.yaml; write one setting per line"
	case '?', '&', '*', '!':
		return "", "", fmt.Sprintf("%q is YAML that config.yaml does not support; write settings as name: value", body[:1])
	}
	// The key ends at the first ':' followed by white space or the end.
	i := 0
	for i < len(body) && !(body[i] == ':' && (i+1 == len(body) || body[i+1] == ' ' || body[i+1] == '\t')) {
		i++
	}
	if i == 0 || i == len(body) {
		return "", "", fmt.Sprintf("%q is not a setting; write name: value", truncate(body, 40))
	}
	key = body[:i]
	for _, r := range key {
		if !(r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return "", "", fmt.Sprintf("%q is not a setting name; names are letters, digits, _ and -", truncate(key, 40))
		}
	}
	return key, strings.TrimSpace(body[i+1:]), ""
}

// parseValue reads a value as written after "key:", up to the end of the
// line, comment included.
func parseValue(s string) (scalar, string) {
	s = strings.TrimLeft(s, " \t")
	if s == "" || s[0] == '#' {
		return scalar{}, ""
	}
	switch s[0] {
	case '"', '\'':
		v, rest, problem := quoted(s)
		if problem == "" && !blank(rest) {
			problem = "text after the closing quote; quote the whole value"
		}
		if problem == "" && rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			problem = "put a space between the closing quote and the comment"
		}
		return v, problem
	case '{', '[':
		return scalar{}, "flow style ({…} or […]) is not supported in config.yaml; write one setting per line"
	case '|', '>':
		return scalar{}, "block scalars (| or >) are not supported in config.yaml; write the value on one line"
	case '&', '*':
		return scalar{}, "anchors and aliases (& and *) are not supported in config.yaml; write the value itself"
	case '!':
		return scalar{}, "tags (!…) are not supported in config.yaml; write the value itself"
	case '@', '`', '%', ',', ']', '}':
		return scalar{}, fmt.Sprintf("a plain value cannot start with %q in YAML; quote it", s[:1])
	case '-', '?', ':':
		if len(s) == 1 || s[1] == ' ' || s[1] == '\t' {
			return scalar{}, fmt.Sprintf("%q is YAML that config.yaml does not support; quote the value", s[:1])
		}
	}
	// A plain value ends at a comment: a # after white space.
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			s = s[:i]
			break
		}
	}
	s = strings.TrimRight(s, " \t")
	if strings.Contains(s, ": ") || strings.Contains(s, ":\t") || strings.HasSuffix(s, ":") {
		return scalar{}, "a value cannot contain \": \" unless it is quoted"
	}
	if strings.ContainsAny(s, "\t") {
		return scalar{}, "a tab inside a plain value; quote the value"
	}
	return scalar{text: s}, ""
}

// quoted reads a '…' or "…" value at the start of s and returns the rest
// of the line after it.
func quoted(s string) (v scalar, rest, problem string) {
	if s[0] == '\'' {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] != '\'' {
				b.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return scalar{text: b.String(), quoted: true}, s[i+1:], ""
		}
		return scalar{}, "", "a quoted value must end, on the same line, with the quote it began with"
	}
	return doubleQuoted(s)
}

// doubleQuoted reads a "…" value with YAML's common escapes.
func doubleQuoted(s string) (v scalar, rest, problem string) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return scalar{text: b.String(), quoted: true}, s[i+1:], ""
		case '\\':
			i++
			if i >= len(s) {
				return scalar{}, "", "a quoted value must end, on the same line, with the quote it began with"
			}
			switch e := s[i]; e {
			case '\\', '"', '/':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case ' ':
				b.WriteByte(' ')
			case 'x', 'u', 'U':
				n := 2
				if e == 'u' {
					n = 4
				} else if e == 'U' {
					n = 8
				}
				if i+n >= len(s) {
					return scalar{}, "", fmt.Sprintf("\\%c needs %d hex digits", e, n)
				}
				r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return scalar{}, "", fmt.Sprintf("\\%c needs %d hex digits of a character", e, n)
				}
				b.WriteRune(rune(r))
				i += n
			default:
				return scalar{}, "", fmt.Sprintf("the escape \\%c is not supported in config.yaml; write the character itself", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return scalar{}, "", "a quoted value must end, on the same line, with the quote it began with"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
