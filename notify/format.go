package notify

import (
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
		return func(e Event) ([]byte, error) { return json.Marshal(e) }, nil
	case "slack":
		return slackPayload, nil
	case "teams":
		return teamsPayload, nil
	}
	return nil, fmt.Errorf("--notify-format %q: want one of %s", name, strings.Join(Formats, ", "))
}
