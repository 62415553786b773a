package ghreview

import (
	"reflect"
	"strings"
	"testing"
)

// githubExample is the example CODEOWNERS of GitHub's "About code owners"
// page, comments included.
const githubExample = `# This is a comment.
# Each line is a file pattern followed by one or more owners.

# These owners will be the default owners for everything in
# the repo. Unless a later match takes precedence,
# @global-owner1 and @global-owner2 will be requested for
# review when someone opens a pull request.
*       @global-owner1 @global-owner2

# Order is important; the last matching pattern takes the most
# precedence. When someone opens a pull request that only
# modifies JS files, only @js-owner and not the global
# owner(s) will be requested for a review.
*.js    @js-owner #This is an inline comment.

# You can also use email addresses if you prefer. They'll be
# used to look up users just like we do for commit author
# emails.
*.go docs@example.com

# Teams can be specified as code owners as well. Teams should
# be identified in the format @org/team-name. Teams must have
# explicit write access to the repository. In this example,
# the octocats team in the octo-org organization owns all .txt files.
*.txt @octo-org/octocats

# In this example, @doctocat owns any files in the build/logs
# directory at the root of the repository and any of its
# subdirectories.
/build/logs/ @doctocat

# The 'docs/*' pattern will match files like
# 'docs/getting-started.md' but not further nested files like
# 'docs/build-app/troubleshooting.md'.
docs/*  docs@example.com

# In this example, @octocat owns any file in an apps directory
# anywhere in your repository.
apps/ @octocat

# In this example, @doctocat owns any file in the '/docs'
# directory in the root of your repository and any of its
# subdirectories.
/docs/ @doctocat

# In this example, any change inside the '/scripts' directory
# will require approval from @doctocat or @octocat.
/scripts/ @doctocat @octocat

# In this example, @octocat owns any file in a '/logs' directory such as
# '/build/logs', '/scripts/logs', and '/deeply/nested/logs'. Any changes
# in a '/logs' directory will require approval from @octocat.
**/logs @octocat

# In this example, @octocat owns any file in the '/apps'
# directory in the root of your repository except for the '/apps/github'
# subdirectory, as its owners are left empty. Without an owner, changes
# to 'apps/github' can be made with the approval of any user who has
# write access to the repository.
/apps/ @octocat
/apps/github

# In this example, @octocat owns any file in the '/apps'
# directory in the root of your repository except for the '/apps/github'
# subdirectory, as this subdirectory has its own owner @doctocat
/apps/ @octocat
/apps/github @doctocat
`

// TestCodeownersGitHubExample: who owns which file under GitHub's
// example, the last matching line winning.
func TestCodeownersGitHubExample(t *testing.T) {
	co := ParseCodeowners("CODEOWNERS", []byte(githubExample))
	if len(co.Skipped) != 0 {
		t.Fatalf("skipped: %q", co.Skipped)
	}
	for _, c := range []struct {
		path  string
		line  int // of the winning rule; 0: none
		users []string
		teams []string
	}{
		{"README", 8, []string{"global-owner1", "global-owner2"}, nil},
		{"src/app.js", 14, []string{"js-owner"}, nil},
		{"main.go", 19, nil, nil}, // an email: no login owns it
		{"notes/todo.txt", 25, nil, []string{"octo-org/octocats"}},
		{"build/logs/today.log", 53, []string{"octocat"}, nil}, // **/logs comes after /build/logs/
		{"build/logs/2026/today.log", 53, []string{"octocat"}, nil},
		{"docs/getting-started.md", 44, []string{"doctocat"}, nil}, // /docs/ comes after docs/*
		{"src/docs/readme.txt", 25, nil, []string{"octo-org/octocats"}},
		{"src/docs/readme.md", 8, []string{"global-owner1", "global-owner2"}, nil}, // docs/* is anchored
		{"src/apps/web.yaml", 39, []string{"octocat"}, nil},
		{"scripts/deploy.sh", 48, []string{"doctocat", "octocat"}, nil},
		{"deeply/nested/logs/x.log", 53, []string{"octocat"}, nil},
		{"apps/web/deploy.yaml", 66, []string{"octocat"}, nil},
		{"apps/github/deploy.yaml", 67, []string{"doctocat"}, nil},
		{"apps/github", 67, []string{"doctocat"}, nil},
	} {
		r := co.FileOwners(c.path)
		var line int
		var users, teams []string
		if r != nil {
			line, users, teams = r.Line, r.Users, r.Teams
		}
		if line != c.line || !reflect.DeepEqual(users, c.users) || !reflect.DeepEqual(teams, c.teams) {
			t.Errorf("%s: line %d, users %q, teams %q; want line %d, %q, %q", c.path, line, users, teams, c.line, c.users, c.teams)
		}
	}
}

