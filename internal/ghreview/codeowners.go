package ghreview

import (
	"fmt"
	"strings"
)

// maxCodeownersBytes is GitHub's limit: a larger CODEOWNERS file is not
// loaded at all.
const maxCodeownersBytes = 3 << 20

// Rule is one line of a CODEOWNERS file: a pattern and its owners. A rule
// without owners un-owns what it matches.
type Rule struct {
	Line    int
	Pattern string
	// Users are the @user owners (without "@"), Teams the @org/team ones
	// ("org/team"); email owners are dropped, since a review names a login,
	// not an email.
	Users, Teams []string
	// Emails counts the email owners dropped.
	Emails int

	pat pattern
}

// Codeowners is a parsed CODEOWNERS file.
type Codeowners struct {
	// Path is where it was read (".github/CODEOWNERS").
	Path  string
	Rules []Rule
	// Skipped says which lines were skipped and why (GitHub skips a line
	// it cannot read and uses the others).
	Skipped []string
}

// ParseCodeowners reads a CODEOWNERS file: one rule a line, a pattern then
// owners separated by white space; "#" starts a comment (at the start of
// a line, or after white space); "\ " is a space in a pattern. A line
// whose pattern or an owner cannot be read is skipped, as GitHub does,
// and noted in Skipped.
func ParseCodeowners(path string, data []byte) Codeowners {
	c := Codeowners{Path: path}
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		fields := splitLine(strings.TrimRight(line, "\r"))
		if len(fields) == 0 {
			continue
		}
		pat, err := compilePattern(fields[0])
		if err != nil {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s:%d: pattern %q: %v", path, n, fields[0], err))
			continue
		}
		r := Rule{Line: n, Pattern: fields[0], pat: pat}
		ok := true
		for _, o := range fields[1:] {
			switch {
			case isTeamOwner(o):
				r.Teams = append(r.Teams, strings.ToLower(o[1:]))
			case isUserOwner(o):
				r.Users = append(r.Users, strings.ToLower(o[1:]))
			case isEmailOwner(o):
				r.Emails++
			default:
				c.Skipped = append(c.Skipped, fmt.Sprintf("%s:%d: owner %q is neither @user, @org/team nor an email", path, n, o))
				ok = false
			}
		}
		if ok {
			c.Rules = append(c.Rules, r)
		}
	}
	return c
}

// splitLine returns a line's pattern and owners, without its comment.
func splitLine(line string) []string {
	var fields []string
	var cur strings.Builder
	in := false
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\' && i+1 < len(rs) && (rs[i+1] == ' ' || rs[i+1] == '\t'):
			cur.WriteRune(rs[i+1])
			i++
			in = true
		case c == ' ' || c == '\t':
			if in {
				fields = append(fields, cur.String())
				cur.Reset()
				in = false
			}
		case c == '#' && !in:
			i = len(rs) // a comment runs to the end of the line
		default:
			cur.WriteRune(c)
			in = true
		}
	}
	if in {
		fields = append(fields, cur.String())
	}
	return fields
}

// owners are the owners a path needs to approve it: each set must hold
// the reviewer (a file has one set, a directory one per rule that reaches
// below it). A set is a rule's owners; an empty one means nobody owns.
type owners []*Rule

// FileOwners returns the rule that owns the file path (slash-separated,
// relative to the repository's root): the last that matches, or nil when
// none does. A rule with no owners owns it for nobody.
func (c Codeowners) FileOwners(path string) *Rule {
	segs := splitPath(path)
	for i := len(c.Rules) - 1; i >= 0; i-- {
		if c.Rules[i].pat.matchFile(segs) {
			return &c.Rules[i]
		}
	}
	return nil
}

// dirOwners returns the rules whose owners all own every file below the
// directory path: the last rule that matches everything below it, then
// every later rule that may match something below it. nil (no rule
// covers it) means nobody owns the directory.
func (c Codeowners) dirOwners(path string) owners {
	segs := splitPath(path)
	last := -1
	for i := len(c.Rules) - 1; i >= 0; i-- {
		if c.Rules[i].pat.coversDir(segs) {
			last = i
			break
		}
	}
	if last < 0 {
		return nil
	}
	out := owners{&c.Rules[last]}
	for i := last + 1; i < len(c.Rules); i++ {
		if c.Rules[i].pat.mayMatchBelow(segs) {
			out = append(out, &c.Rules[i])
		}
	}
	return out
}

// splitPath splits a repository path into segments: "./apps/db/" is
// apps, db; "." and "" are the root (none).
func splitPath(p string) []string {
	var out []string
	for s := range strings.SplitSeq(p, "/") {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	return out
}
