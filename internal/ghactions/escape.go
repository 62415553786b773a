package ghactions

import "strings"

var (
	dataEscaper = strings.NewReplacer(
		"%", "%25",
		"\r", "%0D",
		"\n", "%0A",
	)
	propertyEscaper = strings.NewReplacer(
		"%", "%25",
		"\r", "%0D",
		"\n", "%0A",
		":", "%3A",
		",", "%2C",
	)
)

// EscapeData escapes a workflow command's message: "%" -> "%25",
// "\r" -> "%0D", "\n" -> "%0A".
func EscapeData(s string) string { return dataEscaper.Replace(s) }

// EscapeProperty escapes a workflow command's property value: everything
// EscapeData escapes, plus ":" -> "%3A" and "," -> "%2C".
func EscapeProperty(s string) string { return propertyEscaper.Replace(s) }
