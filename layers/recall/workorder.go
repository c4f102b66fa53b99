package recall

import (
	"slices"
	"strings"
	"unicode"
)

// The order of work. A question may say one task of an epic was done
// before another: "why did we do the tail -F workers (a0y.3) before the
// ActiveSessionRegistry (a0y.1)". Memory that saw the work closes each
// task with a command (bd close spotter-a0y.1); memory that closed the
// second first never saw that order (four never-happened questions of
// the eval, each from a helper of its own, set two tasks of an epic the
// other way round; the one answerable question that orders two tasks
// orders them as they were closed).

// workOrder is two tasks of one epic, or two epics, a question says were
// done in this order.
type workOrder struct {
	first, then string
	epics       bool
}

// orderWords say that the work before them came first ("before", "ahead
// of") or after ("after").
var orderWords = []string{"after", "ahead", "before"}

// orderReach is how many words on either side of its word a task of an
// ordering may be.
const orderReach = 8

// workOrders gives the orderings of two tasks of one epic a question's
// fields state, each task as the question names it (spotter-a0y.3, or
// a0y.3 alone).
func workOrders(fields []string) []workOrder {
	var out []workOrder
	for i, f := range fields {
		w := strings.ToLower(codeWord(f))
		if !slices.Contains(orderWords, w) || w == "ahead" && (i+1 == len(fields) || strings.ToLower(fields[i+1]) != "of") {
			continue
		}
		a, b := tasksAround(fields, i)
		epics := false
		if a == "" {
			a, b = epicsAround(fields, i)
			epics = true
		}
		if a == "" {
			continue
		}
		if w == "after" {
			a, b = b, a
		}
		out = append(out, workOrder{a, b, epics})
	}
	return out
}

// taskWord gives a question's field as a task is named in it: lower
// case, without quotes, brackets or a possessive ("gqc.7's").
func taskWord(f string) string {
	w := strings.ToLower(codeWord(f))
	if t, ok := strings.CutSuffix(w, "'s"); ok {
		return t
	}
	return strings.TrimSuffix(w, "’s")
}

// taskName reports whether w names a task of an epic: a bead with its
// number (spotter-a0y.3), or its epic's id and number alone (a0y.3).
func taskName(w string) bool {
	base, num, ok := strings.Cut(w, ".")
	if !ok || num == "" || strings.IndexFunc(num, func(r rune) bool { return !unicode.IsDigit(r) }) >= 0 {
		return false
	}
	if strings.Contains(base, "-") {
		return workName(w)
	}
	return len(base) >= 2 && len(base) <= 4 && strings.IndexFunc(base, unicode.IsLetter) >= 0 &&
		strings.IndexFunc(base, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) < 0
}

// taskID gives a task's epic id and number (a0y.3 for spotter-a0y.3).
func taskID(task string) string { return task[strings.LastIndexByte(task, '-')+1:] }

// epicOf gives the id of a task's epic (a0y for spotter-a0y.3).
func epicOf(task string) string {
	epic, _, _ := strings.Cut(taskID(task), ".")
	return epic
}

// holdsWorkOrder reports whether memory closed the first task before the
// other, or cannot tell: a task it never closed, two closed by one
// command, or more records of the epic than workScan.
func (ix *Index) holdsWorkOrder(o workOrder) bool {
	if o.epics {
		return ix.holdsEpicOrder(o)
	}
	first, then := "", ""
	complete := ix.epicCommands(epicOf(o.first), func(f l1Fields) bool {
		for _, task := range tasksClosed(f.cmd) {
			switch {
			case closes(task, o.first) && (first == "" || f.ts < first):
				first = f.ts
			case closes(task, o.then) && (then == "" || f.ts < then):
				then = f.ts
			}
		}
		return true
	})
	return !complete || first == "" || then == "" || first <= then
}

