package policies

import (
	"strings"
	"testing"
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
