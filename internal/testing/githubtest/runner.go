package githubtest

import (
	"strings"
	"unicode"
)

// RunnerCommands returns the lines of log (a step's stdout or stderr, or
// both as one pipe) that the GitHub Actions runner would take for workflow
// commands, in order, following its ActionCommandManager, and erring on the
// side of finding a command:
//
//   - lines end at "\n", "\r" or "\r\n";
//   - a line is a command when, with leading white space and characters a
//     culture-aware comparison may ignore (control and format characters,
//     combining marks) dropped, it starts with "::" and a name; or when,
//     with those characters dropped anywhere, it holds "##[" and a name
//     ended by "]". The runner also requires the name to be a known one;
//     this does not, so any name counts;
//   - "::stop-commands::TOKEN" stops processing until a command named TOKEN
//     (case aside); the lines in between are not commands, and neither the
//     stop nor the resume is returned.
func RunnerCommands(log string) []string {
	var out []string
	stopToken := ""
	for _, line := range splitRunnerLines(log) {
		name, data, ok := parseCommand(line)
		if !ok {
			continue
		}
		if stopToken != "" {
			if strings.EqualFold(name, stopToken) {
				stopToken = ""
			}
			continue
		}
		if strings.EqualFold(name, "stop-commands") {
			stopToken = data
			if stopToken == "" {
				stopToken = "\x00" // never resumed by a name
			}
			continue
		}
		out = append(out, line)
	}
	return out
}

// splitRunnerLines splits log as .NET's StreamReader.ReadLine does.
func splitRunnerLines(log string) []string {
	log = strings.ReplaceAll(log, "\r\n", "\n")
	return strings.FieldsFunc(log, func(r rune) bool { return r == '\n' || r == '\r' })
}

// parseCommand returns the name and data of the command line is, v2
// ("::name props::data") first, then v1 ("##[name props]data").
func parseCommand(line string) (name, data string, ok bool) {
	bare := strings.Map(func(r rune) rune {
		if runnerIgnorable(r) {
			return -1
		}
		return r
	}, line)
	if v2 := strings.TrimLeftFunc(bare, unicode.IsSpace); strings.HasPrefix(v2, "::") {
		if info, rest, found := strings.Cut(v2[2:], "::"); found {
			name, _, _ = strings.Cut(info, " ")
			if name != "" {
				return name, rest, true
			}
		}
	}
	for rest := bare; ; { // every "##[", not only the runner's first
		i := strings.Index(rest, "##[")
		if i < 0 {
			return "", "", false
		}
		rest = rest[i+3:]
		if info, data, found := strings.Cut(rest, "]"); found {
			if name, _, _ = strings.Cut(info, " "); name != "" {
				return name, data, true
			}
		}
	}
}

func runnerIgnorable(r rune) bool {
	return r != '\t' && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Mn, unicode.Me, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}
