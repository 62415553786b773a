// Package term answers one question for every command that prints: may it
// use colour on this writer? (A terminal, and NO_COLOR unset.)
//
// It never prints and never chooses a colour: the views in render do.
package term
