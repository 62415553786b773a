package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// Planning is the progress line plan prints (on stderr) when it reads a
// git source: which commit it plans.
func Planning(w io.Writer, rev *source.Revision) {
	if rev != nil {
		fmt.Fprintf(w, "planning %s %s\n", rev.ShortSHA, printable(rev.Subject))
	}
}

// ApplyQuestion is what apply asks in a terminal before it writes, in
// Terraform's words.
func ApplyQuestion(w io.Writer) {
	fmt.Fprint(w, "\nDo you want to perform these actions?\n"+
		"  kubeplan will perform the actions described above.\n"+
		"  Only 'yes' will be accepted to approve.\n\n"+
		"  Enter a value: ")
}

// Version is what kubeplan version prints.
type Version struct {
	Kubeplan string // kubeplan's version
	Commit   string // the source commit, "" when unknown
	Date     string // when it was built (RFC 3339), "" when unknown
	Schemas  string // the Kubernetes version of the built-in schemas
	// APIFrom and APITo are the Kubernetes versions the API index covers.
	APIFrom, APITo string
}

// PrintVersion writes v as one line.
func PrintVersion(w io.Writer, v Version) error {
	var build []string
	if v.Commit != "" {
		build = append(build, "commit "+v.Commit)
	}
	if v.Date != "" {
		build = append(build, "built "+v.Date)
	}
	prefix := ""
	if len(build) > 0 {
		prefix = strings.Join(build, ", ") + "; "
	}
	_, err := fmt.Fprintf(w, "kubeplan %s (%sKubernetes schemas %s, API index %s to %s)\n", v.Kubeplan, prefix, v.Schemas, v.APIFrom, v.APITo)
	return err
}

// Unlocked says what kubeplan unlock did (u is nil when there was no lock).
func Unlocked(w io.Writer, applySet string, u *apply.Unlocked) error {
	if u == nil {
		_, err := fmt.Fprintf(w, "%s is not locked\n", applySet)
		return err
	}
	_, err := fmt.Fprintf(w, "unlocked %s: broke the lock of %s, last renewed %s\n", applySet, u.Holder, u.Renewed.UTC().Format(time.RFC3339))
	return err
}

// Approve asks, as terraform apply does, whether to write (ApplyQuestion
// on w) and reads the answer from in: only "yes" approves, anything else
// is run.ErrNotApproved.
func Approve(in io.Reader, w io.Writer) error {
	ApplyQuestion(w)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(w)
	}
	if strings.TrimSpace(line) != "yes" {
		return run.ErrNotApproved
	}
	fmt.Fprintln(w)
	return nil
}
