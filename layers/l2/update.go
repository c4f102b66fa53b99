package l2

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/memkeep/memkeep/internal/extcmd"
	"github.com/memkeep/memkeep/layers/l1"
)

// Evaluator scores candidate exchanges in place of the heuristic: it
// returns a significance 0–1 per exchange id. Ids it leaves out keep the
// heuristic score.
type Evaluator func(cands []Exchange) (map[string]float64, error)

// CommandEvaluator runs an external command (for example a small model
// through `claude -p`) as an Evaluator: the candidates go to its standard
// input as a JSON array of {id, summary, details, files, commands, type,
// significance}, and it answers on standard output with a JSON object
// {"<id>": <significance>, …}. The command runs with sh -c, at most
// timeout long.
func CommandEvaluator(command string, timeout time.Duration) Evaluator {
	return func(cands []Exchange) (map[string]float64, error) {
		type brief struct {
			ID           string   `json:"id"`
			Summary      string   `json:"summary"`
			Details      string   `json:"details"`
			Files        []string `json:"files"`
			Commands     []string `json:"commands,omitempty"`
			Type         string   `json:"type"`
			Significance float64  `json:"significance"`
		}
		in := make([]brief, len(cands))
		for i, c := range cands {
			in[i] = brief{c.ID, c.Summary, c.Details, c.Files, c.Commands, c.Type, c.Significance}
		}
		body, _ := json.Marshal(in)
		cmd := extcmd.Command(timeout, "sh", "-c", command)
		cmd.Stdin = bytes.NewReader(body)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("evaluator %q: %w: %s", command, err, bytes.TrimSpace(errb.Bytes()))
		}
		var scores map[string]float64
		if err := json.Unmarshal(out.Bytes(), &scores); err != nil {
			return nil, fmt.Errorf("evaluator %q: its output is not a JSON object of id → significance (like {\"x-1a2b3c4d\": 0.7}): %v", command, err)
		}
		for id, s := range scores {
			if s < 0 || s > 1 {
				return nil, fmt.Errorf("evaluator %q: significance %v of %s is outside 0–1", command, s, id)
			}
		}
		return scores, nil
	}
}

// UpdateResult counts what Update changed in the file.
type UpdateResult struct {
	Added, Changed, Removed int
	Linked                  int   // new conscious ↔ subconscious links
	EvalErr                 error // the evaluator failed; heuristic scores were used
}

// Changes is the total of records touched.
func (r UpdateResult) Changes() int { return r.Added + r.Changed + r.Removed + r.Linked }

// UpdateOptions tune Update.
type UpdateOptions struct {
	Evaluator Evaluator            // nil: the heuristic scores
	Skip      func(id string) bool // records a person forgot: never extracted again
}

// Update brings the file's subconscious exchanges up to date with the
// session's L1 records: it extracts them again (ids are stable, so a
// grown exchange is updated in place), keeps what people and reflection
// attached to them (concept, links, convergence), converges them with the
// conscious records, and drops those under MinSignificance. Consolidated
// then covers every L1 line.
func (f *File) Update(recs []l1.Record, base string, opts UpdateOptions) UpdateResult {
	return f.UpdateExtracted(Extract(recs, base), len(recs), base, opts)
}

// UpdateExtracted is Update from the extraction already made: fresh is
// Extract of the session's L1 (in its order; the caller may leave out
// records whose leaving out changes nothing, see consolidate's
// incremental extraction) and lines the number of L1 records. The
// records of fresh become the file's.
func (f *File) UpdateExtracted(fresh []Exchange, lines int, base string, opts UpdateOptions) UpdateResult {
	var res UpdateResult
	eval := opts.Evaluator
	if opts.Skip != nil {
		fresh = slices.DeleteFunc(fresh, func(e Exchange) bool { return opts.Skip(e.ID) })
	}
	if eval != nil && len(fresh) > 0 {
		scores, err := eval(fresh)
		if err != nil {
			res.EvalErr = err
		} else {
			for i := range fresh {
				if s, ok := scores[fresh[i].ID]; ok {
					fresh[i].Significance = round2(s)
					fresh[i].Tags = sortedSet(append(fresh[i].Tags, "evaluated"))
					fresh[i].SetTTL()
				}
			}
		}
	}

	old := map[string]Exchange{}
	var kept []Exchange
	for _, e := range f.Exchanges {
		if e.Source == Subconscious {
			old[e.ID] = e
		} else {
			kept = append(kept, e)
		}
	}
	for i := range fresh {
		e := &fresh[i]
		if o, ok := old[e.ID]; ok {
			e.Concept = o.Concept
			e.Links = o.Links
			if o.Convergent {
				e.Convergent = true
				e.Significance = round2(clamp01(e.Significance + ConvergenceBoost))
			}
		}
		e.Normalize()
	}
	linkCorrections(fresh)
	f.Exchanges = append(kept, fresh...)
	res.Linked = Converge(f)

	var out []Exchange
	seen := map[string]bool{}
	for _, e := range f.Exchanges {
		if e.Source == Subconscious {
			if e.Significance < MinSignificance && !e.Convergent {
				continue
			}
			seen[e.ID] = true
			o, existed := old[e.ID]
			switch {
			case !existed:
				res.Added++
			case sameContent(o, e):
				e.Updated = o.Updated
			default:
				res.Changed++
			}
		}
		out = append(out, e)
	}
	for id := range old {
		if !seen[id] {
			res.Removed++
		}
	}
	f.Exchanges = out
	f.Consolidated = lines
	f.L1 = L1Name(base)
	return res
}

// sameContent compares two records except for their updated time.
func sameContent(a, b Exchange) bool {
	// Field by field, not by encoding both: Stop compares every record
	// of a long session each turn. A nil list is an empty one, as in JSON.
	// TestSameContentSeesEveryField keeps this in step with Exchange.
	return a.ID == b.ID && a.Summary == b.Summary && a.Details == b.Details &&
		slices.Equal(a.Files, b.Files) && slices.Equal(a.Read, b.Read) && slices.Equal(a.Commands, b.Commands) &&
		slices.Equal(a.Keywords, b.Keywords) && a.L1Range == b.L1Range && a.Source == b.Source &&
		a.Significance == b.Significance && a.Type == b.Type && slices.Equal(a.Tags, b.Tags) &&
		a.Rule == b.Rule && a.Problem == b.Problem && a.Fix == b.Fix && slices.Equal(a.MoreProblems, b.MoreProblems) && a.TTLDays == b.TTLDays &&
		a.Expires == b.Expires && a.Concept == b.Concept && a.Convergent == b.Convergent &&
		slices.Equal(a.Links, b.Links) && a.Created == b.Created && a.File == b.File && a.Lines == b.Lines
}

// linkCorrections links each correction among fresh (memkeep's records,
// in L1 order) to the work it corrects: the record before it, so that a
// reader of the correction finds what it set right.
func linkCorrections(fresh []Exchange) {
	for i := 1; i < len(fresh); i++ {
		if fresh[i].Type != TypeCorrection || fresh[i].IsFact() {
			continue
		}
		j := i - 1
		for j >= 0 && fresh[j].IsFact() {
			j--
		}
		if j >= 0 {
			fresh[i].Links = sortedSet(append(fresh[i].Links, fresh[j].ID))
		}
	}
}
