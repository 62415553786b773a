package ghactions

import "testing"

func TestEscapeData(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"plain text: a, b":     "plain text: a, b",
		"100%":                 "100%25",
		"%0A stays literal":    "%250A stays literal",
		"one\ntwo\r\nthree":    "one%0Atwo%0D%0Athree",
		"::error::not a cmd\n": "::error::not a cmd%0A",
	} {
		if got := EscapeData(in); got != want {
			t.Errorf("EscapeData(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeProperty(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"apps/web.yaml":       "apps/web.yaml",
		"a:b,c":               "a%3Ab%2Cc",
		"50%,\n":              "50%25%2C%0A",
		"C:\\dir\\f.yaml":     "C%3A\\dir\\f.yaml",
		"%3A must not decode": "%253A must not decode",
	} {
		if got := EscapeProperty(in); got != want {
			t.Errorf("EscapeProperty(%q) = %q, want %q", in, got, want)
		}
	}
}
