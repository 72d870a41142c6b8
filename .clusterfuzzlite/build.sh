#!/bin/bash -eu
# ClusterFuzzLite's entry point: the real build script lives with the targets.
exec "$SRC/utf8guard/fuzz/build.sh"
