package health

import (
	"slices"
	"strings"
)

// eventGrouper deduplicates a diagnosis's events, oldest first, and
// groups the events of one cause across pods: events about pods (of the
// one workload a diagnosis is about) that differ only in the pod (its
// name and UID in the note, as the kubelet's "Back-off restarting failed
// container main in pod web-7d9c-abcde_shop(UID)") are one, with the
// number of pods and the sum of their counts. Events with distinct notes
// stay distinct. A group takes the place of its latest event.
type eventGrouper struct{ groups []eventGroup }

// eventGroup is one event line: the events that share key.
type eventGroup struct {
	Event
	key string
	// note is the note with the pod's UID and name replaced by
	// eventUIDMark and eventPodMark (a pod's event), else Note.
	note string
	pods []string
}

// Marks of a pod's UID and name in a group's note; a note read from the
// cluster has no control characters left (masker.text), so they are
// never in one.
const (
	eventUIDMark = "\x00uid\x00"
	eventPodMark = "\x00pod\x00"
)

// add adds the event ev (Count set; Note masked) about the object whose
// UID is uid ("" when the event does not say).
func (g *eventGrouper) add(ev Event, uid string) {
	grp := eventGroup{Event: ev, note: ev.Note}
	kind, name, _ := strings.Cut(ev.Object, "/")
	if kind == "Pod" {
		if uid != "" {
			grp.note = strings.ReplaceAll(grp.note, uid, eventUIDMark)
		}
		grp.note = strings.ReplaceAll(grp.note, name, eventPodMark)
		grp.pods = []string{name}
		grp.key = "Pod\x00" + ev.Reason + "\x00" + grp.note
	} else {
		grp.key = ev.Object + "\x00" + ev.Reason + "\x00" + ev.Note
	}
	if j := slices.IndexFunc(g.groups, func(o eventGroup) bool { return o.key == grp.key }); j >= 0 {
		old := g.groups[j]
		grp.Count += old.Count
		grp.pods = old.pods
		if kind == "Pod" && !slices.Contains(grp.pods, name) {
			grp.pods = append(grp.pods, name)
		}
		g.groups = slices.Delete(g.groups, j, j+1)
	}
	g.groups = append(g.groups, grp)
}

// events returns the groups as events, oldest first: a group of several
// pods names them "Pod/web-7d9c-*" (their names' common prefix, up to its
// last "-") with Pods set, and its note has the pod's name replaced so
// and its UID replaced by "*".
func (g *eventGrouper) events() []Event {
	out := make([]Event, 0, len(g.groups))
	for _, grp := range g.groups {
		ev := grp.Event
		if len(grp.pods) > 1 {
			pattern := eventPodPattern(grp.pods)
			ev.Object = "Pod/" + pattern
			ev.Pods = len(grp.pods)
			ev.Note = strings.ReplaceAll(strings.ReplaceAll(grp.note, eventUIDMark, "*"), eventPodMark, pattern)
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
