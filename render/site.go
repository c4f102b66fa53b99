package render

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gmtext "github.com/yuin/goldmark/text"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
)

// The HTML view is a small static site a reviewer opens from a CI
// artifact or any static host: an index (rules, decisions, concepts,
// recent sessions, a search box), a page per concept and per session
// (its exchanges with their L1 lines, its facts), linked both ways.
// Every page is written as Markdown and rendered by goldmark (heading
// ids and attributes), inside one layout; the search runs in the page
// over search.js, an index of every rule, concept and exchange, so that
// it works from file:// and without a server. The index also resolves
// an id in the address (index.html#x-…, as memkeep diff --link writes
// them) to the page that shows the item.

// newMarkdown is goldmark with heading ids and attributes. Its GFM
// extension is left out: its package compiles the linkify patterns when a
// process starts, 3 ms of every hook's start (GODEBUG=inittrace=1), for
// tables and autolinks the pages do without.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()))
}

// SiteOptions give the site what it reads beyond the memory files.
type SiteOptions struct {
	// L1 reads a session's L1 lines by base; nil leaves them out.
	L1 func(base string) []string
	// Project is project.md, the human-owned description of the project:
	// shown as a page of its own, its first heading naming the site.
	Project []byte
}

// page is one page of the site.
type page struct {
	path  string // under the site's folder, slash-separated
	title string
	md    strings.Builder
}

func (p *page) f(format string, args ...any) { fmt.Fprintf(&p.md, format, args...) }

// searchEntry is one entry of the search index.
type searchEntry struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Text  string `json:"text"`
	URL   string `json:"url"`
}