// epicCommands calls each with the shell commands (L1's Bash records) of
// the records holding an epic's id, until each returns false; it reports
// whether it read them all, which past workScan records it does not.
func (ix *Index) epicCommands(epic string, each func(f l1Fields) bool) bool {
	read := 0
	for at, d := range ix.docsHolding(epic) {
		if read++; read > workScan {
			return false
		}
		if d.Layer != layerL1 || d.Kind != kindTool {
			continue
		}
		if f, _ := ix.l1Record(at, d); f.tool == "Bash" && !each(f) {
			return true
		}
	}
	return true
}

// closes reports whether a task a command closed is the one a question
// names, whole or by its epic's id and number.
func closes(closed, named string) bool {
	return closed == named || !strings.Contains(named, "-") && taskID(closed) == named
}

// tasksClosed gives the tasks a shell command closes: bd close's
// arguments, in each of its commands.
func tasksClosed(cmd string) []string {
	var out []string
	for _, part := range commandParts(strings.ToLower(cmd)) {
		args := commandWords(part)
		if len(args) < 3 || args[0] != "bd" || args[1] != "close" {
			continue
		}
		for _, a := range args[2:] {
			if strings.HasPrefix(a, "-") {
				break
			}
			out = append(out, strings.Trim(a, `"'`))
		}
	}
	return out
}

// Dependencies. A question may say one task of an epic waited on another:
// "why was spotter-gqc.4 blocked until spotter-gqc.5 was done", "why did
// spotter-0p7.1 end up depending on spotter-0p7.2". Memory that saw the
// dependency added holds the command (bd dep add spotter-0p7.2
// spotter-0p7.1: the first depends on the second); memory that saw the
// work done closed the task depended on first. A dependency memory
// added the other way round, or work it closed in the other order, never
// waited so (three sets, each from a helper of its own, turned a
// dependency of an epic round).

// dependency is a task a question says depended on another.
type dependency struct{ task, on string }

func (d dependency) String() string { return d.task + " depends on " + d.on }

// dependWords say that the task before them depended on the task after
// them, with the word that must follow each: "depends on", "blocked by",
// "blocked until", "waited for"; blockWords that the task after them
// depended on the task before ("gqc.4 blocks gqc.5").
var (
	dependWords = map[string][]string{
		"depend": {"on", "upon"}, "depends": {"on", "upon"}, "depended": {"on", "upon"}, "depending": {"on", "upon"},
		"blocked": {"by", "on", "until"}, "wait": {"for", "on", "until"}, "waited": {"for", "on", "until"}, "waiting": {"for", "on", "until"},
		"waits": {"for", "on", "until"},
	}
	blockWords = []string{"blocks", "block"}
)

// dependencies gives the dependencies of two tasks of one epic a
// question's fields state, each task as the question names it; a
// dependency denied just before ("wasn't blocked by") is none.
func dependencies(fields []string) []dependency {
	var out []dependency
	for i, f := range fields {
		w := strings.ToLower(codeWord(f))
		follow, depends := dependWords[w]
		if depends && (i+1 == len(fields) || !slices.Contains(follow, strings.ToLower(fields[i+1]))) ||
			!depends && !slices.Contains(blockWords, w) || denied(fields, i, keepNegReach) {
			continue
		}
		a, b := tasksAround(fields, i)
		if a == "" || b == "" {
			continue
		}
		if depends {
			out = append(out, dependency{a, b})
		} else {
			out = append(out, dependency{b, a})
		}
	}
	return out
}

// tasksAround gives the tasks of one epic a question names on either side
// of fields[i], within orderReach words and its clause: the nearest of
// each side.
func tasksAround(fields []string, i int) (before, after string) {
	for j := i - 1; j >= 0 && j >= i-orderReach && before == ""; j-- {
		if strings.ContainsAny(fields[j], ",;?") && j < i-1 {
			break
		}
		if t := taskWord(fields[j]); taskName(t) {
			before = t
		}
	}
	for j := i + 1; j < len(fields) && j <= i+orderReach && after == ""; j++ {
		if t := taskWord(fields[j]); taskName(t) {
			after = t
		}
		if strings.ContainsAny(fields[j], ",;?") {
			break
		}
	}
	if before == "" || after == "" || epicOf(before) != epicOf(after) || taskID(before) == taskID(after) {
		return "", ""
	}
	return before, after
}

