package render

import "github.com/kubeplan/kubeplan/notify"

// teamsPayload is a message for a Microsoft Teams workflow webhook ("Post to
// a channel when a webhook request is received"): an Adaptive Card 1.4 in
// a message attachment, the form Teams workflows and Power Automate accept
// (the retired Office 365 connectors' MessageCard is not used).
func teamsPayload(e notify.Event) ([]byte, error) {
	color := byKind(e, "Attention", "Good")
	type fact struct {
		Title string `json:"title"`
		Value string `json:"value"`
	}
	var facts []fact
	for _, f := range notifyFacts(e) {
		facts = append(facts, fact{f[0], f[1]})
	}
	body := []map[string]any{
		{"type": "TextBlock", "size": "Large", "weight": "Bolder", "color": color, "wrap": true, "text": notifyTitle(e)},
		{"type": "TextBlock", "wrap": true, "text": e.Summary},
		{"type": "FactSet", "facts": facts},
	}
	if len(e.Failures) > 0 {
		body = append(body, map[string]any{"type": "TextBlock", "wrap": true, "weight": "Bolder", "text": "Failed workloads"},
			map[string]any{"type": "TextBlock", "wrap": true, "fontType": "Monospace", "text": failuresText(e.Failures)})
	}
	if e.Error != "" {
		body = append(body, map[string]any{"type": "TextBlock", "wrap": true, "fontType": "Monospace", "text": e.Error})
	}
	card := map[string]any{
		"$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
		"type":    "AdaptiveCard",
		"version": "1.4",
		"msteams": map[string]any{"width": "Full"},
		"body":    body,
	}
	return marshalCompact(map[string]any{
		"type": "message",
		"attachments": []map[string]any{{
			"contentType": "application/vnd.microsoft.card.adaptive",
			"contentUrl":  nil,
			"content":     card,
		}},
	})
}
