package render

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l4"
)

const (
	pageHead = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Project memory</title>\n" +
		"<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>\n" +
		"</head><body>\n"
	pageTail = "</body></html>\n"
)

// renderHTML runs HTML into a fresh directory (one that does not exist
// yet, to check HTML creates it) and returns the page's body.
func renderHTML(t *testing.T, m Memory) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "view", "html")
	p, err := HTML(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "index.html"); p != want {
		t.Fatalf("HTML returned %q, want %q", p, want)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	body, ok := strings.CutPrefix(page, pageHead)
	if !ok {
		t.Fatalf("page does not start with the page shell:\n%s", page)
	}
	body, ok = strings.CutSuffix(body, pageTail)
	if !ok {
		t.Fatalf("page does not end with the page shell:\n%s", page)
	}
	if err := wellFormed(page); err != nil {
		t.Fatalf("page not well-formed: %v\n%s", err, page)
	}
	return body
}

// allowed are the only elements the page may hold, and where each may
// appear: anything else (a <script> or <img> from user text) is a failure.
var allowed = map[string][]string{
	"html":   {""},
	"head":   {"html"},
	"meta":   {"head"},
	"title":  {"head"},
	"style":  {"head"},
	"body":   {"html"},
	"h1":     {"body"},
	"h2":     {"body"},
	"h3":     {"body"},
	"p":      {"body"},
	"ul":     {"body"},
	"li":     {"ul"},
	"strong": {"h1", "h2", "h3", "p", "li", "em", "strong"},
	"em":     {"h1", "h2", "h3", "p", "li", "em", "strong"},
	"code":   {"h1", "h2", "h3", "p", "li", "em", "strong"},
}

