package eval

// Gitgate is the CI-gate suite (docs/design.md#the-ci-gate): generated base/head pairs where
// every unsigned widening must fail and every narrowing pass. The gate and
// signed amends are not built yet, so the suite runs no checks and the
// report says so plainly rather than counting anything.
func Gitgate() (*Suite, error) {
	s := newSuite("gitgate", "every unsigned warrant widening fails the CI gate; every narrowing passes; every moved or altered signed amend fails signature verification")
	s.Pending = "not yet built: lands with the signing/CI issues"
	return s, nil
}
