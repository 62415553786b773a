package guard

import (
	"fmt"
	"strings"
)

// Approve sets the Approval of each require-approval verdict an approval
// names by its rule (the first that does) and returns the verdicts that
// are still pending, in order. A verdict approved already keeps its
// approval.
func Approve(vs []Verdict, as []Approval) []Verdict {
	var pending []Verdict
	for i := range vs {
		v := &vs[i]
		if v.Outcome != RequireApproval {
			continue
		}
		if v.Approval == nil {
			for j := range as {
				if as[j].Rule == v.Rule {
					a := as[j]
					v.Approval = &a
					break
				}
			}
		}
		if v.Approval == nil {
			pending = append(pending, *v)
		}
	}
	return pending
}

// Denied returns the deny verdicts.
func Denied(vs []Verdict) []Verdict {
	var out []Verdict
	for _, v := range vs {
		if v.Outcome == Deny {
			out = append(out, v)
		}
	}
	return out
}

// ParseApproval reads --approve's RULE=REASON (Via "flag"); the rule and
// the reason are trimmed and must not be empty.
func ParseApproval(s string) (Approval, error) {
	rule, reason, ok := strings.Cut(s, "=")
	rule, reason = strings.TrimSpace(rule), strings.TrimSpace(reason)
	if !ok || rule == "" || reason == "" {
		return Approval{}, fmt.Errorf("--approve %q: want RULE=REASON, such as --approve protect-pvc='the data moved to the new volume'", s)
	}
	if !ruleName().MatchString(rule) {
		return Approval{}, fmt.Errorf("--approve %q: %q is not a rule's name: want RULE=REASON with the name a verdict shows, such as protect-pvc", s, rule)
	}
	return Approval{Rule: rule, Reason: reason, Via: "flag"}, nil
}

// Has says whether the set has a rule of that name (switched on), so an
// --approve naming no rule (a typo) can be refused rather than ignored.
func (s *Set) Has(name string) bool {
	if s.ready() != nil {
		return false
	}
	for _, rs := range [][]*compiled{s.change, s.plan} {
		for _, r := range rs {
			if r.rule.Name == name {
				return true
			}
		}
	}
	return false
}
