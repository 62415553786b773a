package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// waveAnnotation is Argo CD's sync-wave annotation, which -mode waves
// spreads the corpus over.
const waveAnnotation = "argocd.argoproj.io/sync-wave"

// writeWaved copies the corpus in src to dst with every object of app i
// (its ConfigMaps, Deployment and Service: one file) annotated with
// wave i mod waves, so every wave holds the same mix of kinds. The
// generated objects have no annotations of their own, so the block is
// added after each top-level "metadata:" line.
func writeWaved(src, dst string, waves int) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for i, e := range entries {
		body, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		w := appWave(i, waves)
		block := fmt.Sprintf("\nmetadata:\n  annotations:\n    %s: \"%d\"\n", waveAnnotation, w)
		out := strings.ReplaceAll(string(body), "\nmetadata:\n", block)
		if strings.Count(out, waveAnnotation) != strings.Count(string(body), "\nkind: ") {
			return fmt.Errorf("%s: not every object got a wave", e.Name())
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), []byte(out), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// appWave is the wave of the i-th app (file) of a corpus spread over waves.
func appWave(i, waves int) int { return i % waves }

// waveOf maps "resource/name" of every object of a corpus of s spread
// over waves to its wave: an app's ConfigMaps are named APP-config-NN.
func waveOf(s spec, waves int) map[string]int {
	out := map[string]int{}
	for i := 0; i < s.Deployments; i++ {
		app, w := appName(i), appWave(i, waves)
		out["deployments/"+app] = w
		if i < s.Services {
			out["services/"+app] = w
		}
		cms := s.ConfigMaps / s.Deployments
		if i < s.ConfigMaps%s.Deployments {
			cms++
		}
		for j := 0; j < cms; j++ {
			out[fmt.Sprintf("configmaps/%s-config-%02d", app, j)] = w
		}
	}
	return out
}