// Site writes the HTML view into dir and returns the index page's path.
func Site(dir string, m Memory, opts SiteOptions) (string, error) {
	var pages []*page
	var index []searchEntry
	conceptName := map[string]string{}
	for _, c := range m.Concepts.Concepts {
		conceptName[c.ID] = c.Name
	}
	sessionOf := map[string]string{} // exchange id → session base
	for _, s := range m.Sessions {
		for _, e := range s.Exchanges {
			sessionOf[e.ID] = s.Base()
		}
	}

	home := &page{path: "index.html", title: "Project memory"}
	pages = append(pages, home)
	home.f("# Project memory\n\n")
	var project *page
	if len(bytes.TrimSpace(opts.Project)) > 0 {
		name := firstHeading(opts.Project)
		if name == "" {
			name = "Project"
		}
		home.f("About the project: [%s](project.html)\n\n", mdText(name))
		project = &page{path: "project.html", title: name}
	}
	promoted, candidates := splitRules(m.Facts.Rules)
	home.f("## Rules\n\n")
	if len(promoted)+len(candidates) == 0 {
		home.f("No rules yet.\n\n")
	}
	for _, r := range append(promoted, candidates...) {
		state := "rule"
		if !r.Promoted {
			state = "candidate"
		}
		home.f("- %s *(%s, confidence %.2f)* `%s`\n", mdText(r.Text), state, r.Confidence, r.ID)
		index = append(index, searchEntry{r.ID, "rule", r.Text, "", "index.html#rules"})
	}
	home.f("\n## Decisions\n\n")
	decisions := 0
	for _, s := range m.Sessions {
		for _, e := range s.Exchanges {
			if e.Type == l2.TypeDecision {
				decisions++
				home.f("- [%s](sessions/%s.html#%s)\n", mdText(oneLine(e.Summary)), s.Base(), e.ID)
			}
		}
	}
	if decisions == 0 {
		home.f("No decision recorded yet.\n")
	}
	home.f("\n## Concepts\n\n")
	if len(m.Concepts.Concepts) == 0 {
		home.f("No concepts yet.\n")
	}
	concepts := slices.Clone(m.Concepts.Concepts)
	slices.SortFunc(concepts, func(a, b l3.Concept) int {
		return cmp.Or(cmp.Compare(len(b.Exchanges), len(a.Exchanges)), strings.Compare(a.Name, b.Name))
	})
	for _, c := range concepts {
		home.f("- [%s](concepts/%s.html) (%s): %s\n", mdCell(c.Name), c.ID, plural(len(c.Exchanges), "exchange"), mdCell(oneLine(c.Summary)))
		index = append(index, searchEntry{c.ID, "concept", c.Name, c.Summary, "concepts/" + c.ID + ".html"})

		cp := &page{path: "concepts/" + c.ID + ".html", title: c.Name}
		pages = append(pages, cp)
		cp.f("[Project memory](../index.html) › concept\n\n# %s\n\n%s\n\n", mdText(c.Name), mdText(oneLine(c.Summary)))
		if len(c.Files) > 0 {
			cp.f("Files: %s\n\n", codeList(c.Files))
		}
		if len(c.Keywords) > 0 {
			cp.f("Keywords: %s\n\n", mdText(strings.Join(c.Keywords, ", ")))
		}
		cp.f("## Exchanges\n\n")
		for _, x := range c.Exchanges {
			if base, ok := sessionOf[x]; ok {
				cp.f("- [%s](../sessions/%s.html#%s) `%s`\n", mdText(exchangeSummary(m, x)), base, x, x)
			}
		}
	}
	home.f("\n## Recent sessions\n\n")
	sessions := slices.Clone(m.Sessions)
	slices.Reverse(sessions)
	for _, s := range sessions {
		home.f("- [%s](sessions/%s.html): %s\n", s.Base(), s.Base(), plural(len(s.Exchanges), "exchange"))
		sp := &page{path: "sessions/" + s.Base() + ".html", title: "Session " + s.Base()}
		pages = append(pages, sp)
		sp.f("[Project memory](../index.html) › session\n\n# Session %s\n\n", s.Base())
		var lines []string
		if opts.L1 != nil {
			lines = opts.L1(s.Base())
		}
		for _, e := range s.Exchanges {
			sp.f("## %s {#%s}\n\n", mdHeading(oneLine(e.Summary)), e.ID)
			sp.f("`%s` · %s · significance %.2f", e.ID, e.Type, e.Significance)
			if name, ok := conceptName[e.Concept]; ok {
				sp.f(" · concept [%s](../concepts/%s.html)", mdText(name), e.Concept)
			}
			sp.f("\n\n")
			if e.Details != "" && e.Details != e.Summary {
				sp.f("%s\n\n", mdText(oneLine(e.Details)))
			}
			if len(e.Files) > 0 {
				sp.f("Files changed: %s\n\n", codeList(e.Files))
			}
			if len(e.Commands) > 0 {
				sp.f("Commands: %s\n\n", codeList(e.Commands))
			}
			if from, to := e.L1Range[0], e.L1Range[1]; from > 0 && len(lines) > 0 {
				sp.f("L1 lines %d–%d of `sessions/%s.l1.jsonl`:\n\n", from, to, s.Base())
				for n := from; n <= min(to, len(lines), from+39); n++ {
					sp.f("- `%d` %s\n", n, mdCell(l1Line(lines[n-1])))
				}
				if to > from+39 {
					sp.f("- … %d more lines\n", to-from-39)
				}
				sp.f("\n")
			}
			index = append(index, searchEntry{e.ID, "exchange", e.Summary, e.Details, "sessions/" + s.Base() + ".html#" + e.ID})
		}
		if len(s.Facts) > 0 {
			sp.f("## Facts\n\n")
			for _, f := range s.Facts {
				sp.f("- %s — `%s` `%s`\n", mdText(oneLine(f.Summary)), f.File, f.ID)
			}
		}
		if len(s.Exchanges)+len(s.Facts) == 0 {
			sp.f("No exchange kept from this session.\n")
		}
	}
	if len(sessions) == 0 {
		home.f("No session consolidated yet.\n")
	}

	if err := os.MkdirAll(filepath.Join(dir, "concepts"), 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "sessions"), 0o755); err != nil {
		return "", err
	}
	if project != nil {
		// project.md is written by people, as they like: rendered as it is,
		// raw HTML left out by goldmark.
		project.md.Write(opts.Project)
		pages = append(pages, project)
	}
	for _, p := range pages {
		var body bytes.Buffer
		if err := markdown().Convert([]byte(p.md.String()), &body); err != nil {
			return "", err
		}
		depth := strings.Count(p.path, "/")
		if err := atomicfile.WriteFile(filepath.Join(dir, filepath.FromSlash(p.path)), layout(p.title, strings.Repeat("../", depth), body.Bytes(), true), 0o644); err != nil {
			return "", err
		}
	}
	data, err := json.Marshal(index)
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "search.json"), data, 0o644); err != nil {
		return "", err
	}
	// search.js carries the same index as a script, which a page opened
	// from file:// may load where it may not fetch.
	js := append([]byte("var memkeepIndex = "), data...)
	js = append(js, ";\n"...)
	if err := atomicfile.WriteFile(filepath.Join(dir, "search.js"), js, 0o644); err != nil {
		return "", err
	}
	return filepath.Join(dir, "index.html"), nil
}

// firstHeading is the text of a Markdown document's first heading, read
// from goldmark's syntax tree.
func firstHeading(src []byte) string {
	doc := markdown().Parser().Parse(gmtext.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			return oneLine(string(nodeText(h, src)))
		}
	}
	return ""
}

