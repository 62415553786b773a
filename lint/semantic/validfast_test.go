package semantic

import (
	"math/rand"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

// The fast validators agree with apimachinery's on every string: typical
// valid ones, edge cases and many random ones.
func TestValidFastAgrees(t *testing.T) {
	cases := []string{"", "a", "web", "web-1", "-web", "web-", "Web", "a.b", "a..b", ".a", "a.", "app.kubernetes.io/name",
		"example.com/owner", "/name", "example.com/", "a/b/c", "Frontend_App", "v1.2.3", "_a", "a_", "a_b", "x.y-z_w",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 126) + "a", strings.Repeat("a", 254), "é", "a b", "a\nb"}
	const alphabet = "abcXYZ09-_./ é"
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		n := r.Intn(12)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		for _, f := range []struct {
			name       string
			fast, want func(string) []string
		}{
			{"DNS1123Label", DNS1123Label, validation.IsDNS1123Label},
			{"DNS1123Subdomain", DNS1123Subdomain, validation.IsDNS1123Subdomain},
			{"LabelValue", LabelValue, validation.IsValidLabelValue},
			{"QualifiedName", QualifiedName, validation.IsQualifiedName},
		} {
			if got, want := len(f.fast(s)) == 0, len(f.want(s)) == 0; got != want {
				t.Errorf("%s(%q): fast says valid=%v, apimachinery %v", f.name, s, got, want)
			}
		}
	}
}
