package redact

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/fixtures"
)

// secretText is cleanText with a handful of secrets of different kinds
// spread through it.
var secretText = strings.Join([]string{
	cleanText[:600], "\nexport GITHUB_TOKEN=" + ghClassic + "\n",
	cleanText[600:1200], "\ncurl -H 'Authorization: Bearer " + openaiProj + "' " + "https://api.example.com\n",
	cleanText[1200:], "\nDB_URL=postgres://app:" + password + "@db:5432/x\nSTRIPE_KEY=" + stripeLive + "\n",
	"<private>my home address</private>\n",
}, "")

func benchString(b *testing.B, s string) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		String(s)
	}
}

func BenchmarkStringClean2KB(b *testing.B)   { benchString(b, cleanText) }
func BenchmarkStringSecrets2KB(b *testing.B) { benchString(b, secretText) }
func BenchmarkStringClean1MB(b *testing.B) {
	benchString(b, strings.Repeat(cleanText+"\n\n", (1<<20)/(len(cleanText)+2)+1)[:1<<20])
}

// BenchmarkStringRealTranscript runs String over each raw line of a real
// transcript (JSON, escapes, base64 signatures and all): a harsher input
// than the decoded text memkeep passes in.
func BenchmarkStringRealTranscript(b *testing.B) {
	files := realTranscripts(b)
	if len(files) == 0 {
		b.Skip("no real transcripts in ../../../shared/transcripts")
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			String(l)
		}
	}
}

// BenchmarkCompileAllRules is what a process would pay at start-up if it
// compiled every pattern eagerly; String pays a rule's share only when the
// rule's keyword first occurs.
func BenchmarkCompileAllRules(b *testing.B) {
	for b.Loop() {
		for i := range rules {
			if rules[i].expr != "" {
				regexp.MustCompile(rules[i].expr)
			}
		}
	}
}

// realTranscripts lists the real transcripts shared beside the project,
// largest first, or nothing when they are absent.
func realTranscripts(tb testing.TB) []string {
	files := fixtures.SharedTranscripts(fixtures.SharedDir)
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	slicesSortBySizeDesc(files, size)
	return files
}

func slicesSortBySizeDesc(files []string, size func(string) int64) {
	for i := 1; i < len(files); i++ {
		for j := i; j > 0 && size(files[j]) > size(files[j-1]); j-- {
			files[j], files[j-1] = files[j-1], files[j]
		}
	}
}