func exchangeSummary(m Memory, id string) string {
	for _, s := range m.Sessions {
		for _, e := range s.Exchanges {
			if e.ID == id {
				return oneLine(e.Summary)
			}
		}
	}
	return id
}

// l1Line shows an L1 record in a table cell: who, and what.
func l1Line(raw string) string {
	var r struct {
		K, Text, Tool, File, Cmd, Pat, Diff, Res string
	}
	if json.Unmarshal([]byte(raw), &r) != nil {
		return "(unreadable line)"
	}
	var s string
	switch r.K {
	case "prompt":
		s = "user: " + r.Text
	case "text", "compact":
		s = "assistant: " + r.Text
	default:
		s = strings.TrimSpace(strings.Join([]string{r.Tool, r.File, r.Cmd, r.Pat, r.Diff}, " "))
		if r.Res != "" {
			s += " → " + r.Res
		}
	}
	s = oneLine(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// mdText escapes text for Markdown: nothing in it is markup.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()#+-.!<>|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCell is mdText for a table cell, on one line.
func mdCell(s string) string { return mdText(oneLine(s)) }

// mdHeading is mdText for a heading that carries an id attribute.
func mdHeading(s string) string {
	if s == "" {
		s = "(no summary)"
	}
	return mdText(s)
}

func codeList(items []string) string {
	var out []string
	for _, it := range items {
		out = append(out, "`` "+strings.ReplaceAll(oneLine(it), "`", "'")+" ``")
	}
	return strings.Join(out, ", ")
}

// Page renders Markdown (memkeep's own, like a memory diff) through
// goldmark as a standalone HTML page.
func Page(title string, md []byte) ([]byte, error) {
	var body bytes.Buffer
	if err := markdown().Convert(md, &body); err != nil {
		return nil, err
	}
	return layout(title, "", body.Bytes(), false), nil
}

// layout wraps a page's body, readable at phone and desktop widths; a
// page of the site gets the header with the search box.
func layout(title, root string, body []byte, search bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s · memkeep</title>
<style>
body{font:16px/1.55 system-ui,sans-serif;max-width:62rem;margin:0 auto;padding:1rem;color:#1d1d1f;overflow-wrap:anywhere}
header{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;border-bottom:1px solid #ddd;padding-bottom:.5rem}
header a{font-weight:600;text-decoration:none;color:inherit;margin-right:auto}
#q{flex:1 1 14rem;font:inherit;padding:.35rem .5rem;border:1px solid #bbb;border-radius:6px}
#results{list-style:none;padding:0}#results li{padding:.3rem 0;border-bottom:1px solid #eee}
code{background:#f3f3f3;padding:0 .25em;border-radius:3px;font-size:.92em}
h2{margin-top:2rem;border-bottom:1px solid #eee}
</style></head><body>
`, html.EscapeString(title))
	if search {
		fmt.Fprintf(&b, `<header><a href="%sindex.html">Project memory</a>
<input id="q" type="search" placeholder="Search rules, concepts, exchanges" aria-label="Search the memory"></header>
<ul id="results"></ul>
`, root)
	}
	b.WriteString("<main>\n")
	b.Write(body)
	if !search {
		b.WriteString("</main>\n</body></html>\n")
		return b.Bytes()
	}
	fmt.Fprintf(&b, `</main>
<script src="%ssearch.js"></script>
<script>
(function(){
  var root = %q, q = document.getElementById("q"), out = document.getElementById("results");
  function show(text){
    out.textContent = "";
    var words = text.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length || typeof memkeepIndex === "undefined") return;
    memkeepIndex.filter(function(e){
      var hay = (e.title + " " + e.text).toLowerCase();
      return words.every(function(w){ return hay.indexOf(w) >= 0; });
    }).slice(0, 20).forEach(function(e){
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = root + e.url; a.textContent = e.title; li.textContent = e.kind + ": "; li.appendChild(a);
      out.appendChild(li);
    });
  }
  q.addEventListener("input", function(){ show(q.value); });
  // A memory id in the address (memkeep diff --link URL#r-…) opens the
  // page that shows it.
  var id = location.hash.slice(1);
  if (id && !document.getElementById(id) && typeof memkeepIndex !== "undefined") {
    var hit = memkeepIndex.filter(function(e){ return e.id === id; })[0];
    if (hit) location.replace(root + hit.url);
  }
  var given = new URLSearchParams(location.search).get("q");
  if (given) { q.value = given; show(given); }
})();
</script>
</body></html>
`, root, root)
	return b.Bytes()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