// Two epics. A question may say one epic's work came before another's:
// "why did we build the active-session registry (spotter-a0y) before we
// put OTEL spans on the hook controllers (spotter-4te)". Memory that saw
// the work closed the tasks of each; memory that closed every task of
// the first after every task of the other never saw that order (a
// never-happened set turned spotter-4te and spotter-a0y round).

// epicReach is how many words on either side of its word an epic of an
// ordering may be: a bead's id in brackets after what it did ("before
// we put OTEL spans on the hook controllers (spotter-4te)").
const epicReach = 10

// epicsAround gives the epics (a bead's id with no task number:
// spotter-a0y) a question names on either side of fields[i], within
// epicReach words and its clause: the nearest of each side, when they
// are two.
func epicsAround(fields []string, i int) (before, after string) {
	epic := func(f string) string {
		if t := taskWord(f); strings.Contains(t, "-") && !strings.ContainsAny(t, "./") && workName(t) {
			return t
		}
		return ""
	}
	for j := i - 1; j >= 0 && j >= i-epicReach && before == ""; j-- {
		if strings.ContainsAny(fields[j], ",;?") && j < i-1 {
			break
		}
		before = epic(fields[j])
	}
	for j := i + 1; j < len(fields) && j <= i+epicReach && after == ""; j++ {
		after = epic(fields[j])
		if strings.ContainsAny(fields[j], ",;?") {
			break
		}
	}
	if before == "" || after == "" || epicOf(before) == epicOf(after) {
		return "", ""
	}
	return before, after
}

// holdsEpicOrder reports whether memory closed a task of the first epic
// before the last it closed of the other, or cannot tell: an epic none
// of whose tasks it closed, or more records of either than workScan.
func (ix *Index) holdsEpicOrder(o workOrder) bool {
	// closedAt gives when memory first (or last) closed the epic or a
	// task of it, and whether it read all the epic's records.
	closedAt := func(epic string, last bool) (string, bool) {
		at := ""
		complete := ix.epicCommands(epicOf(epic), func(f l1Fields) bool {
			for _, task := range tasksClosed(f.cmd) {
				if task != epic && !strings.HasPrefix(task, epic+".") {
					continue
				}
				if at == "" || !last && f.ts < at || last && f.ts > at {
					at = f.ts
				}
			}
			return true
		})
		return at, complete
	}
	first, ok1 := closedAt(o.first, false)
	then, ok2 := closedAt(o.then, true)
	return !ok1 || !ok2 || first == "" || then == "" || first <= then
}

// holdsDependency reports whether memory holds d, or cannot tell: a
// dependency added as d says is held, one added the other way round is
// not, and without either the work is judged by the order memory closed
// it in (holdsWorkOrder).
func (ix *Index) holdsDependency(d dependency) bool {
	added, reversed := false, false
	complete := ix.epicCommands(epicOf(d.task), func(f l1Fields) bool {
		for _, a := range dependenciesAdded(f.cmd) {
			added = added || closes(a.task, d.task) && closes(a.on, d.on)
			reversed = reversed || closes(a.task, d.on) && closes(a.on, d.task)
		}
		return !added && !reversed
	})
	switch {
	case !complete || added:
		return true
	case reversed:
		return false
	}
	return ix.holdsWorkOrder(workOrder{first: d.on, then: d.task})
}

// dependenciesAdded gives the dependencies a shell command adds: bd dep
// add's task and the task it depends on, in each of its commands.
func dependenciesAdded(cmd string) []dependency {
	var out []dependency
	for _, part := range commandParts(strings.ToLower(cmd)) {
		args := commandWords(part)
		if len(args) >= 5 && args[0] == "bd" && args[1] == "dep" && args[2] == "add" {
			out = append(out, dependency{strings.Trim(args[3], `"'`), strings.Trim(args[4], `"'`)})
		}
	}
	return out
}
