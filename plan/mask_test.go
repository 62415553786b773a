package plan

import (
	"reflect"
	"strings"
	"testing"
)

// plannedSecret is liveSecret as the dry-run of a changed manifest returns
// it: password changed, token removed, newkey added, the rest unchanged.
func plannedSecret(t testing.TB) map[string]any {
	return editFixture(t, liveSecret, func(m map[string]any) {
		data := at(m, "data")
		data["password"] = "b3BlbnNlc2FtZQ==" // "opensesame"
		delete(data, "token")
		data["newkey"] = "bmV3LXRva2Vu"
		at(m, "metadata", "annotations")[lastAppliedAnnotation] = `{"apiVersion":"v1","data":{"password":"b3BlbnNlc2FtZQ==","user":"dXNlcg=="},"kind":"Secret","metadata":{"annotations":{},"name":"db","namespace":"shop"},"stringData":{"extra":"opensesame"},"type":"Opaque"}` + "\n"
	})
}

func TestMaskSecret(t *testing.T) {
	live, planned := decodeFixture(t, liveSecret), plannedSecret(t)
	liveCopy, plannedCopy := decodeFixture(t, liveSecret), plannedSecret(t)
	b, a := MaskSecret(live, planned)

	if !reflect.DeepEqual(live, liveCopy) || !reflect.DeepEqual(planned, plannedCopy) {
		t.Fatal("MaskSecret changed its arguments")
	}
	wantB := map[string]any{"password": MaskedBefore, "user": Masked, "extra": Masked, "token": Masked, "stay": Masked}
	wantA := map[string]any{"password": MaskedAfter, "user": Masked, "extra": Masked, "newkey": Masked, "stay": Masked}
	if got := at(b, "data"); !reflect.DeepEqual(got, wantB) {
		t.Errorf("before data = %v, want %v", got, wantB)
	}
	if got := at(a, "data"); !reflect.DeepEqual(got, wantA) {
		t.Errorf("after data = %v, want %v", got, wantA)
	}
	wantAnnB := `{"apiVersion":"v1","data":{"password":"*** (before)","user":"***"},"kind":"Secret","metadata":{"annotations":{},"name":"db","namespace":"shop"},"stringData":{"extra":"*** (before)"},"type":"Opaque"}` + "\n"
	wantAnnA := `{"apiVersion":"v1","data":{"password":"*** (after)","user":"***"},"kind":"Secret","metadata":{"annotations":{},"name":"db","namespace":"shop"},"stringData":{"extra":"*** (after)"},"type":"Opaque"}` + "\n"
	if got := at(b, "metadata", "annotations")[lastAppliedAnnotation]; got != wantAnnB {
		t.Errorf("before annotation = %s, want %s", got, wantAnnB)
	}
	if got := at(a, "metadata", "annotations")[lastAppliedAnnotation]; got != wantAnnA {
		t.Errorf("after annotation = %s, want %s", got, wantAnnA)
	}
	if b["type"] != "Opaque" || at(b, "metadata")["name"] != "db" {
		t.Error("fields other than values changed")
	}
	noSecrets(t, jsonText(t, b), jsonText(t, a))
}

func TestMaskSecretCases(t *testing.T) {
	secret := func(rest string) string {
		return `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"` + rest + `}`
	}
	tests := []struct {
		name                  string
		before, after         string // "" for nil
		wantBefore, wantAfter string
	}{
		{"create", "", secret(`},"stringData":{"pw":"hunter2"},"data":{"k":"czNjcjN0"}`),
			"", secret(`},"stringData":{"pw":"***"},"data":{"k":"***"}`)},
		{"prune", secret(`},"data":{"k":"czNjcjN0"}`), "",
			secret(`},"data":{"k":"***"}`), ""},
		{"unchanged", secret(`},"data":{"k":"czNjcjN0"}`), secret(`},"data":{"k":"czNjcjN0"}`),
			secret(`},"data":{"k":"***"}`), secret(`},"data":{"k":"***"}`)},
		{"data gone", secret(`},"data":{"k":"czNjcjN0"}`), secret(`}`),
			secret(`},"data":{"k":"***"}`), secret(`}`)},
		{"data not an object", secret(`},"data":"czNjcjN0"`), secret(`},"data":["hunter2"]`),
			secret(`},"data":"***"`), secret(`},"data":"***"`)},
		{"null data", secret(`},"data":null`), secret(`},"data":{"k":null}`),
			secret(`},"data":null`), secret(`},"data":{"k":"***"}`)},
		{"annotation not JSON",
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":{\"k\":\"hunter2\"}"}}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"hunter2"}}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"***"}}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"***"}}`)},
		{"annotation not an object or not a string",
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"[\"hunter2\"]"}}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":7}}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"***"}}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"***"}}`)},
		{"annotation with trailing data",
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{} {\"data\":{\"k\":\"hunter2\"}}"}}`), "",
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"***"}}`), ""},
		{"annotation on one side only, other fields kept",
			secret(`}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":{\"k\":\"czNjcjN0\"},\"n\":8080,\"x\":\"<&>\"}"}}`),
			secret(`}`),
			secret(`,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":{\"k\":\"***\"},\"n\":8080,\"x\":\"<&>\"}"}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after map[string]any
			if tt.before != "" {
				before = decodeFixture(t, tt.before)
			}
			if tt.after != "" {
				after = decodeFixture(t, tt.after)
			}
			b, a := MaskSecret(before, after)
			check := func(side string, got map[string]any, want string) {
				if want == "" {
					if got != nil {
						t.Errorf("%s = %v, want nil", side, got)
					}
					return
				}
				if w := canonMap(decodeFixture(t, want)); !reflect.DeepEqual(got, w) {
					t.Errorf("%s = %s, want %s", side, jsonText(t, got), jsonText(t, w))
				}
			}
			check("before", b, tt.wantBefore)
			check("after", a, tt.wantAfter)
			noSecrets(t, jsonText(t, b), jsonText(t, a))
		})
	}
}

func TestMaskSecretOtherKinds(t *testing.T) {
	for _, s := range []string{
		liveConfigMap,
		`{"apiVersion":"example.com/v1","kind":"Secret","data":{"k":"v"}}`, // not a core Secret
	} {
		before, after := decodeFixture(t, s), decodeFixture(t, s)
		b, a := MaskSecret(before, after)
		if !reflect.DeepEqual(b, decodeFixture(t, s)) || !reflect.DeepEqual(a, decodeFixture(t, s)) {
			t.Errorf("%s changed", s)
		}
		b["x"] = 1 // the very same maps come back
		if before["x"] != 1 {
			t.Errorf("MaskSecret copied a %v", before["kind"])
		}
	}
	if b, a := MaskSecret(nil, nil); b != nil || a != nil {
		t.Error("MaskSecret(nil, nil) is not nil, nil")
	}
}

// noSecrets fails when an output holds any of secretValues.
func noSecrets(t *testing.T, outputs ...string) {
	t.Helper()
	for _, out := range outputs {
		for _, v := range secretValues {
			if strings.Contains(out, v) {
				t.Errorf("output holds secret value %q:\n%s", v, out)
			}
		}
	}
}
