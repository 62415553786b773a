package ghcomment

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxChars is the longest comment body GitHub accepts, in characters.
const MaxChars = 65536

// Marker is the hidden first line that identifies kubeplan's plan comment
// for one cluster, namespace and ApplySet, e.g.
//
//	<!-- kubeplan:plan cluster=prod namespace=store applyset=configmap/gitops-applyset -->
//
// so that plans of the same namespace and ApplySet on two clusters keep a
// comment each. An empty cluster, namespace or applyset is written as "-".
func Marker(cluster, namespace, applySet string) string {
	return fmt.Sprintf("<!-- kubeplan:plan cluster=%s namespace=%s applyset=%s -->",
		markerValue(cluster), markerValue(namespace), markerValue(applySet))
}

// ScopeMarker is the hidden first line of the one comment a run over many
// projects keeps, e.g.
//
//	<!-- kubeplan:plan scope=acme/shop:kubeplan.yaml -->
//
// The scope names what the run covers; the caller builds it from the
// repository and the config file, plus a name when one pull request runs
// several of them. An empty scope is written as "-".
func ScopeMarker(scope string) string {
	return fmt.Sprintf("<!-- kubeplan:plan scope=%s -->", markerValue(scope))
}

// markerValue keeps a value on one line and unable to end the HTML comment.
func markerValue(s string) string {
	if s == "" {
		return "-"
	}
	return strings.NewReplacer(" ", "_", "\n", "_", "\r", "_", "\t", "_", ">", "_", "-->", "__>").Replace(s)
}

// HasMarker reports whether body is the comment marker names: its first
// line, leading white space aside, is exactly the marker.
func HasMarker(body, marker string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(body, " \t\r\n"), "\n")
	return strings.TrimRight(first, " \t\r") == marker
}

// Body is the comment: the marker line, then markdown. When that is longer
// than MaxChars characters, markdown is cut at a line boundary, a code
// fence or <details> block left open by the cut is closed, and a note says
// the full text is at fullURL (the job summary; "" when unknown).
func Body(marker, markdown, fullURL string) string {
	head := marker + "\n"
	if utf8.RuneCountInString(head)+utf8.RuneCountInString(markdown) <= MaxChars {
		return head + markdown
	}
	where := "the job summary"
	if fullURL != "" {
		where = "[the job summary](" + fullURL + ")"
	}
	note := fmt.Sprintf("\n> ⚠️ Cut to stay under GitHub's 65,536-character limit for comments; the full plan is in %s.\n", where)
	budget := MaxChars - utf8.RuneCountInString(head) - utf8.RuneCountInString(note)
	for {
		kept := cutLines(markdown, budget)
		out := head + kept + closeOpen(kept) + note
		over := utf8.RuneCountInString(out) - MaxChars
		if over <= 0 || budget <= 0 {
			return out
		}
		budget -= over // what closes the open blocks needs room too
	}
}

// cutLines returns the longest prefix of s made of whole lines (each ending
// in a newline) that has at most n characters.
func cutLines(s string, n int) string {
	chars, end := 0, 0
	for i, r := range s {
		if chars == n {
			break
		}
		chars++
		if r == '\n' {
			end = i + 1
		}
	}
	return s[:end]
}

// closeOpen returns what closes a code fence and <details> blocks that s
// leaves open, so the note after it is shown as text.
func closeOpen(s string) string {
	fence := ""
	details := 0
	for line := range strings.SplitSeq(s, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
				fence = ""
			}
			continue
		}
		if run := len(t) - len(strings.TrimLeft(t, "`")); run >= 3 {
			fence = t[:run]
			continue
		}
		details += strings.Count(t, "<details>") - strings.Count(t, "</details>")
	}
	var b strings.Builder
	if fence != "" {
		b.WriteString(fence + "\n")
	}
	for range max(0, details) {
		b.WriteString("\n</details>\n")
	}
	return b.String()
}
