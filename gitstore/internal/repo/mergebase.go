package repo

import (
	"container/heap"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// MergeBase returns the best common ancestors of commits a and b, as
// `git merge-base --all a b` does without a commit-graph: commits are
// painted down from both sides in committer-date order until every commit
// left to visit is below a common one, and common ancestors reachable from
// another one are dropped. The result is sorted newest first; it is empty
// when the histories are unrelated.
func (r *Repo) MergeBase(a, b plumbing.Hash) ([]plumbing.Hash, error) {
	if a == b {
		return []plumbing.Hash{a}, nil
	}
	w := newPainter(r)
	res, err := w.paint(a, []plumbing.Hash{b})
	if err != nil {
		return nil, err
	}
	var cands []*paintNode
	for _, n := range res {
		if n.flags&stale == 0 {
			cands = append(cands, n)
		}
	}
	if len(cands) > 1 {
		if cands, err = r.removeRedundant(cands); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].date > cands[j].date })
	out := make([]plumbing.Hash, len(cands))
	for i, n := range cands {
		out[i] = n.hash
	}
	return out, nil
}

// removeRedundant drops the candidates that are ancestors of another one
// (git's remove_redundant without generation numbers).
func (r *Repo) removeRedundant(cands []*paintNode) ([]*paintNode, error) {
	redundant := make([]bool, len(cands))
	for i := range cands {
		if redundant[i] {
			continue
		}
		var others []plumbing.Hash
		var idx []int
		for j := range cands {
			if j != i && !redundant[j] {
				others = append(others, cands[j].hash)
				idx = append(idx, j)
			}
		}
		w := newPainter(r)
		if _, err := w.paint(cands[i].hash, others); err != nil {
			return nil, err
		}
		if w.nodes[cands[i].hash].flags&parent2 != 0 {
			redundant[i] = true
		}
		for k, h := range others {
			if w.nodes[h].flags&parent1 != 0 {
				redundant[idx[k]] = true
			}
		}
	}
	var out []*paintNode
	for i, n := range cands {
		if !redundant[i] {
			out = append(out, n)
		}
	}
	return out, nil
}

const (
	parent1 uint8 = 1 << iota
	parent2
	stale
	result
)

type paintNode struct {
	hash    plumbing.Hash
	date    int64 // committer time, Unix seconds
	parents []plumbing.Hash
	flags   uint8
}

// painter runs git's paint_down_to_common over commits read on demand.
type painter struct {
	r     *Repo
	nodes map[plumbing.Hash]*paintNode
	queue paintQueue
}

func newPainter(r *Repo) *painter {
	return &painter{r: r, nodes: map[plumbing.Hash]*paintNode{}}
}

func (w *painter) node(h plumbing.Hash) (*paintNode, error) {
	if n, ok := w.nodes[h]; ok {
		return n, nil
	}
	c, err := w.r.Commit(h)
	if err != nil {
		return nil, err
	}
	n := &paintNode{hash: h, date: c.Committer.When.Unix(), parents: c.ParentHashes}
	w.nodes[h] = n
	return n, nil
}

// paint marks the ancestors of one with parent1 and those of twos with
// parent2, and returns the commits found carrying both, in the order
// found; commits below a common one are marked stale.
func (w *painter) paint(one plumbing.Hash, twos []plumbing.Hash) ([]*paintNode, error) {
	n, err := w.node(one)
	if err != nil {
		return nil, err
	}
	n.flags |= parent1
	w.queue.push(n)
	for _, h := range twos {
		n, err := w.node(h)
		if err != nil {
			return nil, err
		}
		n.flags |= parent2
		w.queue.push(n)
	}
	var found []*paintNode
	for w.queue.hasNonStale() {
		c := w.queue.pop()
		flags := c.flags & (parent1 | parent2 | stale)
		if flags == parent1|parent2 {
			if c.flags&result == 0 {
				c.flags |= result
				found = append(found, c)
			}
			flags |= stale
		}
		for _, ph := range c.parents {
			p, err := w.node(ph)
			if err != nil {
				return nil, err
			}
			if p.flags&flags == flags {
				continue
			}
			p.flags |= flags
			w.queue.push(p)
		}
	}
	return found, nil
}

// paintQueue pops the newest commit first; equal dates leave in the order
// they came.
type paintQueue struct {
	items []queued
	ctr   int
}

type queued struct {
	n   *paintNode
	ctr int
}

func (q *paintQueue) push(n *paintNode) {
	heap.Push((*paintHeap)(q), queued{n, q.ctr})
	q.ctr++
}

func (q *paintQueue) pop() *paintNode { return heap.Pop((*paintHeap)(q)).(queued).n }

func (q *paintQueue) hasNonStale() bool {
	for _, it := range q.items {
		if it.n.flags&stale == 0 {
			return true
		}
	}
	return false
}

type paintHeap paintQueue

func (h *paintHeap) Len() int { return len(h.items) }
func (h *paintHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.n.date != b.n.date {
		return a.n.date > b.n.date
	}
	return a.ctr < b.ctr
}
func (h *paintHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *paintHeap) Push(x any)    { h.items = append(h.items, x.(queued)) }
func (h *paintHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}