// TestCodeownersUnowned: a line without owners un-owns what it matches.
func TestCodeownersUnowned(t *testing.T) {
	co := ParseCodeowners("CODEOWNERS", []byte("/apps/ @octocat\n/apps/github\n"))
	if r := co.FileOwners("apps/github/x.yaml"); r == nil || r.Line != 2 || len(r.Users)+len(r.Teams) != 0 {
		t.Errorf("apps/github/x.yaml: %+v", r)
	}
	if r := co.FileOwners("apps/web/x.yaml"); r == nil || r.Line != 1 {
		t.Errorf("apps/web/x.yaml: %+v", r)
	}
	if r := co.FileOwners("README.md"); r != nil {
		t.Errorf("README.md: %+v", r)
	}
}

func TestCodeownersSyntax(t *testing.T) {
	co := ParseCodeowners(".github/CODEOWNERS", []byte(strings.Join([]string{
		`path\ with\ spaces/ @space-owner`,
		`!negated @x`,
		`ok/ @Alice @acme/Platform-Team me@example.com # comment`,
		`bad/ @alice not-an-owner`,
		"crlf/ @bob\r",
		`   # an indented comment`,
		`a#b @hash`,
	}, "\n")))
	wantSkipped := []string{
		`.github/CODEOWNERS:2: pattern "!negated": negation (!) is not supported in CODEOWNERS`,
		`.github/CODEOWNERS:4: owner "not-an-owner" is neither @user, @org/team nor an email`,
	}
	if !reflect.DeepEqual(co.Skipped, wantSkipped) {
		t.Errorf("Skipped = %q", co.Skipped)
	}
	var got []string
	for _, r := range co.Rules {
		got = append(got, r.Pattern+" "+strings.Join(r.Users, ",")+" "+strings.Join(r.Teams, ","))
	}
	want := []string{"path with spaces/ space-owner ", "ok/ alice acme/platform-team", "crlf/ bob ", "a#b hash "}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rules = %q", got)
	}
	if r := co.FileOwners("x/path with spaces/y"); r == nil || r.Line != 1 {
		t.Errorf("escaped spaces: %+v", r)
	}
	if co.Rules[1].Emails != 1 {
		t.Errorf("emails = %d", co.Rules[1].Emails)
	}
}

// TestDirOwners: who owns a whole directory (a pruned project).
func TestDirOwners(t *testing.T) {
	co := ParseCodeowners("CODEOWNERS", []byte(strings.Join([]string{
		"*            @platform",    // 1
		"/apps/       @apps",        // 2
		"/apps/db/    @alice",       // 3
		"*.md         @alice @docs", // 4
		"/apps/db/secret/",          // 5
		"/apps/web/*  @bob",         // 6
	}, "\n")))
	for _, c := range []struct {
		dir   string
		lines []int
	}{
		{"apps/db", []int{3, 4, 5}},
		{"apps/cache", []int{2, 4}},
		{"apps/web", []int{2, 4, 6}}, // /apps/web/* owns only its files
		{".", []int{1, 2, 3, 4, 5, 6}},
		{"apps/db/secret", []int{5}},
		{"other", []int{1, 4}},
	} {
		var got []int
		for _, r := range co.dirOwners(c.dir) {
			got = append(got, r.Line)
		}
		if !reflect.DeepEqual(got, c.lines) {
			t.Errorf("%s: rules %v, want %v", c.dir, got, c.lines)
		}
	}
	if got := ParseCodeowners("CODEOWNERS", []byte("/apps/db/* @alice\n")).dirOwners("apps/db"); got != nil {
		t.Errorf("a directory only its files are owned of: %v", got)
	}
}
