package guard

import (
	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
)

// reads notes which fields of change the rules read: change.before and
// change.after, change.paths. A rule that uses change as a whole (passes
// it to a function) may read anything.
func (s *Set) reads(ast *cel.Ast) {
	nav := celast.NavigateAST(ast.NativeRep())
	for _, id := range celast.MatchDescendants(nav, celast.KindMatcher(celast.IdentKind)) {
		if id.AsIdent() != changeVar {
			continue
		}
		parent, ok := id.Parent()
		if !ok || parent.Kind() != celast.SelectKind {
			s.needsObjects, s.needsPaths = true, true
			continue
		}
		switch parent.AsSelect().FieldName() {
		case "before", "after":
			s.needsObjects = true
		case "paths":
			s.needsPaths = true
		}
	}
}

// NeedsObjects says whether a rule reads change.before or change.after:
// when no rule does, the caller need not build them.
func (s *Set) NeedsObjects() bool { _ = s.ready(); return s.needsObjects }

// NeedsPaths says whether a rule reads change.paths.
func (s *Set) NeedsPaths() bool { _ = s.ready(); return s.needsPaths }

// Approvals are the GitHub approvals that count for this set's rules
// (Config.Approvals).
func (s *Set) Approvals() Approvals { return s.approvals }
