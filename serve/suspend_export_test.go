package serve

import "time"

// SetSyncPoll sets how often serve looks for sync requests, for a test;
// it returns the setting to restore.
func SetSyncPoll(d time.Duration) (restore func()) {
	old := syncPollEvery
	syncPollEvery = d
	return func() { syncPollEvery = old }
}

// SetParentListHook sets what is told of each LIST of parents the sync
// poll makes (the namespace; "" for all namespaces); it returns the hook to
// restore.
func SetParentListHook(f func(cluster, namespace string)) (restore func()) {
	old := listedHook
	listedHook = f
	return func() { listedHook = old }
}
