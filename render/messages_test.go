package render

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/source"
)

func TestMessages(t *testing.T) {
	var b strings.Builder
	Planning(&b, &source.Revision{ShortSHA: "3f2c1e0", Subject: "price\x1b[31m"})
	Planning(&b, nil)
	ApplyQuestion(&b)
	_ = PrintVersion(&b, Version{Kubeplan: "v1.2.0", Schemas: "1.37", APIFrom: "1.33", APITo: "1.37"})
	want := "planning 3f2c1e0 price\\x1b[31m\n" +
		"\nDo you want to perform these actions?\n  kubeplan will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: " +
		"kubeplan v1.2.0 (Kubernetes schemas 1.37, API index 1.33 to 1.37)\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}
