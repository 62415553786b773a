// Package cachedir finds kubeplan's cache directory: KUBEPLAN_CACHE_DIR,
// else the user's cache directory, else (no HOME, as in some CI jobs) a
// directory private to this user under the system temp directory, refused
// when someone else made it or may write to it.
//
// It only says where: what goes below it is its callers' (internal/kubeapi
// unpacks its schemas there, source keeps its clones there). It never
// removes anything.
package cachedir
