package render

import (
	"math"
	"strings"
)

// The layout of the run markdown (RunPlan, RunApplyMarkdown): a head that
// always fits (heading, total, one table row per project), then one
// <details> section per project sharing the bytes left fairly (mdLay,
// mdFair), each cut by its content function (which fits a plan's or an
// apply's sections with the same engine, mdFit).

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
// (mdFair): sections smaller than their share are written whole, the
// others get an equal share each and are cut to it by their content
// function; a section whose frame does not fit the room left is left out.
// Only when head alone is too long is the output cut in bytes.
func runMdFit(head string, secs []runMdSection, limit int) string {
	full := make([]string, len(secs))
	for i, s := range secs {
		full[i] = s.wrap(s.content(math.MaxInt), false)
	}
	parts, _ := mdLay(mdFair, mdParts{n: len(secs),
		size: func(i int) int { return len(full[i]) },
		fit: func(i, share int) (string, int, bool) {
			piece := full[i]
			if share < len(piece) {
				s := secs[i]
				piece = s.wrap(s.content(max(0, share-len(s.wrap("", true)))), true)
			}
			return piece, len(piece), true
		},
	}, limit-len(head))
	return cutUTF8(head+strings.Join(parts, ""), limit)
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
