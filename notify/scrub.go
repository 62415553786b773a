package notify

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/sops"
)

// scrubber replaces what re matches with with.
type scrubber struct {
	re   *regexp.Regexp
	with string
}

// scrubbers replace credentials an error text may hold (a kubeconfig's
// token, a git URL's password, a request's Authorization header) with ***.
// They are compiled on the first Scrub, not when the program starts.
var scrubbers = sync.OnceValue(func() []scrubber {
	return []scrubber{
		{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`), "***"},
		{regexp.MustCompile(`(?i)\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)((?:bearer|basic|token)\s+)?[^\s"',;]+`), "${1}${2}${3}***"},
		{regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9\-._~+/]{8,}=*`), "${1} ***"},
		{regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.\-]*://)([^/\s:@]*):([^/\s@]+)@`), "${1}${2}:***@"},
		{regexp.MustCompile(`(?i)\b([a-z0-9_\-]*(?:password|passwd|token|secret|api[_\-]?key|access[_\-]?key|key-data|credentials?)[a-z0-9_\-]*)(["']?\s*[:=]\s*["']?)([^\s"'&,;}*][^\s"'&,;}]*)`), "${1}${2}***"},
		{regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`), "***"},
		{regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*`), "***"},
		{regexp.MustCompile(`\bhttps://hooks\.slack\.com/\S+`), "***"},
	}
})

// Scrub returns s with the credentials it may hold, and every value
// decrypted from SOPS (sops.Scrub), replaced by ***.
func Scrub(s string) string {
	s = sops.Scrub(s)
	for _, sc := range scrubbers() {
		s = sc.re.ReplaceAllString(s, sc.with)
	}
	return s
}

// scrub is Scrub that also removes the notifier's own secrets (its GitHub
// token and webhook URL), wherever they appear.
func (n *Notifier) scrub(s string) string {
	secrets := slices.Clone(n.secrets)
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "***")
		}
	}
	return Scrub(s)
}

// errorText is the scrubbed text of a run's error, at most maxError characters.
func (n *Notifier) errorText(err error) string {
	if err == nil {
		return ""
	}
	return truncate(n.scrub(err.Error()), maxError)
}

const maxError = 2000

func truncate(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}
