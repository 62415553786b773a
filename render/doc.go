// Package render turns plain data (lint reports, plans) into text for people
// and tools: text, json, sarif, junit, github and markdown. Renderers never
// compute anything: they only format what they are given, sorting a copy of
// it where an order is promised, and the same input always gives the same
// bytes. One file per format, each with its own test over fixed data.
package render
