package recall

import "testing"

func TestIsTask(t *testing.T) {
	for _, c := range []struct {
		prompt string
		task   bool
	}{
		{"add redis caching to the session lookups", true},
		{"Please fix the tail worker's offset after a rotation.", true},
		{"can you port the sidebar to react?", true},
		{"We need to migrate the annotations to Postgres", true},
		{"set up Sentry for the hook controllers", true},
		{"How did we set up the redis cache for session lookups?", false},
		{"Where did we configure Kafka", false},
		{"show me where the tail worker keeps its offset", false},
		{"Add redis caching?", false},
		{"why did we add a tail worker", false},
		{"please", false},
		{"", false},
	} {
		if got := IsTask(c.prompt); got != c.task {
			t.Errorf("IsTask(%q) = %v, want %v", c.prompt, got, c.task)
		}
	}
}

// TestTaskNamingSomethingNew: a task naming a thing memory never saw is
// searched by the rest of its words (the new thing is to be built among
// what memory knows); a question naming it is answered by nothing.
func TestTaskNamingSomethingNew(t *testing.T) {
	m := newMemory(t)
	m.l1("2026-02-11_1000_aaaa1111", false, append(filler(10),
		say("Session lookups go through the registry, which keeps them in an ETS table."))...)
	task := m.search("add redis caching to the session lookups", Options{Threshold: 0.3, Task: true})
	if len(task) == 0 || task[0].Lines[0] > 11 || task[0].Lines[1] < 11 {
		t.Errorf("the task is not given the session lookups (line 11): %+v", task)
	}
	if q := m.search("how did we add redis caching to the session lookups?", Options{Threshold: 0.3}); len(q) != 0 {
		t.Errorf("a question about redis, which memory never saw, is answered: %+v", q)
	}
}
