package render

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/notify"
)

// NotifyWords are what kubeplan serve's notifications say (notify.Words):
// the events' summary line, the webhook payloads (json, slack, teams),
// the commit status and the drift issue. notify delivers them; serve
// hands these to notify.Config.Words.
type NotifyWords struct{}

var _ notify.Words = NotifyWords{}

// Payload is a webhook's request body for e in format: "json" (or "",
// the versioned payload, e itself), "slack" or "teams".
func (NotifyWords) Payload(format string, e notify.Event) ([]byte, error) {
	switch format {
	case "", "json":
		return marshalCompact(e)
	case "slack":
		return slackPayload(e)
	case "teams":
		return teamsPayload(e)
	}
	return nil, fmt.Errorf("--notify-format %q: want one of %s", format, strings.Join(notify.Formats, ", "))
}

// marshalCompact is json.Marshal without escaping <, > and & (the
// payloads are not HTML).
func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encodeJSON(&b, v, "", false); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Summary is the notification's one line:
//
//	kubeplan: project store is failing (revision 0123456, cluster prod, namespace store): the error's first line
//	kubeplan: project store is failing (...): deployment.apps/web: CrashLoopBackOff: container main exit code 1 (2 pods)
//	kubeplan: project store is failing (...): stopped at stage wave 1: job.batch/migrate: BackoffLimitExceeded: ...
//	kubeplan: project store recovered (...) after failing for 3m0s: 1 applied, 0 pruned, 9 unchanged
func (NotifyWords) Summary(e notify.Event) string {
	var b strings.Builder
	if e.Kind == notify.KindYieldSuggested {
		return yieldSummary(e)
	}
	if e.Kind == notify.KindFailing {
		fmt.Fprintf(&b, "kubeplan: project %s is failing", e.Project)
	} else {
		fmt.Fprintf(&b, "kubeplan: project %s recovered", e.Project)
	}
	if where := notifyWhere(e); where != "" {
		fmt.Fprintf(&b, " (%s)", where)
	}
	if e.Kind == notify.KindFailing {
		first, _, _ := strings.Cut(e.Error, "\n")
		if e.Stage != "" {
			// A failed ordered run says its stage first; the error of
			// one (serve's, apply.StageText) leads with it already.
			b.WriteString(": stopped at stage " + e.Stage)
			first = strings.TrimPrefix(first, "stage "+e.Stage+": ")
		}
		if len(e.Failures) > 0 {
			fmt.Fprintf(&b, ": %s", failuresLine(e.Failures, 300))
		} else if first != "" {
			fmt.Fprintf(&b, ": %s", truncate(first, 300))
		}
		return b.String()
	}
	if !e.FailingSince.IsZero() && !e.End.IsZero() && e.End.After(e.FailingSince) {
		fmt.Fprintf(&b, " after failing for %s", e.End.Sub(e.FailingSince).Round(time.Second))
	}
	fmt.Fprintf(&b, ": %d applied, %d pruned, %d unchanged", e.Applied, e.Pruned, e.Unchanged)
	return b.String()
}

// notifyWhere names the revision, cluster and namespace, those that are known.
func notifyWhere(e notify.Event) string {
	var parts []string
	if e.Revision != "" {
		parts = append(parts, "revision "+abbrev(e.Revision))
	}
	if e.Cluster != "" {
		parts = append(parts, "cluster "+e.Cluster)
	}
	if e.Namespace != "" {
		parts = append(parts, "namespace "+e.Namespace)
	}
	return strings.Join(parts, ", ")
}

// abbrev is a revision as git shows it abbreviated: its first 7
// characters.
func abbrev(rev string) string {
	if len(rev) > 7 {
		return rev[:7]
	}
	return rev
}

// notifyFacts are the name/value pairs the chat formats show.
func notifyFacts(e notify.Event) [][2]string {
	var out [][2]string
	add := func(name, value string) {
		if value != "" {
			out = append(out, [2]string{name, value})
		}
	}
	add("Project", e.Project)
	add("Revision", abbrev(e.Revision))
	add("Cluster", e.Cluster)
	add("Namespace", e.Namespace)
	add("ApplySet", e.ApplySet)
	run := "new revision"
	if e.Scheduled {
		run = "drift repair (scheduled)"
	}
	add("Run", run)
	if e.Kind == notify.KindFailing && e.Stage != "" {
		add("Stopped at", "stage "+e.Stage)
	}
	if e.Kind == notify.KindFailing && len(e.Failures) > 0 {
		add("Reason", failureReasons(e.Failures))
	}
	if e.Kind == notify.KindYieldSuggested {
		add("Suggestion", strings.Join(e.Hints, "\n"))
	}
	if e.Kind == notify.KindRecovered {
		add("Result", fmt.Sprintf("%d applied, %d pruned, %d unchanged", e.Applied, e.Pruned, e.Unchanged))
	}
	if !e.FailingSince.IsZero() {
		add("Failing since", e.FailingSince.Format(time.RFC3339))
	}
	return out
}

// notifyTitle is the chat formats' heading.
func notifyTitle(e notify.Event) string {
	if e.Kind == notify.KindYieldSuggested {
		return "kubeplan: " + e.Project + ": a field keeps being taken back"
	}
	return "kubeplan: " + e.Project + byKind(e, " is failing", " recovered")
}

// byKind is failing for a failing notification, recovered for one that
// says the project recovered.
func byKind(e notify.Event, failing, recovered string) string {
	if e.Kind == notify.KindRecovered {
		return recovered
	}
	return failing
}

// failuresLine is the first failure's summary, and how many others
// failed, in at most n characters.
func failuresLine(fs []notify.Failure, n int) string {
	s := fs[0].Summary
	if len(fs) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(fs)-1)
	}
	return truncate(s, n)
}

// failureReasons are the failures' distinct reasons: "CrashLoopBackOff,
// ImagePullBackOff".
func failureReasons(fs []notify.Failure) string {
	var out []string
	for _, f := range fs {
		if f.Reason != "" && !slices.Contains(out, f.Reason) {
			out = append(out, f.Reason)
		}
	}
	return strings.Join(out, ", ")
}

// failuresText is one line per failure, with where it is defined:
//
//	deployment.apps/web: CrashLoopBackOff: container main exit code 1 (2 pods) (at deploy/web.yaml:1:1)
func failuresText(fs []notify.Failure) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Summary)
		if f.Source != "" {
			fmt.Fprintf(&b, " (at %s)", f.Source)
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
