package helm

import (
	"fmt"
	"sort"
	"strings"
	"text/template/parse"

	"github.com/kubeplan/kubeplan/manifest"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// RuleGenerated is the info finding at a template's call of a
// function that makes a new value at every render (see generatingFuncs).
const RuleGenerated = "helm-generated"

// generatedFindings is an info (rule helm-generated) at every call of a
// generating function in the templates of ch and its subcharts, helpers
// included: kubeplan keeps the live value of the fields such a call sets
// when the object exists. A template that does not parse has none (its
// parse error is reported by the render).
func generatedFindings(path string, ch *chart.Chart) []*manifest.Problem {
	var probs []*manifest.Problem
	for _, t := range ch.Templates {
		file := chartFile(path, ch.ChartFullPath()+"/"+t.Name)
		for _, c := range generatingCalls(t.Name, string(t.Data)) {
			probs = append(probs, &manifest.Problem{File: file, Pos: c.pos, Rule: RuleGenerated, Info: true,
				Message: fmt.Sprintf("%s makes a new value at every render: when the object exists, kubeplan keeps the live value of the fields it makes (helm upgrade would change them)", c.name)})
		}
	}
	for _, d := range ch.Dependencies() {
		probs = append(probs, generatedFindings(path, d)...)
	}
	return probs
}

// genAt is one call of a generating function in a template's source.
type genAt struct {
	name string
	pos  manifest.Pos
}

// generatingCalls are the calls of generating functions in text, in
// order of position.
func generatingCalls(name, text string) []genAt {
	if !strings.Contains(text, "{{") || !mentionsGenerating(text) {
		return nil
	}
	t := parse.New(name)
	t.Mode = parse.SkipFuncCheck
	trees := map[string]*parse.Tree{}
	if _, err := t.Parse(text, "", "", trees); err != nil {
		return nil
	}
	seen := map[int]bool{}
	var out []genAt
	for _, tr := range trees {
		walkNodes(tr.Root, func(id *parse.IdentifierNode) {
			if generatingFuncs[id.Ident] && !seen[int(id.Pos)] {
				seen[int(id.Pos)] = true
				out = append(out, genAt{name: id.Ident, pos: manifest.OffsetPos([]byte(text), int(id.Pos))})
			}
		})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pos.Line != out[j].pos.Line {
			return out[i].pos.Line < out[j].pos.Line
		}
		return out[i].pos.Col < out[j].pos.Col
	})
	return out
}

// mentionsGenerating reports whether text holds the name of a generating
// function as a word (an identifier of text/template is a whole run of
// letters, digits and underscores: "now" in "unknown" is none) that may be
// inside an action: a template that does not is not parsed. Grafana
// dashboards say "now-6h" in their text, outside any action.
func mentionsGenerating(text string) bool {
	for name := range generatingFuncs {
		for rest, off := text, 0; ; {
			i := strings.Index(rest, name)
			if i < 0 {
				break
			}
			at := off + i
			if !identByte(text, at-1) && !identByte(text, at+len(name)) && mayBeInAction(text, at) {
				return true
			}
			off = at + 1
			rest = text[off:]
		}
	}
	return false
}

// mayBeInAction reports whether text[at] may be inside a {{ }} action:
// after the last "{{" before it, no "}}" closed that action, or the first
// "}}" comes after a quote, so may be inside a string of the action (then
// it cannot tell, and says yes).
func mayBeInAction(text string, at int) bool {
	open := strings.LastIndex(text[:at], "{{")
	if open < 0 {
		return false
	}
	seg := text[open:at]
	closed := strings.Index(seg, "}}")
	if closed < 0 {
		return true
	}
	q := strings.IndexAny(seg, "\"`'")
	return q >= 0 && q < closed
}

// identByte reports whether text[i] exists and can be part of an
// identifier (non-ASCII bytes count: letters of other scripts can).
func identByte(text string, i int) bool {
	if i < 0 || i >= len(text) {
		return false
	}
	c := text[i]
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// walkNodes calls f for every function identifier under n.
func walkNodes(n parse.Node, f func(*parse.IdentifierNode)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			walkNodes(c, f)
		}
	case *parse.ActionNode:
		walkNodes(n.Pipe, f)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			walkNodes(c, f)
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			walkNodes(a, f)
		}
	case *parse.IdentifierNode:
		f(n)
	case *parse.ChainNode:
		walkNodes(n.Node, f)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, f)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, f)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, f)
	case *parse.TemplateNode:
		walkNodes(n.Pipe, f)
	}
}

func walkBranch(b *parse.BranchNode, f func(*parse.IdentifierNode)) {
	walkNodes(b.Pipe, f)
	walkNodes(b.List, f)
	walkNodes(b.ElseList, f)
}
