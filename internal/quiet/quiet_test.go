package quiet

import (
	"bytes"
	"io"
	"log"
	"os"
	"testing"

	"k8s.io/klog/v2"
)

// After Logs, neither the standard logger nor klog writes anything.
func TestLogs(t *testing.T) {
	defer log.SetOutput(log.Writer())
	var b bytes.Buffer
	log.SetOutput(&b)
	klog.LogToStderr(false)
	klog.SetOutput(&b)
	Logs()
	log.Print("standard logger canary")
	klog.Info("klog canary")
	klog.Flush()
	if b.Len() != 0 {
		t.Errorf("logged: %q", b.String())
	}
	if log.Writer() != io.Discard {
		t.Error("the standard logger does not discard")
	}
}

// After Stderr, what a library writes to os.Stderr does not reach the
// real stderr, and what kubeplan writes to the returned file does.
func TestStderr(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	saved := os.Stderr
	defer func() { os.Stderr = saved }()
	os.Stderr = w
	real := Stderr()
	if real != w || os.Stderr == w {
		t.Fatalf("Stderr() = %v, os.Stderr %v", real, os.Stderr)
	}
	_, _ = os.Stderr.WriteString("library canary\n")
	_, _ = real.WriteString("kubeplan: own line\n")
	_ = w.Close()
	got, _ := io.ReadAll(r)
	if string(got) != "kubeplan: own line\n" {
		t.Errorf("stderr got %q", got)
	}
}
