// Package filetree writes small trees of files for tests.
//
// It owns nothing but writing the files a test names under a directory the
// test made; it never reads, removes or touches anything else.
package filetree
