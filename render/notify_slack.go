package render

import (
	"strings"

	"github.com/kubeplan/kubeplan/notify"
)

// slackPayload is a Slack incoming webhook's message: "text" (the
// notification line, for clients without blocks) and Block Kit "blocks".
// Slack's limits hold: a header's text up to 150 characters, a section's
// up to 3000.
func slackPayload(e notify.Event) ([]byte, error) {
	icon := byKind(e, ":x:", ":white_check_mark:")
	type text struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type block struct {
		Type     string `json:"type"`
		Text     *text  `json:"text,omitempty"`
		Fields   []text `json:"fields,omitempty"`
		Elements []text `json:"elements,omitempty"`
	}
	blocks := []block{{Type: "header", Text: &text{"plain_text", truncate(notifyTitle(e), 150)}}}
	var fields []text
	for _, f := range notifyFacts(e) {
		fields = append(fields, text{"mrkdwn", "*" + f[0] + "*\n" + slackEscape(f[1])})
	}
	for len(fields) > 0 { // at most 10 fields per section
		k := min(len(fields), 10)
		blocks = append(blocks, block{Type: "section", Fields: fields[:k]})
		fields = fields[k:]
	}
	if len(e.Failures) > 0 {
		msg := strings.ReplaceAll(failuresText(e.Failures), "```", "'''")
		blocks = append(blocks, block{Type: "section", Text: &text{"mrkdwn", "*Failed workloads*\n```" + truncate(slackEscape(msg), 2800) + "```"}})
	}
	if e.Error != "" {
		msg := strings.ReplaceAll(e.Error, "```", "'''")
		blocks = append(blocks, block{Type: "section", Text: &text{"mrkdwn", "```" + truncate(slackEscape(msg), 2900) + "```"}})
	}
	return marshalCompact(struct {
		Text   string  `json:"text"`
		Blocks []block `json:"blocks"`
	}{icon + " " + slackEscape(e.Summary), blocks})
}

// slackEscape escapes the three characters Slack's mrkdwn gives meaning to.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
