package recall

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestKindsFormat holds kinds.txt to its form: "kind: member, member",
// lower case, names of at most three words, kinds sorted and listed once.
func TestKindsFormat(t *testing.T) {
	name := `[a-z0-9][a-z0-9 ./+#-]*`
	line := regexp.MustCompile(`^` + name + `: ` + name + `(, ` + name + `)*$`)
	var kinds []string
	for i, l := range strings.Split(strings.TrimSuffix(kindsText, "\n"), "\n") {
		if strings.HasPrefix(l, "# ") {
			continue
		}
		if !line.MatchString(l) {
			t.Errorf("line %d: %q is not \"kind: member, member\" in lower case", i+1, l)
			continue
		}
		kind, ms, _ := strings.Cut(l, ": ")
		for _, n := range append(strings.Split(ms, ", "), kind) {
			if len(strings.Fields(n)) > maxThingWords {
				t.Errorf("line %d: %q has more than %d words", i+1, n, maxThingWords)
			}
		}
		if slices.Contains(kinds, kind) {
			t.Errorf("line %d: kind %q twice", i+1, kind)
		}
		kinds = append(kinds, kind)
	}
	if !slices.IsSorted(kinds) {
		t.Error("kinds.txt's kinds are not sorted")
	}
}

// TestKindSeenByItsMember: a question naming a kind memory never named is
// answered when memory names a member of it; a member memory never named
// is still unknown, though its kind is seen.
func TestKindSeenByItsMember(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The Annotation resource is an Ash resource; its actions validate the message refs."),
		say("Each hook controller opens an OpenTelemetry span and returns the trace id in a header."))...)
	ix := m.open()
	wantUnknown(t, ix, []unknownCase{
		{"Which ORM resources hold the annotations?", nil},
		{"How did we add distributed tracing to the hook controllers?", nil},
		{"Why did we move the annotation resources to Prisma?", []string{"Prisma"}},
		{"How did we ship the hook controller traces to Jaeger?", []string{"Jaeger"}},
		{"How does the message queue deliver the hook events?", []string{"message queue"}},
		{"Which module posts to our team chat when a session ends?", []string{"team chat"}},
	})
	chat := newMemory(t)
	chat.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The notifier posts a Slack message when a session ends."))...)
	wantUnknown(t, chat.open(), []unknownCase{
		{"Which module posts to our team chat when a session ends?", nil},
	})
	// A kind of several words is a thing whether or not things.txt
	// lists it, and is seen by a member memory holds, not by one it only
	// searched for, nor by a word of its own ("CSS" is no CSS framework).
	styles := newMemory(t)
	styles.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The badges are styled in report.css."),
		map[string]any{"ts": "2026-02-11T10:00:03Z", "k": "tool", "tool": "Grep", "pat": "css|esbuild|tailwind", "res": "0 files"})...)
	wantUnknown(t, styles.open(), []unknownCase{
		{"Which utility-class CSS framework colours the badges?", []string{"CSS framework"}},
		{"Which CSS file colours the badges?", nil},
		// Its words side by side: a stop word between is no kind.
		{"Which crash-reporting service gets the badges' exceptions?", []string{"crash reporting"}},
		{"Why did the badges crash the reporting?", nil},
		// A hyphen joins a kind's words as a space does.
		{"Why did we swap the tail port for a filesystem-event watcher?", []string{"filesystem event"}},
	})
	tailwind := newMemory(t)
	tailwind.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("The badges use Tailwind classes in report.css."))...)
	wantUnknown(t, tailwind.open(), []unknownCase{
		{"Which utility-class CSS framework colours the badges?", nil},
	})
}

// TestKindNotSeenOnCommonWords: a member whose words memory holds too
// often to read every document for ("service bus") does not make its kind
// seen; a kind is seen only on evidence.
func TestKindNotSeenOnCommonWords(t *testing.T) {
	m := newMemory(t)
	var recs []map[string]any
	for i := range phraseScan + 10 {
		recs = append(recs, say("The service restarts after step "+itoa(i)+"."), say("The bus count at step "+itoa(i)+" is fine."))
	}
	m.l1("2026-02-11_1000_aaaa1111", false, recs...)
	ix := m.open()
	if got := ix.Unknown("How does the message queue deliver the hook events?"); !slices.Equal(got, []string{"message queue"}) {
		t.Errorf("Unknown = %q, want the message queue: no member of it is in memory", got)
	}
}

// TestEveryKindIsFound: the binary search over kinds.stems finds every
// kind it lists (a kind that is the start of another, "ci" and "ci cd",
// included).
func TestEveryKindIsFound(t *testing.T) {
	for _, l := range strings.Split(strings.TrimSuffix(kindsStems, "\n"), "\n") {
		kind, ms, _ := strings.Cut(l, "\t")
		if got := strings.Join(members(kind), ", "); got != ms {
			t.Errorf("members(%q) = %q, want %q", kind, got, ms)
		}
	}
	if members("no such kind") != nil || members("") != nil {
		t.Error("members of a kind not listed")
	}
}
