package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
)

func siteMemory() Memory {
	return Memory{
		Facts: &l4.Facts{Rules: []l4.Rule{
			{ID: "r-0000000a", Text: "Always run make lint before committing.", Source: l4.SourceManual, Confidence: 0.9, Promoted: true},
			{ID: "r-0000000b", Text: "Never *ever* run <script>alert(1)</script> & friends.", Sessions: []string{"a"}, Confidence: 0.4},
		}},
		Concepts: &l3.File{Concepts: []l3.Concept{
			{ID: "c-0000000c", Name: "store", Summary: "SQLite store", Exchanges: []string{"x-0000000d"}, Files: []string{"store/db.go"}},
			{ID: "c-0000000e", Name: "<img src=x onerror=alert(1)>", Summary: "hostile", Exchanges: []string{"x-0000000f"}},
		}},
		Sessions: []*l2.File{{L1: "2026-03-01_0900_aaaa0001.l1.jsonl", Exchanges: []l2.Exchange{
			{ID: "x-0000000d", Summary: "Fix locked database", Type: "iteration", Significance: 0.75, L1Range: [2]int{1, 2}, Concept: "c-0000000c", Files: []string{"store/tx.go"}},
			{ID: "x-0000000f", Summary: "Keep retries at 3 because the upstream limits them", Type: l2.TypeDecision, Significance: 0.6, Concept: "c-0000000e"},
		}}},
	}
}

func writeSite(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	l1 := []string{
		`{"ts":"2026-03-01T09:00:00Z","k":"prompt","text":"the database is locked during tests"}`,
		`{"ts":"2026-03-01T09:01:00Z","k":"tool","tool":"Edit","file":"store/tx.go","diff":"+2 -1 tx.Commit()"}`,
	}
	p, err := Site(dir, siteMemory(), SiteOptions{L1: func(string) []string { return l1 },
		Project: []byte("# Shop backend\n\nThe cart and its checkout. <script>no</script>\n")})
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(dir, "index.html") {
		t.Fatalf("index at %s", p)
	}
	return dir
}

var hrefs = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// TestSitePagesAndLinks: an index, a page per concept and per session,
// every link between them resolving to a file and, with a fragment, to
// an element of that page.
func TestSitePagesAndLinks(t *testing.T) {
	dir := writeSite(t)
	for _, p := range []string{"index.html", "concepts/c-0000000c.html", "concepts/c-0000000e.html", "sessions/2026-03-01_0900_aaaa0001.html", "search.js", "search.json"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("no %s: %v", p, err)
		}
	}
	links := 0
	filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(path, ".html") {
			return err
		}
		b, _ := os.ReadFile(path)
		for _, m := range hrefs.FindAllStringSubmatch(string(b), -1) {
			target, frag, _ := strings.Cut(m[1], "#")
			if strings.HasPrefix(target, "http") {
				continue
			}
			links++
			file := filepath.Join(filepath.Dir(path), target)
			if target == "" {
				file = path
			}
			tb, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s links to %s, which does not exist", path, m[1])
				continue
			}
			if frag != "" && !strings.Contains(string(tb), `id="`+frag+`"`) {
				t.Errorf("%s links to %s: no element with that id", path, m[1])
			}
		}
		return nil
	})
	if links < 10 {
		t.Errorf("only %d links checked", links)
	}
	session, _ := os.ReadFile(filepath.Join(dir, "sessions", "2026-03-01_0900_aaaa0001.html"))
	for _, want := range []string{`id="x-0000000d"`, "user: the database is locked during tests", "<code>1</code>", `href="../concepts/c-0000000c.html"`, "store/tx.go"} {
		if !strings.Contains(string(session), want) {
			t.Errorf("session page lacks %q", want)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	for _, want := range []string{"Always run make lint before committing.", `href="concepts/c-0000000c.html"`, "Keep retries at 3 because", `name="viewport"`, `<a href="project.html">Shop backend</a>`} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index lacks %q", want)
		}
	}
}

// TestSiteEscapesUserText: rules and names are text, never markup.
func TestSiteEscapesUserText(t *testing.T) {
	dir := writeSite(t)
	for _, p := range []string{"index.html", "concepts/c-0000000e.html", "project.html"} {
		b, _ := os.ReadFile(filepath.Join(dir, p))
		main := string(b)
		main = main[strings.Index(main, "<main>"):strings.Index(main, "</main>")]
		for _, bad := range []string{"<script", "<img", "<em>ever</em>"} {
			if strings.Contains(main, bad) {
				t.Errorf("%s holds %q", p, bad)
			}
		}
		if !strings.Contains(main, "&lt;") && !strings.Contains(main, "raw HTML omitted") {
			t.Errorf("%s: no escaped text; the test proves nothing", p)
		}
	}
}

// TestSiteInChromium opens the site in headless Chromium: the index
// renders, a concept link opens its page, the search box finds a rule.
func TestSiteInChromium(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("MEMKEEP_REQUIRE_BROWSER") != "" {
			t.Fatal("no chromium on PATH (CI installs Debian's chromium package)")
		}
		t.Skip("no chromium on PATH")
	}
	dir := writeSite(t)
	dom := func(url string) string {
		t.Helper()
		out, err := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
			"--user-data-dir="+t.TempDir(), "--virtual-time-budget=3000", "--dump-dom", url).Output()
		if err != nil {
			t.Fatalf("%s %s: %v", browser, url, err)
		}
		return string(out)
	}
	index := dom("file://" + filepath.Join(dir, "index.html"))
	if !strings.Contains(index, "Always run make lint before committing.") || !strings.Contains(index, "<h2 id=\"concepts\">Concepts</h2>") {
		t.Fatalf("the index did not render:\n%.2000s", index)
	}
	m := regexp.MustCompile(`<a href="(concepts/c-0000000c\.html)">store</a>`).FindStringSubmatch(index)
	if m == nil {
		t.Fatalf("no link to the concept store:\n%.2000s", index)
	}
	concept := dom("file://" + filepath.Join(dir, m[1]))
	if !strings.Contains(concept, "<h1 id=\"store\">store</h1>") || !strings.Contains(concept, "Fix locked database") {
		t.Errorf("the concept page did not open:\n%.2000s", concept)
	}
	// An id in the address, as memkeep diff --link writes them, opens the
	// page that shows the item.
	if byID := dom("file://" + filepath.Join(dir, "index.html") + "#c-0000000c"); !strings.Contains(byID, "<h1 id=\"store\">store</h1>") {
		t.Errorf("index.html#c-0000000c did not open the concept's page:\n%.1500s", byID)
	}
	found := dom("file://" + filepath.Join(dir, "index.html") + "?q=make+lint")
	results := found[strings.Index(found, `<ul id="results">`):]
	results = results[:strings.Index(results, "</ul>")]
	if !strings.Contains(results, "Always run make lint before committing.") {
		t.Errorf("the search box did not find the rule: %s", results)
	}
}
