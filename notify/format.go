package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// format turns an Event into a webhook's request body.
type format func(Event) ([]byte, error)

// Formats are the values of --notify-format.
var Formats = []string{"json", "slack", "teams"}

func formatNamed(name string) (format, error) {
	switch name {
	case "", "json":
		return func(e Event) ([]byte, error) { return marshal(e) }, nil
	case "slack":
		return slackPayload, nil
	case "teams":
		return teamsPayload, nil
	}
	return nil, fmt.Errorf("--notify-format %q: want one of %s", name, strings.Join(Formats, ", "))
}

// marshal is json.Marshal without escaping <, > and & (the payloads are not HTML).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
