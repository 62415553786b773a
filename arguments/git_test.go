package arguments

import "testing"

func TestSourcePassword(t *testing.T) {
	for in, want := range map[string]string{
		"https://bot:p4ss-w0rd@git.example.com/shop.git": "p4ss-w0rd",
		"https://bot@git.example.com/shop.git":           "",
		"/srv/git/shop.git":                              "",
		"":                                               "",
	} {
		if got := (&Git{Source: in}).Password(); got != want {
			t.Errorf("password of %q = %q, want %q", in, got, want)
		}
	}
}
