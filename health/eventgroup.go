package health

import (
	"regexp"
	"slices"
	"strings"
)

// eventGrouper deduplicates a diagnosis's events, oldest first, and groups
// those of one cause:
//
//   - events about pods (of the one workload a diagnosis is about) that
//     differ only in the pod (its name and UID in the note, as the
//     kubelet's "Back-off restarting failed container main in pod
//     web-7d9c-abcde_shop(UID)") are one, with the number of pods and the
//     sum of their counts;
//   - events about an owner that differ only in the generated name of the
//     pod it tried to create (the ReplicaSet controller's `Error creating:
//     pods "web-7d9c-x2k9d" is forbidden: exceeded quota`, and the event
//     recorder's "(combined from similar events): " before it) are one,
//     with the sum of their counts.
//
// Events with distinct notes stay distinct. A group takes the place of
// its latest event.
type eventGrouper struct{ groups []eventGroup }

// eventGroup is one event line: the events that share key.
type eventGroup struct {
	Event
	key string
	// note is the note with the pod's UID and name, or the generated pod
	// names of an owner's event, replaced by marks.
	note string
	pods []string
	// merged: events with different notes are in the group.
	merged bool
}

// Marks in a group's note: a pod's UID and name, the generated pod name
// in an owner's note. A note read from the cluster has no control
// characters left (masker.text), so they are never in one.
const (
	eventUIDMark  = "\x00uid\x00"
	eventPodMark  = "\x00pod\x00"
	eventNameMark = "\x00name\x00"
)

// eventCombined starts the note of an event the recorder's aggregator
// wrote for similar events (k8s.io/client-go/tools/record).
const eventCombined = "(combined from similar events): "

// eventGenerated matches, after an owner's name, the "-" and five
// characters the API server generates for a pod's name
// (k8s.io/apimachinery/pkg/util/rand's alphabet).
const eventGenerated = `-[bcdfghjklmnpqrstvwxz2456789]{5}\b`

// add adds the event ev (Count set; Note masked) about the object whose
// UID is uid ("" when the event does not say).
func (g *eventGrouper) add(ev Event, uid string) {
	grp := eventGroup{Event: ev}
	kind, name, _ := strings.Cut(ev.Object, "/")
	note := strings.TrimPrefix(ev.Note, eventCombined)
	if kind == "Pod" {
		if uid != "" {
			note = strings.ReplaceAll(note, uid, eventUIDMark)
		}
		note = strings.ReplaceAll(note, name, eventPodMark)
		grp.pods = []string{name}
		grp.key = "Pod\x00" + ev.Reason + "\x00" + note
	} else {
		if name != "" {
			note = regexp.MustCompile(regexp.QuoteMeta(name)+eventGenerated).ReplaceAllLiteralString(note, eventNameMark)
		}
		grp.key = ev.Object + "\x00" + ev.Reason + "\x00" + note
	}
	grp.note = note
	if j := slices.IndexFunc(g.groups, func(o eventGroup) bool { return o.key == grp.key }); j >= 0 {
		old := g.groups[j]
		grp.Count += old.Count
		grp.pods = old.pods
		if kind == "Pod" && !slices.Contains(grp.pods, name) {
			grp.pods = append(grp.pods, name)
		}
		grp.merged = old.merged || old.Note != ev.Note
		g.groups = slices.Delete(g.groups, j, j+1)
	}
	g.groups = append(g.groups, grp)
}

// events returns the groups as events, oldest first. A group of several
// pods names them "Pod/web-7d9c-*" (their names' common prefix, up to its
// last "-") with Pods set, its note with the pod's name replaced so and
// its UID by "*"; an owner's group of different notes has the generated
// pod names in its note replaced by "web-7d9c-*". Any other event keeps
// its note.
func (g *eventGrouper) events() []Event {
	out := make([]Event, 0, len(g.groups))
	for _, grp := range g.groups {
		ev := grp.Event
		switch _, name, _ := strings.Cut(ev.Object, "/"); {
		case len(grp.pods) > 1:
			pattern := eventPodPattern(grp.pods)
			ev.Object = "Pod/" + pattern
			ev.Pods = len(grp.pods)
			ev.Note = strings.NewReplacer(eventUIDMark, "*", eventPodMark, pattern).Replace(grp.note)
		case grp.merged && grp.pods == nil:
			ev.Note = strings.ReplaceAll(grp.note, eventNameMark, name+"-*")
		}
		out = append(out, ev)
	}
	return out
}

// eventPodPattern names pods by their common prefix, cut after its last
// "-", and "*": "web-7d9c-*" for web-7d9c-abcde and web-7d9c-fghij,
// "db-*" for db-0 and db-1.
func eventPodPattern(pods []string) string {
	prefix := pods[0]
	for _, p := range pods[1:] {
		n := 0
		for n < len(prefix) && n < len(p) && prefix[n] == p[n] {
			n++
		}
		prefix = prefix[:n]
	}
	if i := strings.LastIndexByte(prefix, '-'); i >= 0 {
		prefix = prefix[:i+1]
	}
	return prefix + "*"
}
