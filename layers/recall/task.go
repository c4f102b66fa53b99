package recall

import (
	"slices"
	"strings"
)

// IsTask reports whether a prompt asks for work rather than about what
// happened: it starts with a verb of work ("add redis caching to the
// session lookups", "please fix the tail worker", "can you port the
// sidebar to react?"). A question ("how did we…", "where is…", "show me…")
// is no task.
func IsTask(prompt string) bool {
	words := strings.Fields(strings.ToLower(prompt))
	asked := false
	for {
		n := 0
		for _, p := range taskPrefixes {
			if len(words) > len(p) && slices.Equal(words[:len(p)], p) {
				n = len(p)
				asked = asked || slices.Contains(p, "you")
				break
			}
		}
		if n == 0 {
			break
		}
		words = words[n:]
	}
	if len(words) == 0 || strings.HasSuffix(strings.TrimSpace(prompt), "?") && !asked {
		return false
	}
	return slices.Contains(taskVerbs, strings.Trim(words[0], ",.:;!"))
}

// taskPrefixes are the words a request for work may start with, before
// its verb.
var taskPrefixes = [][]string{
	{"please"}, {"now"}, {"ok,"}, {"ok"}, {"okay,"}, {"then"}, {"let's"}, {"lets"},
	{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"},
	{"i", "want", "to"}, {"i'd", "like", "to"}, {"i", "need", "to"}, {"we", "need", "to"}, {"we", "should"},
	{"go", "ahead", "and"}, {"next,"}, {"next"},
}

// taskVerbs are the verbs a request for work starts with.
var taskVerbs = []string{
	"add", "build", "bump", "cache", "change", "clean", "configure", "convert", "create",
	"delete", "deploy", "disable", "drop", "enable", "extract", "fix", "hook", "implement",
	"install", "integrate", "introduce", "make", "merge", "migrate", "move", "optimise",
	"optimize", "port", "refactor", "remove", "rename", "replace", "rewrite", "set", "speed",
	"split", "support", "switch", "update", "upgrade", "wire", "write",
}
