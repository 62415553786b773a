package mutations

import (
	"fmt"
	"strings"
)

// Row compares one offline tool with the API server over one class.
type Row struct {
	Class         Class
	Mutations     int
	BothReject    int
	BothAccept    int
	FalseError    int // the tool rejects what the server accepts
	Miss          int // the server rejects, the tool accepts
	ServerRejects int
}

// Caught is the share of the server's rejections the tool caught.
func (r Row) Caught() float64 {
	if r.ServerRejects == 0 {
		return 1
	}
	return float64(r.BothReject) / float64(r.ServerRejects)
}

// Table compares tool with server, one row per class and a total row
// (Class "total").
func Table(ms []Mutation, server, tool []Verdict) []Row {
	rows := map[Class]*Row{}
	total := &Row{Class: "total"}
	for _, c := range Classes {
		rows[c] = &Row{Class: c}
	}
	for i, m := range ms {
		for _, r := range []*Row{rows[m.Class], total} {
			r.Mutations++
			s, t := server[i].Rejected, tool[i].Rejected
			if s {
				r.ServerRejects++
			}
			switch {
			case s && t:
				r.BothReject++
			case !s && !t:
				r.BothAccept++
			case t:
				r.FalseError++
			default:
				r.Miss++
			}
		}
	}
	var out []Row
	for _, c := range Classes {
		out = append(out, *rows[c])
	}
	return append(out, *total)
}

// Markdown renders kubeplan's and kubeconform's tables side by side.
func Markdown(kp, kc []Row) string {
	var b strings.Builder
	b.WriteString("| class | mutations | server rejects | kubeplan: both reject | both accept | false error | miss | caught | kubeconform: both reject | both accept | false error | miss | caught |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for i := range kp {
		a, c := kp[i], kc[i]
		name := string(a.Class)
		if name == "total" {
			name = "**total**"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %s | %d | %d | %d | %d | %s |\n", name, a.Mutations, a.ServerRejects,
			a.BothReject, a.BothAccept, a.FalseError, a.Miss, pct(a.Caught()), c.BothReject, c.BothAccept, c.FalseError, c.Miss, pct(c.Caught()))
	}
	return b.String()
}

func pct(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }
