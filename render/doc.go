// Package render turns plain data (lint reports, later plans) into text for
// people and tools: text, json, sarif, junit and github. Renderers never
// compute anything: they do not decide what is wrong, filter, or sort; they
// only format what they are given, and the same input always gives the same
// bytes. One file per format, each with its own test over fixed data.
package render
