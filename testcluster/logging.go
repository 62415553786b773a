package main

import (
	"flag"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"google.golang.org/grpc/grpclog"
	"k8s.io/klog/v2"
)

const logFileName = "testcluster.log"

// setupLogging sends the logs of every in-process component (klog, the standard
// logger, gRPC) to DIR/testcluster.log, so stderr stays quiet. With verbose, they
// go to stderr as well. etcd logs separately to DIR/etcd.log (see etcd.go).
func setupLogging(dir string, verbosity int, verbose bool) (io.Closer, error) {
	f, err := os.OpenFile(filepath.Join(dir, logFileName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	settings := map[string]string{
		"logtostderr":     "false",
		"alsologtostderr": strconv.FormatBool(verbose),
		"stderrthreshold": "FATAL",
		"one_output":      "true",
		"v":               strconv.Itoa(verbosity),
	}
	for name, value := range settings {
		if err := fs.Set(name, value); err != nil {
			f.Close()
			return nil, err
		}
	}
	klog.SetOutput(f)

	var w io.Writer = f
	if verbose {
		w = io.MultiWriter(f, os.Stderr)
	}
	log.SetOutput(w)
	grpclog.SetLoggerV2(grpclog.NewLoggerV2(io.Discard, w, w))
	return f, nil
}
