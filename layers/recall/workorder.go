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

// workOrder is two tasks of one epic a question says were done in this
// order.
type workOrder struct{ first, then string }

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
		a, b := "", ""
		for j := i - 1; j >= 0 && j >= i-orderReach && a == ""; j-- {
			if strings.ContainsAny(fields[j], ",;?") && j < i-1 {
				break
			}
			if t := taskWord(fields[j]); taskName(t) {
				a = t
			}
		}
		for j := i + 1; j < len(fields) && j <= i+orderReach && b == ""; j++ {
			if t := taskWord(fields[j]); taskName(t) {
				b = t
			}
			if strings.ContainsAny(fields[j], ",;?") {
				break
			}
		}
		if a == "" || b == "" || epicOf(a) != epicOf(b) || taskID(a) == taskID(b) {
			continue
		}
		if w == "after" {
			a, b = b, a
		}
		out = append(out, workOrder{a, b})
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
	first, then := "", ""
	read := 0
	for at, d := range ix.docsHolding(epicOf(o.first)) {
		if read++; read > workScan {
			return true
		}
		if d.Layer != layerL1 || d.Kind != kindTool {
			continue
		}
		f, _ := ix.l1Record(at, d)
		if f.tool != "Bash" {
			continue
		}
		for _, task := range tasksClosed(f.cmd) {
			switch {
			case closes(task, o.first) && (first == "" || f.ts < first):
				first = f.ts
			case closes(task, o.then) && (then == "" || f.ts < then):
				then = f.ts
			}
		}
	}
	return first == "" || then == "" || first <= then
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
