package ghactions

import (
	"strings"
	"testing"
)

func TestCommandString(t *testing.T) {
	tests := []struct {
		name string
		cmd  Command
		want string
	}{
		{"no properties", Command{Name: "notice", Message: "hi"}, "::notice::hi"},
		{"empty values dropped", Command{Name: "x", Properties: []Property{{"a", ""}, {"b", "1"}, {"c", ""}}, Message: "m"}, "::x b=1::m"},
		{"all empty", Command{Name: "x", Properties: []Property{{"a", ""}}, Message: "m"}, "::x::m"},
		{"order kept, escaped", Command{Name: "x", Properties: []Property{{"z", "a,b"}, {"a", "c:d"}}, Message: "50%\nx"}, "::x z=a%2Cb,a=c%3Ad::50%25%0Ax"},
	}
	for _, tt := range tests {
		if got := tt.cmd.String(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestAnnotation(t *testing.T) {
	tests := []struct {
		a    Annotation
		want string
	}{
		{
			Annotation{Level: LevelError, File: "apps/web.yaml", Line: 3, Col: 5, EndLine: 3, EndColumn: 9, Title: "schema", Message: "bad"},
			"::error file=apps/web.yaml,line=3,col=5,endLine=3,endColumn=9,title=schema::bad",
		},
		{
			Annotation{Level: LevelWarning, File: "a,b:c.yaml", Line: 1, Title: "t", Message: "x, y: z"},
			"::warning file=a%2Cb%3Ac.yaml,line=1,title=t::x, y: z",
		},
		{
			// No position: a file-level annotation.
			Annotation{Level: LevelNotice, File: "f.yaml", Message: "line1\nline2"},
			"::notice file=f.yaml::line1%0Aline2",
		},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}

func TestWriteToAndAddMask(t *testing.T) {
	var b strings.Builder
	n, err := AddMask("s3cr%t\nline").WriteTo(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := "::add-mask::s3cr%25t%0Aline\n"
	if b.String() != want || n != int64(len(want)) {
		t.Errorf("got %q (%d bytes), want %q", b.String(), n, want)
	}
}
