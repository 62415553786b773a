package serve

import "time"

// SetSyncPoll sets how often serve looks for sync requests, for a test;
// it returns the setting to restore.
func SetSyncPoll(d time.Duration) (restore func()) {
	old := syncPollEvery
	syncPollEvery = d
	return func() { syncPollEvery = old }
}
