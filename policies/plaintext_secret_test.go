package policies

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

func TestPlaintextSecret(t *testing.T) {
	runRule(t, "plaintext-secret", []ruleCase{
		{name: "data", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: aHVudGVyMg==}\n",
			want: []want{{[]string{"data"}, "stored in git in plain text (base64 is not encryption)"}}},
		{name: "stringData", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {password: hunter2}\n",
			want: []want{{[]string{"stringData"}, "SOPS, or use a SealedSecret or an ExternalSecret"}}},
		{name: "empty data, stringData set", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {}\nstringData: {a: b}\n",
			want: []want{{[]string{"stringData"}, "plain text"}}},
		{name: "empty", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/service-account-token\n"},
		{name: "only empty values", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {csrf: \"\"}\n"},
		{name: "every value empty or null", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {csrf: \"\", key: null}\nstringData: {token: ''}\n"},
		{name: "one empty, one set", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {csrf: \"\", password: aHVudGVyMg==}\n",
			want: []want{{[]string{"data"}, "plain text"}}},
		{name: "stringData empty, data set", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: Yg==}\nstringData: {b: \"\"}\n",
			want: []want{{[]string{"data"}, "plain text"}}},
		{name: "empty maps", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {}\nstringData: {}\n"},
		{name: "sops", yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: 'ENC[AES256_GCM,data:abc]'}\nsops: {version: 3.9.0}\n"},
		{name: "sealedsecret", yaml: "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata: {name: s}\nspec: {encryptedData: {password: AgB}}\n"},
		{name: "externalsecret", yaml: "apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata: {name: s}\ndata: [{secretKey: password}]\n"},
		{name: "secret kind in another group", yaml: "apiVersion: example.com/v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: b}\n"},
	})
}

func TestPlaintextSecretHidesValues(t *testing.T) {
	objs := parse(t, "s.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: aHVudGVyMg==}\nstringData: {token: hunter2}\n")
	for _, v := range plaintextSecret.Check(objs, Options{}) {
		for _, secret := range []string{"aHVudGVyMg", "hunter2", "password", "token"} {
			if strings.Contains(v.Message, secret) {
				t.Errorf("message %q reveals %q", v.Message, secret)
			}
		}
	}
}

// Values a chart generated or derived from a looked-up Secret (Kept) are
// not in git: only the entries that remain are flagged, at the first.
func TestPlaintextSecretKept(t *testing.T) {
	src := "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: aHVudGVyMg==, token: dG9r, user: YXBw}\nstringData: {extra: x}\n"
	for _, tc := range []struct {
		name string
		kept []manifest.KeptField
		want []string
	}{
		{"none kept", nil, []string{"data"}},
		{"one generated", []manifest.KeptField{{Path: []string{"data", "password"}, Reason: manifest.KeptGenerated}}, []string{"data", "token"}},
		{"two kept", []manifest.KeptField{{Path: []string{"data", "password"}, Reason: manifest.KeptGenerated},
			{Path: []string{"data", "token"}, Reason: manifest.KeptLookedUp}}, []string{"data", "user"}},
		{"data kept as a whole", []manifest.KeptField{{Path: []string{"data"}, Reason: manifest.KeptLookedUp}}, []string{"stringData"}},
		{"everything kept", []manifest.KeptField{{Path: []string{"data"}, Reason: manifest.KeptGenerated},
			{Path: []string{"stringData", "extra"}, Reason: manifest.KeptGenerated}}, nil},
	} {
		objs := parse(t, "s.yaml", src)
		objs[0].Kept = tc.kept
		got := plaintextSecret.Check(objs, Options{})
		switch {
		case tc.want == nil && len(got) != 0:
			t.Errorf("%s: %s", tc.name, dump(got))
		case tc.want != nil && (len(got) != 1 || !slices.Equal(got[0].Path, tc.want) || !objs[0].Has(got[0].Path...)):
			t.Errorf("%s: got %s want %q", tc.name, dump(got), tc.want)
		}
		for _, v := range got {
			for _, secret := range []string{"aHVudGVyMg", "hunter2", "password", "token", "user"} {
				if strings.Contains(v.Message, secret) {
					t.Errorf("message %q reveals %q", v.Message, secret)
				}
			}
		}
	}
}

// Charts rendered as lint renders them (lookup returns nothing): the
// database chart's generated passwords and the webhook chart's generated
// certificates are not flagged; a password set in a values file is, at
// that entry.
func TestPlaintextSecretCharts(t *testing.T) {
	for _, tc := range []struct {
		chart  string
		values []string
		want   []string
	}{
		{"../testdata/charts/database", nil, nil},
		{"../testdata/charts/webhook", nil, nil},
		{"../testdata/charts/database", []string{"../testdata/charts/database/values-literal.yaml"}, []string{"data", "password"}},
	} {
		res, err := loader.Load([]string{tc.chart}, loader.Options{Helm: helm.Options{ValuesFiles: tc.values}})
		if err != nil {
			t.Fatal(err)
		}
		var got []Violation
		for _, o := range res.Objects {
			got = append(got, plaintextSecret.Check([]*manifest.Object{o}, Options{})...)
		}
		switch {
		case tc.want == nil && len(got) != 0:
			t.Errorf("%s %v: %s", tc.chart, tc.values, dump(got))
		case tc.want != nil && (len(got) != 1 || !slices.Equal(got[0].Path, tc.want)):
			t.Errorf("%s %v: got %s want %q", tc.chart, tc.values, dump(got), tc.want)
		}
	}
}
