package helm

// The names the external tests (package helm_test) reach inside the
// package; they exist in test builds only, so the package's API stays what
// other packages use.
var (
	DeepCopyJSON    = deepCopyJSON
	HasErrorProblem = hasErrorProblem
	HelmRenders     = &helmRenders
	LoadChart       = loadChart
	MentionsGen     = mentionsGenerating
	NewGenSource    = newGenSource
	RenderBounded   = renderBounded
	ReuseFirst      = &reuseFirstRender
	WithheldText    = withheldText
)

const (
	GenLive            = genLive
	GenReplay          = genReplay
	GenVary            = genVary
	GenVaryOffset      = genVaryOffset
	LastApplied        = lastApplied
	MaxHelmOutputBytes = maxHelmOutputBytes
)

// GenCall is genCall, for the tapes the tests hand to NewGenSource.
type GenCall = genCall
