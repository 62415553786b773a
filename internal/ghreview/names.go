package ghreview

import "strings"

// The names GitHub gives accounts and teams, and the owners a CODEOWNERS
// line may list, checked by hand rather than by regular expressions: their
// bounded repetitions ({0,38}, {1,100}) made compiling the expressions the
// largest cost of this package when kubeplan starts (names_test.go keeps
// the expressions, and checks these against them).

// isLogin reports whether s is a GitHub account name: 1 to 39 letters,
// digits and hyphens, not starting with a hyphen
// (^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$).
func isLogin(s string) bool {
	if len(s) == 0 || len(s) > 39 || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// isUserOwner reports whether o is "@login".
func isUserOwner(o string) bool {
	rest, ok := strings.CutPrefix(o, "@")
	return ok && isLogin(rest)
}

// isTeamOwner reports whether o is "@org/team": a login, then 1 to 100
// letters, digits, '.', '_' or '-'.
func isTeamOwner(o string) bool {
	rest, ok := strings.CutPrefix(o, "@")
	if !ok {
		return false
	}
	org, team, ok := strings.Cut(rest, "/")
	if !ok || !isLogin(org) || len(team) == 0 || len(team) > 100 {
		return false
	}
	for i := 0; i < len(team); i++ {
		if c := team[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// isEmailOwner reports whether o looks like an email address: one '@'
// with text before it, a '.' after it with text on both sides, and no
// white space.
func isEmailOwner(o string) bool {
	local, domain, ok := strings.Cut(o, "@")
	if !ok || local == "" || strings.ContainsAny(local, " \t\n\f\r") || strings.ContainsAny(domain, "@ \t\n\f\r") {
		return false
	}
	return len(domain) >= 3 && strings.IndexByte(domain[1:len(domain)-1], '.') >= 0
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
