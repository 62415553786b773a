package plan

// SetProofs turns the dry-run-free "already applied" proof on or off, so
// tests can compare plans made with and without it.
func SetProofs(on bool) { proofsOff = !on }
