package notify

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenRun is the run behind the golden payloads.
func goldenRun(err error) Run {
	r := run(0, "0123456789abcdef0123456789abcdef01234567", err)
	r.Scheduled = true
	r.Drift = true
	return r
}

// TestPayloadGolden fixes the bytes each format sends, for a failure (with
// a token in its error, scrubbed) and a recovery.
func TestPayloadGolden(t *testing.T) {
	failErr := errors.New(`deployment.apps/web: apply: Patch "https://10.0.0.1:6443/apis/apps/v1/namespaces/store/deployments/web": Authorization: Bearer s3cr3tT0k3nValue99 refused <&>
second line`)
	for _, format := range Formats {
		n := newNotifier(t, Config{Format: format, Webhook: "https://hooks.example/T000/B000/XXXX"})
		failing := n.event(KindFailing, goldenRun(failErr), goldenRun(nil).End)
		recovered := n.event(KindRecovered, run(9, "fedcba9876543210fedcba9876543210fedcba98", nil), goldenRun(nil).End)
		for name, e := range map[string]Event{"failing": failing, "recovered": recovered} {
			t.Run(format+"-"+name, func(t *testing.T) {
				body, err := n.format(e)
				if err != nil {
					t.Fatal(err)
				}
				if !json.Valid(body) {
					t.Fatalf("not JSON: %s", body)
				}
				var pretty bytes.Buffer
				if err := json.Indent(&pretty, body, "", "  "); err != nil {
					t.Fatal(err)
				}
				pretty.WriteByte('\n')
				golden := filepath.Join("testdata", format+"-"+name+".golden.json")
				if *update {
					if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./notify -update)", err)
				}
				if !bytes.Equal(pretty.Bytes(), want) {
					t.Errorf("%s payload differs from %s:\n%s", format, golden, pretty.Bytes())
				}
				if bytes.Contains(body, []byte("s3cr3tT0k3nValue99")) {
					t.Errorf("the token is in the payload: %s", body)
				}
			})
		}
	}
}

// The Slack payload stays within Slack's limits for a long error.
func TestSlackLimits(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 10000)
	n := newNotifier(t, Config{Format: "slack"})
	body, err := n.format(n.event(KindFailing, run(0, "abc", errors.New(string(long))), t0))
	if err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Text   string
		Blocks []struct {
			Type string
			Text *struct{ Text string }
		}
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatal(err)
	}
	for _, b := range msg.Blocks {
		if b.Text == nil {
			continue
		}
		if n := len([]rune(b.Text.Text)); b.Type == "section" && n > 3000 || b.Type == "header" && n > 150 {
			t.Errorf("%s block of %d characters", b.Type, n)
		}
	}
}

// TestDriftIssueGolden fixes the drift issue's text.
func TestDriftIssueGolden(t *testing.T) {
	n := newNotifier(t, Config{})
	body := []byte(n.driftBody(goldenRun(errors.New("deployment.apps/web: apply: conflict with \"kubectl-edit\" on spec.replicas\n```injected fence```")), goldenRun(nil).End))
	golden := filepath.Join("testdata", "drift-issue.golden.md")
	if *update {
		if err := os.WriteFile(golden, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./notify -update)", err)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("drift issue body differs from %s:\n%s", golden, body)
	}
}