// wellFormed tokenizes the page by hand: every tag is an allowed element
// in an allowed parent, every opened tag is closed in order, the text holds
// no stray '<' or '>' (which would mean unescaped user text), and a list
// holds nothing but items.
func wellFormed(page string) error {
	rest, ok := strings.CutPrefix(page, "<!doctype html>\n")
	if !ok {
		return fmt.Errorf("no doctype")
	}
	var stack []string
	parent := func() string {
		if len(stack) == 0 {
			return ""
		}
		return stack[len(stack)-1]
	}
	for rest != "" {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			i = len(rest)
		}
		txt := rest[:i]
		if strings.Contains(txt, ">") {
			return fmt.Errorf("stray '>' in text %q", txt)
		}
		if (parent() == "ul" || parent() == "") && strings.TrimSpace(txt) != "" {
			return fmt.Errorf("text %q directly inside <%s>", txt, parent())
		}
		rest = rest[i:]
		if rest == "" {
			break
		}
		j := strings.IndexByte(rest, '>')
		if j < 0 {
			return fmt.Errorf("unterminated tag at %q", rest)
		}
		tag := rest[1:j]
		rest = rest[j+1:]
		if name, ok := strings.CutPrefix(tag, "/"); ok {
			if parent() != name {
				return fmt.Errorf("</%s> closes <%s> (open: %v)", name, parent(), stack)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		name, _, _ := strings.Cut(tag, " ")
		parents, ok := allowed[name]
		if !ok {
			return fmt.Errorf("unexpected element <%s>", tag)
		}
		if !slices.Contains(parents, parent()) {
			return fmt.Errorf("<%s> inside <%s>", name, parent())
		}
		if name != "meta" { // the one void element
			stack = append(stack, name)
		}
	}
	if len(stack) != 0 {
		return fmt.Errorf("unclosed elements %v", stack)
	}
	return nil
}

// TestHTMLStructure checks the view of the sample memory line by line:
// headings, paragraphs, one list per run of items, and inline markup
// nested as in memory.md, with no Markdown syntax and no comment left.
func TestHTMLStructure(t *testing.T) {
	body := renderHTML(t, sample())
	want := `<h1>Project memory</h1>
<h2>Rules</h2>
<ul>
<li>Run gofmt before committing. <em>(added by hand, confidence 0.90)</em> <code>r-1</code></li>
</ul>
<h3>Candidate rules</h3>
<p>Stated in fewer than 3 sessions so far.</p>
<ul>
<li>Always use tabs. <em>(1 sessions, confidence 0.10, contradicted 5 times, <strong>needs review</strong>)</em> <code>r-2</code></li>
</ul>
<h2>Solutions</h2>
<ul>
<li><strong>database is locked</strong> → edited store/tx.go <em>(3 sessions, confidence 0.60)</em> <code>s-1</code></li>
</ul>
<h2>Core logic</h2>
<p>No feature changed in 3 or more sessions yet.</p>
<h2>Concepts</h2>
<ul>
<li><strong>store</strong> (1 exchanges): SQLite store — <code>store/db.go</code> <code>c-1</code></li>
</ul>
<h2>Recent sessions</h2>
<h3>2026-03-01_0900_aaaa0001</h3>
<ul>
<li>Fix locked database <em>(iteration, 0.75)</em> <code>x-1</code></li>
</ul>
`
	if body != want {
		t.Errorf("body:\n%s\nwant:\n%s", body, want)
	}

	empty := renderHTML(t, goldenCases()["empty"])
	for _, s := range []string{
		"<p>No rules yet. State one with <code>memkeep l4 add-rule TEXT</code>, or tell the agent &#34;always …&#34; / &#34;never …&#34;.</p>\n",
		"<p>No concepts yet: <code>memkeep l3 assign</code> groups exchanges into them.</p>\n",
	} {
		if !strings.Contains(empty, s) {
			t.Errorf("empty memory's view lacks %q:\n%s", s, empty)
		}
	}
	if strings.Contains(empty, "<ul>") || strings.Contains(empty, "<li>") {
		t.Errorf("empty memory's view has a list:\n%s", empty)
	}
}

// TestHTMLFollowsMarkdown checks, for every golden case, that the view has
// the structure of memory.md: as many headings of each level, as many
// items, and one <ul> per run of items (runs are ended by blank lines).
func TestHTMLFollowsMarkdown(t *testing.T) {
	for name, m := range goldenCases() {
		body := renderHTML(t, m)
		headings := map[int]int{}
		items, lists := 0, 0
		inRun := false
		for line := range strings.Lines(string(Markdown(m))) {
			switch {
			case strings.HasPrefix(line, "- "):
				items++
				if !inRun {
					lists++
				}
				inRun = true
			case line == "\n":
				inRun = false
			case strings.HasPrefix(line, "#"):
				headings[len(line)-len(strings.TrimLeft(line, "#"))]++
			}
		}
		for level := 1; level <= 6; level++ {
			if got := strings.Count(body, fmt.Sprintf("<h%d>", level)); got != headings[level] {
				t.Errorf("%s: %d <h%d>, memory.md has %d level-%d headings", name, got, level, headings[level], level)
			}
		}
		if got := strings.Count(body, "<li>"); got != items {
			t.Errorf("%s: %d <li>, memory.md has %d items", name, got, items)
		}
		if got := strings.Count(body, "<ul>"); got != lists {
			t.Errorf("%s: %d <ul>, memory.md has %d lists", name, got, lists)
		}
	}
}

// TestHTMLEscapesUserText renders text that is markup in HTML and in
// Markdown: it must come out as literal text, never as elements.
func TestHTMLEscapesUserText(t *testing.T) {
	body := renderHTML(t, goldenCases()["hostile"])
	for _, bad := range []string{"<script", "<img", "<b>", "<type>", "<!--", "Do not edit", "&amp;amp;amp;", "<em>ever</em>", "<code>rm -rf</code>", "<strong>y</strong>"} {
		if strings.Contains(body, bad) {
			t.Errorf("view holds %q:\n%s", bad, body)
		}
	}
	for _, good := range []string{
		"<h3>&lt;script&gt;alert(1)&lt;/script&gt;</h3>\n",
		"<strong>&lt;img src=x onerror=alert(1)&gt;</strong>",
		"Never *ever* run &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;quote&#34; &#39;it&#39; with `rm -rf` _x_ **y**",
		"<code>&lt;b&gt;.go</code>, <code>a&amp;b.go</code>, <code>`x`.go</code>, <code>&#34;q&#34;.go</code> +1",
		"<em>(&lt;type&gt;, 0.50, convergent)</em> <code>x-&amp;amp;</code>",
		"<code>r-&lt;1&gt;</code>", "<code>r-&amp;2</code>", "<code>s-`1`</code>", "<code>c-&lt;i&gt;</code>",
	} {
		if !strings.Contains(body, good) {
			t.Errorf("view lacks %q:\n%s", good, body)
		}
	}
}

// TestHTMLDeterministic renders the same memory repeatedly, with its
// unordered parts (rules, solutions, concepts, a session's exchanges, the
// keyword map) in a different order each time: the page must not change.
func TestHTMLDeterministic(t *testing.T) {
	build := func(reverse bool) Memory {
		m := Memory{Facts: &l4.Facts{}, Concepts: manyConcepts(), Sessions: manySessions()}
		for _, name := range []string{"rules", "solutions", "hostile"} {
			g := goldenCases()[name]
			m.Facts.Rules = append(m.Facts.Rules, g.Facts.Rules...)
			m.Facts.Solutions = append(m.Facts.Solutions, g.Facts.Solutions...)
		}
		m.Facts.Keywords = map[string][]string{"a": {"c-01"}, "b": {"c-02"}, "c": {"c-03"}, "d": {"c-04"}}
		if reverse {
			slices.Reverse(m.Facts.Rules)
			slices.Reverse(m.Facts.Solutions)
			slices.Reverse(m.Concepts.Concepts)
			for _, s := range m.Sessions {
				slices.Reverse(s.Exchanges)
			}
		}
		return m
	}
	first := renderHTML(t, build(false))
	for i := range 10 {
		if got := renderHTML(t, build(i%2 == 1)); got != first {
			t.Fatalf("render %d differs from the first:\n%s\nfirst:\n%s", i, got, first)
		}
	}
	if !bytes.Equal(Markdown(build(false)), Markdown(build(true))) {
		t.Error("memory.md depends on the order of the input")
	}
}

// TestWellFormedRejects makes sure the well-formedness check rejects
// the pages a broken renderer would write, so the tests above can fail.
func TestWellFormedRejects(t *testing.T) {
	good := pageHead + "<h1>x</h1>\n<ul>\n<li>a <em>b <strong>c</strong></em></li>\n</ul>\n" + pageTail
	bad := map[string]string{
		"unclosed list":   "<ul>\n<li>a</li>\n",
		"misnested":       "<p><em>a</p></em>\n",
		"raw script":      "<p><script>alert(1)</script></p>\n",
		"raw less-than":   "<p>a < b</p>\n",
		"raw greater":     "<p>a > b</p>\n",
		"item outside ul": "<li>a</li>\n",
		"text in list":    "<ul>a<li>b</li></ul>\n",
		"tag in code":     "<p><code><em>a</em></code></p>\n",
	}
	if err := wellFormed(good); err != nil {
		t.Fatalf("a good page was rejected: %v\n%s", err, good)
	}
	for name, body := range bad {
		if wellFormed(pageHead+body+pageTail) == nil {
			t.Errorf("%s: accepted %q", name, body)
		}
	}
}
