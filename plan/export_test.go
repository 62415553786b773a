package plan

// SetProofs turns the dry-run-free "already applied" proof on or off, so
// tests can compare plans made with and without it.
func SetProofs(on bool) { proofsOff = !on }

// SetLookupItems lowers the most objects a list lookup returns, and
// returns the function that restores it.
func SetLookupItems(n int64) func() {
	old := lookupItems
	lookupItems = n
	return func() { lookupItems = old }
}
