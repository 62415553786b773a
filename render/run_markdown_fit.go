package render

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// The layout of the run markdown (RunPlan, RunApplyMarkdown): a head that
// always fits (heading, total, one table row per project), then one
// <details> section per project sharing the bytes left fairly.

// runMdSection is one project's section: a <details> block around content
// that can be made to fit a budget.
type runMdSection struct {
	title string // the <summary> text, plain (escaped when written)
	open  bool   // <details open>
	// content returns the section's markdown in at most budget bytes
	// (math.MaxInt: all of it); "" when not even a short note fits.
	content func(budget int) string
}

// wrap puts content in the section's <details> block; a cut section says
// so in its title.
func (s runMdSection) wrap(content string, cut bool) string {
	title := s.title
	if cut {
		title += " (cut to fit)"
	}
	open := ""
	if s.open {
		open = " open"
	}
	return "\n<details" + open + "><summary>" + mdHTML(title) + "</summary>\n\n" +
		content + "\n</details>\n"
}

// runMdFit writes head, then every section, within limit bytes. When the
// whole does not fit, the room after head is shared max-min fairly
// (fairShares): sections smaller than their share are written whole, the
// others get an equal share each and are cut to it by their content
// function; a section whose frame does not fit its share is left out.
// Only when head alone is too long is the output cut in bytes.
func runMdFit(head string, secs []runMdSection, limit int) string {
	full := make([]string, len(secs))
	sizes := make([]int, len(secs))
	total := len(head)
	for i, s := range secs {
		full[i] = s.wrap(s.content(math.MaxInt), false)
		sizes[i] = len(full[i])
		total += sizes[i]
	}
	if total <= limit {
		return head + strings.Join(full, "")
	}
	shares := fairShares(sizes, limit-len(head))
	var b strings.Builder
	b.WriteString(head)
	for i, s := range secs {
		piece := full[i]
		if shares[i] < sizes[i] {
			piece = s.wrap(s.content(max(0, shares[i]-len(s.wrap("", true)))), true)
		}
		if b.Len()+len(piece) <= limit { // not even the frame fits when room is tiny
			b.WriteString(piece)
		}
	}
	return cutUTF8(b.String(), limit)
}

// fairShares splits room bytes among parts wanting sizes, max-min fairly:
// in increasing order of size, a part smaller than an equal share of what
// is left gets its size, and the rest get that equal share each.
func fairShares(sizes []int, room int) []int {
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sizes[a], sizes[b]) })
	shares := make([]int, len(sizes))
	left := max(0, room)
	for k, i := range order {
		share := left / (len(order) - k)
		if sizes[i] <= share {
			shares[i] = sizes[i]
			left -= sizes[i]
			continue
		}
		for _, j := range order[k:] {
			shares[j] = share
		}
		break
	}
	return shares
}

// fitOrNote returns l fitted to its limit when its head and note fit
// (a layout whose limit is negative never does), else note when it fits
// in budget bytes, else "".
func fitOrNote(l mdLayout, note string, budget int) string {
	if l.limit >= 0 && l.fits() {
		return mdFit(l.head, l.secs, l.limit, l.note)
	}
	if len(note) <= budget {
		return note
	}
	return ""
}
